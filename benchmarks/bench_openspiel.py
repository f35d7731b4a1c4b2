"""OpenSpiel interop speed: random games per second through pyspiel for each family,
and OpenSpiel's tabular algorithms (exploitability, CFR) on a tiny toy stud.

Every card dealt is a chance node (docs/openspiel.md), so a game here costs more than
the same game in the AEC env. Needs the ``openspiel`` extra.

Usage: ``python benchmarks/bench_openspiel.py [--seconds 2]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import time
from typing import Any

import numpy as np

from envs.openspiel import load_game

CASES: list[tuple[str, dict[str, Any]]] = [
    ("toy_stud", {}),
    ("stud", {}),
    ("stud", {"players": 6}),
    ("five_card_stud", {"players": 4}),
    ("cowpie", {"players": 4}),
    ("chowaha", {"players": 4}),
    ("cowboy", {"players": 4, "match_cap": 20}),
]
TINY = {"ranks": "KA", "suits": "cdh", "streets": 1}


def random_games(game: Any, seconds: float) -> tuple[float, float]:
    """(games per second, moves per game) of uniform random play, chance included."""
    rng = np.random.default_rng(0)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
            moves += 1
        games += 1
    return games / (time.perf_counter() - start), moves / games


def timed(label: str, fn: Any) -> Any:
    start = time.perf_counter()
    out = fn()
    print(f"| {label} | {time.perf_counter() - start:.2f} |")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds of random play per case")
    args = parser.parse_args()
    print("| game | options | games/s | moves per game (chance included) |\n|---|---|---:|---:|")
    for name, options in CASES:
        rate, length = random_games(load_game(name, **options), args.seconds)
        print(f"| {name} | {options or ''} | {rate:,.1f} | {length:.0f} |")

    from open_spiel.python import policy
    from open_spiel.python.algorithms import cfr, exploitability

    print(f"\ntoy_stud {TINY}\n\n| step | seconds |\n|---|---:|")
    game = load_game("toy_stud", **TINY)
    timed("nash_conv(uniform), first walk", lambda: exploitability.nash_conv(game, policy.UniformRandomPolicy(game)))
    timed("nash_conv(uniform), cached", lambda: exploitability.nash_conv(game, policy.UniformRandomPolicy(game)))
    solver = timed("cfr.CFRPlusSolver(game)", lambda: cfr.CFRPlusSolver(game))
    timed("10 CFR+ iterations", lambda: [solver.evaluate_and_update_policy() for _ in range(10)])
    timed("nash_conv(average policy)", lambda: exploitability.nash_conv(game, solver.average_policy()))


if __name__ == "__main__":
    main()
