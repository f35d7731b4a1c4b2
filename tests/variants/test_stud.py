"""Scripted stud hands with stacked decks: every rule of docs/rules.md sections 1-3."""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import (
    BRING_IN,
    CHECK_CALL,
    DECLARE_BOTH,
    DECLARE_HIGH,
    DECLARE_LOW,
    FOLD,
    RAISE,
)
from envs.engine.cards import parse
from envs.engine.errors import IllegalActionError
from envs.engine.hands import evaluate_high
from envs.engine.history import HandRecord
from envs.variants import make_game, replay
from tests.variants.scripted import act, call_down, stud_deck


def new_hand(name: str, n: int, hands: dict[int, str], button: int = 0, last=None, **options):  # type: ignore[no-untyped-def]
    game = make_game(name, n, **options)
    return game.new_state(0, button=button, deck=stud_deck(n, button, hands, last))


# --------------------------------------------------------------------- bring-in
def test_bring_in_by_suit_two_of_clubs_before_two_of_diamonds() -> None:
    hands = {1: "Ah Kh 2d", 2: "Ad Kd 2c", 0: "As Kc Ks"}
    st = new_hand("stud", 3, hands, last={0: 0, 1: 0, 2: 0}, ante=1)
    assert st.current_seat == 2
    assert st.legal_actions() == [BRING_IN, RAISE]  # post or complete; no fold
    act(st, (2, BRING_IN), (0, FOLD), (1, FOLD))
    assert st.payoffs() == [-1, -1, 2]


def test_razz_bring_in_by_king_of_spades_and_aces_low() -> None:
    hands = {1: "2h 3h Kh", 2: "2d 3d Ks", 0: "4c 5c Ac"}
    last = {0: 0, 1: 0, 2: 0}
    assert new_hand("razz", 3, hands, last=last).current_seat == 2  # K♠ is the highest card
    assert new_hand("stud", 3, hands, last=last).current_seat == 1  # stud: K♥ lowest (aces high)


def test_no_bring_in_highest_card_acts_and_may_check() -> None:
    hands = {1: "2h 3h 9d", 2: "2d 3d 9s", 0: "4c 5c 8c"}
    st = new_hand("stud", 3, hands, last={0: 0, 1: 0, 2: 0}, bring_in=None)
    assert st.current_seat == 1  # nines tie: suits do not count, first seat left of the button
    assert st.legal_actions() == [CHECK_CALL, RAISE]
    razz = new_hand("razz", 3, hands, last={0: 0, 1: 0, 2: 0}, bring_in=None)
    assert razz.current_seat == 0  # razz: the lowest card (8) acts first


def test_bring_in_cannot_fold_and_completion_is_the_opening_bet() -> None:
    hands = {1: "Ah Kh 2c", 2: "Ad Kd 9d", 0: "As Kc Ts"}
    st = new_hand("stud", 3, hands, last={0: 0, 1: 0, 2: 0})
    with pytest.raises(IllegalActionError, match="fold"):
        st.apply(FOLD)
    act(st, (1, BRING_IN))
    assert st.legal_actions() == [FOLD, CHECK_CALL, RAISE]
    act(st, (2, RAISE))  # completes to the small bet
    assert st.contrib[2] == 2 and st.bets == 1
    assert st.events[-1].text == "completes to"


# -------------------------------------------------------------------------- cap
def _cap_hand(**options):  # type: ignore[no-untyped-def]
    hands = {1: "Ah Kh 2c Js", 2: "Ad Kd 9d 9s", 0: "As Kc Td 3c"}
    return new_hand("stud", 3, hands, last={0: 1, 1: 1, 2: 1}, **options)


def test_completion_and_raises_count_toward_the_cap() -> None:
    st = _cap_hand()
    act(st, (1, BRING_IN), (2, RAISE), (0, RAISE), (1, RAISE), (2, RAISE))
    assert st.bets == 4 and st.current_bet == 8  # completion to 2, raises to 4, 6, 8
    assert st.legal_actions() == [FOLD, CHECK_CALL]  # capped
    act(st, (0, CHECK_CALL), (1, CHECK_CALL))
    # fourth street: the pair of nines showing acts first, bets; the others fold
    act(st, (2, RAISE), (0, FOLD), (1, FOLD))
    assert st.payoffs() == [-8, -8, 16]


