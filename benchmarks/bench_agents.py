"""Bot decision throughput on one core (the heuristic per variant, the random bot for
reference), and the heuristic's result against the random bot; with ``--batch``, the
heuristic's ``act`` against ``act_batch``; with ``--styles``, how its presets play.

For each variant the heuristic plays duplicate deals against the random bot (heads-up;
three seats in the Cowboy family, where it holds two) after a few warm-up hands (hand
tables, caches). Only the time inside each bot's ``act`` is counted, so the rates are
decisions per second of the bot itself, not of the environment; "hands/s" is whole
hands per second (environment and both bots). The result column is the heuristic's
mean per 100 seat-hands in the variant's unit (big bets; big blinds in Chowaha; antes
per game in the Cowboy family) with its 95% confidence interval over duplicate sets.

``--batch`` (sizes ``--batch-sizes``, default 1 16 64): the views the heuristic met
in the match above are decided again by fresh bots of the same seed, one ``act`` at a
time and by ``act_batch`` over consecutive chunks of each size; the table gives
decisions per CPU second (``time.process_time``: steadier than wall time on a shared
machine) and checks that every chunk returned exactly the one-at-a-time actions.

``--styles`` (presets ``--presets``): each preset plays duplicate deals against the
random bot and against the default heuristic; the table gives its result with the
95% interval and its fold / check-call / raise rates (raises include sized bets and
all-ins, calls include the stud bring-in and Cowboy stays) over its betting decisions.

Usage: ``python benchmarks/bench_agents.py [--deals 500] [--variants stud razz]``,
``python benchmarks/bench_agents.py --batch --deals 100``,
``python benchmarks/bench_agents.py --styles --deals 300 --variants stud chowaha``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

import agents
import evaluation
from agents.heuristic import DEFAULT_SAMPLES, PRESETS, HeuristicAgent
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE, STAY
from envs.variants import VARIANTS
from evaluation.arena import Stat

WARM_UP_DEALS = 3


class Timed:
    """A bot whose ``act`` calls are timed and counted (and, when ``keep``, whose
    observations and views are kept for the batch table)."""

    def __init__(self, bot: Any, keep: bool = False) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0
        self.kinds: Counter[str] = Counter()
        self.seen: list[tuple[Any, Any]] | None = [] if keep else None

    def act(self, observation: Any, view: Any) -> int:
        start = time.perf_counter()
        action = int(self.bot.act(observation, view))
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        self.kinds[betting_kind(action, view)] += 1
        if self.seen is not None:
            self.seen.append((observation, view))
        return action

    def seed(self, seed: int | None) -> None:
        self.bot.seed(seed)

    def rate(self) -> float:
        """Decisions per second."""
        return self.decisions / self.seconds if self.seconds else float("nan")


def betting_kind(action: int, view: Any) -> str:
    """fold, call (check, call, bring-in, stay) or raise (raise, sized bet, all-in);
    other decisions (declarations, splits, draws) are "other"."""
    name = view.legal_names[view.legal_actions.index(action)]
    if action == FOLD:
        return "fold"
    if action in (CHECK_CALL, BRING_IN, STAY):
        return "call"
    if action == RAISE or name.startswith("bet_") or name == "all_in":
        return "raise"
    return "other"


@dataclass(frozen=True)
class Row:
    """One variant's figures."""

    variant: str
    players: int
    decisions: int
    heuristic_rate: float
    random_rate: float
    hands_rate: float
    result: Stat
    unit: str
    seen: list[tuple[Any, Any]] = field(default_factory=list, repr=False, compare=False)


def measure(variant: str, deals: int, samples: int, seed: int, players: int = 2, keep: bool = False) -> Row:
    """Warm up, then time a duplicate match of the heuristic against the random bot
    (seated alternately; ``players`` is clamped to the variant's seat range); with
    ``keep`` the row carries the heuristic's observations and views."""
    low, high = VARIANTS[variant].seats
    players = min(max(players, low), high)
    heuristic = Timed(HeuristicAgent(samples=samples), keep=keep)
    random_bot = Timed(agents.RandomAgent())
    evaluation.run_match(variant, [heuristic, random_bot], deals=WARM_UP_DEALS, num_players=players, seed=seed + 1)
    heuristic.seconds = random_bot.seconds = 0.0
    heuristic.decisions = random_bot.decisions = 0
    start = time.perf_counter()
    result = evaluation.run_match(variant, [heuristic, random_bot], deals=deals, num_players=players, seed=seed)
    elapsed = time.perf_counter() - start
    hands_rate = len(result.hands) / elapsed
    rates = (heuristic.rate(), random_bot.rate(), hands_rate)
    return Row(variant, players, heuristic.decisions, *rates, result.result(0), result.unit_name, heuristic.seen or [])


