"""Cowpie: two-card hands and the five/two split rule (docs/rules.md section 4)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from envs.engine.cards import parse
from envs.engine.hands import (
    SPLITS,
    cowpie_splits,
    evaluate_high,
    five_outranks_two,
    high_category,
    two_card_strength,
)
from tests.engine.helpers import random_hands

# (five-card hand, two-card hand, five ranks higher?) - docs/rules.md's examples and edges.
FIVE_VS_TWO = [
    ("Kh 9d 7s 4d 2c", "As Kc", False),  # K-9-7-4-2 against A-K is illegal
    ("Kh Qd 9s 4d 2c", "Ks Jc", True),  # K-Q-9-4-2 against K-J is legal
    ("3h 3d 9s 7d 2c", "As Kc", True),  # 3-3-x-x-x against A-K is legal
    ("9h 9d 7s 4d 2c", "Js Jc", False),  # 9-9-x-x-x against J-J is illegal
    ("Ah Kd 9s 7d 4c", "As Kc", True),  # equal top cards: the five has kickers
    ("Kh Kd 9s 7d 4c", "Ks Kc", True),  # K-K-x-x-x against K-K
    ("Ah 9d 7s 4d 2c", "2s 2d", False),  # a pair beats no pair
    ("3h 3d 9s 9d 2c", "As Ac", True),  # two pair or better is always higher
    ("7h 6d 5s 4d 3c", "As Ac", True),  # a straight is higher than a pair
    ("Ah Qd 9s 7d 4c", "As Kc", False),  # A-Q... against A-K: second card decides
]


@pytest.mark.parametrize(("five", "two", "legal"), FIVE_VS_TWO, ids=[f"{f}|{t}" for f, t, _ in FIVE_VS_TWO])
def test_five_ranks_higher_than_two(five: str, two: str, legal: bool) -> None:
    assert five_outranks_two(parse(five), parse(two)) == legal


def test_two_card_order() -> None:
    order = ["3c 2d", "4c 2d", "4c 3d", "Ac Kd", "2c 2d", "3c 3d", "Ac Ad"]
    values = [two_card_strength(h) for h in order]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert two_card_strength("As Kd") == two_card_strength("Kc Ah")  # suits and order ignored
    assert two_card_strength("2c 3c") == two_card_strength("3d 2h")  # no flush in two cards


def _split(cards: str, down: str) -> dict[str, tuple[int, int, bool]]:
    hand = parse(cards)
    flags = [c in parse(down) for c in hand]
    result = cowpie_splits(hand, flags)
    names = {}
    for i, (a, b) in enumerate(SPLITS):
        key = " ".join(sorted(cards.split()[j] for j in (a, b)))
        names[key] = (int(result.five[i]), int(result.two[i]), bool(result.legal[i]))
    return names


def test_seed_example() -> None:
    """A♠9♦2♣ down, K♥K♣7♠4♦ up: A♠K♥ as the two is illegal; KK742 / A9 is legal."""
    splits = _split("As 9d 2c Kh Kc 7s 4d", down="As 9d 2c")
    assert splits["As Kh"][2] is False
    assert splits["9d As"][2] is True
    assert splits["9d As"][0] == evaluate_high("Kh Kc 7s 4d 2c")


def test_only_legal_splits_keep_a_pair_in_the_five() -> None:
    """A♥9♦7♦ down, K♦T♠K♥T♦ up: a pairless five needs a king and a ten in the two-card
    hand, which then has no face-down card; every legal split keeps a pair in the five."""
    cards = "Ah 9d 7d Kd Ts Kh Td"
    splits = _split(cards, down="Ah 9d 7d")
    legal = [v for v in splits.values() if v[2]]
    assert legal
    assert all(high_category(five) >= 1 for five, _, _ in legal)
    assert any(high_category(five) == 0 for five, _, ok in splits.values() if not ok)


def test_three_down_cards_one_in_each_hand() -> None:
    """With down cards A♠ K♠ 2♦, every legal split has a down card on each side."""
    cards = "As Ks 2d 9h 8c 6h 5c"
    down = {"As", "Ks", "2d"}
    for key, (_, _, legal) in _split(cards, down="As Ks 2d").items():
        two = set(key.split())
        if legal:
            assert two & down and (down - two)
    up_only = " ".join(sorted(["9h", "8c"]))
    assert _split(cards, down="As Ks 2d")[up_only][2] is False


def test_batch_matches_single() -> None:
    rng = np.random.default_rng(7)
    hands = random_hands(rng, 500, 7)
    down = rng.random((500, 7)) < 0.5
    batch = cowpie_splits(hands, down)
    for i in range(0, 500, 97):
        single = cowpie_splits(hands[i], down[i])
        assert (single.legal == batch.legal[i]).all() and (single.five == batch.five[i]).all()
    for i, (a, b) in enumerate(SPLITS):
        rest = [j for j in range(7) if j not in (a, b)]
        assert (batch.five[:, i] == evaluate_high(hands[:, rest])).all()
        assert (batch.two[:, i] == two_card_strength(hands[:, [a, b]])).all()


def test_legality_against_the_definition() -> None:
    """The batched legality equals five_outranks_two plus the face-down rule."""
    rng = np.random.default_rng(8)
    hands = random_hands(rng, 300, 7)
    down = rng.random((300, 7)) < 0.45
    batch = cowpie_splits(hands, down)
    for h, d, legal in zip(hands, down, batch.legal, strict=True):
        for i, (a, b) in enumerate(SPLITS):
            rest = [j for j in range(7) if j not in (a, b)]
            expect = five_outranks_two(h[rest], h[[a, b]]) and (d[a] or d[b]) and d[rest].any()
            assert legal[i] == expect


@given(st.integers(0, 2**32 - 1))
def test_a_legal_split_always_exists(seed: int) -> None:
    """Any hand with at least two face-down cards has a legal split (Cowpie deals three)."""
    rng = np.random.default_rng(seed)
    hands = random_hands(rng, 256, 7)
    down = np.zeros((256, 7), bool)
    for row in range(256):
        down[row, rng.choice(7, size=int(rng.integers(2, 8)), replace=False)] = True
    assert cowpie_splits(hands, down).legal.any(axis=1).all()


def test_every_down_pattern_on_a_sample() -> None:
    hands = random_hands(np.random.default_rng(9), 2000, 7)
    for count in range(2, 8):
        for pattern in itertools.combinations(range(7), count):
            down = np.zeros((2000, 7), bool)
            down[:, list(pattern)] = True
            assert cowpie_splits(hands, down).legal.any(axis=1).all()
    one_down = np.zeros((2000, 7), bool)
    one_down[:, 0] = True
    assert not cowpie_splits(hands, one_down).legal.any()  # both hands need a down card


def test_bad_split_input() -> None:
    with pytest.raises(ValueError, match="7 cards"):
        cowpie_splits(parse("As Ks Qs Js Ts"), [True] * 5)
    with pytest.raises(ValueError, match="shape"):
        cowpie_splits(parse("As Ks Qs Js Ts 2c 3c"), [True] * 6)
    with pytest.raises(ValueError, match="same card twice"):
        cowpie_splits([0, 1, 2, 3, 4, 5, 5], [True] * 7)
