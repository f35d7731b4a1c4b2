"""Hand records: every tampering the replay must catch, with the exact disagreement;
malformed records give a RecordFormatError naming the field; version 1 records still
replay; the optional HMAC catches what consistency checks cannot."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from envs.engine.actions import BRING_IN, CHECK_CALL
from envs.engine.cards import format_card
from envs.engine.history import HandRecord, RecordError, RecordFormatError, RecordMismatchError
from envs.engine.record import format_dealt, parse_dealt
from envs.engine.replay import replay_record
from envs.engine.state import State
from envs.variants import make_game, replay
from tests.envs.play import play_random

SEEDS = range(4)
V1_RECORDS = Path(__file__).parent / "data" / "v1_records.jsonl"
KEY = b"a secret the forger does not hold"


def _showdown_hand(seed: int, n: int = 3, deck: list[int] | None = None, **options: Any) -> State:
    """A stud hand everyone calls down to the showdown (bring-in, check or call)."""
    game = make_game("stud", n, **options)
    state = game.new_state(np.random.default_rng(seed), button=seed % n, deck=deck)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(BRING_IN if BRING_IN in legal else CHECK_CALL)
    return state


def _data(state: State) -> dict[str, Any]:
    return json.loads(HandRecord.of(state).to_json())


def _replay(data: dict[str, Any]) -> State:
    return replay(HandRecord.from_json(json.dumps(data)))


def _place_of(data: dict[str, Any], card: int) -> tuple[str, int]:
    """Which place received ``card`` and as its how-manieth card (0-based)."""
    for place, text in data["dealt"].items():
        for k, (c, _) in enumerate(parse_dealt(text, place)):
            if c == card:
                return place, k
    raise AssertionError(f"{format_card(card)} was not dealt")


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


# ------------------------------------------------------------ round trips
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["stud", "razz", "stud_hilo_declare", "cowpie", "cowboy", "chowaha"])
def test_record_round_trips_and_replays(name: str, seed: int) -> None:
    state = play_random(name, 3, {}, seed, button=seed)
    record = HandRecord.of(state)
    again = HandRecord.from_json(record.to_json())
    assert again == record
    assert again.version == 2 and again.stacks is not None and again.dealt is not None
    assert replay(again).payoffs() == state.payoffs()


def test_dealt_text_round_trips() -> None:
    cards = [(51, False), (47, False), (20, True), (3, True), (8, False)]
    assert format_dealt(cards) == "[As Ks] 7c 2s [4c]"
    assert parse_dealt("[As Ks] 7c 2s [4c]", "x") == cards
    assert parse_dealt("[As] [Ks] 7c 2s [4c]", "x") == cards


def test_other_bit_generators_replay() -> None:
    game = make_game("razz", 4)
    state = game.new_state(np.random.Generator(np.random.MT19937(5)), button=2)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    assert replay(HandRecord.from_json(HandRecord.of(state).to_json())).payoffs() == state.payoffs()


# ------------------------------------------------------------ the tamper cases of the issue
@pytest.mark.parametrize("seed", SEEDS)
def test_two_dealt_cards_swapped_in_the_deck(seed: int) -> None:
    data = _data(_showdown_hand(seed))
    deck = data["deck"]
    deck[0], deck[1] = deck[1], deck[0]
    with pytest.raises(RecordMismatchError, match=rf"deck card 1 from the top: record {format_card(deck[0])}, "):
        _replay(data)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_dealt_cards_swapped_in_a_stacked_deck(seed: int) -> None:
    """A stacked deck is the caller's choice, so the dealt cards catch the swap."""
    order = [int(c) for c in np.random.default_rng(seed).permutation(52)]
    data = _data(_showdown_hand(seed, deck=order))
    assert data["stacked"] == 52
    deck = data["deck"]
    first, second = deck[0], deck[1]
    deck[0], deck[1] = second, first
    # both seats' first cards now differ; the report names the lower seat's
    (place, k), mine, theirs = min((_place_of(data, first), first, second), (_place_of(data, second), second, first))
    message = rf"{place}'s {_ordinal(k + 1)} card: record {format_card(mine)}, replay {format_card(theirs)}"
    with pytest.raises(RecordMismatchError, match=message):
        _replay(data)


