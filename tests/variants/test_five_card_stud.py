"""Scripted five-card stud hands with stacked decks: every rule of docs/rules.md section 8."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.cards import parse
from envs.engine.errors import IllegalActionError
from envs.engine.state import State
from envs.variants import make_game
from tests.variants.scripted import act, call_down

STREETS = ("second street", "third street", "fourth street", "fifth street")


def five_card_deck(n: int, button: int, hands: dict[int, str], last: dict[int, int] | None = None) -> list[int]:
    """A deck (top first) dealing each seat its five cards in dealt order: down, up
    (second street), up, up, up. ``last[seat]``: the last street (0 = second .. 3 =
    fifth) on which the seat is still in when cards are dealt."""
    last = last or {}
    order = [(button + 1 + i) % n for i in range(n)]
    cards = {seat: parse(text) for seat, text in hands.items()}
    deck = [cards[s][k] for k in range(2) for s in order]
    for street in range(1, 4):
        deck += [cards[s][street + 1] for s in order if last.get(s, 3) >= street]
    return deck


def new_hand(n: int, hands: dict[int, str], button: int = 0, last=None, **options) -> State:  # type: ignore[no-untyped-def]
    return make_game("five_card_stud", n, **options).new_state(
        0, button=button, deck=five_card_deck(n, button, hands, last)
    )


def test_one_down_one_up_then_three_up_with_four_betting_rounds() -> None:
    st = new_hand(2, {1: "2h 9d Kd Qc 3s", 0: "4c 8c 7h Jc As"}, ante=1)
    call_down(st)
    assert [e.text for e in st.events if e.kind == "street"] == list(STREETS)
    assert st.up == [[False, True, True, True, True]] * 2
    assert [len(c) for c in st.cards] == [5, 5]
    bets = [e for e in st.events if e.kind == "action"]
    assert {e.street for e in bets} == {0, 1, 2, 3}  # a betting round after every street
    assert st.payoffs() == [2, -2]  # ace-high beats king-high: an ante and the bring-in each


def test_lowest_up_card_brings_in_by_suit_and_cannot_fold() -> None:
    hands = {1: "Ah 5d", 2: "Ad 5c", 0: "As Ks"}
    st = new_hand(3, hands, last={0: 0, 1: 0, 2: 0})
    assert st.current_seat == 2  # 5 of clubs below 5 of diamonds
    assert st.legal_actions() == [BRING_IN, RAISE]
    with pytest.raises(IllegalActionError):
        st.apply(FOLD)
    act(st, (2, BRING_IN))
    assert st.legal_actions() == [FOLD, CHECK_CALL, RAISE]
    act(st, (0, RAISE))  # completes to the small bet: the opening bet, not a raise
    assert st.contrib[0] == 2 and st.bets == 1 and st.events[-1].text == "completes to"


def test_aces_are_high_for_the_bring_in() -> None:
    st = new_hand(2, {1: "2h Ac", 0: "3d 2d"}, last={0: 0, 1: 0})
    assert st.current_seat == 0  # the deuce, not the ace, brings in


def test_without_a_bring_in_the_highest_card_opens_and_may_check_ties_clockwise() -> None:
    hands = {1: "2h 9d", 2: "2d 9s", 0: "4c 8c"}
    st = new_hand(3, hands, last={0: 0, 1: 0, 2: 0}, bring_in=None)
    assert st.current_seat == 1  # the nines tie (suits do not count): first seat left of the button
    assert st.legal_actions() == [CHECK_CALL, RAISE]


def test_best_showing_hand_acts_first_from_third_street() -> None:
    hands = {1: "2h 3h Kd", 2: "2d 4d 4s", 0: "7c 9c Ac"}
    st = new_hand(3, hands, last={0: 1, 1: 1, 2: 1})
    call_down(st, streets=[0])
    assert st.street == 1 and st.current_seat == 2  # the open pair of fours shows best


def test_showing_ties_go_to_the_first_seat_clockwise_from_the_button() -> None:
    hands = {1: "2h Kd 7s", 2: "3d Kc 7c", 0: "9c 8c 6d"}
    st = new_hand(3, hands, button=0, last={0: 1, 1: 1, 2: 1})
    call_down(st, streets=[0])
    assert st.street == 1 and st.current_seat == 1  # K-7 against K-7: seat 1 is first from the button


def test_small_bets_then_big_bets() -> None:
    st = new_hand(2, {1: "2h 9d Kd Qc 3s", 0: "4c 8c 7h Jc As"}, small_bet=3, big_bet=6, bring_in=1)
    units = {}
    while not st.is_over:
        legal = st.legal_actions()
        units[st.street] = st.bet_unit
        st.apply(BRING_IN if BRING_IN in legal else CHECK_CALL)
    assert units == {0: 3, 1: 3, 2: 6, 3: 6}


def test_open_pair_on_third_street_allows_the_big_bet() -> None:
    hands = {1: "2h 9d 9s", 0: "4c 8c 7h"}
    plain = new_hand(2, hands, last={0: 1, 1: 1})
    call_down(plain, streets=[0])
    assert plain.street == 1 and plain.bet_unit == 2
    pair = new_hand(2, hands, last={0: 1, 1: 1}, open_pair_big_bet=True)
    call_down(pair, streets=[0])
    assert pair.street == 1 and pair.bet_unit == 4


def test_raise_cap_and_no_cap_heads_up() -> None:
    hands = {1: "2h 9d", 2: "3d Kc", 0: "7c Ac"}
    st = new_hand(3, hands, last={0: 0, 1: 0, 2: 0})
    act(st, (1, BRING_IN), (2, RAISE), (0, RAISE), (1, RAISE), (2, RAISE))
    assert st.bets == 4 and st.legal_actions() == [FOLD, CHECK_CALL]  # capped at four
    heads_up = new_hand(2, {1: "2h 9d", 0: "7c Ac"}, last={0: 0, 1: 0})
    act(heads_up, (1, BRING_IN), (0, RAISE), (1, RAISE), (0, RAISE), (1, RAISE))
    assert heads_up.bets == 4 and RAISE in heads_up.legal_actions()  # no cap heads-up ...
    capped = new_hand(2, {1: "2h 9d", 0: "7c Ac"}, last={0: 0, 1: 0}, cap_heads_up=True)
    act(capped, (1, BRING_IN), (0, RAISE), (1, RAISE), (0, RAISE), (1, RAISE))
    assert RAISE not in capped.legal_actions()  # ... unless cap_heads_up


def test_showdown_best_five_card_high_hand_and_odd_chips_by_suit() -> None:
    hands = {1: "Kh 2d 3c 4h 7s", 0: "Ks 2c 3d 4c 7d"}  # the same ranks: a tie
    st = new_hand(2, hands, ante=1, bring_in=None)
    call_down(st)
    assert st.payoffs() == [0, 0]
    three = new_hand(3, {1: "Kh 2d 3c 4h 7s", 2: "Ks 2c 3d 4c 7d", 0: "2h 5c 6c 8d 9h"}, ante=1, bring_in=None)
    call_down(three)
    # 3 antes split by two tied hands: the odd chip to the highest card by suit (K of spades)
    assert three.payoffs() == [-1, 0, 1]


def test_folded_players_up_cards_stay_visible() -> None:
    env = envs.make_raw("five_card_stud", 3)
    deck = five_card_deck(3, 0, {1: "2h 9d Kd", 2: "3d Kc 4s", 0: "7c Ac 5h"}, last={0: 1, 1: 0, 2: 1})
    env.reset(options={"deck": deck, "button": 0})
    for seat, action in ((1, BRING_IN), (2, RAISE), (0, CHECK_CALL), (1, FOLD)):  # the 9d brings in, then folds
        assert env.agent_selection == f"player_{seat}"
        env.step(action)
    assert env.state.street == 1
    view = env.public_view("player_0")
    assert view.folded[1] and view.up_cards[1] == (parse("9d")[0],)


def test_ten_players_all_get_five_cards_even_with_burns() -> None:
    game = make_game("five_card_stud", 10, burn_cards=True)
    for seed in range(20):
        st = game.new_state(seed)
        call_down(st)
        assert st.is_over and all(len(c) == 5 for c in st.cards)
        burns = [e for e in st.events if e.kind == "burn"]
        assert len(burns) == 2  # 50 cards dealt: the two spare cards are burned, then burns are skipped
        assert sorted(c for pile in st.card_locations().values() for c in pile) == list(range(52))


def test_burns_resume_when_players_fold() -> None:
    game = make_game("five_card_stud", 10, burn_cards=True)
    st = game.new_state(3)
    while st.street == 0:  # everyone but the bring-in and one caller folds on second street
        legal = st.legal_actions()
        live = st.live_count()
        st.apply(BRING_IN if BRING_IN in legal else (CHECK_CALL if live <= 2 or FOLD not in legal else FOLD))
    call_down(st)
    assert len([e for e in st.events if e.kind == "burn"]) == 4  # spare cards again: one burn per street


def test_stacks_and_side_pots() -> None:
    hands = {1: "Ah Kd Ks Kc 2d", 2: "Qh Qd Qs 3c 4d", 0: "Jh Jd 9s 9c 5d"}
    st = new_hand(3, hands, stack=(30, 3, 30), bring_in=None)
    while not st.is_over:
        legal = st.legal_actions()
        st.apply(RAISE if RAISE in legal else CHECK_CALL)
    # seat 1 (trip kings, all-in for 3) wins the main pot; seat 2 (trip queens) the side pot
    assert st.payoffs()[1] == 6 and st.payoffs()[2] > 0 and sum(st.payoffs()) == 0


@pytest.mark.parametrize("seed", range(10))
def test_random_hands_conserve_chips_and_deal_distinct_cards(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 11))
    st = make_game("five_card_stud", n, ante=1).new_state(seed)
    while not st.is_over:
        legal = st.legal_actions()
        st.apply(int(rng.choice(legal)))
    assert sum(st.payoffs()) == 0
    dealt = [c for cards in st.cards for c in cards]
    assert len(dealt) == len(set(dealt))
