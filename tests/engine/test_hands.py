"""Hand evaluation: exhaustive counts, an independent evaluator, and the rules' examples."""

from __future__ import annotations

import itertools

import numpy as np
import phevaluator
import pytest

from envs.engine.cards import format_card
from envs.engine.hands import (
    CATEGORY_NAMES,
    MAX_HIGH,
    NO_LOW,
    describe_high,
    describe_low,
    evaluate_high,
    evaluate_low,
    get_tables,
    high_category,
    high_value,
    low_value,
)
from tests.engine.helpers import all_combinations, random_hands

FIVE_CARD_COUNTS = {
    "straight flush": 40,
    "four of a kind": 624,
    "full house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three of a kind": 54912,
    "two pair": 123552,
    "pair": 1098240,
    "high card": 1302540,
}


def test_all_five_card_hands() -> None:
    hands = all_combinations(52, 5)
    assert len(hands) == 2_598_960
    strength = evaluate_high(hands)
    assert np.unique(strength).size == 7462
    cats = high_category(strength)
    counts = {CATEGORY_NAMES[c]: int(n) for c, n in zip(*np.unique(cats, return_counts=True), strict=True)}
    assert counts == FIVE_CARD_COUNTS
    assert int((strength == MAX_HIGH).sum()) == 4  # the royal flushes


def _phevaluator_strength(hands: np.ndarray) -> np.ndarray:
    names = [[format_card(int(c)) for c in hand] for hand in hands]
    return np.array([7463 - phevaluator.evaluate_cards(*h) for h in names])


@pytest.mark.parametrize(("k", "n"), [(7, 100_000), (6, 5_000), (5, 5_000)])
def test_agrees_with_phevaluator(k: int, n: int) -> None:
    """phevaluator numbers the same 7,462 classes from the top: ours is 7463 - theirs."""
    hands = random_hands(np.random.default_rng(k), n, k)
    assert (evaluate_high(hands) == _phevaluator_strength(hands)).all()


def test_scalar_path_matches_batch() -> None:
    rng = np.random.default_rng(3)
    for k in (5, 6, 7):
        hands = random_hands(rng, 2000, k)
        batch = evaluate_high(hands)
        lows = evaluate_low(hands)
        assert [high_value(h.tolist()) for h in hands] == batch.tolist()
        assert [low_value(h.tolist()) for h in hands] == lows.tolist()


def test_batch_shapes_and_scalars() -> None:
    hands = random_hands(np.random.default_rng(4), 24, 7).reshape(2, 3, 4, 7)
    assert evaluate_high(hands).shape == (2, 3, 4)
    assert evaluate_low(hands, qualifier=8).shape == (2, 3, 4)
    assert isinstance(evaluate_high("As Ks Qs Js Ts"), int)
    assert evaluate_high(hands[0, 0, 0].tolist()) == evaluate_high(hands)[0, 0, 0]


@pytest.mark.parametrize(
    ("cards", "description"),
    [
        ("As Ks Qs Js Ts", "royal flush"),
        ("5d 4d 3d 2d Ad", "five-high straight flush"),
        ("9c 9d 9h 9s 2c", "four of a kind, nines"),
        ("Kc Kd Kh 2s 2c", "full house, kings full of twos"),
        ("Ah 9h 7h 4h 2h", "ace-high flush"),
        ("7c 6d 5h 4s 3c", "seven-high straight"),
        ("5c 4d 3h 2s Ac", "five-high straight"),
        ("Qc Qd Qh 7s 2c", "three of a kind, queens"),
        ("Kd Kh 9c 9s 2d", "two pair, kings and nines"),
        ("Jc Jd 8h 4s 2c", "pair of jacks"),
        ("Ac Qd 8h 4s 2c", "ace-high"),
        ("7c 5d 4h 3s 2c", "seven-high"),
    ],
)
def test_descriptions(cards: str, description: str) -> None:
    assert describe_high(evaluate_high(cards)) == description


def test_suits_never_break_ties_and_wheel_is_lowest_straight() -> None:
    assert evaluate_high("As Kd Qh Jc 9s") == evaluate_high("Ad Ks Qc Jh 9d")
    wheel, six_high = evaluate_high("5c 4d 3h 2s Ac"), evaluate_high("6c 5d 4h 3s 2c")
    assert wheel < six_high
    assert high_category(wheel) == 4 and wheel > evaluate_high("Ac Ad Ah Ks Qc")


def test_best_five_of_seven_uses_the_flush() -> None:
    # Seven cards with both a straight and a flush: the flush is higher.
    assert describe_high(evaluate_high("9h 8h 7c 6h 5d 2h Ah")) == "ace-high flush"
    assert describe_high(evaluate_high("9h 8h 7h 6h 5h 4h Ah")) == "nine-high straight flush"


