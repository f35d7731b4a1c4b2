"""Cowpie rules (docs/rules.md section 4): legal splits, secrecy, and scripted showdowns with
stacked decks and exact chips.

Hands are written in dealt order: two down, four up, one down.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import CHECK_CALL, FOLD, RAISE, SPLIT_BASE, SPLIT_PAIRS, split_action
from envs.engine.cards import format_cards, parse
from envs.engine.errors import IllegalActionError
from envs.engine.hands import cowpie_splits, evaluate_high, high_category
from envs.engine.history import hand_history
from envs.engine.state import State
from envs.variants import make_game
from envs.variants.cowpie.rules import ALL_SPLITS, split_cards
from tests.variants.cowpie_helpers import DOWN, call_down, deal, in_split, split_all, split_for


def _legal_splits(state: State) -> list[tuple[str, str]]:
    """(five-card hand, two-card hand) of each legal split of the seat to act, as text."""
    seat = state.current_seat
    assert seat is not None
    out = []
    for action in state.legal_actions():
        two, five = split_cards(state.cards[seat], action)
        out.append((" ".join(map(str, five)), " ".join(map(str, two))))
    return out


def _at_split(hand: str, **options: object) -> State:
    """A heads-up hand called down to the split, ``hand`` at seat 1 (first to split)."""
    used = set(parse(hand))
    other = [c for c in parse("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs") if c not in used][:7]
    _, state = deal([format_cards(other), hand], **options)
    call_down(state)
    assert in_split(state) and state.current_seat == 1
    return state


# ----------------------------------------------------------------- legality
def test_seed_worked_example() -> None:
    """A♠9♦2♣ down, K♥K♣7♠4♦ up: A♠K♥ as the two-card hand leaves K-9-7-4-2, lower
    than ace-king; K♥K♣7♠4♦2♣ with A♠9♦ is legal."""
    state = _at_split("As 9d Kh Kc 7s 4d 2c")
    assert split_for(state, "As Kh") not in state.legal_actions()
    assert split_for(state, "As 9d") in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(split_for(state, "As Kh"))
    assert state.current_seat == 1 and in_split(state)  # nothing changed
    state.apply(split_for(state, "As 9d"))
    assert state.current_seat == 0


# (five-card hand, two-card hand, legal): docs/rules.md section 4's examples and edges.
RULE_EXAMPLES = [
    ("Kh 9d 7s 4d 2c", "As Kc", False),  # K-9-7-4-2 against A-K is illegal
    ("Kh Qd 9s 4d 2c", "Ks Jc", True),  # K-Q-9-4-2 against K-J is legal
    ("3h 3d 9s 7d 2c", "As Kc", True),  # 3-3-x-x-x against A-K is legal
    ("9h 9d 7s 4d 2c", "Js Jc", False),  # 9-9-x-x-x against J-J is illegal
    ("Ah Kd 9s 7d 4c", "As Kc", True),  # A-K-9-7-4 against A-K: the five has kickers
    ("Kh Kd 9s 7d 4c", "Ks Kc", True),  # K-K-x-x-x against K-K
    ("3h 3d 2s 2d 4c", "As Ac", True),  # two pair is always higher
    ("Ah 9d 7s 4d 3c", "2s 2d", False),  # a pair beats no pair
    ("Ah Qd 9s 7d 4c", "As Kc", False),  # equal top cards: the second card decides
]


@pytest.mark.parametrize(("five", "two", "legal"), RULE_EXAMPLES, ids=[f"{f}|{t}" for f, t, _ in RULE_EXAMPLES])
def test_rule_examples_in_the_mask(five: str, two: str, legal: bool) -> None:
    """Each example as a dealt hand: both hands hold a down card, so rank decides."""
    f, t = five.split(), two.split()
    state = _at_split(" ".join([t[0], f[0], *f[1:], t[1]]))
    assert (split_for(state, two) in state.legal_actions()) is legal


def test_only_legal_splits_keep_a_pair_in_the_five() -> None:
    """A♥9♦7♦ down, K♦T♠K♥T♦ up: a pairless five needs a king and a ten in the two-card
    hand, which then has no down card; every legal split keeps a pair in the five."""
    state = _at_split("Ah 9d Kd Ts Kh Td 7d")
    seat = 1
    legal = state.legal_actions()
    assert legal
    for action in legal:
        _, five = split_cards(state.cards[seat], action)
        assert high_category(evaluate_high(five)) >= 1, f"{five} has no pair"
    assert split_for(state, "Ah 9d") in legal  # K-K-T-T-7 / A-9 (two pair)
    assert split_for(state, "Kd Ts") not in legal  # A-K-T-9-7 / K-T: no down card in the two


def test_three_down_cards_one_in_each_hand() -> None:
    """Down 2♣3♦4♥, up A♠K♠A♦K♦: A♠K♠ (both up) would rank legally (A-K-4-3-2 has
    kickers) but leaves the two-card hand without a down card."""
    state = _at_split("2c 3d As Ks Ad Kd 4h")
    cards = state.cards[1]
    down = {cards[i] for i, d in enumerate(DOWN) if d}
    assert split_for(state, "As Ks") not in state.legal_actions()
    assert split_for(state, "As 2c") in state.legal_actions()  # K-K-A-4-3... two pair keeps a down card
    for action in state.legal_actions():
        two, five = split_cards(cards, action)
        assert set(two) & down and set(five) & down


def test_mask_equals_the_evaluator() -> None:
    """At every split decision of random hands the mask is exactly the evaluator's
    legality for the seat's cards and face-down flags; forfeit offers all 21."""
    checked = 0
    for seed in range(12):
        for options in ({}, {"illegal_split": "forfeit"}):
            game = make_game("cowpie", 4, **options)
            state = game.new_state(seed, button=seed % 4)
            call_down(state)
            while in_split(state):
                seat = state.current_seat
                assert seat is not None
                result = cowpie_splits(state.cards[seat], [not u for u in state.up[seat]])
                expected = [SPLIT_BASE + i for i in np.flatnonzero(result.legal)]
                assert state.legal_actions() == (expected if not options else ALL_SPLITS)
                state.apply(expected[0])
                checked += 1
    assert checked == 12 * 2 * 4


