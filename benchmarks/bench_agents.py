"""Bot decision throughput on one core (the heuristic per variant, the random bot for
reference), and the heuristic's result against the random bot.

For each variant the heuristic plays duplicate deals against the random bot (heads-up;
three seats in the Cowboy family, where it holds two) after a few warm-up hands (hand
tables, caches). Only the time inside each bot's ``act`` is counted, so the rates are
decisions per second of the bot itself, not of the environment; "hands/s" is whole
hands per second (environment and both bots). The result column is the heuristic's
mean per 100 seat-hands in the variant's unit (big bets; big blinds in Chowaha; antes
per game in the Cowboy family) with its 95% confidence interval over duplicate sets.

Usage: ``python benchmarks/bench_agents.py [--deals 500] [--variants stud razz]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tqdm import tqdm

import agents
from agents.arena import Stat
from agents.heuristic import DEFAULT_SAMPLES, HeuristicAgent
from envs.variants import VARIANTS

WARM_UP_DEALS = 3


class Timed:
    """A bot whose ``act`` calls are timed and counted."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def act(self, observation: Any, view: Any) -> int:
        start = time.perf_counter()
        action = int(self.bot.act(observation, view))
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action

    def seed(self, seed: int | None) -> None:
        self.bot.seed(seed)

    def rate(self) -> float:
        """Decisions per second."""
        return self.decisions / self.seconds if self.seconds else float("nan")


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


def measure(variant: str, deals: int, samples: int, seed: int, players: int = 2) -> Row:
    """Warm up, then time a duplicate match of the heuristic against the random bot
    (seated alternately; ``players`` is clamped to the variant's seat range)."""
    low, high = VARIANTS[variant].seats
    players = min(max(players, low), high)
    heuristic = Timed(HeuristicAgent(samples=samples))
    random_bot = Timed(agents.RandomAgent())
    agents.run_match(variant, [heuristic, random_bot], deals=WARM_UP_DEALS, num_players=players, seed=seed + 1)
    heuristic.seconds = random_bot.seconds = 0.0
    heuristic.decisions = random_bot.decisions = 0
    start = time.perf_counter()
    result = agents.run_match(variant, [heuristic, random_bot], deals=deals, num_players=players, seed=seed)
    elapsed = time.perf_counter() - start
    hands_rate = len(result.hands) / elapsed
    rates = (heuristic.rate(), random_bot.rate(), hands_rate)
    return Row(variant, players, heuristic.decisions, *rates, result.result(0), result.unit_name)


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


def main(argv: Sequence[str] | None = None) -> list[Row]:
    """Measure and print the table; returns the rows."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS), metavar="NAME")
    parser.add_argument("--deals", type=int, default=500, help="duplicate deals per variant (default 500)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="heuristic Monte Carlo samples")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2; clamped to each variant's range)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error(f"--deals must be at least 1, got {args.deals}")
    rows = [measure(v, args.deals, args.samples, args.seed, args.players) for v in tqdm(args.variants, desc="variants")]
    print(f"Heuristic (samples={args.samples}) against the random bot, {args.deals} duplicate deals per variant")
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
