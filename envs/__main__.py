"""``python -m envs``: deal a random seven-card hand to each of four players and show it."""

from __future__ import annotations

import numpy as np

from envs.engine.cards import format_cards
from envs.engine.hands import describe_high, describe_low, evaluate_high, evaluate_low


def main() -> None:
    rng = np.random.default_rng()
    deck = rng.permutation(52)
    for seat in range(4):
        hand = deck[seat * 7 : seat * 7 + 7]
        high, low = evaluate_high(hand), evaluate_low(hand, qualifier=8)
        shown = format_cards(hand, symbols=True)
        print(f"player_{seat}: {shown}  high: {describe_high(high)}; low: {describe_low(low)}")


if __name__ == "__main__":
    main()
