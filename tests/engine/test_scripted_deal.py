"""Scripted deals (``Game.new_state(scripted=...)``): chance chosen outside the engine.

The hook behind OpenSpiel's chance nodes (envs/openspiel): each card dealt is the next
card of the script, wherever it lies in the stub; past the script, ``CardNeeded``.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import CHECK_CALL
from envs.engine.cards import parse
from envs.engine.errors import CardNeeded
from envs.engine.state import State
from envs.variants import make_game


def play_passively(st: State) -> None:
    """Check or call when possible, else the first legal action (a split, a declaration)."""
    while not st.is_over:
        legal = st.legal_actions()
        st.apply(CHECK_CALL if CHECK_CALL in legal else legal[0])


TOY = {"ranks": "KA", "suits": "cdh", "streets": 1}


def test_script_cards_are_dealt_in_order_from_anywhere_in_the_stub() -> None:
    game = make_game("toy_stud", 2, **TOY)
    script = parse("Ah Kc Ad Kd")  # deal order: seat 1 down, seat 0 down, seat 1 up, seat 0 up
    st = game.new_state(7, scripted=script)
    assert st.cards == [parse("Kc Kd"), parse("Ah Ad")]
    assert sorted(st.stub) == sorted(set(game.deck) - set(script))
    assert sorted(c for pile in st.card_locations().values() for c in pile) == sorted(game.deck)


def test_the_deal_does_not_depend_on_the_seed() -> None:
    game = make_game("toy_stud", 2, **TOY)
    script = parse("Ah Kc Ad Kd")
    assert game.new_state(1, scripted=script).cards == game.new_state(2, scripted=script).cards


def test_a_used_up_script_asks_for_a_card_among_the_stub() -> None:
    game = make_game("toy_stud", 2, **TOY)
    with pytest.raises(CardNeeded) as need:
        game.new_state(0, scripted=parse("Ah Kc"))
    assert need.value.cards == tuple(sorted(set(game.deck) - set(parse("Ah Kc"))))
    partial = need.value.state
    assert isinstance(partial, State)
    assert [e.cards for e in partial.events if e.kind == "deal"] == [(parse("Ah")[0],), (parse("Kc")[0],)]


def test_card_needed_after_a_decision_comes_from_apply() -> None:
    game = make_game("toy_stud", 2, ranks="KA", suits="cdh", streets=2)
    st = game.new_state(0, scripted=parse("Ah Kc Ad Kd"))
    st.apply(1)  # the first to act checks
    with pytest.raises(CardNeeded) as need:
        st.apply(1)  # the other checks: the next street deals
    assert need.value.cards == tuple(sorted(parse("Ac Kh")))


def test_clones_have_their_own_script() -> None:
    game = make_game("toy_stud", 2, ranks="KA", suits="cdh", streets=2)
    st = game.new_state(0, scripted=parse("Ah Kc Ad Kd"))
    st.apply(1)
    other = st.clone()
    assert other.script is not st.script
    assert other.script is not None and st.script is not None
    other.script.cards.extend(parse("Ac Kh"))
    other.apply(1)  # deals the next street from its own longer script
    assert other.cards == [parse("Kc Kd Kh"), parse("Ah Ad Ac")]
    with pytest.raises(CardNeeded):
        st.apply(1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scripted": [52]}, r"scripted\[0\]=52 is not a card of this game's deck"),
        ({"scripted": parse("2c")}, r"scripted\[0\]=0 is not a card"),  # not in the toy deck
        ({"scripted": [True]}, r"scripted\[0\]=True"),
        ({"scripted": parse("Ah"), "deck": "Ah"}, "not both"),
        ({"scripted": parse("Ah") * 2}, "Ah, which is not in the stub"),
    ],
)
def test_bad_scripts_are_clear_errors(kwargs: dict[str, object], message: str) -> None:
    game = make_game("toy_stud", 2, **TOY)
    with pytest.raises(ValueError, match=message):
        game.new_state(0, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["stud", "razz", "five_card_stud", "chowaha", "cowpie", "stud_hilo_declare"])
def test_a_script_of_a_shuffled_deck_deals_the_same_hand_as_that_deck(name: str) -> None:
    """Scripting the cards of a stacked deck, in order, changes nothing at all."""
    game = make_game(name, 3)
    deck = [int(c) for c in np.random.default_rng(3).permutation(game.deck)]
    stacked, scripted = game.new_state(0, deck=deck), game.new_state(9, scripted=deck)
    play_passively(stacked)
    play_passively(scripted)
    assert scripted.events == stacked.events
    assert scripted.payoffs() == stacked.payoffs()
