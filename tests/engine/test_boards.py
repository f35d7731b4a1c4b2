"""Two hole cards plus three of one board (Chowaha, Omaha), against PokerKit."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from envs.engine.cards import format_card, format_cards, parse
from envs.engine.hands import NO_LOW, best_board_hands, describe_high, describe_low, evaluate_high, evaluate_low
from tests.engine.helpers import random_hands

LAYOUT_BOARDS = [[0, 1, 2, 9, 11], [3, 4, 5, 9, 11], [3, 4, 5, 10, 11], [6, 7, 8, 10, 11]]
SEED_LAYOUT = {  # docs/rules.md section 6 / the Chowaha seed's example
    "top": "Ks Kd 9c",
    "middle": "7h 4s 2d",
    "bottom": "Jc Tc 3h",
    "upper": "5c",
    "lower": "Qc",
    "river": "8s",
}


def seed_boards() -> list[list[int]]:
    L = {k: parse(v) for k, v in SEED_LAYOUT.items()}
    return [
        L["top"] + L["upper"] + L["river"],
        L["middle"] + L["upper"] + L["river"],
        L["middle"] + L["lower"] + L["river"],
        L["bottom"] + L["lower"] + L["river"],
    ]


def test_seed_example() -> None:
    a = best_board_hands(parse("Ac 3c"), seed_boards())
    b = best_board_hands(parse("Kh Kc"), seed_boards())
    assert describe_high(a.high) == "ace-high flush" and a.high_board == 3
    assert set(a.high_cards.tolist()) == set(parse("Ac 3c Qc Jc Tc"))
    assert describe_low(a.low) == "5-4-3-2-A" and a.low_board == 1
    assert set(a.low_cards.tolist()) == set(parse("Ac 3c 2d 4s 5c"))
    assert describe_high(b.high) == "four of a kind, kings" and b.high_board == 0
    assert b.low == NO_LOW and b.low_board == -1
    assert b.high > a.high and a.low > b.low


def test_must_use_exactly_two_hole_cards() -> None:
    # A board flush does not count with off-suit hole cards.
    flush_board = parse("2h 5h 9h Jh Kh")
    r = best_board_hands(parse("Ac Ad"), [flush_board])
    assert describe_high(r.high) == "pair of aces"
    # Four hole cards: only two may be used (no three aces).
    r4 = best_board_hands(parse("Ac Ad As 2c"), [parse("Ah 7d 8s Tc 3c")])
    assert describe_high(r4.high) == "three of a kind, aces"  # two aces in hand + the board ace


def _pokerkit_best(kind, hole: str, boards: list[str]):
    best = None
    for b in boards:
        try:
            hand = kind.from_game(hole, b)
        except ValueError:
            continue
        best = hand if best is None or hand > best else best
    return best


@pytest.mark.parametrize("hole_cards", [2, 4])
@pytest.mark.parametrize("count", [400, pytest.param(20_000, marks=pytest.mark.slow)], ids=["400", "20k"])
def test_agrees_with_pokerkit_over_four_boards(hole_cards: int, count: int) -> None:
    pokerkit = pytest.importorskip("pokerkit")
    rng = np.random.default_rng(hole_cards)
    deals = random_hands(rng, count, hole_cards + 12)
    hole, layout = deals[:, :hole_cards], deals[:, hole_cards:]
    boards = layout[:, LAYOUT_BOARDS]
    ours = best_board_hands(hole, boards)
    for kind, values, qualified in (
        (pokerkit.OmahaHoldemHand, ours.high, None),
        (pokerkit.OmahaEightOrBetterLowHand, ours.low, ours.low != NO_LOW),
    ):
        theirs = []
        for h, bs in zip(hole, boards, strict=True):
            text = [format_cards(b).replace(" ", "") for b in bs]
            theirs.append(_pokerkit_best(kind, format_cards(h).replace(" ", ""), text))
        if qualified is not None:
            assert qualified.tolist() == [t is not None for t in theirs]
        ranked = sorted((int(v), t) for v, t in zip(values, theirs, strict=True) if t is not None)
        for (v1, t1), (v2, t2) in itertools.pairwise(ranked):
            assert (v1 == v2) == (t1 == t2) and (v1 < v2) == (t1 < t2), (t1, t2)


def test_cards_used_make_the_reported_value() -> None:
    deals = random_hands(np.random.default_rng(11), 500, 14)
    hole, boards = deals[:, :2], deals[:, 2:][:, LAYOUT_BOARDS]
    r = best_board_hands(hole, boards)
    assert (evaluate_high(r.high_cards) == r.high).all()
    has_low = r.low != NO_LOW
    assert (evaluate_low(r.low_cards[has_low], qualifier=8) == r.low[has_low]).all()
    for i in range(500):
        assert set(r.high_cards[i, :2].tolist()) == set(hole[i].tolist())
        assert set(r.high_cards[i, 2:].tolist()) <= set(boards[i, r.high_board[i]].tolist())
        if has_low[i]:
            assert set(r.low_cards[i, 2:].tolist()) <= set(boards[i, r.low_board[i]].tolist())


def test_boards_broadcast_over_players() -> None:
    deals = random_hands(np.random.default_rng(12), 1, 12 + 2 * 6)[0]
    boards = deals[:12][LAYOUT_BOARDS]
    hole = deals[12:].reshape(6, 2)
    shared = best_board_hands(hole, boards)
    assert shared.high.shape == (6,)
    for i in range(6):
        assert best_board_hands(hole[i], boards).high == shared.high[i]
    assert best_board_hands(np.empty((0, 2), int), boards).high.shape == (0,)


def test_high_only_and_no_qualifier() -> None:
    r = best_board_hands(parse("Kc Qd"), [parse("9h 8s 7d 6c 2h")], qualifier=None)
    assert r.low != NO_LOW and describe_low(r.low).startswith("K-Q")


def test_bad_board_input() -> None:
    with pytest.raises(ValueError, match="distinct"):
        best_board_hands(parse("Ac 3c"), [parse("Ac 5d 6h 7s 8c")])
    with pytest.raises(ValueError, match="boards"):
        best_board_hands(parse("Ac 3c"), [parse("2c 5d 6h 7s")])
    assert format_card(0) == "2c"


def test_many_hole_cards_match_brute_force() -> None:
    """Chowaha's remaining_as_hole gives up to 20 hole cards (7,600 combinations)."""
    deals = random_hands(np.random.default_rng(13), 6, 32)
    for deal in deals:
        hole, boards = deal[:20], deal[20:][LAYOUT_BOARDS]
        r = best_board_hands(hole, boards)
        hands = [
            list(p) + list(t)
            for p in itertools.combinations(hole, 2)
            for b in boards
            for t in itertools.combinations(b, 3)
        ]
        assert r.high == int(evaluate_high(np.array(hands)).max())
        assert r.low == int(evaluate_low(np.array(hands), qualifier=8).max())
        assert evaluate_high(r.high_cards) == r.high
