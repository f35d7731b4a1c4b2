"""Structured-view throughput: random-policy hands (or games) per second when the acting
seat asks for its :class:`~envs.view.PublicView` at every decision.
The last case stays in every Cowboy deal (1,500 decisions, about 7,500 events a
game): the long games where a view's event log matters most.

The loop is the one a bot in the arena sees: ``observe`` + ``public_view`` for the
seat to act, then a uniform random legal action. ``--read`` also reads what the
heuristic bot reads (``view.events`` and ``view.seen_cards()``), which is where a
view's event log costs; long Cowboy games (thousands of events) show it most. One
core; the median of ``--repeats`` timed repeats.

Usage: ``python benchmarks/bench_views.py [--seconds 2] [--read] [--only stud cowboy]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import envs
from envs.engine.actions import STAY

# (label, env name, players, options, always stay when allowed)
CASES: list[tuple[str, str, int, dict[str, Any], bool]] = [
    ("stud", "stud", 6, {}, False),
    ("cowpie", "cowpie", 6, {}, False),
    ("chowaha limit", "chowaha", 6, {}, False),
    ("cowboy (games)", "cowboy", 5, {"match_cap": 20}, False),
    ("cowgirl (games)", "cowgirl", 5, {"match_cap": 20}, False),
    ("cowboy (stay)", "cowboy", 5, {}, True),
]


def episode_fn(name: str, n: int, options: dict[str, Any], *, stay: bool, read: bool, seed: int) -> Callable[[], int]:
    """One random hand (game) asking for the acting seat's view at every decision."""
    env = envs.make_raw(name, n, **options)
    rng = np.random.default_rng(seed)

    def episode() -> int:
        env.reset(seed=int(rng.integers(2**31)))
        decisions = 0
        while not env.state.is_over:
            agent = env.agent_selection
            env.observe(agent)
            view = env.public_view(agent)
            if read:
                len(view.events)
                view.seen_cards()
            legal = view.legal_actions
            env.step(STAY if stay and STAY in legal else int(legal[rng.integers(len(legal))]))
            decisions += 1
        return decisions

    return episode


def measure(episode: Callable[[], int], seconds: float, repeats: int) -> tuple[float, float]:
    """Median episodes/s and decisions/s over repeats of about ``seconds`` each."""
    episode()  # warm-up
    hands, decisions = [], []
    for _ in range(repeats):
        count = steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            steps += episode()
            count += 1
        elapsed = time.perf_counter() - start
        hands.append(count / elapsed)
        decisions.append(steps / elapsed)
    return statistics.median(hands), statistics.median(decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per timed repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats per figure; the median is shown")
    parser.add_argument("--read", action="store_true", help="also read view.events and view.seen_cards()")
    parser.add_argument("--only", nargs="*", help="labels or env names to run (default: all)")
    args = parser.parse_args()
    print(f"{'variant':<18} {'players':>7} {'hands/s':>10} {'decisions/s':>12}")
    for label, name, n, options, stay in CASES:
        if args.only and label not in args.only and name not in args.only:
            continue
        episode = episode_fn(name, n, options, stay=stay, read=args.read, seed=0)
        hands, decisions = measure(episode, args.seconds, args.repeats)
        print(f"{label:<18} {n:>7} {hands:>10.1f} {decisions:>12.0f}")


if __name__ == "__main__":
    main()
