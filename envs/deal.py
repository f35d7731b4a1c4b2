"""Deal a random seven-card hand to each of a few players and describe it (high and
eight-or-better low): a look at the cards and the evaluators from the command line
(``dealers-choice deal``, ``python -m envs``)."""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from envs.engine.cards import format_cards
from envs.engine.hands import describe_high, describe_low, evaluate_high, evaluate_low

MAX_PLAYERS = 7  # 7 x 7 cards fit in one deck


def main(argv: list[str] | None = None) -> int:
    """Deal and print; returns the exit status."""
    name = os.path.basename(sys.argv[0]) if sys.argv else ""
    parser = argparse.ArgumentParser(
        prog=name if name.startswith("dealers-choice ") else "python -m envs", description=__doc__
    )
    parser.add_argument("--players", type=int, default=4, help=f"players to deal to, 1 to {MAX_PLAYERS} (default 4)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffle (default: a fresh one)")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= MAX_PLAYERS:
        parser.error(f"--players must be 1 to {MAX_PLAYERS}, got {args.players}")
    if args.seed is not None and args.seed < 0:
        parser.error(f"--seed must be >= 0, got {args.seed}")
    deck = np.random.default_rng(args.seed).permutation(52)
    for seat in range(args.players):
        hand = deck[seat * 7 : seat * 7 + 7]
        high, low = evaluate_high(hand), evaluate_low(hand, qualifier=8)
        shown = format_cards(hand, symbols=True)
        print(f"player_{seat}: {shown}  high: {describe_high(high)}; low: {describe_low(low)}")
    return 0