@pytest.mark.parametrize("seed", SEEDS)
def test_two_cards_swapped_in_the_dealt_lists(seed: int) -> None:
    data = _data(_showdown_hand(seed))
    a, b = f"player_{(seed + 1) % 3}", f"player_{(seed + 2) % 3}"
    cards_a, cards_b = parse_dealt(data["dealt"][a], a), parse_dealt(data["dealt"][b], b)
    cards_a[2], cards_b[2] = cards_b[2], cards_a[2]  # their up cards on third street
    data["dealt"][a], data["dealt"][b] = format_dealt(cards_a), format_dealt(cards_b)
    first = min(a, b)
    mine = (cards_a if first == a else cards_b)[2][0]
    theirs = (cards_b if first == a else cards_a)[2][0]
    message = rf"{first}'s 3rd card: record {format_card(mine)}, replay {format_card(theirs)}"
    with pytest.raises(RecordMismatchError, match=message):
        _replay(data)


@pytest.mark.parametrize("stacked", [False, True])
@pytest.mark.parametrize("seed", SEEDS)
def test_dealt_card_swapped_with_an_undealt_one(seed: int, stacked: bool) -> None:
    order = [int(c) for c in np.random.default_rng(seed).permutation(52)] if stacked else None
    data = _data(_showdown_hand(seed, deck=order))
    deck = data["deck"]
    dealt, undealt = deck[0], deck[51]  # three players use 21 cards
    deck[0], deck[51] = undealt, dealt
    if stacked:
        place, k = _place_of(data, dealt)
        message = rf"{place}'s {_ordinal(k + 1)} card: record {format_card(dealt)}, replay {format_card(undealt)}"
    else:
        message = rf"deck card 1 from the top: record {format_card(undealt)}, the shuffle from rng_state gives"
    with pytest.raises(RecordMismatchError, match=message):
        _replay(data)


def test_a_card_turned_face_down() -> None:
    data = _data(_showdown_hand(0))
    place = "player_1"
    cards = parse_dealt(data["dealt"][place], place)
    cards[2] = (cards[2][0], False)  # the third-street up card
    data["dealt"][place] = format_dealt(cards)
    message = rf"player_1's 3rd card \({format_card(cards[2][0])}\): record face down, replay face up"
    with pytest.raises(RecordMismatchError, match=message):
        _replay(data)


def test_a_changed_stack() -> None:
    data = _data(_showdown_hand(0))
    data["stacks"][1] = 500
    with pytest.raises(RecordMismatchError, match=r"player_1's starting stack: record 500, .*\(stack=400\) gives 400"):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["options"]["stack"] = 500
    with pytest.raises(RecordMismatchError, match=r"player_0's starting stack: record 400, .*\(stack=500\) gives 500"):
        _replay(data)


def test_payoffs_null_on_a_finished_hand() -> None:
    data = _data(_showdown_hand(1))
    data["payoffs"] = None
    with pytest.raises(RecordMismatchError, match=r"payoffs: missing \(null\), but the hand is over"):
        _replay(data)


def test_payoffs_on_an_unfinished_hand() -> None:
    state = make_game("stud", 3).new_state(2, button=0)
    state.apply(state.legal_actions()[0])
    data = _data(state)
    assert data["payoffs"] is None and _replay(data).current_seat is not None
    data["payoffs"] = [0, 0, 0]
    with pytest.raises(RecordMismatchError, match=r"payoffs: the record gives \[0, 0, 0\], but its 1 decisions"):
        _replay(data)


@pytest.mark.parametrize("seed", SEEDS)
def test_changed_payoffs(seed: int) -> None:
    data = _data(_showdown_hand(seed))
    data["payoffs"][0] += 1
    with pytest.raises(RecordMismatchError, match=r"player_0's payoff: record"):
        _replay(data)