# --------------------------------------------------------------------------- lows
LOW_ORDER = [  # (better, worse): docs/rules.md section 1 and the table
    ("8c 5d 4h 3s 2c", "9c 7d 6h 4s 3c"),
    ("8c 5d 4h 3s Ac", "8d 5h 4s 3c 2d"),
    ("9c Td Jh Qs Kc", "2c 2d 3h 4s 5c"),
    ("Ac Ad 7h 6s 5c", "2c 2d 5h 4s 3c"),
    ("5c 4c 3c 2c Ac", "6d 4h 3s 2c Ad"),  # a flush and a straight do not spoil a low
    ("2c 2d 3h 4s 5c", "2c 2d 3h 3s 5c"),  # one pair beats two pair
    ("2c 2d 3h 3s 5c", "2c 2d 2h 3s 5c"),  # two pair beats trips
    ("Kc Qd Jh 9s 8c", "Ac Ad 2h 3s 4c"),  # any unpaired low beats any paired low
]


@pytest.mark.parametrize(("better", "worse"), LOW_ORDER, ids=[f"{a}>{b}" for a, b in LOW_ORDER])
def test_low_order(better: str, worse: str) -> None:
    assert evaluate_low(better) > evaluate_low(worse)


@pytest.mark.parametrize(
    ("cards", "qualifies"),
    [("8c 7d 6h 5s 4c", True), ("9c 5d 4h 3s 2c", False), ("5c 4c 3c 2c Ac", True), ("8c 8d 4h 3s 2c", False)],
)
def test_eight_or_better(cards: str, qualifies: bool) -> None:
    value = evaluate_low(cards, qualifier=8)
    assert (value != NO_LOW) == qualifies
    if qualifies:
        assert value == evaluate_low(cards)


def test_low_of_seven_uses_five_lowest_distinct_ranks() -> None:
    assert describe_low(evaluate_low("Kc Kd 8h 5s 4c 3d Ah")) == "8-5-4-3-A"
    assert describe_low(evaluate_low("2c 2d 3h 3s 4c 4d 5h")) == "pair of twos, 5-4-3"
    assert evaluate_low("Kc Kd 9h 5s 4c 3d Ah", qualifier=8) == NO_LOW


@pytest.mark.parametrize("count", [3000, pytest.param(100_000, marks=pytest.mark.slow)], ids=["3k", "100k"])
def test_low_agrees_with_pokerkit(count: int) -> None:
    """Every adjacent pair in our order compares the same way in PokerKit."""
    pokerkit = pytest.importorskip("pokerkit")
    hands = random_hands(np.random.default_rng(5), count, 7)
    text = ["".join(format_card(int(c)) for c in h) for h in hands]
    for qualifier, hand_type in ((None, pokerkit.RegularLowHand), (8, pokerkit.EightOrBetterLowHand)):
        ours = evaluate_low(hands, qualifier=qualifier)
        theirs = []
        for t in text:
            try:
                theirs.append(hand_type.from_game(t))
            except ValueError:  # PokerKit: no qualifying low
                theirs.append(None)
        assert [v == NO_LOW for v in ours] == [h is None for h in theirs]
        ranked = sorted((int(v), h) for v, h in zip(ours, theirs, strict=True) if h is not None)
        for (v1, h1), (v2, h2) in itertools.pairwise(ranked):
            assert (v1 == v2) == (h1 == h2) and (v1 < v2) == (h1 < h2), (h1, h2)


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="same card twice"):
        evaluate_high([0, 1, 2, 3, 3])
    with pytest.raises(ValueError, match=r"0\.\.51"):
        evaluate_high(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(ValueError, match="hand index \\(1,\\)"):
        evaluate_high(np.array([[0, 1, 2, 3, 4], [5, 5, 6, 7, 8]]))
    with pytest.raises(ValueError, match="5, 6, 7 cards"):
        evaluate_high([0, 1, 2, 3])
    with pytest.raises(ValueError, match="unknown card"):
        evaluate_high("As Ks Qs Js Xx")
    with pytest.raises(ValueError, match="qualifier"):
        evaluate_low("As Ks Qs Js Ts", qualifier=4)


def test_tables_fit_the_memory_budget() -> None:
    assert get_tables().nbytes() <= 64 * 2**20


@pytest.mark.slow
def test_all_seven_card_hands() -> None:
    """All 133,784,560 seven-card hands, in blocks by their two lowest cards."""
    five = all_combinations(50, 5).astype(np.int16)
    counts = np.zeros(9, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            rest = five[five[:, 4] < 51 - b] + (b + 1)
            if not len(rest):
                continue
            hands = np.concatenate([np.full((len(rest), 2), (a, b), np.int16), rest], axis=1)
            counts += np.bincount(high_category(evaluate_high(hands, validate=False)), minlength=9)
    assert counts.sum() == 133_784_560
    assert dict(zip(CATEGORY_NAMES, counts.tolist(), strict=True)) == {
        "straight flush": 41_584,
        "four of a kind": 224_848,
        "full house": 3_473_184,
        "flush": 4_047_644,
        "straight": 6_180_020,
        "three of a kind": 6_461_620,
        "two pair": 31_433_400,
        "pair": 58_627_800,
        "high card": 23_294_460,
    }


class _LongRepr:
    """An object whose repr is a megabyte long."""

    def __repr__(self) -> str:
        return "x" * 1_000_000


def test_bad_card_input_gives_a_short_message() -> None:
    """Messages quote what was passed, cut to a readable length."""
    for bad in ([_LongRepr()] * 5, [[_LongRepr()] * 5], ["x" * 100_000] * 5):
        with pytest.raises(ValueError) as err:
            evaluate_high(bad)
        assert len(str(err.value)) < 300
