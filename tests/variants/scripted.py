"""Helpers for scripted hands: stacked stud decks and action scripts."""

from __future__ import annotations

from collections.abc import Sequence

from envs.engine.actions import BRING_IN, CHECK_CALL
from envs.engine.cards import parse
from envs.engine.state import State


def stud_deck(n: int, button: int, hands: dict[int, str], last_street: dict[int, int] | None = None) -> list[int]:
    """A deck (top card first) dealing each seat its cards in dealt order.

    ``hands[seat]`` lists the seat's cards as dealt: down, down, up (third street), up,
    up, up, down. ``last_street[seat]`` is the last street (0 = third .. 4 = seventh)
    on which the seat is still in when cards are dealt (it folds during that street).
    """
    last_street = last_street or {}
    order = [(button + 1 + i) % n for i in range(n)]
    cards = {seat: parse(text) for seat, text in hands.items()}
    deck = [cards[s][k] for k in range(3) for s in order]
    for street in range(1, 5):
        deck += [cards[s][street + 2] for s in order if last_street.get(s, 4) >= street]
    return deck


def act(state: State, *script: tuple[int, int]) -> None:
    """Apply (seat, action) pairs, checking that each seat is the one to act."""
    for seat, action in script:
        assert state.current_seat == seat, f"expected player_{seat} to act, found {state.current_seat}"
        state.apply(action)


def call_down(state: State, streets: Sequence[int] | None = None) -> None:
    """Everyone posts the bring-in / checks / calls until the hand ends (or leaves the
    given streets)."""
    while not state.is_over and (streets is None or state.street in streets):
        legal = state.legal_actions()
        if BRING_IN in legal:
            state.apply(BRING_IN)
        elif CHECK_CALL in legal:
            state.apply(CHECK_CALL)
        else:
            return