def test_a_51_card_deck() -> None:
    data = _data(_showdown_hand(0))
    data["deck"] = data["deck"][:51]
    with pytest.raises(RecordFormatError, match=r"deck: 51 cards; a record holds the game's whole deck of 52"):
        replay(HandRecord.from_json(json.dumps(data)))
    data = _data(_showdown_hand(0))
    data["deck"][7] = data["deck"][3]
    with pytest.raises(RecordFormatError, match=rf"deck: {format_card(data['deck'][3])} appears twice"):
        HandRecord.from_json(json.dumps(data))


def _forge(data: dict[str, Any], seed: int) -> dict[str, Any] | None:
    """A forger's record: one dealt card swapped for an undealt one, the dealt cards
    and payoffs recomputed by playing the forged deck with the recorded decisions.
    None when no such swap keeps the decisions playable and changes the payoffs."""
    record = HandRecord.from_json(json.dumps(data))
    used = sum(len(parse_dealt(text, place)) for place, text in data["dealt"].items())
    for dealt in range(used):
        for undealt in range(used, 52):
            deck = list(data["deck"])
            deck[dealt], deck[undealt] = deck[undealt], deck[dealt]
            state = make_game("stud", 3).new_state(np.random.default_rng(seed + 99), button=record.button, deck=deck)
            for seat, action in record.decisions:
                if state.current_seat != seat:
                    break
                state.apply(action)
            if state.is_over and state.payoffs() != data["payoffs"]:
                return _data(state)
    return None


