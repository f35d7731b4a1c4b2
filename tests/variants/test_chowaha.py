"""Chowaha showdowns, layouts and options: scripted hands with stacked decks and exact chips.

Betting (blinds, limit cap, pot limit, no limit, side pots) is in test_chowaha_betting.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import envs
from envs.engine.actions import fraction_name
from envs.engine.cards import format_cards, parse
from envs.engine.history import hand_history
from envs.variants import make_game
from envs.variants.chowaha.rules import LAYOUT, MAX_CHIPS, MAX_POT_FRACTION
from tests.variants.chowaha_helpers import (
    NO_LOW_LAYOUT,
    SEED_LAYOUT,
    act,
    awards,
    check_down,
    new_hand,
    notes,
    stacked_deck,
)


def test_dealing_order_and_layout_positions() -> None:
    st = new_hand(3, 1, {2: "Ac 3c", 0: "Kh Kc", 1: "9h 9s"})
    deals = [(e.seat, e.cards[0]) for e in st.events if e.kind == "deal"]
    assert deals == list(zip([2, 0, 1, 2, 0, 1], parse("Ac Kh 9h 3c Kc 9s"), strict=True))
    assert not st.community  # the layout is turned round by round
    check_down(st)
    turned = [(e.text, e.cards[0], e.street) for e in st.events if e.kind == "community"]
    streets = [1] * 9 + [2, 2, 3]
    assert turned == list(zip(LAYOUT, parse(SEED_LAYOUT), streets, strict=True))


def test_seed_example_b_wins_high_a_wins_low() -> None:
    """docs/rules.md 6: A (A♣3♣) has an ace-high flush on board 4 and the wheel on board 2;
    B (K♥K♣) has four kings on board 1. C calls the blinds and folds on the flop."""
    c, a, b = 0, 1, 2  # button C, small blind A, big blind B
    st = new_hand(3, c, {c: "9h 9s", a: "Ac 3c", b: "Kh Kc"})
    act(st, (c, "check_call"), (a, "check_call"), (b, "check_call"))  # 6 in the pot
    act(st, (a, "raise"), (b, "check_call"), (c, "fold"))  # 10
    check_down(st)
    assert st.won == [0, 5, 5]
    assert st.payoffs() == [-2, 1, 1]
    assert notes(st) == {
        a: "high: ace-high flush, board 4 (Ac 3c Jc Tc Qc); low: 5-4-3-2-A, board 2 (Ac 3c 4s 2d 5c)",
        b: "high: four of a kind, kings, board 1 (Kh Kc Ks Kd 9c); low: no low",
    }
    assert awards(st) == [
        (b, 5, "high half of the pot with four of a kind, kings, board 1 (Kh Kc Ks Kd 9c)"),
        (a, 5, "low half of the pot with 5-4-3-2-A, board 2 (Ac 3c 4s 2d 5c)"),
    ]


def test_high_and_low_from_different_boards_scoop() -> None:
    """A's high needs board 4 and A's low needs board 2: A takes both halves."""
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Qh Jd"})
    act(st, (0, "raise"), (1, "check_call"))  # 4 each
    act(st, (1, "raise"), (0, "check_call"))  # 6 each
    check_down(st)
    assert st.won == [12, 0] and st.payoffs() == [6, -6]
    assert [(s, chips) for s, chips, _ in awards(st)] == [(0, 6), (0, 6)]
    assert "board 4" in awards(st)[0][2] and "board 2" in awards(st)[1][2]


def test_no_qualifying_low_high_scoops_an_odd_pot() -> None:
    """No board holds three low cards; the whole pot (5, odd) goes to the best high."""
    st = new_hand(3, 0, {0: "Ac 2c", 1: "9h 9s", 2: "3h 4h"}, layout=NO_LOW_LAYOUT)
    act(st, (0, "check_call"), (1, "fold"), (2, "check_call"))
    check_down(st)
    assert st.won == [5, 0, 0]
    assert awards(st) == [(0, 5, "the pot with ace-high flush, board 4 (Ac 2c Jc Tc Qc)")]
    assert notes(st)[2].endswith("low: no low")


def test_low_tie_quarters_the_pot() -> None:
    """A: ace-high flush and the wheel; B: the wheel (low tie, and a straight): A wins
    the high half and a quarter, B a quarter."""
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Ad 3d"})
    act(st, (0, "raise"), (1, "check_call"))  # 4 each
    act(st, (1, "raise"), (0, "check_call"))  # 6 each
    act(st, (1, "check_call"), (0, "raise"), (1, "check_call"))  # 10 each
    check_down(st)
    assert st.won == [15, 5]
    assert st.payoffs() == [5, -5]
    assert st.rewards() == [2.5, -2.5]  # in big blinds


@pytest.mark.parametrize("button", [0, 3], ids=lambda b: f"button{b}")
def test_odd_chip_to_high_half_then_first_tied_seat_left_of_button(button: int) -> None:
    """Pot 7 (the small blind folds): the high half gets 4, the low half 3. The low is
    tied between the seat left of the big blind and the button: the odd chip of the
    low half goes to the first of them clockwise from the button."""
    n = 4
    small, big, utg = ((button + i) % n for i in (1, 2, 3))
    holes = {button: "Ah 3s", small: "9h 9s", big: "Kh Kc", utg: "Ad 3d"}
    st = new_hand(n, button, holes)
    act(st, (utg, "check_call"), (button, "check_call"), (small, "fold"), (big, "check_call"))
    check_down(st)
    won = [0] * n
    won[big], won[utg], won[button] = 4, 2, 1
    assert st.won == won
    assert sorted((seat, chips) for seat, chips, _ in awards(st)) == sorted([(big, 4), (utg, 2), (button, 1)])


def test_high_only_tie_odd_chip_to_first_seat_left_of_button() -> None:
    """hi_lo=False: two wheels tie for the whole pot of 5; the seat nearer the button's
    left gets the odd chip even though it has the higher seat number."""
    # button 0, small blind 1 (folds), big blind 2: clockwise from the button 1, 2, 0
    st = new_hand(3, 0, {0: "Ac 3s", 1: "9h 9s", 2: "Ad 3d"}, hi_lo=False)
    act(st, (0, "check_call"), (1, "fold"), (2, "check_call"))
    check_down(st)
    assert st.won == [2, 0, 3]
    assert all(text.startswith("the pot with five-high straight") for _, _, text in awards(st))


def test_last_player_standing_wins_without_showing() -> None:
    st = new_hand(3, 0, {0: "Ac 3c", 1: "Kh Kc", 2: "9h 9s"})
    act(st, (0, "fold"), (1, "fold"))
    assert st.is_over and st.won == [0, 0, 3] and st.payoffs() == [0, -1, 1]
    assert not [e for e in st.events if e.kind in ("show", "note", "community")]


def test_four_hole_cards_use_exactly_two() -> None:
    """With three of A's four hole cards A would have an eight-low (A-2-3 + 5-8 of
    board 1); with exactly two no board gives a low, so B's full house scoops."""
    holes = {0: "Ac 2c 3d 4d", 1: "As Ah Kh 9h"}
    st = new_hand(2, 0, holes, layout=NO_LOW_LAYOUT, hole_cards=4)
    assert [len(c) for c in st.cards] == [4, 4]
    assert [e.seat for e in st.events if e.kind == "deal"] == [1, 0] * 4
    act(st, (0, "raise"), (1, "check_call"))
    check_down(st)
    assert st.won == [0, 8] and st.payoffs() == [-4, 4]
    assert notes(st)[1] == "high: full house, kings full of nines, board 1 (Kh 9h Ks Kd 9c); low: no low"
    assert notes(st)[0].endswith("low: no low")


