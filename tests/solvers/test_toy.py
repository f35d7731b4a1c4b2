"""Toy stud's rules as data: options, cards, hand ranking, the betting round, counts."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from solvers.infosets import InfoSets
from solvers.toy import (
    CHECK_CALL,
    FOLD,
    RAISE,
    BetRound,
    ToyParams,
    category_of,
    hand_key,
    hand_keys,
    info_set_counts,
)
from solvers.tree import PublicTree


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ranks": "JQKX"}, "'X' is not one of"),
        ({"ranks": "JJQ"}, "appears twice"),
        ({"ranks": "A"}, "at least 2"),
        ({"ranks": 23}, "expected letters"),
        ({"suits": "cx"}, "'x' is not one of"),
        ({"suits": ""}, "at least 1"),
        ({"streets": 0}, "streets=0"),
        ({"streets": 5}, "in 1..4"),
        ({"streets": True}, "streets=True"),
        ({"ante": 0}, "ante=0"),
        ({"small_bet": 1.5}, "small_bet=1.5"),
        ({"big_bet": -2}, "big_bet=-2"),
        ({"raise_cap": 0}, "raise_cap=0"),
        ({"raise_cap": 9}, "in 1..4"),
        ({"ranks": "KA", "suits": "cd", "streets": 2}, "has 4 cards; streets=2 deals 6"),
    ],
    ids=lambda v: str(v) if isinstance(v, dict) else "",
)
def test_bad_options_are_clear_errors(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ToyParams(**options)


def test_unknown_option_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown option 'rank' for toy_stud; known options: ranks, suits"):
        ToyParams.from_options({"rank": "KA"})


def test_long_input_is_truncated_in_errors() -> None:
    with pytest.raises(ValueError) as err:
        ToyParams(ranks="Z" * 500)
    assert len(str(err.value)) < 200


def test_ranks_and_suits_are_sets_in_engine_order() -> None:
    assert ToyParams(ranks="AKQJ", suits="hdc") == ToyParams()
    assert ToyParams().num_cards == 12


def test_action_constants_match_the_engine_layout() -> None:
    from envs.engine import actions

    assert (FOLD, CHECK_CALL, RAISE) == (actions.FOLD, actions.CHECK_CALL, actions.RAISE)


def test_engine_cards_match_the_engine_encoding() -> None:
    from envs.engine.cards import parse

    params = ToyParams(ranks="9TJQKA", suits="cdhs")
    texts = [params.card_text(c) for c in range(params.num_cards)]
    assert params.engine_cards().tolist() == parse(" ".join(texts))
    assert texts[:5] == ["9c", "9d", "9h", "9s", "Tc"]


def _engine_key(ranks: tuple[int, ...]) -> tuple:
    from envs.variants.stud import showing_key

    return showing_key([r * 4 for r in ranks], ace_low=False)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_hand_order_matches_the_engine_showing_order(size: int) -> None:
    """Rank-only hands compare as the stud engine compares showing hands (no straights
    or flushes), for every pair of multisets of up to five ranks out of four."""
    hands = [h for h in itertools.combinations_with_replacement(range(4), size) if max(map(h.count, h)) <= 4]
    for a, b in itertools.product(hands, repeat=2):
        ours = (hand_key(a) > hand_key(b)) - (hand_key(a) < hand_key(b))
        theirs = (_engine_key(a) > _engine_key(b)) - (_engine_key(a) < _engine_key(b))
        assert ours == theirs, (a, b)


@pytest.mark.parametrize(
    ("ranks", "category"),
    [((0, 1, 2), "high card"), ((2, 2, 0), "pair"), ((1, 1, 1), "three of a kind"), ((3, 3, 1, 1), "two pair"),
     ((2, 2, 2, 0, 0), "full house"), ((1, 1, 1, 1), "four of a kind")],
)  # fmt: skip
def test_categories(ranks: tuple[int, ...], category: str) -> None:
    assert category_of(hand_key(ranks)) == category


def test_vectorised_keys_equal_the_scalar_keys() -> None:
    hands = np.array(list(itertools.product(range(5), repeat=3)))
    assert hand_keys(hands, 5).tolist() == [hand_key(tuple(h)) for h in hands]


@pytest.mark.parametrize(
    ("cap", "sequences"),
    [
        (1, {"kk", "kbf", "kbc", "bf", "bc"}),
        (2, {"kk", "kbf", "kbc", "kbrf", "kbrc", "bf", "bc", "brf", "brc"}),
    ],
)
def test_betting_round_sequences(cap: int, sequences: set[str]) -> None:
    """Check or bet; fold only facing a bet; at most ``cap`` bets and raises."""
    bet = BetRound(cap)
    leaves = {n for n in bet.nodes if n.kind != "decision"}
    text = set()
    for leaf in leaves:
        chars = []
        for _, action, _ in leaf.path:
            if action == FOLD:
                chars.append("f")
            elif action == CHECK_CALL:
                chars.append("c" if any(c in "br" for c in chars) else "k")
            else:
                chars.append("r" if any(c in "br" for c in chars) else "b")
        text.add("".join(chars))
    assert text == sequences
    assert all(FOLD not in n.actions for n in bet.decisions if n.units[0] == n.units[1])
    assert all(n.units[0] == n.units[1] for n in bet.ends)  # a round closes level: no odd chip at showdown
    assert bet.root.decision == 0


@pytest.mark.parametrize(
    "options",
    [{"ranks": "KA", "suits": "cd", "streets": 1}, {"ranks": "QKA", "suits": "cd", "streets": 2, "raise_cap": 1},
     {"ranks": "KA", "suits": "cdh", "streets": 2, "raise_cap": 3}, {"ranks": "9TJQKA", "suits": "c", "streets": 2}],
    ids=["KAcd1", "QKAcd2cap1", "KAcdh2cap3", "9TJQKAc2"],
)  # fmt: skip
def test_counts_by_formula_equal_the_enumeration(options: dict) -> None:
    params = ToyParams(**options)
    infosets = InfoSets(PublicTree(params))
    counts = info_set_counts(params)
    seats = infosets.seats()
    assert infosets.count == counts["total"]
    assert int((seats == 0).sum()) == int((seats == 1).sum()) == counts["per_seat"]


def test_default_counts_match_the_issue_measurements() -> None:
    """Issue 17 measured about 1.43M information sets per player (12 cards) and 7.9M (16)."""
    assert info_set_counts(ToyParams())["per_seat"] == 1_429_560
    assert round(info_set_counts(ToyParams(suits="cdhs"))["per_seat"] / 1e6, 1) == 7.9


def test_first_to_act_is_the_best_showing_hand_ties_to_seat_one() -> None:
    tree = PublicTree(ToyParams(ranks="QKA", suits="cd", streets=2))
    for layer in tree.layers:
        ranks = layer.ups // 2
        keys = np.array([[hand_key(tuple(r)) for r in state] for state in ranks])
        expected = np.where(keys[:, 0] > keys[:, 1], 0, 1)
        assert np.array_equal(layer.first, expected)
        assert (layer.first[: layer.split] == 0).all() and (layer.first[layer.split :] == 1).all()
    assert (tree.layers[0].first == 1).sum() > (tree.layers[0].first == 0).sum()  # ties go to seat 1


def test_the_package_imports_no_env_or_torch() -> None:
    """solvers is pure numpy: importing it loads neither torch, gymnasium nor the envs."""
    import subprocess
    import sys

    heavy = "('torch', 'gymnasium', 'pettingzoo', 'envs')"
    code = f"import sys, solvers; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
