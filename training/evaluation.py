"""Duplicate matches of a network against one bot, many tables at once.

The arena (``evaluation.run_match``) plays one hand at a time, so every learner decision
is its own forward pass; here ``tables`` hands are in play together, the learner's
decisions go through the network in one batch per tick, and the opponent decides
through ``act_batch``. The deals are the arena's: deal ``d`` of seed ``s`` is the deck
seeded ``s * 1_000_003 + d`` with the button at ``d % n``, replayed once for every
lineup of :func:`evaluation.arena.lineups` (learner and bot rotated through the seats;
at three seats one learner against two bots and two learners against one; with
``lone=True`` only the lineups where the learner holds one seat, see
:func:`match_lineups`). A result is the learner's mean per seat-hand over each
duplicate set, with the 95% interval over sets, quoted like the arena (per 100 hands,
per game in the Cowboy family).

Randomness: the learner's sampling (none when greedy), the candidate features and the
bot use generators seeded from ``seed`` and the first deal number, so a match is
reproducible for the same deals and seed, and matches split into chunks of deals
draw independent numbers per chunk (the bot
is not reseeded hand by hand as in the arena, so the numbers differ from
``run_match``'s on the same deals; the deals and lineups are the same).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from agents.candidates import FEATURES, candidate_features, needs_candidates
from agents.nets import PolicyNet, choose
from agents.neural import Layout
from envs.aec import DealersChoiceEnv
from envs.policy import act_many, describe
from envs.registry import make_raw
from evaluation.arena import Stat, lineups, mean_ci, per_hands

LEARNER, OPPONENT = 0, 1
DEAL_SEED = 1_000_003  # the arena's deal seeding


@dataclass(frozen=True)
class MatchSummary:
    """The learner's result against one bot."""

    stat: Stat  # per 100 hands (per game in the Cowboy family), 95% CI over duplicate sets
    hands: int
    seconds: float
    per_set: np.ndarray  # the learner's mean reward per seat-hand in each duplicate set


def match_lineups(num_players: int, lone: bool = False) -> list[tuple[int, ...]]:
    """The lineups each deal is replayed in (``LEARNER`` / ``OPPONENT`` per seat).

    ``lone``: only those where the learner holds exactly one seat and the bot every
    other. A best response is a unilateral deviation, so only these lineups measure a
    lower bound on exploitability at three or more seats; two learners against one bot
    measure a coalition, which can win more than any one seat could alone. Heads-up
    every lineup already has one learner, so ``lone`` changes nothing there. (At four
    seats and more the arena's compositions never seat one learner alone: the two bots
    alternate.)
    """
    if lone:
        return [
            tuple(LEARNER if seat == mine else OPPONENT for seat in range(num_players)) for mine in range(num_players)
        ]
    return [tuple(lineup) for lineup in lineups(2, num_players, True)]


@dataclass
class _Hand:
    env: DealersChoiceEnv
    deal: int = -1
    lineup: tuple[int, ...] = ()


def duplicate_match(
    net: PolicyNet,
    layout: Layout,
    opponent: Any,
    *,
    deals: Sequence[int] | int,
    seed: int,
    greedy: bool,
    tables: int = 64,
    lone: bool = False,
) -> MatchSummary:
    """Play ``deals`` (a count, or the deal numbers) against ``opponent`` (a bot with
    ``act`` or ``act_batch``); see the module docstring (``lone``: :func:`match_lineups`)."""
    with one_thread():
        return _match(net, layout, opponent, deals, seed, greedy, tables, lone)


