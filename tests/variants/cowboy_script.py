"""Helpers for scripted Cowboy deals: stacked decks and checked action sequences."""

from __future__ import annotations

from collections.abc import Sequence

from envs.engine.actions import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW, FOLD, STAY, draw_action
from envs.engine.cards import parse
from envs.engine.state import State
from envs.variants import make_game

LOW, HIGH, BOTH = DECLARE_LOW, DECLARE_HIGH, DECLARE_BOTH
PAT = draw_action([])
__all__ = ["BOTH", "FOLD", "HIGH", "LOW", "PAT", "STAY", "deal", "net", "play"]


def stacked(num_players: int, button: int, hands: dict[int, str], rest: str = "") -> list[int]:
    """A deck (top card first) that deals ``hands`` (seat -> five cards), one card at a
    time from the seat left of the button, followed by ``rest``."""
    order = [(button + 1 + i) % num_players for i in range(num_players)]
    cards = {seat: parse(text) for seat, text in hands.items()}
    assert sorted(cards) == list(range(num_players)), "give every seat a hand"
    deck = [cards[seat][k] for k in range(5) for seat in order]
    return deck + parse(rest)


def deal(name: str, hands: dict[int, str], rest: str = "", button: int = 0, seed: int = 0, **options: object) -> State:
    """A new game whose first deal is stacked."""
    n = len(hands)
    game = make_game(name, n, **options)
    return game.new_state(seed, button=button, deck=stacked(n, button, hands, rest))


def play(st: State, moves: Sequence[tuple[int, int]]) -> None:
    """Apply (seat, action) pairs, checking that each seat is the one to act."""
    for seat, action in moves:
        assert st.current_seat == seat, f"expected player_{seat} to act, found {st.current_seat} ({st.describe()})"
        st.apply(action)


def net(st: State) -> list[int]:
    """Each seat's net chips so far in the game."""
    return [st.stack[s] - st.start_stack[s] for s in range(st.n)]