def test_cap_lifted_heads_up_unless_cap_heads_up() -> None:
    hands = {1: "Ah Kh 2c", 0: "As Kc Td"}
    for cap_heads_up, can_raise in ((False, True), (True, False)):
        st = new_hand("stud", 2, hands, last={0: 0, 1: 0}, cap_heads_up=cap_heads_up)
        act(st, (1, BRING_IN), (0, RAISE), (1, RAISE), (0, RAISE), (1, RAISE))
        assert st.bets == 4
        assert (RAISE in st.legal_actions()) == can_raise


def test_cap_lifts_when_a_fold_leaves_two_players() -> None:
    st = _cap_hand()
    act(st, (1, BRING_IN), (2, RAISE), (0, FOLD), (1, RAISE), (2, RAISE), (1, RAISE))
    assert st.bets == 4 and RAISE in st.legal_actions()


# ------------------------------------------------------------- later streets
def test_best_showing_hand_ties_go_to_first_seat_left_of_button() -> None:
    hands = {0: "2c 3c 2d 8c", 1: "Ah Kh Qd 9c", 2: "Ad Kd Qs 9h"}
    last = {0: 1, 1: 1, 2: 1}
    for button, first in ((0, 1), (1, 2)):
        st = new_hand("stud", 3, {**hands, 1: "Ah Kh Qd 9c", 2: "Ad Kd Qs 9h"}, button=button, last=last)
        call_down(st, streets=[0])
        assert st.street == 1
        assert st.current_seat == first  # Q-9 showing twice: first clockwise from the button


def test_razz_lowest_board_acts_first_and_pairs_count_against() -> None:
    hands = {0: "Kc Qc 2d 2h", 1: "Kh Qh 7d 8c", 2: "Kd Qd 9s Ts"}
    st = new_hand("razz", 3, hands, last={0: 1, 1: 1, 2: 1})
    call_down(st, streets=[0])
    assert st.current_seat == 1  # 8-7 is lower than 2-2 (a pair) and T-9


@pytest.mark.parametrize(("option", "pair", "unit"), [(True, True, 4), (True, False, 2), (False, True, 2)])
def test_open_pair_on_fourth_street_allows_the_big_bet(option: bool, pair: bool, unit: int) -> None:
    fourth = "7d" if pair else "8d"
    hands = {1: f"Ah Kh 7c {fourth}", 0: "As Kc 2c 9s"}
    st = new_hand("stud", 2, hands, last={0: 1, 1: 1}, open_pair_big_bet=option)
    call_down(st, streets=[0])
    assert st.street == 1 and st.bet_unit == unit
    seat = st.current_seat
    st.apply(RAISE)
    assert st.contrib[seat] == unit


def test_eight_players_all_in_get_a_community_card() -> None:
    game = make_game("stud", 8)
    st = game.new_state(3, button=0)
    call_down(st)
    assert len(st.community) == 1 and all(len(c) == 6 for c in st.cards)
    # The showdown used the community card as everyone's seventh card.
    strengths = [evaluate_high(st.cards[s] + st.community) for s in range(8)]
    best = max(strengths)
    assert [p > 0 for p in st.payoffs()] == [v == best for v in strengths]
    assert any(e.kind == "community" for e in st.events)


def test_burned_cards_are_reused_before_a_community_card() -> None:
    st = make_game("stud", 8, burn_cards=True).new_state(5, button=0)
    call_down(st)
    burns = [e for e in st.events if e.kind == "burn"]
    assert len(burns) == 4  # third to sixth street; the stub is empty at seventh
    assert any(e.kind == "reshuffle" for e in st.events) and len(st.community) == 1
    assert sum(st.payoffs()) == 0


def test_burn_cards_with_few_players_never_reuse() -> None:
    st = make_game("stud", 3, burn_cards=True).new_state(5, button=0)
    call_down(st)
    assert len([e for e in st.events if e.kind == "burn"]) == 5
    assert not st.community and all(len(c) == 7 for c in st.cards)