def test_remaining_as_hole_two_players() -> None:
    """The 40 non-layout cards: the first 20 dealt go one at a time from the seat left
    of the button. Seat 1 holds the 20 lowest, seat 0 the 20 highest."""
    rest = sorted(set(range(52)) - set(parse(SEED_LAYOUT)))
    low, high = format_cards(rest[:20]), format_cards(rest[20:])
    st = new_hand(2, 0, {1: low, 0: high}, remaining_as_hole=True)
    assert [len(c) for c in st.cards] == [20, 20] and st.cards[1][0] == rest[0]
    act(st, (0, "raise"), (1, "check_call"))
    check_down(st)
    assert not st.stub
    assert st.won == [4, 4]
    assert awards(st) == [
        (0, 4, "high half of the pot with royal flush, board 4 (Kc Ac Jc Tc Qc)"),
        (1, 4, "low half of the pot with 6-5-4-3-2, board 2 (3s 6s 4s 2d 5c)"),
    ]
    hi_only = new_hand(2, 0, {1: low, 0: high}, remaining_as_hole=True, hi_lo=False)
    check_down(hi_only)
    assert hi_only.payoffs() == [2, -2]


def test_remaining_as_hole_five_players() -> None:
    holes = {
        0: "4c 5d 7s 9h 9s Td Js Ah",
        1: "2s 6c 7d 8d 9d Ts Kc Kh",
        2: "4d 5s 8c Th Jd Jh Ac As",
        3: "2h 3c 4h 6d 8h Qd Qh Qs",
        4: "2c 3d 3s 5h 6h 6s 7c Ad",
    }
    st = new_hand(5, 2, holes, remaining_as_hole=True)
    assert [len(c) for c in st.cards] == [8] * 5
    check_down(st)  # everyone calls 2
    assert st.payoffs() == [-2, 3, -2, -2, 3]
    assert notes(st)[1].startswith("high: four of a kind, kings, board 1")
    assert notes(st)[4].endswith("low: 5-4-3-2-A, board 2 (3s Ad 4s 2d 5c)")


def test_remaining_as_hole_leaves_the_remainder_in_the_stub() -> None:
    game = make_game("chowaha", 3, remaining_as_hole=True)
    st = game.new_state(7, button=0)
    assert [len(c) for c in st.cards] == [13, 13, 13]
    check_down(st)
    assert len(st.community) == 12 and len(st.stub) == 1  # 40 % 3


