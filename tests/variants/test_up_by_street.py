"""The stud games' observation option ``up_by_street``: the other seats' up cards in the
order they were dealt, appended after every other piece.

Scripted stacked-deck hands check where each card lands; the toy hands that the default
observation aliases (the same up cards, dealt in the other order) get different
observations; the default layout is exactly as before (shipped agents still play); the
games without the piece refuse the option. The batched engine's copy of the piece is
checked against this one in ``tests/batched/test_lockstep.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import agents
from agents.neural import Layout
from envs.engine.cards import parse
from envs.registry import make_raw
from tests.envs.play import play_random


def piece(env: Any, name: str, seat: int) -> np.ndarray:
    """The slice of ``seat``'s observation that the piece ``name`` owns."""
    vector = env.observe(f"player_{seat}")["observation"]
    offset = 0
    for p in env.pieces:
        if p.name == name:
            return vector[offset : offset + p.size]
        offset += p.size
    raise AssertionError(f"no piece {name}")


def hot(blocks: np.ndarray) -> list[list[int]]:
    """Per 52-card block, the cards set in it."""
    return [np.flatnonzero(b).tolist() for b in blocks.reshape(-1, 52)]


def toy_hand(deck: str) -> Any:
    """Heads-up toy stud, seat 0 on the button, both seats checking the first round."""
    env = make_raw("toy_stud", 2, up_by_street=True)
    env.reset(options={"deck": parse(deck), "button": 0})
    for _ in range(2):
        env.step(env.action_names.index("check_call"))
    return env


# dealing order, button 0: down to seat 1, to seat 0; first up to seat 1, to seat 0; second up likewise
TOY = "Jd Qd Jc Ah Qc Kh"  # seat 1 shows Jc then Qc, seat 0 Ah then Kh
TOY_SWAPPED = "Jd Qd Qc Ah Jc Kh"  # seat 1 shows the same cards, Qc first


def test_each_up_card_is_in_the_block_of_its_street_for_every_other_seat() -> None:
    env = toy_hand(TOY)
    jc, qc, ah, kh = parse("Jc Qc Ah Kh")
    assert hot(piece(env, "up_by_street", 0)) == [[jc], [qc]]
    assert hot(piece(env, "up_by_street", 1)) == [[ah], [kh]]
    assert [p.name for p in env.pieces][-1] == "up_by_street"


def test_the_order_of_the_up_cards_tells_apart_what_the_default_observation_aliases() -> None:
    first, second = toy_hand(TOY), toy_hand(TOY_SWAPPED)
    np.testing.assert_array_equal(piece(first, "up_cards", 0), piece(second, "up_cards", 0))
    a, b = first.observe("player_0")["observation"], second.observe("player_0")["observation"]
    width = a.size - first.pieces[-1].size
    np.testing.assert_array_equal(a[:width], b[:width])  # the default observation aliases the two
    assert not np.array_equal(a, b)
    plain = make_raw("toy_stud", 2)
    plain.reset(options={"deck": parse(TOY), "button": 0})
    assert plain.tracker.size == width


def test_seven_card_stud_keeps_a_folded_seats_cards_and_skips_the_down_cards() -> None:
    """Three seats, button 0: seat 0 (Ts, the best up card) bets third street, seat 1
    folds, seat 2 calls, then both check to the end; the seventh-street down cards and the
    folded seat's later streets are absent."""
    deck = parse("2c 3c 4c 2d 3d 4d 5c 9h Ts 6c 7c 8c Jc Qc Kc 2h 3h")
    env = make_raw("stud", 3, up_by_street=True, bring_in=None)
    env.reset(options={"deck": deck, "button": 0})
    for name in ("raise", "fold", "check_call"):
        env.step(env.action_names.index(name))
    while not env.state.is_over:
        env.step(env.action_names.index("check_call"))
    assert env.state.folded[1] and not env.state.folded[0]
    cards, faces = env.state.cards, env.state.up
    ups = {seat: [c for c, up in zip(cards[seat], faces[seat], strict=True) if up] for seat in (0, 1, 2)}
    assert len(ups[1]) == 1 and len(ups[0]) == len(ups[2]) == 4
    blocks = hot(piece(env, "up_by_street", 0))  # relative seat 1 (seat 1), then 2 (seat 2)
    assert blocks == [[ups[1][0]], [], [], [], *([c] for c in ups[2])]


