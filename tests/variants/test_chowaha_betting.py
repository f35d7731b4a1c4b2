"""Chowaha betting: blinds and order, the limit cap, pot-limit sizes, no-limit minimum
raises after short all-ins, and side pots. Scripted hands with exact chips."""

from __future__ import annotations

import pytest

from envs.engine.actions import CHECK_CALL, FOLD, RAISE, SIZED_BASE, action_names
from envs.engine.betting import legal_raise_amounts
from envs.engine.state import State
from envs.variants import make_game
from tests.variants.chowaha_helpers import act, awards, new_hand, set_stacks

HOLES3 = {0: "Ac 3c", 1: "Kh Kc", 2: "6d 3d"}
HOLES4 = {**HOLES3, 3: "9h 9s"}
BET_HALF, BET_POT, ALL_IN = SIZED_BASE, SIZED_BASE + 1, SIZED_BASE + 2  # default bet_sizes (0.5, 1.0)


def raises(st: State) -> dict[int, int]:
    """Each legal raising action of the seat to act and the total it raises to."""
    return legal_raise_amounts(st, st.game.options.bet_rules())


def blinds(st: State) -> list[tuple[int, int, str]]:
    return [(e.seat, e.amount, e.text) for e in st.events if e.kind == "blind"]


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    st = new_hand(2, 1, {0: "Ac 3c", 1: "Kh Kc"})
    assert blinds(st) == [(1, 1, "small blind"), (0, 2, "big blind")]
    assert st.current_seat == 1 and st.legal_actions() == [FOLD, CHECK_CALL, RAISE]
    act(st, (1, "check_call"))
    assert st.current_seat == 0 and st.legal_actions() == [CHECK_CALL, RAISE]  # the big blind's option
    act(st, (0, "check_call"))
    assert st.street == 1 and st.current_seat == 0  # after the flop the button acts last
    act(st, (0, "check_call"), (1, "check_call"))
    assert st.street == 2 and st.current_seat == 0


def test_blinds_and_order_with_more_players() -> None:
    """Four players, button 3: blinds on 0 and 1, seat 2 opens; after the flop the
    first live seat left of the button (0 has folded, so 1)."""
    st = new_hand(4, 3, HOLES4, ante=1)
    assert blinds(st) == [(0, 1, "small blind"), (1, 2, "big blind")]
    assert st.pot() == 4 + 3 and st.committed == [2, 3, 1, 1]
    act(st, (2, "check_call"), (3, "check_call"), (0, "fold"), (1, "check_call"))
    assert st.street == 1 and st.current_seat == 1 and st.pot() == 4 + 1 + 2 * 3


def test_limit_bet_sizes_small_then_big() -> None:
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Kh Kc"})
    act(st, (0, "raise"), (1, "check_call"))  # preflop raise: to 4
    assert st.committed == [4, 4]
    act(st, (1, "raise"), (0, "check_call"))  # flop: small bet 2
    act(st, (1, "raise"), (0, "raise"), (1, "check_call"))  # turn: big bet 4, raise to 8
    assert st.committed == [14, 14]
    act(st, (1, "raise"), (0, "check_call"))  # river: big bet 4
    assert st.is_over and st.won == [18, 18]


def test_limit_cap_counts_the_big_blind() -> None:
    """Blind, raise, re-raise, cap: the fourth bet ends the raising (three players)."""
    st = new_hand(3, 0, HOLES3)
    act(st, (0, "raise"), (1, "raise"), (2, "raise"))
    assert st.current_bet == 8 and st.bets == 4
    assert st.current_seat == 0 and st.legal_actions() == [FOLD, CHECK_CALL]


def test_limit_cap_lifted_heads_up_unless_cap_heads_up() -> None:
    def raise_war(**options: object) -> State:
        st = new_hand(2, 0, {0: "Ac 3c", 1: "Kh Kc"}, **options)
        act(st, (0, "raise"), (1, "raise"), (0, "raise"))
        return st

    assert RAISE in raise_war().legal_actions()
    capped = raise_war(cap_heads_up=True)
    assert capped.current_bet == 8 and capped.legal_actions() == [FOLD, CHECK_CALL]


def test_pot_limit_maximum_raise_arithmetic() -> None:
    """Blinds 1/2: the pot raise is the current bet plus the pot after calling."""
    st = new_hand(3, 0, HOLES3, betting="pot_limit")
    assert st.stack == [200, 199, 198]  # the default stack: 100 big blinds
    assert raises(st) == {RAISE: 4, BET_HALF: 4, BET_POT: 2 + (3 + 2)}
    st.apply(BET_POT)  # to 7: a raise of 5
    assert raises(st) == {RAISE: 7 + 5, BET_HALF: 7 + 8, BET_POT: 7 + (10 + 6)}
    st.apply(BET_POT)  # to 23: a raise of 16
    assert raises(st) == {RAISE: 23 + 16, BET_HALF: 23 + 26, BET_POT: 23 + (32 + 21)}
    act(st, (2, "check_call"), (0, "check_call"))
    assert st.street == 1 and st.pot() == 69
    assert raises(st) == {RAISE: 2, BET_HALF: 34, BET_POT: 69}
    st.apply(BET_POT)
    assert st.committed == [23, 92, 23]