# ------------------------------------------------------------------ showdowns
def test_three_all_ins_make_two_side_pots_with_high_low_splits() -> None:
    hands = {
        0: "Ah 3d 2c 4s 6h Kd 9c",  # best low 6-4-3-2-A, ace-high
        1: "Qs Qh Qd 8c 7d 5c Js",  # trip queens, no low
        2: "Jh Jd 3c 5d 7c 4h 2s",  # jacks; low 7-5-4-3-2
        3: "Tc Ts 4c 6d 8h 5s 3h",  # tens; low 8-6-5-4-3
    }
    st = new_hand("stud_hilo", 4, hands, button=3, stack=(5, 9, 15, 40), small_bet=5, big_bet=10)
    act(st, (0, BRING_IN), (1, RAISE), (2, RAISE), (3, RAISE), (0, CHECK_CALL), (1, CHECK_CALL), (2, CHECK_CALL))
    assert st.is_over  # nobody left to bet against: the board is dealt out
    assert st.committed == [5, 9, 15, 15]
    # main 20: high Q-Q-Q 10, low 6-4-3-2-A 10; side 12 (1,2,3): high 6, low (7-5-4-3-2) 6;
    # side 12 (2,3): jacks and 7-5-4-3-2 scoop.
    assert st.payoffs() == [10 - 5, 16 - 9, 18 - 15, -15]


def test_no_qualifying_low_high_scoops() -> None:
    hands = {1: "Kh Kd 9c Ts Jd Qc 2s", 0: "Ac Qh 9d Th Js 3c 4d"}
    st = new_hand("stud_hilo", 2, hands, ante=5, bring_in=None)
    call_down(st)
    assert st.payoffs() == [-5, 5]


def test_quartered_low() -> None:
    hands = {
        1: "Ac 2c 3c 4c 6s Kh Kd",  # low 6-4-3-2-A
        2: "Ad 2d 3h 4d 6h Qs Qd",  # the same low
        0: "As Ah Ks Qh Jc 9c 9d",  # high: two pair aces and nines
    }
    st = new_hand("stud_hilo", 3, hands, ante=4, bring_in=None)
    call_down(st)
    assert st.payoffs() == [6 - 4, 3 - 4, 3 - 4]  # low half of 12 shared: a quarter each


def test_odd_chip_goes_to_the_high_half() -> None:
    hands = {
        1: "Kh Kd Ks 9c 9d 2s 3s",  # full house kings
        2: "Ac 2c 3c 4h 6d Jd Qh",  # low 6-4-3-2-A
        0: "5s 7s 8h Th Jh Qc Td",
    }
    st = new_hand("stud_hilo", 3, hands, ante=3, bring_in=None)
    call_down(st)
    assert st.payoffs() == [-3, 5 - 3, 4 - 3]  # pot 9: high 5, low 4


def test_odd_chip_within_a_tied_high_goes_to_the_highest_card_by_suit() -> None:
    hands = {
        1: "As Kd Qh Jc 9d 3c 4h",  # ace-high, holds the ace of spades
        2: "Ah Kc Qd Js 9c 3d 4s",  # the same ranks, highest card the ace of hearts
        0: "2c 5c 7d 8s Th 6h 3h",  # ten-high
    }
    st = new_hand("stud", 3, hands, ante=1, bring_in=None)
    call_down(st)
    assert st.payoffs() == [-1, 2 - 1, 1 - 1]  # pot 3: seats 1 and 2 tie, A♠ gets the odd chip


def test_odd_chip_within_a_tied_low_goes_to_the_lowest_card_by_suit() -> None:
    hands = {
        1: "Ad 2h 3h 4h 6s Kh Kd",  # 6-4-3-2-A, lowest card A♦
        2: "Ac 2d 3d 4d 6h Qs Qd",  # the same low, lowest card A♣
        0: "As Ah Ks Qh Jc 9c 9d",
    }
    st = new_hand("stud_hilo", 3, hands, ante=2, bring_in=None)
    call_down(st)
    # pot 6: high 3 to seat 0; low 3 shared by 1 and 2, the odd chip to A♣ (seat 2)
    assert st.payoffs() == [1, 1 - 2, 2 - 2]