def test_a_face_up_joker_is_counted_and_left_to_the_wild_piece() -> None:
    """The joker is in no 52-card block (as in ``up_cards``), and still takes its street:
    the seat's next up card is in the next block."""
    env = make_raw("stud", 2, up_by_street=True, wild="joker", bring_in=None)
    deck = ["2c", "2d", "3c", "3d", "Jk", "9h", "4c", "Th", "5c", "Jh", "6c", "Qh", "7c", "Kh"]
    env.reset(options={"deck": deck, "button": 0})
    for _ in range(2):
        env.step(env.action_names.index("check_call"))
    assert hot(piece(env, "up_by_street", 0)) == [[], parse("4c"), [], []]
    assert piece(env, "wild_cards", 0).any()


def test_the_default_layout_is_unchanged_and_shipped_agents_play_it() -> None:
    for variant in ("stud", "razz", "five_card_stud", "toy_stud"):
        plain, off = make_raw(variant, 2), make_raw(variant, 2, up_by_street=False)
        assert [p.name for p in plain.pieces] == [p.name for p in off.pieces]
        assert "up_by_street" not in [p.name for p in plain.pieces]
        assert "up_by_street" not in Layout.build(variant, 2, {}).options  # as layouts saved before the option
        assert Layout.build(variant, 2, {"up_by_street": True}).options["up_by_street"] is True
    env = make_raw("razz", 2)
    env.reset(seed=3)
    agent = env.agent_selection
    action = agents.load("pretrained:razz").act(env.observe(agent), env.public_view(agent))
    assert env.observe(agent)["action_mask"][action]


@pytest.mark.parametrize("variant", ["cowpie", "chowaha", "cowboy", "dealers_choice"])
def test_games_without_the_piece_refuse_the_option(variant: str) -> None:
    with pytest.raises(ValueError, match="unknown option 'up_by_street'"):
        make_raw(variant, 3, up_by_street=True)


def test_dealers_choice_refuses_it_for_a_game_it_deals() -> None:
    """Dealer's choice has one observation layout for every game: a game's observation
    option would be silently dropped, so it is refused."""
    with pytest.raises(ValueError, match=r"game_options\['stud'\] sets up_by_street, an observation option"):
        make_raw("dealers_choice", 2, game_options={"stud": {"up_by_street": True}})


def _played(variant: str, **options: Any) -> Any:
    """The record of a hand of random legal actions (the same actions whatever the
    observation options: they never change the game)."""
    from envs.engine.record import HandRecord

    return HandRecord.of(play_random(variant, 2, options, seed=5))


@pytest.mark.parametrize("variant", ["stud", "cowpie"])
def test_records_leave_the_option_out_and_replay_either_way(variant: str) -> None:
    """A record is the game, not what a seat observed: it has the fields records had
    before the option existed (Cowpie's options class inherits the field too), a hand
    played with the option replays on the default game, and a record that names the
    option still replays."""
    from envs.engine.record import HandRecord
    from envs.variants import replay

    record = _played(variant)
    assert "up_by_street" not in record.options
    replay(record)
    if variant == "stud":
        observed = _played(variant, up_by_street=True)
        assert observed.options == record.options and observed.decisions == record.decisions
        replay(observed)
    named = HandRecord.from_dict({**record.to_dict(), "options": {**record.options, "up_by_street": True}})
    replay(named)


def test_a_bad_value_is_refused() -> None:
    with pytest.raises(ValueError, match=r"option up_by_street='yes' is not allowed: expected True or False"):
        make_raw("stud", 2, up_by_street="yes")