def table(rows: Sequence[Row]) -> str:
    """Markdown table of the figures."""
    lines = [
        "| variant | players | heuristic decisions | heuristic decisions/s | random decisions/s | hands/s "
        "| heuristic vs random, per 100 seat-hands |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r.variant} | {r.players} | {r.decisions:,} | {r.heuristic_rate:,.0f} | "
            f"{r.random_rate:,.0f} | {r.hands_rate:,.0f} | {r.result} {r.unit} |"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ batches
@dataclass(frozen=True)
class BatchRow:
    """One variant's ``act`` and ``act_batch`` rates (decisions per CPU second)."""

    variant: str
    decisions: int
    act_rate: float
    batch_rates: dict[int, float]


def cpu_rate(decide: Any, count: int, repeats: int = 3) -> float:
    """Decisions per CPU second of ``decide()`` (the best of ``repeats`` runs)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        decide()
        best = min(best, time.process_time() - start)
    return count / best if best > 0 else float("nan")


def measure_batches(row: Row, sizes: Sequence[int], samples: int, seed: int) -> BatchRow:
    """Decide the kept views again: one ``act`` at a time, and ``act_batch`` over
    chunks of every size, each time with a fresh bot of the same seed (so every run
    decides exactly the same thing); checks that the actions agree."""
    observations = [o for o, _ in row.seen]
    views = [v for _, v in row.seen]
    expected: list[int] = []

    def one_by_one() -> None:
        bot = HeuristicAgent(seed=seed, samples=samples)
        expected[:] = [bot.act(o, v) for o, v in zip(observations, views, strict=True)]

    act_rate = cpu_rate(one_by_one, len(views))
    rates = {}
    for size in sizes:
        got: list[int] = []

        def batched(size: int = size, got: list[int] = got) -> None:
            bot = HeuristicAgent(seed=seed, samples=samples)
            got[:] = []
            for i in range(0, len(views), size):
                got.extend(bot.act_batch(observations[i : i + size], views[i : i + size]))

        rates[size] = cpu_rate(batched, len(views))
        if got != expected:
            raise AssertionError(f"{row.variant}: act_batch({size}) disagrees with act")
    return BatchRow(row.variant, len(views), act_rate, rates)


def batch_table(rows: Sequence[BatchRow]) -> str:
    """Markdown table of ``act`` against ``act_batch`` rates."""
    sizes = list(rows[0].batch_rates) if rows else []
    head = " | ".join(f"act_batch({s})" for s in sizes)
    lines = [f"| variant | decisions | act | {head} |", "|---|---:|---:|" + "---:|" * len(sizes)]
    for r in rows:
        cells = " | ".join(f"{rate:,.0f} ({rate / r.act_rate:.1f}x)" for rate in r.batch_rates.values())
        lines.append(f"| {r.variant} | {r.decisions:,} | {r.act_rate:,.0f} | {cells} |")
    return "\n".join(lines)


# ------------------------------------------------------------------- styles
@dataclass(frozen=True)
class StyleRow:
    """One preset's results in one variant, and its betting mix."""

    variant: str
    preset: str
    vs_random: Stat
    vs_default: Stat
    unit: str
    mix: dict[str, float]  # fold / call / raise shares of its betting decisions


def measure_style(variant: str, preset: str, deals: int, samples: int, seed: int, players: int) -> StyleRow:
    """Duplicate matches of one preset against the random bot and the default heuristic."""
    low, high = VARIANTS[variant].seats
    players = min(max(players, low), high)
    bot = Timed(HeuristicAgent(samples=samples, style=preset))
    kw: dict[str, Any] = {"deals": deals, "num_players": players, "seed": seed}
    vs_random = evaluation.run_match(variant, [bot, agents.RandomAgent()], **kw)
    vs_default = evaluation.run_match(variant, [bot, HeuristicAgent(samples=samples)], **kw)
    betting = {k: bot.kinds[k] for k in ("fold", "call", "raise")}
    total = sum(betting.values()) or 1
    mix = {k: v / total for k, v in betting.items()}
    return StyleRow(variant, preset, vs_random.result(0), vs_default.result(0), vs_random.unit_name, mix)


def short(stat: Stat) -> str:
    """A result with one decimal: ``+12.3 ± 4.5``."""
    return f"{stat.mean:+.1f} ± {stat.half_width:.1f}"


def style_table(rows: Sequence[StyleRow]) -> str:
    """Markdown table of the presets."""
    lines = [
        "| variant | preset | vs random | vs default heuristic | fold | check/call | raise |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for r in rows:
        mix = " | ".join(f"{r.mix[k]:.0%}" for k in ("fold", "call", "raise"))
        results = f"{short(r.vs_random)} | {short(r.vs_default)} {r.unit}"
        lines.append(f"| {r.variant} | {r.preset} | {results} | {mix} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> list[Any]:
    """Measure and print the table; returns the rows."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS), metavar="NAME")
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals per variant (default 500)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="heuristic Monte Carlo samples")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2; clamped to each variant's range)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--batch", action="store_true", help="act against act_batch instead of the match table")
    parser.add_argument("--batch-sizes", type=int, nargs="+", default=[1, 16, 64], metavar="N")
    parser.add_argument("--styles", action="store_true", help="the presets' results and betting mix")
    parser.add_argument("--presets", nargs="+", default=list(PRESETS), choices=list(PRESETS), metavar="NAME")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    if any(size < 1 for size in args.batch_sizes):
        parser.error(f"--batch-sizes must be at least 1, got {args.batch_sizes}")
    if args.batch and args.styles:
        parser.error("--batch and --styles are separate tables: choose one")
    if args.styles:
        styled = [
            measure_style(v, p, args.deals, args.samples, args.seed, args.players)
            for v in tqdm(args.variants, desc="variants")
            for p in args.presets
        ]
        print(f"Heuristic presets (samples={args.samples}), {args.deals} duplicate deals per match")
        print(style_table(styled))
        return styled
    rows = [
        measure(v, args.deals, args.samples, args.seed, args.players, keep=args.batch)
        for v in tqdm(args.variants, desc="variants")
    ]
    if args.batch:
        batches = [measure_batches(r, args.batch_sizes, args.samples, args.seed) for r in rows]
        print(f"Heuristic decisions per CPU second (samples={args.samples}): act against act_batch")
        print(batch_table(batches))
        return batches
    print(f"Heuristic (samples={args.samples}) against the random bot, {args.deals} duplicate deals per variant")
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