def test_razz_best_low_wins_and_pairs_count_against() -> None:
    hands = {1: "Ac Ad 2h 3h 4h 5c 6c", 0: "Kc Qd Jh 9s 8c 7d Tc"}
    st = new_hand("razz", 2, hands, ante=2, bring_in=None)
    call_down(st)
    assert st.payoffs() == [-2, 2]  # 6-5-4-3-2... wins; K-high unpaired loses


# ------------------------------------------------------------------ declare
DECLARE_HANDS = {
    1: "8c 7d 6h 5s 4c Ad 2d",  # A: eight-high straight; low 6-5-4-2-A
    2: "8d 7c 6s 5h 4d Kc Kd",  # B: the same straight
    0: "Ac 2h 3c 5d 7h 9s Qh",  # C: low 7-5-3-2-A
}


def _declare_hand(rule: str, choices: dict[int, int]):  # type: ignore[no-untyped-def]
    st = new_hand("stud_hilo_declare", 3, DECLARE_HANDS, ante=4, bring_in=None, swing_rule=rule)
    call_down(st)
    for seat in (1, 2, 0):
        assert st.current_seat == seat
        assert st.legal_actions() == [DECLARE_LOW, DECLARE_HIGH, DECLARE_BOTH]
        st.apply(choices[seat])
    return st


def test_swing_declarer_who_ties_wins_under_win_or_tie() -> None:
    st = _declare_hand("win_or_tie", {1: DECLARE_BOTH, 2: DECLARE_HIGH, 0: DECLARE_LOW})
    assert st.payoffs() == [-4, 3 + 6 - 4, 3 - 4]  # high 6 shared by A and B, low 6 to A


def test_swing_declarer_who_ties_loses_everything_under_outright() -> None:
    st = _declare_hand("outright", {1: DECLARE_BOTH, 2: DECLARE_HIGH, 0: DECLARE_LOW})
    assert st.payoffs() == [6 - 4, -4, 6 - 4]  # A is out: high to B, low to C


def test_nobody_declares_low_high_takes_the_pot() -> None:
    st = _declare_hand("win_or_tie", {1: DECLARE_HIGH, 2: DECLARE_HIGH, 0: DECLARE_HIGH})
    assert st.payoffs() == [-4, 2, 2]  # A and B tie for high and share the whole pot


def test_low_declarer_without_a_qualifying_low_cannot_win_low() -> None:
    hands = {1: "Kh Kd 9c Ts Jd Qc 2s", 0: "Ac Qh 9d Th Js 3c 4d"}  # neither has a low
    st = new_hand("stud_hilo_declare", 2, hands, ante=5, bring_in=None)
    call_down(st)
    act(st, (1, DECLARE_LOW), (0, DECLARE_HIGH))
    assert st.payoffs() == [5, -5]  # nobody can take low: the only high declarer scoops


def test_qualifying_low_declarer_and_high_declarer_split() -> None:
    st = _declare_hand("win_or_tie", {1: DECLARE_HIGH, 2: DECLARE_LOW, 0: DECLARE_HIGH})
    assert st.payoffs() == [-4, 2, 2]  # B's 8-7-6-5-4 is the worst qualifying low, still a low


def test_declarations_are_secret_until_all_have_declared() -> None:
    st = new_hand("stud_hilo_declare", 3, DECLARE_HANDS, ante=4, bring_in=None)
    call_down(st)
    st.apply(DECLARE_BOTH)
    assert not any(e.kind == "reveal" for e in st.events)
    assert [e.secret for e in st.events if e.kind == "declare"] == [True]
    st.apply(DECLARE_HIGH)
    st.apply(DECLARE_LOW)
    assert [e.text for e in st.events if e.kind == "reveal"] == ["both", "high", "low"]


def test_everyone_failing_a_swing_chops_the_pot() -> None:
    hands = {1: "Ac 2c 3c 4c 6s Kh Kd", 0: "As Ah Ks Qh Jc 9c 9d"}
    st = new_hand("stud_hilo_declare", 2, hands, ante=4, bring_in=None)
    call_down(st)
    st.apply(DECLARE_BOTH)
    st.apply(DECLARE_BOTH)  # each wins one way only: both fail
    assert st.payoffs() == [0, 0]
    assert any("chopped" in e.text for e in st.events if e.kind == "award")


