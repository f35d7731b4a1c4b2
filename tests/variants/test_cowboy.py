"""Scripted Cowboy, Cowgirl and Cowpattie deals with stacked decks and exact chips.

Seats in these scripts: with the button on seat 0 the order of play is 1, 2, ..., 0.
"""

from __future__ import annotations

import pytest

from envs.engine.actions import DRAW_BASE, draw_action
from envs.engine.cards import parse
from envs.engine.errors import IllegalActionError
from envs.engine.history import HandRecord, hand_history
from envs.variants import make_game, replay
from tests.variants.cowboy_script import BOTH, FOLD, HIGH, LOW, PAT, STAY, deal, net, play

WHEEL_A = "As 2c 3d 4h 5s"  # 5-high straight and the best low
WHEEL_B = "Ah 2d 3c 4s 5c"  # the same, other suits: ties WHEEL_A both ways
KINGS = "Kc Kd 9h 7s 2d"  # pair of kings
KINGS_TOO = "Kh Ks 9c 7d 2c"  # ties KINGS for high
SEVEN_LOW = "7c 5d 4h 3s 2h"
NINE_LOW = "9d 8c 6h 4c 3c"
JACKS = "Jc Jd Th 8d 6s"


def _antes(st, deal_number: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Seats that anted in a given deal, in order."""
    seen, out = 0, []
    for e in st.events:
        if e.kind == "street" and e.text.startswith("deal "):
            seen = int(e.text.split()[1])
        elif e.kind == "ante" and seen == deal_number:
            out.append(e.seat)
    return out


# ------------------------------------------------------------------ stay round
def test_nobody_stays_everyone_antes_again_and_the_pot_carries() -> None:
    st = deal("cowboy", {0: JACKS, 1: KINGS, 2: SEVEN_LOW})
    play(st, [(1, FOLD), (2, FOLD), (0, FOLD)])
    assert st.family.deal == 2 and not st.is_over
    assert _antes(st, 2) == [1, 2, 0]
    assert st.pot() == 6
    assert net(st) == [-2, -2, -2]
    assert st.current_seat == 1 and st.legal_actions() == [FOLD, STAY]


def test_one_stays_takes_the_pot_and_the_game_ends() -> None:
    st = deal("cowboy", {0: JACKS, 1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW}, ante=2)
    play(st, [(1, FOLD), (2, STAY), (3, FOLD), (0, FOLD)])
    assert st.is_over and not st.truncated
    assert st.payoffs() == [-2, -2, 6, -2]
    assert st.rewards() == [-1.0, -1.0, 3.0, -1.0]


@pytest.mark.parametrize(("button", "expected"), [(0, [-1, -1, 2, -1, 1]), (3, [-1, -1, 1, -1, 2])])
def test_two_stay_split_the_pot_odd_chip_first_clockwise_from_the_button(button: int, expected: list[int]) -> None:
    hands = {0: JACKS, 1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW, 4: "Qc Qd Ts 8s 6c"}
    st = deal("cowboy", hands, button=button)
    order = [(button + 1 + i) % 5 for i in range(5)]
    play(st, [(s, STAY if s in (2, 4) else FOLD) for s in order])
    assert st.is_over
    assert st.payoffs() == expected  # pot 5: 3 to the first of seats 2 and 4 after the button


def test_two_stay_showdown_plays_the_deal_out_without_payments_or_dummy() -> None:
    st = deal("cowboy", {0: JACKS, 1: KINGS, 2: SEVEN_LOW}, two_stay="showdown", ante=2)
    play(st, [(1, STAY), (2, STAY), (0, FOLD), (1, PAT), (2, PAT), (1, HIGH), (2, LOW)])
    assert st.is_over
    assert st.payoffs() == [-2, 1, 1]  # pot 6: high half 3, low half 3
    assert "dummy" not in st.piles and not any(e.kind == "dummy" for e in st.events)


def test_two_stay_showdown_same_way_best_hand_takes_all() -> None:
    st = deal("cowboy", {0: JACKS, 1: KINGS, 2: SEVEN_LOW}, two_stay="showdown")
    play(st, [(1, STAY), (2, STAY), (0, FOLD), (1, PAT), (2, PAT), (1, HIGH), (2, HIGH)])
    assert st.payoffs() == [-1, 2, -1]  # nobody pays the pot: only the ante is lost


def test_two_stay_showdown_where_no_declaration_wins_splits_the_pot() -> None:
    st = deal("cowboy", {0: JACKS, 1: WHEEL_A, 2: WHEEL_B}, two_stay="showdown", swing_rule="outright")
    play(st, [(1, STAY), (2, STAY), (0, FOLD), (1, PAT), (2, PAT), (1, BOTH), (2, BOTH)])
    assert st.payoffs() == [-1, 1, 0]  # both swings tie, so both fail: pot 3 split, odd chip to seat 1


# -------------------------------------------------------------------- showdown
def _three_stay(declarations: tuple[int, int, int], hands: tuple[str, str, str], **options: object):  # type: ignore[no-untyped-def]
    """Seats 1, 2, 0 all stay, stand pat and declare; returns the state at deal 2."""
    st = deal("cowboy", {1: hands[0], 2: hands[1], 0: hands[2]}, **options)
    play(st, [(1, STAY), (2, STAY), (0, STAY), (1, PAT), (2, PAT), (0, PAT)])
    play(st, [(1, declarations[0]), (2, declarations[1]), (0, declarations[2])])
    return st


def test_three_stay_one_wins_both_ways_and_the_two_others_pay_the_pot() -> None:
    st = _three_stay((BOTH, HIGH, LOW), (WHEEL_A, KINGS, "8c 6d 4c 3s 2h"))
    assert st.family.deal == 2 and not st.is_over
    assert _antes(st, 2) == []  # nobody folded: nobody antes
    assert net(st) == [-4, 2, -4]  # seat 1 takes the pot of 3, seats 2 and 0 pay 3 each
    assert st.pot() == 6
    assert st.current_seat == 1


@pytest.mark.parametrize(
    ("swing_rule", "expected", "pot"),
    [
        # high half 3 split 2/1 (odd chip to seat 1, first after the button), low half 3
        # to seat 1; seat 0 won nothing and pays 6
        ("win_or_tie", [-8, 3, -1], 6),
        # seat 1 tied high, so it fails: high half to seat 2, low half to seat 0, seat 1 pays 6
        ("outright", [1, -8, 1], 6),
    ],
)
def test_swing_declarer_tying_one_way(swing_rule: str, expected: list[int], pot: int) -> None:
    st = _three_stay((BOTH, HIGH, LOW), (WHEEL_A, WHEEL_B, "6h 4d 3h 2h Ac"), ante=2, swing_rule=swing_rule)
    assert net(st) == expected
    assert st.pot() == pot


def test_nobody_declares_low_the_best_high_takes_the_whole_pot() -> None:
    st = _three_stay((HIGH, HIGH, HIGH), (WHEEL_A, KINGS, "8c 6d 4c 3s 2h"))
    assert net(st) == [-4, 2, -4]
    assert [e.text for e in st.events if e.kind == "award"] == ["the whole pot with five-high straight"]


def test_no_eight_or_better_low_the_high_side_takes_the_whole_pot() -> None:
    st = _three_stay((HIGH, LOW, HIGH), (KINGS, "Kh Qd Jh 9s 8h", JACKS), low_rule="a5_8")
    assert net(st) == [-4, 2, -4]  # seat 2's king-low does not qualify: seat 1 takes all
    st = _three_stay((HIGH, LOW, HIGH), (KINGS, "Kh Qd Jh 9s 8h", JACKS))
    assert net(st) == [-4, 1, 0]  # with no qualifier it takes the low half (1 of 3)


def test_a_stayer_who_ties_for_a_half_pays_nothing() -> None:
    st = deal("cowboy", {1: KINGS, 2: KINGS_TOO, 3: SEVEN_LOW, 0: NINE_LOW}, ante=2)
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, STAY), (1, PAT), (2, PAT), (3, PAT), (0, PAT)])
    play(st, [(1, HIGH), (2, HIGH), (3, LOW), (0, LOW)])
    assert net(st) == [-10, 0, 0, 2]  # pot 8: high 4 split 2/2, low 4; only seat 0 pays 8
    assert st.pot() == 8


def test_every_swing_fails_nobody_wins_and_every_stayer_pays() -> None:
    st = _three_stay((BOTH, BOTH, BOTH), (WHEEL_A, WHEEL_B, JACKS), swing_rule="outright")
    assert net(st) == [-4, -4, -4]  # the pot of 3 stays and each pays 3
    assert st.pot() == 12


def test_match_cap_limits_each_payment() -> None:
    st = _three_stay((BOTH, HIGH, LOW), (WHEEL_A, KINGS, "8c 6d 4c 3s 2h"), ante=2, match_cap=2)
    assert net(st) == [-4, 4, -4]  # pot 6 to seat 1; the others pay 2 each instead of 6
    assert st.pot() == 4


# ------------------------------------------------------------------------ draw
def _all_stay(name: str, n: int, seed: int, **options: object):  # type: ignore[no-untyped-def]
    st = make_game(name, n, **options).new_state(seed, button=0)
    play(st, [((1 + i) % n, STAY) for i in range(n)])
    return st


def test_the_stub_runs_out_and_only_earlier_discards_are_reshuffled() -> None:
    st = _all_stay("cowboy", 7, seed=3)
    order = [1, 2, 3, 4, 5, 6, 0]
    discards: dict[int, set[int]] = {}
    for seat in order:
        hand = list(st.cards[seat])
        assert st.current_seat == seat
        events_before = len(st.events)
        st.apply(draw_action([0, 1, 2]))
        discards[seat] = set(hand[:3])
        drawn = set(st.cards[seat]) - set(hand[3:])
        reshuffles = [e for e in st.events[events_before:] if e.kind == "reshuffle"]
        if seat == 6:  # 35 dealt, 17 left: five draws of 3 leave 2, the sixth runs out
            assert len(reshuffles) == 1
            earlier = set().union(*(discards[s] for s in order[:5]))
            assert set(reshuffles[0].cards) == earlier
            assert not discards[6] & set(st.cards[6])
        else:
            assert not reshuffles
        if seat == 0:  # the last drawer draws only from the reshuffled discards
            assert drawn <= set().union(*(discards[s] for s in order[:5]))
        places = st.card_locations()
        assert sorted(c for pile in places.values() for c in pile) == list(range(52))


def test_cowboy_draws_four_only_when_keeping_an_ace() -> None:
    st = deal("cowboy", {0: JACKS, 1: "2c 5d 8h Qs As", 2: "3c 6d 9h Qc Kd"}, rest="Tc Ts Td 9c 9s")
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    legal = st.legal_actions()
    assert len(legal) == 1 + 5 + 10 + 10 + 1  # up to three, plus the one four-card set keeping the ace
    assert draw_action([0, 1, 2, 3]) in legal
    assert draw_action([1, 2, 3, 4]) not in legal and draw_action([0, 1, 2, 3, 4]) not in legal
    with pytest.raises(IllegalActionError):
        st.apply(draw_action([0, 1, 2, 4]))  # throws the ace away
    st.apply(draw_action([0, 1, 2, 3]))
    assert st.cards[1] == sorted(parse("As Tc Ts Td 9c")) and st.family.drawn[1] == 4
    assert len(st.legal_actions()) == 26  # seat 2 holds no ace: three at most
    with pytest.raises(IllegalActionError):
        st.apply(draw_action([0, 1, 2, 3]))


def test_cowboy_pair_of_aces_may_throw_one_keeping_the_other() -> None:
    st = deal("cowboy", {0: JACKS, 1: "2c 5d 8h Ac As", 2: "3c 6d 9h Qc Kd"}, ace_draw=4)
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert draw_action([0, 1, 2, 3]) in st.legal_actions()
    assert draw_action([0, 1, 2, 4]) in st.legal_actions()
    st = deal("cowboy", {0: JACKS, 1: "2c 5d 8h Qs As", 2: "3c 6d 9h Qc Kd"}, ace_draw=None)
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert len(st.legal_actions()) == 26  # no ace rule


def test_cowgirl_draws_at_most_one_card() -> None:
    st = deal("cowgirl", {0: JACKS, 1: KINGS, 2: SEVEN_LOW})
    play(st, [(1, STAY), (2, STAY), (0, STAY)])
    assert st.legal_actions() == [DRAW_BASE + m for m in (0, 1, 2, 4, 8, 16)]
    with pytest.raises(IllegalActionError):
        st.apply(draw_action([0, 1]))


def test_cowpattie_has_no_draw() -> None:
    st = deal("cowpattie", {0: JACKS, 1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW})
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD)])
    assert st.legal_actions() == [LOW, HIGH, BOTH]
    play(st, [(1, HIGH), (2, LOW), (3, LOW)])
    assert not any(e.kind == "draw" for e in st.events)
    assert not any(e.kind == "dummy" and e.action >= DRAW_BASE for e in st.events)
    assert st.family.deal == 2  # the dummy was dealt and shown without a decision


# ----------------------------------------------------------------------- dummy
def test_the_dummy_draws_and_beats_the_high_winner() -> None:
    # dummy 3d 5c 6d Qc Qd: its chooser (seat 0, the only fold) throws 3d 5c 6d and
    # draws Qh 8s 8h: queens full beat seat 1's kings; seat 2's seven-low stands
    hands = {1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW, 0: JACKS}
    st = deal("cowboy", hands, rest="3d 5c 6d Qc Qd Qh 8s 8h")
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, LOW)])
    assert st.current_seat == 0 and st.folded[0]
    assert st.piles["dummy"] == sorted(parse("3d 5c 6d Qc Qd"))
    play(st, [(0, draw_action([0, 1, 2]))])
    # pot 4: seat 1's high half (2) stays, seat 2 takes the low half; seats 1 and 3 pay 4
    assert st.family.deal == 2
    assert _antes(st, 2) == [0]
    assert net(st) == [-2, -5, 1, -5]
    assert st.pot() == 11
    text = hand_history(st)
    assert "the dummy shows 8h 8s Qc Qd Qh" in text and "player_1: the dummy beats its high" in text


def test_without_its_draw_the_dummy_beats_nobody() -> None:
    hands = {1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW, 0: JACKS}
    st = deal("cowboy", hands, rest="3d 5c 6d Qc Qd Qh 8s 8h")
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, LOW), (0, PAT)])
    assert net(st) == [-2, 1, 1, -5]  # pair of queens loses to kings: only seat 3 pays


def test_dummy_off_means_no_dummy() -> None:
    hands = {1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW, 0: JACKS}
    st = deal("cowboy", hands, rest="Qc Qd Qh 8s 8h", dummy=False)
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, LOW)])
    assert net(st) == [-2, 1, 1, -5]


# ------------------------------------------------------------------ truncation
def test_max_deals_truncates_and_returns_the_pot_in_equal_shares() -> None:
    hands = {1: KINGS, 2: SEVEN_LOW, 3: JACKS, 0: NINE_LOW}
    st = deal("cowboy", hands, max_deals=2, dummy=False)
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, HIGH)])
    assert net(st) == [-2, 1, 1, -5] and st.pot() == 5  # deal 2 began: seat 0 anted again
    play(st, [(1, FOLD), (2, FOLD), (3, FOLD), (0, FOLD)])
    assert st.is_over and st.truncated
    # the pot of 5 goes back 1 each, the odd chip to seat 1 (first after the button)
    assert st.payoffs() == [-1, 3, 2, -4]
    assert sum(st.payoffs()) == 0


def test_a_scripted_game_replays_exactly() -> None:
    hands = {1: KINGS, 2: SEVEN_LOW, 3: NINE_LOW, 0: JACKS}
    st = deal("cowboy", hands, rest="3d 5c 6d Qc Qd Qh 8s 8h")
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD), (1, PAT), (2, PAT), (3, PAT)])
    play(st, [(1, HIGH), (2, LOW), (3, LOW), (0, draw_action([0, 1, 2]))])
    play(st, [(1, STAY), (2, STAY), (3, FOLD), (0, FOLD)])
    record = HandRecord.from_json(HandRecord.of(st).to_json())
    again = replay(record)
    assert again.payoffs() == st.payoffs() and hand_history(again) == hand_history(st)


# --------------------------------------------------------------------- options
@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("cowboy", {"max_draw": 6}, "max_draw=6"),
        ("cowboy", {"ace_draw": 5}, "ace_draw=5"),
        ("cowboy", {"two_stay": "chop"}, "two_stay='chop'"),
        ("cowboy", {"low_rule": "a6"}, "low_rule='a6'"),
        ("cowboy", {"swing_rule": "tie"}, "swing_rule='tie'"),
        ("cowboy", {"match_cap": 0}, "match_cap=0"),
        ("cowboy", {"dummy": 1}, "dummy=1"),
        ("cowboy", {"max_deals": 0}, "max_deals=0"),
        ("cowboy", {"ante": 0}, "ante=0"),
        ("cowgirl", {"ace_draw": 4}, "unknown option 'ace_draw'"),
        ("cowboy", {"stack": 100}, "unknown option 'stack'"),
    ],
)
def test_bad_options_are_named(name: str, options: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        make_game(name, 3, **options)


@pytest.mark.parametrize("n", [2, 8])
def test_three_to_seven_players(n: int) -> None:
    with pytest.raises(ValueError, match="num_players"):
        make_game("cowboy", n)


def test_versions_differ_only_by_their_draw_defaults() -> None:
    games = {name: make_game(name, 3) for name in ("cowboy", "cowgirl", "cowpattie")}
    limits = {name: (game.options.max_draw, game.options.ace_draw) for name, game in games.items()}
    assert limits == {"cowboy": (3, 4), "cowgirl": (1, None), "cowpattie": (0, None)}
    assert make_game("cowgirl", 3, max_draw=2).options.max_draw == 2