def test_pot_limit_size_beyond_the_stack_is_all_in() -> None:
    st = new_hand(3, 0, HOLES3, betting="pot_limit", stack=20)
    st.apply(BET_POT)  # seat 0 to 7
    assert raises(st) == {RAISE: 12, BET_HALF: 15, BET_POT: 20}  # the pot (23) is more than 20
    st.apply(BET_POT)
    assert st.contrib[1] == 20 and st.stack[1] == 0
    assert st.current_seat == 2 and st.legal_actions() == [FOLD, CHECK_CALL]  # 18 behind, 18 to call


def test_no_limit_short_all_in_does_not_reopen_and_sets_the_minimum() -> None:
    """Seat 0 raises to 4 (a raise of 2); the small blind moves in for 5 (a raise of 1,
    short). The big blind, yet to act, may raise to 5 + 2 = 7 at least; seat 0, who
    faces only the short 1, may just call or fold."""
    st = new_hand(3, 0, HOLES3, betting="no_limit")
    set_stacks(st, [100, 5, 100])
    act(st, (0, "raise"), (1, "all_in"))
    assert st.current_bet == 5 and st.min_raise == 2
    assert raises(st) == {RAISE: 7, BET_HALF: 5 + 7, BET_POT: 5 + 14, ALL_IN: 100}
    act(st, (2, "check_call"))
    assert st.current_seat == 0 and st.legal_actions() == [FOLD, CHECK_CALL]
    act(st, (0, "check_call"))
    assert st.street == 1 and st.committed == [5, 5, 5]


def test_no_limit_short_all_ins_adding_up_to_a_full_raise_reopen() -> None:
    """Seat 3 raises the pot to 7 (a raise of 5); two short all-ins (10, then 13) add
    up to 6 more, a full raise, so seat 3 may raise again (to 13 + 5 at least). Had
    the second all-in been 11 (4 more), seat 3 could only call."""
    for small_stack, may_raise in ((13, True), (11, False)):
        st = new_hand(4, 0, HOLES4, betting="no_limit")
        set_stacks(st, [10, small_stack, 100, 100])
        act(st, (3, "bet_1_pot"), (0, "all_in"), (1, "all_in"), (2, "check_call"))
        assert st.current_seat == 3 and st.current_bet == small_stack
        assert (RAISE in st.legal_actions()) == may_raise
        if may_raise:
            assert raises(st)[RAISE] == 18


def test_side_pots_with_three_stacks() -> None:
    """Stacks 10, 30, 100, everyone all-in or called preflop. Main pot 30 (all three):
    high to seat 1's four kings, low to seat 0's wheel. Side pot 40 (seats 1 and 2):
    high to seat 1, low to seat 2's 6-5-4-3-2, which seat 0's better low cannot take."""
    st = new_hand(3, 0, HOLES3, betting="no_limit")
    set_stacks(st, [10, 30, 100])
    act(st, (0, "all_in"), (1, "all_in"), (2, "check_call"))
    assert st.is_over and len(st.community) == 12  # the board runs out without decisions
    assert st.won == [15, 35, 20]
    assert st.payoffs() == [5, 5, -10]
    assert [(seat, chips, text.split(" with ")[0]) for seat, chips, text in awards(st)] == [
        (1, 15, "high half of the main pot"),
        (0, 15, "low half of the main pot"),
        (1, 20, "high half of side pot 1"),
        (2, 20, "low half of side pot 1"),
    ]


def test_call_all_in_for_less_wins_only_what_it_matched() -> None:
    """Seat 1 (6 chips) calls seat 0's all-in of 100 for 6: the main pot is 12 and
    seat 0's unmatched 94 form a pot only seat 0 can win."""
    for holes, won in (({0: "Kh Kc", 1: "9h 9s"}, [106, 0]), ({0: "9h 9s", 1: "Kh Kc"}, [94, 12])):
        st = new_hand(2, 0, holes, betting="no_limit", hi_lo=False)
        set_stacks(st, [100, 6])
        act(st, (0, "all_in"), (1, "check_call"))
        assert st.is_over and st.committed == [100, 6] and st.won == won
        assert st.payoffs() == [won[0] - 100, won[1] - 6]


def test_sized_action_names_are_stable() -> None:
    assert make_game("chowaha", 2).action_names == ("fold", "check_call", "bring_in", "raise")
    pot = make_game("chowaha", 2, betting="pot_limit").action_names
    assert pot == action_names(4, (0.5, 1.0)) and pot[SIZED_BASE:] == ("bet_0.5_pot", "bet_1_pot")
    no = make_game("chowaha", 2, betting="no_limit", bet_sizes=[0.33, 2]).action_names
    assert no[SIZED_BASE:] == ("bet_0.33_pot", "bet_2_pot", "all_in")
    assert make_game("chowaha", 2, betting="no_limit", bet_sizes=[0.33, 2]).options.bet_sizes == (0.33, 2.0)


def test_stacks_default_to_a_hundred_big_blinds() -> None:
    assert make_game("chowaha", 2, betting="no_limit", big_blind=4, small_blind=2).options.stack == 400
    assert make_game("chowaha", 2, betting="pot_limit", stack=50).options.stack == 50
    assert make_game("chowaha", 2).options.stack == 200
    assert make_game("chowaha", 2, stack=None).options.stack is None  # unlimited: limit only
    with pytest.raises(ValueError, match="stack=None is not allowed with betting='no_limit'"):
        make_game("chowaha", 2, betting="no_limit", stack=None)


def test_everyone_all_in_preflop_runs_out_the_board() -> None:
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Kh Kc"}, betting="no_limit")
    act(st, (0, "all_in"), (1, "check_call"))
    assert st.is_over and st.won == [200, 200] and st.payoffs() == [0, 0]