def test_splits_are_made_in_turn_and_revealed_together() -> None:
    """Seats split from the left of the button; each split is a secret event until the
    last one, then all are revealed at once, before the showdown."""
    _, state = deal(["As 5c 6d 7h 8s 9c Kd", "Qs 5d 6h 7s 8c 9d Jd", "Ts 5h 6s 7c 8d 9h 2c"], button=1)
    call_down(state)
    order = []
    while in_split(state):
        order.append(state.current_seat)
        assert not [e for e in state.events if e.kind == "split_reveal"]
        state.apply(state.legal_actions()[0])
    assert order == [2, 0, 1]
    kinds = [e.kind for e in state.events]
    secret = [e for e in state.events if e.kind == "split"]
    assert [e.seat for e in secret] == [2, 0, 1] and all(e.secret for e in secret)
    reveals = [i for i, k in enumerate(kinds) if k == "split_reveal"]
    assert len(reveals) == 3 and reveals == list(range(reveals[0], reveals[0] + 3))
    assert reveals[0] > max(i for i, k in enumerate(kinds) if k == "split")
    assert reveals[-1] < kinds.index("award")


# --------------------------------------------------------------- showdowns
def test_one_player_scoops() -> None:
    """Kings full and a pair of aces against a pair of fives and queen-jack: both halves."""
    _, state = deal(["Ah Kc Ks Kh 9c 9d Ad", "Qs Jc Qh 5c 5d 2h Js"], ante=5)
    call_down(state)
    split_all(state, {0: "Ah Ad", 1: "Qs Js"})
    assert state.payoffs() == [6, -6]
    awards = [e.text for e in state.events if e.kind == "award"]
    assert awards == [
        "five-card half of the pot with full house, kings full of nines (Kc Ks Kh 9c 9d)",
        "two-card half of the pot with pair of aces (Ah Ad)",
    ]


