"""The heuristic's decisions on hand-made cases: stacked decks, scripted actions, and
the one decision the bot is asked to make.

Each case is built so that the right answer does not depend on the Monte Carlo draw
(the hidden cards cannot change it, or change it with negligible probability); every
decision is asked of bots with three seeds, which must agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.heuristic import HeuristicAgent
from envs.engine.actions import (
    BRING_IN,
    CHECK_CALL,
    DECLARE_BOTH,
    DECLARE_HIGH,
    DECLARE_LOW,
    DRAW_BASE,
    FOLD,
    RAISE,
    SPLIT_BASE,
    STAY,
    draw_action,
    split_action,
)
from envs.engine.cards import format_card, parse
from envs.engine.hands import cowpie_splits
from envs.engine.state import State
from envs.variants import make_game
from envs.variants.cowpie import rank_splits
from envs.view import PublicView, public_view
from tests.variants.cowboy_script import HIGH, LOW, PAT, deal, play
from tests.variants.cowpie_helpers import call_down as cowpie_call_down
from tests.variants.cowpie_helpers import deal as cowpie_deal
from tests.variants.scripted import act, call_down, stud_deck

SEEDS = (0, 1, 2)


def decide(state: State) -> tuple[int, PublicView]:
    """The heuristic's action for the seat to act (the same for several bot seeds: the
    cases must not hinge on one Monte Carlo draw), and the view it saw."""
    seat = state.current_seat
    assert seat is not None
    view = public_view(state, seat)
    actions = {HeuristicAgent(seed=seed).act({}, view) for seed in SEEDS}
    assert len(actions) == 1, f"the decision depends on the bot's seed: {actions}"
    action = actions.pop()
    assert action in view.legal_actions
    return action, view


def stud_state(variant: str, hands: dict[int, str], **options: object) -> State:
    """Two-player stud-family hand, button on seat 0 (seat 1 is dealt first)."""
    game = make_game(variant, 2, **options)
    return game.new_state(0, button=0, deck=stud_deck(2, 0, hands))


# ---------------------------------------------------------------------- stud
def test_rolled_up_trips_complete_the_bring_in_and_junk_posts_it() -> None:
    # the 2c is the lowest up card: seat 1 brings in
    trips = stud_state("stud", {1: "2d 2h 2c 5s 6s 7s 8s", 0: "Kc Qd Kd 9c 9d Ts Js"})
    assert decide(trips)[0] == RAISE
    junk = stud_state("stud", {1: "7d 9h 2c 5s 6s Qs 8s", 0: "Kc Qd Kd 9c 9s Ts Js"})
    assert decide(junk)[0] == BRING_IN


def test_seventh_street_junk_folds_to_a_bet_from_four_aces() -> None:
    st = stud_state("stud", {1: "2d 3h 7c 8s Td Qh 5c", 0: "Kc Kd Ac Ad Ah As Qc"})
    call_down(st, streets=[0, 1, 2, 3])
    assert st.street == 4 and st.current_seat == 0  # four aces showing act first
    act(st, (0, RAISE))
    action, view = decide(st)
    assert view.to_call > 0 and action == FOLD


def test_seventh_street_royal_flush_bets_when_checked_to() -> None:
    st = stud_state("stud", {1: "As Ks Qs 2d Js Ts 3c", 0: "Kc Kd Ac Ad Ah 9h 4c"})
    call_down(st, streets=[0, 1, 2, 3])
    act(st, (0, CHECK_CALL))
    assert decide(st)[0] == RAISE


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        # steel wheel: unbeatable both ways against J-T-9-8 showing (no low possible)
        ("As 2s 3s 4s 5s Kd Qc", "Kh Qh Jc Tc 9d 8d 7h", DECLARE_BOTH),
        # kings full, no low, against a low draw showing
        ("Kh Kd Ks 9c 9d 2h 3c", "Qs Jd 7c 6d 4h 3d Th", DECLARE_HIGH),
        # 8-6-4-3-2 against two pair showing that cannot make a low
        ("8h 6c 4d 3h 2c Kc Qd", "Jc Td As Ad Kh Ks 9h", DECLARE_LOW),
    ],
    ids=["both", "high", "low"],
)
def test_stud_declaration(mine: str, theirs: str, expected: int) -> None:
    st = stud_state("stud_hilo_declare", {1: mine, 0: theirs})
    call_down(st)
    assert st.current_seat == 1 and DECLARE_LOW in st.legal_actions()
    assert decide(st)[0] == expected


# -------------------------------------------------------------------- cowpie
def test_cowpie_split_is_the_top_of_rank_splits() -> None:
    # kings in the five, A-9 (both down) as the two: kings as the two would leave an
    # ace-high five below them (illegal)
    _, st = cowpie_deal(["Qc Jd 8c 9s Tc 3h 4h", "As 9d Kh Kc 7s 4d 2c"])
    cowpie_call_down(st)
    st.apply(st.legal_actions()[0])  # seat 1 splits first; seat 0 (the bot) next
    action, view = decide(st)
    best = rank_splits(list(view.own_cards), [not u for u in view.own_up], opponents=1)[0][0]
    assert action == best


def test_cowpie_split_for_the_bot_seat() -> None:
    _, st = cowpie_deal(["As 9d Kh Kc 7s 4d 2c", "Qc Jd 8c 9s Tc 3h 4h"])
    cowpie_call_down(st)
    st.apply(st.legal_actions()[0])
    action, _ = decide(st)
    assert action == split_action(0, 1)  # A-9 as the two-card hand, kings in the five


@pytest.mark.parametrize("rule", ["mask", "forfeit"])
def test_cowpie_never_splits_two_up_aces_off(rule: str) -> None:
    # As Ah are both face up: as the two-card hand they would hold no down card
    _, st = cowpie_deal(["Qc Jd 8c 9s Tc 3h 4h", "2c 3d As Ah Kc Qd 5h"], illegal_split=rule)
    cowpie_call_down(st)
    st.apply(SPLIT_BASE)
    action, view = decide(st)
    cards, down = np.asarray(view.own_cards), ~np.asarray(view.own_up)
    assert cowpie_splits(cards, down).legal[action - SPLIT_BASE]
    assert action != split_action(2, 3)
    assert action == rank_splits(cards, down, opponents=1)[0][0]


# -------------------------------------------------------------------- cowboy
BOT_HANDS = ("2c 7d 9s Jd Ks", "As 2s 3s 4s 5s", "Ac 2d 3h 4s 6c", "Ks Kh Kd Kc 2c", "Kh Kd Ks 9c 2d", "Ad 2c 3h 5s Kd")
_USED = {c for hand in (*BOT_HANDS, "2c 3h 5s 9d Kd") for c in parse(hand)}
_FREE = [c for c in range(52) if c not in _USED]
FILLER = [" ".join(format_card(c) for c in _FREE[i : i + 5]) for i in range(0, 30, 5)]  # other seats' hands


def cowboy_hands(n: int, seat: int, hand: str) -> dict[int, str]:
    """``hand`` for ``seat`` and filler hands (none of the bot hands' cards) for the others."""
    others = iter(FILLER)
    return {s: hand if s == seat else next(others) for s in range(n)}


def test_last_to_act_stays_when_nobody_else_did() -> None:
    st = deal("cowpattie", cowboy_hands(3, 0, "2c 7d 9s Jd Ks"))
    play(st, [(1, FOLD), (2, FOLD)])
    assert decide(st)[0] == STAY  # staying alone takes the pot


def test_last_to_act_stays_to_split_with_one_stayer() -> None:
    st = deal("cowpattie", cowboy_hands(3, 0, "2c 7d 9s Jd Ks"))
    play(st, [(1, STAY), (2, FOLD)])
    assert decide(st)[0] == STAY  # two stayers split the pot


@pytest.mark.parametrize(
    ("hand", "expected"), [("2c 7d 9s Jd Ks", FOLD), ("As 2s 3s 4s 5s", STAY)], ids=["junk", "wheel"]
)
def test_first_of_seven_stays_only_with_a_strong_hand(hand: str, expected: int) -> None:
    st = deal("cowpattie", cowboy_hands(7, 1, hand))
    assert st.current_seat == 1
    assert decide(st)[0] == expected  # junk would pay the pot to the likely stayers


@pytest.mark.parametrize(
    ("hand", "expected"),
    [("Ac 2d 3h 4s 6c", DECLARE_LOW), ("Ks Kh Kd Kc 2c", DECLARE_HIGH), ("As 2s 3s 4s 5s", DECLARE_BOTH)],
    ids=["six-low", "quads", "steel-wheel"],
)
def test_cowboy_declaration(hand: str, expected: int) -> None:
    st = deal("cowpattie", cowboy_hands(3, 1, hand))
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert decide(st)[0] == expected


def drawn(action: int) -> set[int]:
    """Positions a discard action throws."""
    mask = action - DRAW_BASE
    return {p for p in range(5) if mask >> p & 1}


def test_cowboy_draw_keeps_trips_for_high() -> None:
    st = deal("cowboy", cowboy_hands(3, 1, "Kh Kd Ks 9c 2d"))
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    action, view = decide(st)
    kings = {i for i, c in enumerate(view.own_cards) if c >> 2 == 11}
    assert not drawn(action) & kings


def test_cowboy_draw_keeps_the_low_cards() -> None:
    st = deal("cowboy", cowboy_hands(3, 1, "Ad 2c 3h 5s Kd"))
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert decide(st)[0] == draw_action([3])  # hand order 2c 3h 5s Kd Ad: throw the king


def test_cowgirl_draw_throws_the_worst_card_for_low() -> None:
    st = deal("cowgirl", cowboy_hands(3, 1, "2c 3h 5s 9d Kd"))
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert decide(st)[0] == draw_action([4])  # one card at most: the king


def test_dummy_draw_aims_at_the_low_winner() -> None:
    # seat 1 wins high with a flush (out of reach), seat 2 low with 8-7-6-5-4; the dummy
    # 2d 3h 4s Kc Ac beats that low by throwing the king alone (12 of 27 unseen cards)
    hands = {1: "2h 5h 9h Jh Kh", 2: "8c 7d 6h 5s 4c", 3: "Th Ts 9c 3s 2s", 0: "Qc Qd Jd Tc 9d"}
    st = deal("cowboy", hands, rest="2d 3h 4s Kc Ac")
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, HIGH)])
    action, view = decide(st)
    assert view.extra["dummy_cards"] == tuple(sorted(parse("2d 3h 4s Kc Ac")))
    assert action == draw_action([3])