# ----------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bring_in": 3}, "bring_in=3"),
        ({"ante": -1}, "ante=-1"),
        ({"small_bet": 0}, "small_bet=0"),
        ({"big_bet": 1}, "big_bet=1"),
        ({"raise_cap": 0}, "raise_cap=0"),
        ({"stack": 0}, "stack=0"),
        ({"button": 9}, "button=9"),
        ({"cap_heads_up": "yes"}, "cap_heads_up='yes'"),
        ({"open_pair": True}, "unknown option 'open_pair'"),
    ],
)
def test_bad_options_are_clear_errors(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_game("stud", 3, **options)


def test_option_errors_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match=r"expected an int in 1\.\.2"):
        make_game("stud", 3, bring_in=3)
    with pytest.raises(ValueError, match=r"num_players=9.*2\.\.8"):
        make_game("stud", 9)
    with pytest.raises(ValueError, match="open_pair_big_bet"):
        make_game("razz", 3, open_pair_big_bet=True)  # stud high only
    with pytest.raises(ValueError, match=r"swing_rule='sometimes'.*'win_or_tie', 'outright'"):
        make_game("stud_hilo_declare", 3, swing_rule="sometimes")
    with pytest.raises(ValueError, match="unknown variant 'holdem'"):
        make_game("holdem", 3)


def test_illegal_action_names_action_state_and_legal_set() -> None:
    st = make_game("stud", 2).new_state(0)
    before = (st.current_seat, list(st.committed), len(st.events))
    with pytest.raises(IllegalActionError) as err:
        st.apply(FOLD)
    message = str(err.value)
    assert "illegal action 0 (fold)" in message and "legal actions: bring_in, raise" in message
    assert "third street" in message
    assert "to act player_" in message
    assert (st.current_seat, st.committed, len(st.events)) == before  # nothing changed
    for bad in (99, -1, 1.5, "raise", None, True):
        with pytest.raises(IllegalActionError):
            st.apply(bad)  # type: ignore[arg-type]


def test_stacked_deck_errors() -> None:
    game = make_game("stud", 2)
    with pytest.raises(ValueError, match="twice"):
        game.new_state(0, deck=parse("As Kd") + parse("As"))
    with pytest.raises(ValueError, match="not a card"):
        game.new_state(0, deck=[60])


def test_same_seed_same_hand() -> None:
    game = make_game("stud_hilo", 4)
    a, b = game.new_state(42), game.new_state(42)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    while not a.is_over:
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        choice = legal[int(rng_a.integers(len(legal)))]
        assert choice == legal[int(rng_b.integers(len(legal)))]
        a.apply(choice)
        b.apply(choice)
    assert a.events == b.events and a.payoffs() == b.payoffs()


@pytest.mark.parametrize("name", ["stud", "cowpie", "cowboy", "chowaha"])
def test_clone_is_independent_and_continues_identically(name: str) -> None:
    n = 3
    state = make_game(name, n).new_state(11)
    rng = np.random.default_rng(0)
    for _ in range(3):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[int(rng.integers(len(legal)))])
    twin = state.clone()
    events = list(state.events)
    moves = np.random.default_rng(1)
    while not twin.is_over:
        legal = twin.legal_actions()
        twin.apply(legal[int(moves.integers(len(legal)))])
    assert state.events == events  # the original did not move
    again = state.clone()
    moves = np.random.default_rng(1)
    while not again.is_over:
        legal = again.legal_actions()
        again.apply(legal[int(moves.integers(len(legal)))])
    assert again.events == twin.events and again.payoffs() == twin.payoffs()


def test_reused_burned_cards_replay_when_the_caller_shares_the_generator() -> None:
    """A bot drawing from the generator the hand was dealt with must not change the
    seventh-street reuse of burned cards: the record replays to the same cards."""
    rng = np.random.default_rng(1)
    st = make_game("stud", 8, burn_cards=True).new_state(rng, button=0)
    while not st.is_over:
        rng.integers(10)  # a random bot's draw between decisions
        st.apply(BRING_IN if BRING_IN in st.legal_actions() else CHECK_CALL)
    assert any(e.kind == "reshuffle" for e in st.events)
    assert replay(HandRecord.of(st)).payoffs() == st.payoffs()