def test_five_card_half_tied_three_ways_with_odd_chips() -> None:
    """Three nine-high straights tie; pot 9: the five-card half takes the odd chip (5),
    split 1-1-1 with the two leftover chips to A♠ then Q♠ (highest cards by suit); the
    best two-card hand (A-K) takes the other 4."""
    hands = ["As 5c 6d 7h 8s 9c Kd", "Qs 5d 6h 7s 8c 9d Jd", "Ts 5h 6s 7c 8d 9h 2c"]
    _, state = deal(hands, ante=2)
    call_down(state)
    split_all(state, {0: "As Kd", 1: "Qs Jd", 2: "Ts 2c"})
    assert state.committed == [3, 3, 3]
    assert state.won == [2 + 4, 2, 1]
    assert state.payoffs() == [3, -1, -2]


def test_a_pair_beats_ace_king_for_the_two_card_half() -> None:
    """3-3 takes the two-card half from A-K; trip tens take the five-card half (and the
    odd chip: 5 of 9)."""
    hands = ["3c 7c 7d Jh 9s 4c 3d", "As Qc Qd 8h 6s 2d Kd", "Tc 4d Td Th 8c 6c 2s"]
    _, state = deal(hands, ante=2)
    call_down(state)
    split_all(state, {0: "3c 3d", 1: "As Kd", 2: "4d 2s"})
    assert state.won == [4, 0, 5]
    assert state.payoffs() == [1, -3, 2]


FORFEIT_HANDS = ["As 9d Kh Kc 7s 4d 2c", "Qc Qh Jc 8d 5s 3h Jd"]


@pytest.mark.parametrize(
    ("two", "payoffs"),
    [("As 9d", [6, -6]), ("As Kh", [-6, 6])],
    ids=["legal-split-scoops", "illegal-split-wins-nothing"],
)
def test_forfeit_option(two: str, payoffs: list[int]) -> None:
    """With ``illegal_split="forfeit"`` the seed's illegal A♠K♥ can be chosen; its K-high
    five and A-K two would beat Q-J-8-5-3 and Q-J, but it wins neither half."""
    _, state = deal(FORFEIT_HANDS, ante=5, illegal_split="forfeit")
    call_down(state)
    assert state.legal_actions() == ALL_SPLITS
    split_all(state, {0: two, 1: "Qc Jd"})
    assert state.payoffs() == payoffs


def test_forfeit_everyone_illegal_chops_the_pot() -> None:
    _, state = deal(FORFEIT_HANDS, ante=5, illegal_split="forfeit")
    call_down(state)
    split_all(state, {0: "As Kh", 1: "Qc Qh"})  # Q-Q two against a pair of jacks: illegal too
    assert state.payoffs() == [0, 0]
    assert all("chopped: every split was illegal" in e.text for e in state.events if e.kind == "award")


def test_masked_illegal_split_raises() -> None:
    """Seat 1 splits first; then seat 0's illegal A♠K♥ raises and changes nothing."""
    _, state = deal(FORFEIT_HANDS, ante=5)
    call_down(state)
    state.apply(split_for(state, "Qc Jd"))
    events = list(state.events)
    illegal = split_for(state, "As Kh")
    for bad in (illegal, FOLD, CHECK_CALL, SPLIT_BASE + len(SPLIT_PAIRS)):
        with pytest.raises(IllegalActionError):
            state.apply(bad)
    assert state.events == events and state.current_seat == 0
    state.apply(split_for(state, "As 9d"))
    assert state.payoffs() == [6, -6]


def _bet_after_split_state() -> State:
    _, state = deal(["Ah Kc Ks Kh 9c 9d Ad", "Qs Jc Qh 5c 5d 2h Js"], ante=5, bet_after_split=True)
    call_down(state)
    split_all(state, {0: "Ah Ad", 1: "Qs Js"})
    return state