def _forged_pair(first_seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """(record, forgery) of the first hand from ``first_seed`` on that a forger can change."""
    for seed in range(first_seed, first_seed + 20):
        data = _data(_showdown_hand(seed))
        forged = _forge(data, seed)
        if forged is not None:
            return data, forged
    raise AssertionError("no hand could be forged with one swapped card")


@pytest.mark.parametrize("seed", SEEDS)
def test_forgery_with_changed_cards_and_recomputed_payoffs(seed: int) -> None:
    data, forged = _forged_pair(10 * seed)
    forged["rng_state"], forged["stacked"] = data["rng_state"], 0  # claim the original shuffle
    with pytest.raises(RecordMismatchError, match=r"deck card \d+ from the top: record .., the shuffle from rng_state"):
        _replay(forged)


def test_a_consistent_rewrite_is_caught_only_by_the_mac() -> None:
    """Where a forger still succeeds: a record claiming a stacked deck is consistent by
    construction. The HMAC of the original, checked with the key, rejects it."""
    data, forged = _forged_pair(0)
    signed = HandRecord.from_json(json.dumps(data)).signed(KEY)
    assert replay(signed, key=KEY).payoffs() == data["payoffs"]
    assert _replay(forged).payoffs() == forged["payoffs"]  # consistent: replay alone accepts it
    forged["mac"] = signed.mac
    with pytest.raises(RecordMismatchError, match=r"mac: the record's HMAC does not match"):
        replay(HandRecord.from_json(json.dumps(forged)), key=KEY)


def test_mac_errors() -> None:
    record = HandRecord.of(_showdown_hand(1))
    signed = HandRecord.from_json(record.signed(KEY).to_json())
    signed.check_mac(KEY)
    with pytest.raises(RecordMismatchError, match=r"mac: the record's HMAC does not match"):
        signed.check_mac(b"another key")
    with pytest.raises(RecordMismatchError, match=r"mac: the record is not signed"):
        replay(record, key=KEY)
    tampered = json.loads(signed.to_json())
    tampered["payoffs"] = tampered["payoffs"][::-1]
    with pytest.raises(RecordMismatchError, match=r"mac: "):
        replay(HandRecord.from_json(json.dumps(tampered)), key=KEY)


# ------------------------------------------------------------ options, game and decisions
def test_changed_options() -> None:
    data = _data(_showdown_hand(0))
    data["options"]["low_qualifier"] = 6
    message = r"option low_qualifier: record 6, the game has 8 \(stud does not take low_qualifier"
    with pytest.raises(RecordMismatchError, match=message):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["options"]["ante"] = 1  # a different game: every payoff moves by the ante
    with pytest.raises(RecordMismatchError, match=r"player_\d's payoff: record"):
        _replay(data)
    data = _data(_showdown_hand(0))
    del data["options"]["burn_cards"]
    with pytest.raises(RecordFormatError, match=r"options: 'burn_cards' is missing"):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["options"]["turbo"] = True
    with pytest.raises(RecordFormatError, match=r"options: unknown option 'turbo' for stud"):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["options"]["ante"] = -1
    with pytest.raises(RecordFormatError, match=r"options: the record's game cannot be built: option ante=-1"):
        _replay(data)


def test_replay_on_another_game() -> None:
    record = HandRecord.of(_showdown_hand(0))
    with pytest.raises(RecordMismatchError, match=r"game: the record is stud for 3 players, the game given is razz"):
        replay_record(record, make_game("razz", 3))
    with pytest.raises(RecordMismatchError, match=r"option ante: record 0, the game has 5"):
        replay_record(record, make_game("stud", 3, ante=5))


def test_changed_decisions() -> None:
    data = _data(_showdown_hand(0))
    seat, _ = data["decisions"][0]
    data["decisions"][0][0] = (seat + 1) % 3
    with pytest.raises(RecordMismatchError, match=rf"decision 1 of \d+ \(player_{(seat + 1) % 3}: .*\): the replay "):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["decisions"][0][1] = 5  # a declaration in a stud hand
    with pytest.raises(RecordMismatchError, match=r"decision 1 of \d+ \(player_\d: declare_high\): illegal in"):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["decisions"].append(data["decisions"][-1])
    with pytest.raises(RecordMismatchError, match=r"the replayed hand is already over after \d+ decisions"):
        _replay(data)


def test_diverging_decisions_report_the_changed_card_first() -> None:
    """A swapped up card changes who brings in; the report names the card."""
    order = [int(c) for c in np.random.default_rng(3).permutation(52)]
    data = _data(_showdown_hand(3, deck=order))
    up = [6, 7, 8]  # third street: down, down, up for three seats
    ranks = sorted(up, key=lambda i: data["deck"][i])
    low, high = ranks[0], ranks[-1]
    data["deck"][low], data["deck"][high] = data["deck"][high], data["deck"][low]
    with pytest.raises(RecordMismatchError, match=r"player_\d's 3rd card: record .., replay .."):
        _replay(data)


# ------------------------------------------------------------ malformed records
def test_malformed_json() -> None:
    with pytest.raises(RecordFormatError, match=r"not a JSON record: Expecting"):
        HandRecord.from_json('{"variant": "stud", ')
    with pytest.raises(RecordFormatError, match=r"not a JSON record"):
        HandRecord.from_json(b"\xff\xfe")
    with pytest.raises(RecordFormatError, match=r"a record is a JSON object, got list"):
        HandRecord.from_json("[1, 2]")


WRONG = [
    ("num_players", "3", r"num_players: '3' is not allowed: expected an int >= 1"),
    ("num_players", True, r"num_players: True is not allowed"),
    ("variant", "poker", r"variant: unknown variant 'poker'"),
    ("variant", 7, r"variant: 7 is not allowed"),
    ("button", 9, r"button: 9 is not allowed: expected an int in 0..2"),
    ("options", [], r"options: \[\] is not allowed"),
    ("deck", "As Kd", r"deck: 'As Kd' is not allowed: expected a list"),
    ("deck", ["As"] * 52, r"deck\[0\]: 'As' is not allowed"),
    ("rng_state", 5, r"rng_state: 5 is not allowed"),
    ("rng_state", {"bit_generator": "Dice"}, r"rng_state: bit_generator 'Dice' is not allowed"),
    ("rng_state", {"bit_generator": "PCG64", "state": 5}, r"rng_state: not a valid PCG64 state"),
    ("decisions", {"0": 1}, r"decisions: \{'0': 1\} is not allowed: expected a list"),
    ("decisions", [[0, "call"]], r"decisions\[0\] action: 'call' is not allowed"),
    ("decisions", [[0]], r"decisions\[0\]: \[0\] is not allowed: expected a \[seat, action\] pair"),
    ("decisions", [[7, 1]], r"decisions\[0\] seat: 7 is not allowed: expected an int in 0..2"),
    ("payoffs", "lots", r"payoffs: 'lots' is not allowed"),
    ("payoffs", [1, 2], r"payoffs: 2 entries, expected 3"),
    ("payoffs", [1.5, 0, 0], r"payoffs\[0\]: 1.5 is not allowed: expected an int"),
    ("stacks", [400, "x", 400], r"stacks\[1\]: 'x' is not allowed"),
    ("stacks", None, r"stacks: missing"),
    ("stacked", 60, r"stacked: 60 is not allowed: expected an int in 0..52"),
    ("dealt", "As", r"dealt: 'As' is not allowed"),
    ("dealt", {"player_0": "[As Kd"}, r"dealt.player_0: a bracket is not closed"),
    ("dealt", {"player_0": "As]"}, r"dealt.player_0: unbalanced brackets at 'As\]'"),
    ("dealt", {"player_0": "Zz"}, r"dealt.player_0: unknown card 'Zz'"),
    ("dealt", {"player_9": "As"}, r"dealt: unknown place 'player_9'"),
    ("dealt", {"player_0": "As", "player_1": "Kd"}, r"dealt: no entry for player_2"),
    ("version", 3, r"version: 3 is not allowed: expected one of \(1, 2\)"),
    ("mac", "abc", r"mac: 'abc' is not allowed"),
]


@pytest.mark.parametrize(("field", "value", "message"), WRONG, ids=[f"{f}={v!r}" for f, v, _ in WRONG])
def test_wrong_types_name_the_field(field: str, value: Any, message: str) -> None:
    data = _data(_showdown_hand(0))
    data[field] = value
    with pytest.raises(RecordFormatError, match=message):
        _replay(data)


def test_missing_and_unknown_fields() -> None:
    data = _data(_showdown_hand(0))
    del data["deck"]
    with pytest.raises(RecordFormatError, match=r"deck: missing \(a version 2 record has"):
        _replay(data)
    data = _data(_showdown_hand(0))
    data["colour"] = "red"
    with pytest.raises(RecordFormatError, match=r"'colour': unknown field of a version 2 record"):
        _replay(data)


ODD_VALUES = [None, True, -1, 0, 10**30, 1.5, "x", "", [], [[]], [1, "a"], {}, {"a": None}]


@pytest.mark.parametrize(
    "field",
    [
        "variant",
        "num_players",
        "options",
        "button",
        "deck",
        "rng_state",
        "decisions",
        "payoffs",
        "version",
        "stacks",
        "stacked",
        "dealt",
        "mac",
    ],
)
def test_no_raw_exceptions_from_odd_values(field: str) -> None:
    """Whatever a field holds, replay either succeeds or raises a RecordError."""
    base = _data(_showdown_hand(0))
    rejected = 0
    for value in ODD_VALUES:
        data = copy.deepcopy(base)
        data[field] = value
        try:
            _replay(data)
        except RecordError:
            rejected += 1
    assert rejected >= len(ODD_VALUES) - 2  # a field may accept its real value or null


# ------------------------------------------------------------ version 1
def test_version_1_records_still_replay() -> None:
    lines = V1_RECORDS.read_text().splitlines()
    for line in lines:
        record = HandRecord.from_json(line)
        assert record.version == 1 and record.dealt is None
        assert replay(record).payoffs() == record.payoffs
        assert json.loads(record.to_json()) == json.loads(line)  # written back unchanged
    data = json.loads(lines[0])
    data["payoffs"] = None
    with pytest.raises(RecordMismatchError, match=r"payoffs: missing \(null\), but the hand is over"):
        _replay(data)
    data = json.loads(lines[0])
    data["deck"] = data["deck"][:51]
    with pytest.raises(RecordFormatError, match=r"deck: 51 cards"):
        _replay(data)
    data = json.loads(lines[0])
    data["dealt"] = {}
    with pytest.raises(RecordFormatError, match=r"'dealt': unknown field of a version 1 record"):
        _replay(data)
