"""The heuristic against the random bot in wild-card games (docs/rules.md section 11).

Duplicate deals, two seats (the Cowboy games three: antes per game), big bets per 100
seat-hands with a 95% interval::

    python benchmarks/bench_wild_heuristic.py --deals 200
"""

from __future__ import annotations

import argparse
import time

from evaluation.arena import run_match

GAMES = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "cowpie", "cowboy", "cowgirl", "cowpattie")
SEATS = {"cowboy": 3, "cowgirl": 3, "cowpattie": 3}  # the Cowboy games: three seats, rewards in antes per game
RULES = ({"wild": "joker"}, {"wild": "bug"}, {"wild": "deuces"}, {"wild": "joker", "natural_beats_wild": True})


def main() -> None:
    """Print one row per game and wild-card option."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print("| variant | options | heuristic vs random | seconds |")
    print("|---|---|---|---:|")
    for game in args.games.split(","):
        for options in RULES:
            start = time.perf_counter()
            seats = SEATS.get(game)
            bots = ["heuristic", "random"]
            result = run_match(game, bots, deals=args.deals, num_players=seats, seed=1, options=dict(options))
            print(f"| {game} | {options} | {result.result(0)} | {time.perf_counter() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