def test_bet_after_split_round() -> None:
    """A sixth round at the big bet, opened by the best showing hand (K-K-9-9), before
    the reveal: a bet and a call add 8 chips that the scooper wins."""
    state = _bet_after_split_state()
    assert not state.is_over and state.street == 5 and state.current_seat == 0
    assert state.bet_unit == 4
    assert not [e for e in state.events if e.kind == "split_reveal"]
    state.apply(RAISE)
    assert state.committed == [10, 6]
    state.apply(CHECK_CALL)
    assert state.payoffs() == [10, -10]
    assert len([e for e in state.events if e.kind == "split_reveal"]) == 2


def test_bet_after_split_fold_keeps_splits_secret() -> None:
    state = _bet_after_split_state()
    state.apply(RAISE)
    state.apply(FOLD)
    assert state.payoffs() == [6, -6]
    assert not [e for e in state.events if e.kind == "split_reveal"]
    mine, theirs = hand_history(state, viewer=0), hand_history(state, viewer=1)
    assert "player_0: splits in secret: Kc Ks Kh 9c 9d / Ah Ad" in mine and "Qs Js" not in mine
    assert "player_1: splits in secret: Jc Qh 5c 5d 2h / Qs Js" in theirs and "Ah Ad" not in theirs


def test_side_pots_split_five_and_two() -> None:
    """player_2 is all-in for 1 (its bring-in); player_0 and player_1 bet 2 more on
    fourth street. Main pot 3: five-card half 2 (odd chip) to player_2's jacks, two-card
    half 1 to player_0's eights. Side pot 4: five-card 2 to player_1's queens, two-card 2
    to player_0's eights."""
    hands = ["8s Tc Td Ah 4c 6h 8h", "Qc Kd Qd 9h 7s 5c 3s", "Jc Js 2c Jh 8c 6d 4h"]
    _, state = deal(hands, stack=50)
    state.stack[2] = state.start_stack[2] = 1  # the engine seats equal stacks: make one short
    call_down(state, bet=lambda st: st.street == 1 and st.bets == 0)
    assert state.committed == [3, 3, 1] and state.all_in(2)
    split_all(state, {0: "8s 8h", 1: "Kd 3s", 2: "2c 4h"})
    awards = [(e.seat, e.amount, e.text.split(" with ")[0]) for e in state.events if e.kind == "award"]
    assert awards == [
        (2, 2, "five-card half of the main pot"),
        (0, 1, "two-card half of the main pot"),
        (1, 2, "five-card half of side pot 1"),
        (0, 2, "two-card half of side pot 1"),
    ]
    assert state.payoffs() == [0, -1, 1]


# ----------------------------------------------------------------- options
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"illegal_split": "penalty"}, "illegal_split='penalty'.*'mask', 'forfeit'"),
        ({"bet_after_split": 1}, "bet_after_split=1.*True or False"),
        ({"low_qualifier": 8}, "unknown option 'low_qualifier' for cowpie"),
        ({"big_bet": 1}, "big_bet=1"),
    ],
)
def test_bad_options(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game("cowpie", 3, **options)


@pytest.mark.parametrize("n", [1, 8])
def test_player_count(n: int) -> None:
    with pytest.raises(ValueError, match="num_players"):
        make_game("cowpie", n)


def test_every_stud_option_is_accepted() -> None:
    game = make_game(
        "cowpie",
        7,
        ante=1,
        bring_in=None,
        small_bet=3,
        big_bet=6,
        raise_cap=None,
        cap_heads_up=True,
        open_pair_big_bet=True,
        burn_cards=True,
        stack=40,
        button="random",
        illegal_split="forfeit",
        bet_after_split=True,
    )
    assert game.unit == 6 and game.num_actions == SPLIT_BASE + len(SPLIT_PAIRS)
    assert split_action(5, 6) == game.num_actions - 1