@contextmanager
def one_thread() -> Iterator[None]:
    """Small-batch inference on one torch thread (idle OpenMP workers spinning on a busy
    machine made it ten times slower), restored afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _match(
    net: PolicyNet,
    layout: Layout,
    opponent: Any,
    deals: Sequence[int] | int,
    seed: int,
    greedy: bool,
    tables: int,
    lone: bool,
) -> MatchSummary:
    began = time.perf_counter()
    numbers = list(range(deals)) if isinstance(deals, int) else list(deals)
    n = layout.num_players
    jobs = [(d, lineup) for d in numbers for lineup in match_lineups(n, lone)]
    chunk_key = numbers[0] if numbers else 0  # the first deal: chunks of one match draw independent numbers
    sampling, features, bot = np.random.SeedSequence([seed, chunk_key]).spawn(3)
    generator = torch.Generator().manual_seed(int(sampling.generate_state(1, np.uint64)[0] >> 1))
    feature_rng = np.random.default_rng(features)
    if hasattr(opponent, "seed"):
        opponent.seed(int(bot.generate_state(1)[0] >> 1))
    net.eval()
    hands = [_Hand(make_raw(layout.variant, n, **layout.env_kwargs)) for _ in range(min(tables, len(jobs)))]
    totals: dict[int, list[float]] = {d: [0.0, 0.0] for d in numbers}  # learner reward sum, seat-hands
    queue = iter(jobs)
    active = [h for h in hands if _deal(h, next(queue, None), seed)]
    played = 0
    while active:
        _tick(active, net, layout, opponent, greedy, generator, feature_rng)
        still = []
        for hand in active:
            state = hand.env.state
            assert state is not None
            if not state.is_over:
                still.append(hand)
                continue
            rewards = state.rewards()
            for seat, who in enumerate(hand.lineup):
                if who == LEARNER:
                    totals[hand.deal][0] += rewards[seat]
                    totals[hand.deal][1] += 1
            played += 1
            if _deal(hand, next(queue, None), seed):
                still.append(hand)
        active = still
    per_set = np.array([s / max(c, 1) for s, c in (totals[d] for d in numbers)])
    stat = mean_ci(per_set.tolist())
    per = per_hands(hands[0].env) if hands else 100
    return MatchSummary(
        stat=Stat(stat.mean * per, stat.half_width * per, stat.n),
        hands=played,
        seconds=time.perf_counter() - began,
        per_set=per_set,
    )


def _deal(hand: _Hand, job: tuple[int, tuple[int, ...]] | None, seed: int) -> bool:
    """Start the next hand of the queue at this table (False: nothing left)."""
    if job is None:
        return False
    hand.deal, hand.lineup = job
    n = len(hand.lineup)
    hand.env.reset(seed=seed * DEAL_SEED + hand.deal, options={"button": hand.deal % n})
    return True


def _tick(
    active: list[_Hand],
    net: PolicyNet,
    layout: Layout,
    opponent: Any,
    greedy: bool,
    generator: torch.Generator,
    feature_rng: np.random.Generator,
) -> None:
    """One decision at every table: the learner's in one forward pass, the bot's in one call."""
    mine: list[tuple[_Hand, dict[str, np.ndarray]]] = []
    theirs: list[tuple[_Hand, dict[str, np.ndarray]]] = []
    for hand in active:
        state = hand.env.state
        assert state is not None and state.current_seat is not None
        agent = hand.env.possible_agents[state.current_seat]
        group = mine if hand.lineup[state.current_seat] == LEARNER else theirs
        group.append((hand, hand.env.observe(agent)))
    if mine:
        obs = torch.from_numpy(np.stack([o["observation"] for _, o in mine]))
        masks = np.stack([o["action_mask"] for _, o in mine]).astype(bool)
        cands = _candidates(mine, masks, net.candidates, feature_rng)
        with torch.inference_mode():
            logits = net.logits(obs) if cands is None else net.logits(obs, torch.from_numpy(cands))
            actions, _ = choose(logits, torch.from_numpy(masks), greedy=greedy, generator=generator)
        for (hand, _), action in zip(mine, actions.tolist(), strict=True):
            hand.env.step(int(action))
    if theirs:
        views = [h.env.public_view(h.env.agent_selection) for h, _ in theirs]
        observations = [o for _, o in theirs]
        seats = [h.env.possible_agents.index(h.env.agent_selection) for h, _ in theirs]
        chosen = act_many(opponent, describe(opponent), seats, observations, views)  # checked answers
        for (hand, _), action in zip(theirs, chosen, strict=True):
            hand.env.step(int(action))


def _candidates(
    mine: list[tuple[_Hand, dict[str, np.ndarray]]],
    masks: np.ndarray,
    slots: tuple[int, int] | None,
    rng: np.random.Generator,
) -> np.ndarray | None:
    rows = np.flatnonzero(needs_candidates(masks, slots))
    if slots is None or not len(rows):
        return None
    out = np.zeros((len(mine), slots[1] - slots[0], FEATURES), np.float32)
    for i in rows:
        env = mine[i][0].env
        out[i] = candidate_features(env.public_view(env.agent_selection), slots, rng)
    return out