def test_history_names_layout_positions_and_hides_hole_cards() -> None:
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Kh Kc"})
    act(st, (0, "fold"))
    assert "Dealt to player_1: [?? ??]" in hand_history(st, viewer=0)
    st = new_hand(2, 0, {0: "Ac 3c", 1: "Kh Kc"})
    check_down(st)
    text = hand_history(st)
    for line in (
        "*** FLOP ***",
        "top flop 1: Ks",
        "bottom flop 3: 3h",
        "upper turn: 5c",
        "lower turn: Qc",
        "river: 8s",
    ):
        assert line in text


@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (11, {"hole_cards": 4}, "num_players=11 is not allowed with hole_cards=4: expected an int in 2..10"),
        (21, {}, "num_players=21 is not allowed: expected an int in 2..20"),
        (21, {"remaining_as_hole": True}, "num_players=21 is not allowed: expected an int in 2..20"),
        (2, {"hole_cards": 3}, "hole_cards=3 is not allowed: expected one of 2, 4"),
        (2, {"remaining_as_hole": True, "hole_cards": 4}, "hole_cards=4 is not allowed with remaining_as_hole"),
        (2, {"betting": "spread"}, "betting='spread' is not allowed"),
        (2, {"betting": "pot_limit", "bet_sizes": (0.5, 2.0)}, "bet_sizes=(0.5, 2.0) is not allowed"),
        (2, {"betting": "no_limit", "bet_sizes": (1.0, 0.5)}, "bet_sizes=(1.0, 0.5) is not allowed"),
        (2, {"bet_sizes": (0.5, True)}, "bet_sizes=(0.5, True) is not allowed"),
        (2, {"betting": "no_limit", "bet_sizes": (1e308,)}, "fractions of at most 1000 (larger bets overflow"),
        (2, {"betting": "no_limit", "bet_sizes": (0.5, 1000.5)}, "positive pot fractions of at most 1000 (larger"),
        (2, {"betting": "no_limit", "stack": 10**14 + 1}, "stack=100000000000001 is not allowed: chip amounts"),
        (
            2,
            {"big_blind": 10**400, "stack": 10**401},
            "(401 characters) is not allowed: chip amounts",
        ),
        (2, {"ante": 10**15}, "ante=1000000000000000 is not allowed: chip amounts are at most 100_000_000_000_000"),
        (2, {"small_blind": 3}, "small_blind=3 is not allowed: expected an int in 1..2"),
        (2, {"stack": 2, "ante": 1}, "stack=2 is not allowed: expected an int >= 3"),
        (2, {"straddle": 4}, "unknown option 'straddle' for chowaha"),
    ],
)
def test_bad_options_name_option_value_and_allowed(n: int, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_game("chowaha", n, **options)


def test_an_overflowing_bet_size_is_refused_when_the_env_is_made() -> None:
    with pytest.raises(ValueError, match=r"bet_sizes=\(1e\+308,\) is not allowed: .* at most 1000 \(larger bets"):
        envs.make("chowaha", betting="no_limit", bet_sizes=(1e308,))


def play_largest(env: Any, seed: int) -> int:
    """Play a hand always taking the largest sized bet (else the last legal action);
    returns how often the largest sized bet was made."""
    sized = env.unwrapped.action_names.index(fraction_name(MAX_POT_FRACTION))
    made = 0
    env.reset(seed=seed)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        assert np.isfinite(observation["observation"]).all()
        legal = np.flatnonzero(observation["action_mask"])
        action = None if terminated or truncated else int(sized if sized in legal else legal[-1])
        made += action == sized
        env.step(action)
    assert sum(env.unwrapped.state.payoffs()) == 0
    return made


def test_the_largest_allowed_bets_and_chips_play_hands_to_the_end() -> None:
    """bet_sizes=(1000,) with 10**14-chip stacks, heads-up and at a full table with the
    largest blinds and ante: every hand ends, chips are conserved and observations stay
    finite (no float overflow in the sizing or the observations)."""
    heads_up = envs.make("chowaha", 2, betting="no_limit", bet_sizes=(MAX_POT_FRACTION,), stack=MAX_CHIPS)
    assert sum(play_largest(heads_up, seed) for seed in range(3)) > 0
    full = envs.make(
        "chowaha", 20, betting="no_limit", bet_sizes=(MAX_POT_FRACTION,), stack=MAX_CHIPS,
        ante=MAX_CHIPS // 4, small_blind=MAX_CHIPS // 8, big_blind=MAX_CHIPS // 4,
    )  # fmt: skip
    for seed in range(2):
        play_largest(full, seed)


def test_most_players_per_hole_card_option() -> None:
    assert make_game("chowaha", 20).num_players == 20
    assert make_game("chowaha", 10, hole_cards=4).num_players == 10
    assert make_game("chowaha", 20, remaining_as_hole=True).num_players == 20


def test_stacked_deck_helper_matches_the_documented_order() -> None:
    deck = stacked_deck(2, 1, {0: "Ac 3c", 1: "Kh Kc"}, SEED_LAYOUT)
    assert deck[:4] == parse("Ac Kh 3c Kc") and deck[4:] == parse(SEED_LAYOUT)
