"""Hand evaluation: high, ace-to-five low, Cowpie splits and two-plus-three board hands.

Every batched function takes numpy arrays of card ints with any leading shape and
returns arrays of that shape; one hand (a 1-D sequence or a string) returns a Python
int. Strengths are "higher is better, equal is a tie" on every scale.

==========================  ====================================================
``evaluate_high(cards)``    best five of 5-7 cards, ``1 .. MAX_HIGH`` (7,462)
``evaluate_low(cards, q)``  ace-to-five low of 5-7 cards; ``q=8`` for 8-or-better,
                            ``NO_LOW`` (0) when the hand does not qualify
``high_category(s)``        0 high card .. 8 straight flush (``CATEGORY_NAMES``)
``describe_high(s)``        e.g. ``'two pair, kings and nines'``
``describe_low(v)``         e.g. ``'8-5-4-3-A'``
``two_card_strength(c)``    Cowpie two-card hands
``cowpie_splits(c, down)``  all 21 five/two splits, their strengths and legality
``best_board_hands(h, b)``  exactly two hole + three board cards, several boards
``high_value(cards)``       fast scalar path for one hand (no validation)
==========================  ====================================================
"""

from envs.engine.hands.boards import BoardHands, best_board_hands
from envs.engine.hands.evaluate import (
    CATEGORY_NAMES,
    MAX_HIGH,
    MAX_LOW,
    NO_LOW,
    describe_high,
    describe_low,
    evaluate_high,
    evaluate_low,
    high_category,
    high_value,
    low_threshold,
    low_value,
)
from envs.engine.hands.split import (
    MAX_TWO_CARD,
    SPLITS,
    Splits,
    cowpie_splits,
    five_outranks_two,
    two_card_strength,
)
from envs.engine.hands.tables import get_tables

__all__ = [
    "CATEGORY_NAMES",
    "MAX_HIGH",
    "MAX_LOW",
    "MAX_TWO_CARD",
    "NO_LOW",
    "SPLITS",
    "BoardHands",
    "Splits",
    "best_board_hands",
    "cowpie_splits",
    "describe_high",
    "describe_low",
    "evaluate_high",
    "evaluate_low",
    "five_outranks_two",
    "get_tables",
    "high_category",
    "high_value",
    "low_threshold",
    "low_value",
    "two_card_strength",
]
