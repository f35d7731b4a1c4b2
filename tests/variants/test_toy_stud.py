"""Scripted toy stud hands: every rule of docs/rules.md section 10."""

from __future__ import annotations

import itertools

import pytest

from envs.engine.actions import CHECK_CALL, FOLD, RAISE
from envs.engine.cards import parse
from envs.engine.hands.short import evaluate_short
from envs.engine.state import State
from envs.variants import make_game
from tests.variants.scripted import act, call_down


def toy_hand(hands: dict[int, str], button: int = 0, **options) -> State:  # type: ignore[no-untyped-def]
    """Stack the toy deck: each seat's cards in dealt order (down, up, up...)."""
    order = [(button + 1 + i) % 2 for i in range(2)]
    cards = {seat: parse(text) for seat, text in hands.items()}
    deck = [cards[s][0] for s in order] + [cards[s][1] for s in order]
    for k in range(2, len(cards[0])):
        deck += [cards[s][k] for s in order]
    return make_game("toy_stud", 2, **options).new_state(0, button=button, deck=deck)


def test_the_default_deck_is_four_ranks_in_three_suits() -> None:
    game = make_game("toy_stud", 2)
    assert sorted(game.deck) == sorted(parse("Jc Jd Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah"))
    st = game.new_state(5)
    call_down(st)
    assert sorted(c for pile in st.card_locations().values() for c in pile) == sorted(game.deck)
    assert all(len(c) == 3 for c in st.cards) and st.up == [[False, True, True]] * 2


def test_options_choose_the_deck_and_the_length() -> None:
    game = make_game("toy_stud", 2, ranks="9TJQKA", suits="cdhs", streets=3)
    assert len(game.deck) == 24
    st = game.new_state(1)
    call_down(st)
    assert all(len(c) == 4 for c in st.cards)
    assert [e.text for e in st.events if e.kind == "street"] == ["second street", "third street", "fourth street"]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ranks": "A"}, "ranks='A'"),
        ({"ranks": "JJQ"}, "ranks='JJQ'"),
        ({"ranks": "JQX"}, "ranks='JQX'"),
        ({"suits": "cx"}, "suits='cx'"),
        ({"streets": 4}, "streets=4"),
        ({"ranks": "KA", "suits": "c"}, "a deck of 2 cards"),
        ({"bring_in": 1}, "unknown option 'bring_in'"),
    ],
)
def test_bad_options_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("toy_stud", 2, **options)


def test_two_players_only() -> None:
    with pytest.raises(ValueError, match="num_players=3"):
        make_game("toy_stud", 3)


def test_antes_and_bets_are_one_then_two() -> None:
    st = toy_hand({1: "Jc Qd Kh", 0: "Jd Ac Kd"})
    assert st.committed == [1, 1]  # ante 1 each
    assert st.current_seat == 0 and st.bet_unit == 1  # the ace showing acts first
    act(st, (0, RAISE), (1, CHECK_CALL))
    assert st.committed == [2, 2] and st.street == 1 and st.bet_unit == 2
    act(st, (0, RAISE), (1, CHECK_CALL))
    assert st.payoffs() == [4, -4]  # A-K-J high beats K-Q-J high


def test_no_bring_in_the_best_showing_hand_opens_and_may_check() -> None:
    st = toy_hand({1: "Jc Ad Qh", 0: "Jd Kc Qd"})
    assert st.current_seat == 1 and st.legal_actions() == [CHECK_CALL, RAISE]
    act(st, (1, CHECK_CALL), (0, CHECK_CALL))
    assert st.current_seat == 1  # second round: A-Q against K-Q, the ace still shows best


def test_a_pair_showing_opens_the_second_round() -> None:
    st = toy_hand({1: "Jc Ad Qh", 0: "Jd Kc Kd"})
    call_down(st, streets=[0])
    assert st.street == 1 and st.current_seat == 0  # K-K showing beats A-Q


def test_showing_ties_go_to_the_player_left_of_the_button() -> None:
    for button in (0, 1):
        st = toy_hand({1: "Jc Ad Qh", 0: "Jd Ah Qd"}, button=button)
        assert st.current_seat == 1 - button  # aces tie (suits never count)


def test_raise_cap_is_a_bet_and_one_raise_also_heads_up() -> None:
    st = toy_hand({1: "Jc Qd Kh", 0: "Jd Ac Kd"})
    act(st, (0, RAISE), (1, RAISE))
    assert st.bets == 2 and st.legal_actions() == [FOLD, CHECK_CALL]


def test_fold_when_facing_a_bet_only() -> None:
    st = toy_hand({1: "Jc Qd Kh", 0: "Jd Ac Kd"})
    assert FOLD not in st.legal_actions()
    act(st, (0, RAISE), (1, FOLD))
    assert st.payoffs() == [1, -1]


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("Jc Jd Jh", "Ac Ad Kh"),  # trips beat a pair
        ("Jc Jd Qh", "Ac Kd Qd"),  # a pair beats high card
        ("Kc Kd Jh", "Qc Qd Ah"),  # pairs by rank
        ("Kc Kd Qh", "Kh Ks Jd"),  # then the kicker
        ("Ac Qd Jh", "Kc Qh Jd"),  # high cards rank by rank from the top
        ("Ac Kd Jh", "Ad Qh Jc"),
    ],
)
def test_short_hands_rank_as_rules_section_ten(better: str, worse: str) -> None:
    assert evaluate_short(parse(better)) > evaluate_short(parse(worse))


def test_suits_never_break_ties_and_ties_split_the_pot() -> None:
    assert evaluate_short(parse("Ac Kd Qh")) == evaluate_short(parse("Ad Kh Qc"))
    st = toy_hand({1: "Qc Ac Kd", 0: "Qd Ad Kh"})
    call_down(st)
    assert st.payoffs() == [0, 0]


def test_four_card_hands_rank_two_pair_between_trips_and_a_pair() -> None:
    trips, two_pair, pair = (evaluate_short(parse(h)) for h in ("Jc Jd Jh Ac", "Kc Kd Qc Qd", "Ac Ad Kh Qh"))
    assert trips > two_pair > pair


def test_short_values_order_all_three_card_hands_like_the_showing_rule() -> None:
    from envs.variants.stud.rules import showing_key

    cards = parse("Jc Jd Jh Qc Qd Qh Kc Kd Kh Ac Ad Ah")
    hands = [list(h) for h in itertools.combinations(cards, 3)]
    values = [evaluate_short(h) for h in hands]
    keys = [showing_key(h, ace_low=False) for h in hands]
    for i in range(0, len(hands), 7):
        for j in range(len(hands)):
            assert (values[i] > values[j]) == (keys[i] > keys[j])
            assert (values[i] == values[j]) == (keys[i] == keys[j])
