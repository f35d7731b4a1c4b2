"""Duplicate matches on the batched engine: :func:`training.evaluation.duplicate_match`'s
deals, lineups and statistics, played by :mod:`envs.batched` tables.

The deals are the scalar evaluation's, card for card: deal ``d`` of seed ``s`` is the
deck the scalar env deals from ``reset(seed=s * 1_000_003 + d)`` (read from its state's
``initial_deck``) with the button at ``d % n``, handed to the batch as whole deck orders,
and replayed once for every lineup of :func:`training.evaluation.match_lineups`. A batch plays
``tables`` (deal, lineup) jobs at a time, each table one hand; the learner's rows go
through the network in one pass per step, the bot's batched form
(:func:`agents.batched.load_batched`) answers for its rows in one call. Deterministic
bots against a greedy network give exactly the scalar match's results on the same
deals (tested); sampled play draws other numbers, the same distribution.

Where the batched engine does not cover a match (no batched form of the table or the
bot, or a candidate-scoring network at a table with declarations or splits),
:func:`evaluate` plays it on the scalar path, so a run's evaluation is never skipped.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from agents.batched import BatchedBot, NoBatchedBotError, load_batched
from agents.nets import PolicyNet, choose
from agents.neural import Layout
from envs.batched import make as make_batch
from envs.batched.spec import NoBatchedFormError
from envs.batched.table import TableBatch
from envs.registry import make_raw
from evaluation.arena import Stat, mean_ci, per_hands
from training.evaluation import DEAL_SEED, LEARNER, MatchSummary, duplicate_match, match_lineups, one_thread

__all__ = ["BATCHED_EVAL_TABLES", "batched_match", "evaluate", "scalar_decks"]

BATCHED_EVAL_TABLES = 2048  # hands a batched evaluation plays together at least (eval.tables if more)


def scalar_decks(layout: Layout, seed: int, deals: Sequence[int]) -> np.ndarray:
    """``[len(deals), D]``: the deck the scalar evaluation deals for each deal number."""
    env = make_raw(layout.variant, layout.num_players, **layout.env_kwargs)
    decks = []
    for d in deals:
        env.reset(seed=seed * DEAL_SEED + d, options={"button": d % layout.num_players})
        assert env.state is not None
        decks.append(list(env.state.initial_deck))
    return np.array(decks, np.int64)


def batched_match(
    net: PolicyNet,
    layout: Layout,
    spec: str,
    *,
    deals: Sequence[int] | int,
    seed: int,
    greedy: bool,
    tables: int = 1024,
    device: str | torch.device = "cpu",
    lone: bool = False,
) -> MatchSummary:
    """Play ``deals`` against the batched form of the bot ``spec``; raises
    ``NoBatchedFormError`` / ``NoBatchedBotError`` where there is none (module docstring;
    ``lone``: :func:`training.evaluation.match_lineups`)."""
    with one_thread():
        return _match(net, layout, spec, deals, seed, greedy, tables, torch.device(device), lone)


def _match(
    net: PolicyNet,
    layout: Layout,
    spec: str,
    deals: Sequence[int] | int,
    seed: int,
    greedy: bool,
    tables: int,
    device: torch.device,
    lone: bool,
) -> MatchSummary:
    began = time.perf_counter()
    numbers = list(range(deals)) if isinstance(deals, int) else list(deals)
    n = layout.num_players
    jobs = [(d, lineup) for d in numbers for lineup in match_lineups(n, lone)]
    batch = _batch(layout, min(tables, len(jobs)), device)
    chunk_key = numbers[0] if numbers else 0  # as the scalar match: chunks draw independent numbers
    sampling, _, bot_seed = np.random.SeedSequence([seed, chunk_key]).spawn(3)
    generator = torch.Generator(device).manual_seed(int(sampling.generate_state(1, np.uint64)[0] >> 1))
    bot = load_batched(spec, batch, seed=int(bot_seed.generate_state(1)[0] >> 1))
    decks = dict(zip(numbers, scalar_decks(layout, seed, numbers), strict=True))
    net = _on(net, device).eval()
    totals = {d: [0.0, 0] for d in numbers}  # the learner's reward sum and seat-hands per deal
    for start in range(0, len(jobs), batch.num_tables):
        chunk = jobs[start : start + batch.num_tables]
        rewards = _play(batch, net, bot, chunk, decks, greedy, generator)
        for (d, lineup), row in zip(chunk, rewards.tolist(), strict=False):
            for seat, who in enumerate(lineup):
                if who == LEARNER:
                    totals[d][0] += row[seat]
                    totals[d][1] += 1
    per_set = np.array([s / max(c, 1) for s, c in (totals[d] for d in numbers)])
    stat = mean_ci(per_set.tolist())
    per = per_hands(make_raw(layout.variant, n, **layout.env_kwargs))
    return MatchSummary(
        stat=Stat(stat.mean * per, stat.half_width * per, stat.n),
        hands=len(jobs),
        seconds=time.perf_counter() - began,
        per_set=per_set,
    )


def _batch(layout: Layout, tables: int, device: torch.device) -> TableBatch:
    # auto-reset: a finished table is dealt a hand it never plays, so that every row keeps a legal
    # action for the batched bots (they sample over every row's mask)
    return make_batch(layout.variant, tables, layout.num_players, device, record_limit=1, **layout.env_kwargs)


def _on(net: PolicyNet, device: torch.device) -> PolicyNet:
    if net.value_mean.device == device:
        return net
    copy = PolicyNet.from_arch(net.arch())
    copy.load_state_dict(net.state_dict())
    return copy.to(device)


def _play(
    batch: TableBatch,
    net: PolicyNet,
    bot: BatchedBot,
    chunk: list[tuple[int, tuple[int, ...]]],
    decks: dict[int, np.ndarray],
    greedy: bool,
    generator: torch.Generator,
) -> torch.Tensor:
    """Play one chunk of jobs to the end; ``[len(chunk), P]`` rewards (float64)."""
    b, dev = batch.num_tables, batch.device
    padded = chunk + [chunk[-1]] * (b - len(chunk))  # spare tables replay the last job, ignored
    out = batch.reset(
        decks=np.stack([decks[d] for d, _ in padded]),
        buttons=np.array([d % batch.num_players for d, _ in padded], np.int64),
    )
    lineup = torch.tensor([list(lu) for _, lu in padded], device=dev)
    total = torch.zeros(b, batch.num_players, dtype=torch.float64, device=dev)
    live = ~out.done
    while bool(live.any()):
        who = lineup.gather(1, out.seat.clamp(min=0).unsqueeze(1)).squeeze(1)
        mine = live & (who == LEARNER)
        actions = bot.act(batch, live & ~mine)
        rows = mine.nonzero().squeeze(1)
        if len(rows):
            with torch.inference_mode():
                logits = net.logits(out.observation[rows])
                chosen, _ = choose(logits, out.action_mask[rows], greedy=greedy, generator=generator)
            actions = actions.index_copy(0, rows, chosen)
        out = batch.step(actions, active=live)
        total += out.rewards.double() * live.unsqueeze(1)
        live &= ~out.done
    return total[: len(chunk)].cpu()


def covered(net: PolicyNet, layout: Layout, spec: str) -> bool:
    """Can :func:`batched_match` play this network against ``spec`` on this table?"""
    try:
        batch = _batch(layout, 1, torch.device("cpu"))
        load_batched(spec, batch)
    except (NoBatchedFormError, NoBatchedBotError, ImportError, ValueError):
        return False
    return net.candidates is None or not (batch.spec.declare or batch.spec.split)


def evaluate(
    net: PolicyNet,
    layout: Layout,
    opponents: dict[str, Any],
    *,
    deals: int,
    seed: int,
    modes: Sequence[str],
    tables: int = 1024,
    device: str | torch.device = "cpu",
    scalar_tables: int = 64,
) -> dict[str, Stat]:
    """:func:`training.metrics.evaluate` with every match the batched engine covers
    played on it (``opponents``: spec -> the loaded scalar bot, for the others, played
    ``scalar_tables`` at a time as the scalar evaluation plays them)."""
    results: dict[str, Stat] = {}
    for spec, bot in opponents.items():
        on_batch = covered(net, layout, spec)
        for mode in modes:
            greedy = mode == "greedy"
            if on_batch:
                match = batched_match(
                    net, layout, spec, deals=deals, seed=seed, greedy=greedy, tables=tables, device=device
                )
            else:
                match = duplicate_match(net, layout, bot, deals=deals, seed=seed, greedy=greedy, tables=scalar_tables)
            results[f"{spec}/{mode}"] = match.stat
    return results
