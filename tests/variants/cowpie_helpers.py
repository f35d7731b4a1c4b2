"""Scripted Cowpie hands: stacked decks, a call-down, and splits named by their cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from envs.engine.actions import BRING_IN, CHECK_CALL, RAISE, split_action
from envs.engine.cards import parse
from envs.engine.game import Game
from envs.engine.state import State
from envs.variants import make_game
from envs.variants.cowpie.rules import Split

DOWN = (True, True, False, False, False, False, True)  # dealt order: two down, four up, one down


def stacked_deck(hands: Sequence[str], button: int = 0) -> list[int]:
    """The deck (top card first) that deals each seat its seven cards, given in dealt
    order (down, down, up, up, up, up, down), when nobody folds before seventh street."""
    cards = [parse(h) for h in hands]
    assert all(len(c) == 7 for c in cards)
    n = len(hands)
    order = [(button + 1 + i) % n for i in range(n)]
    return [cards[seat][street] for street in range(7) for seat in order]


def deal(hands: Sequence[str], button: int = 0, **options: object) -> tuple[Game, State]:
    """A game of Cowpie and a state dealt from ``hands`` (the rest of the deck shuffled)."""
    game = make_game("cowpie", len(hands), **options)
    return game, game.new_state(0, button=button, deck=stacked_deck(hands, button))


def in_split(state: State) -> bool:
    """Whether the hand is in its split phase."""
    return not state.is_over and isinstance(state.game.program[state.pc], Split)


def call_down(state: State, bet: Callable[[State], bool] = lambda st: False) -> None:
    """Bring in, call or check (or raise where ``bet`` says so) until the split."""
    while not state.is_over and not in_split(state):
        legal = state.legal_actions()
        action = BRING_IN if BRING_IN in legal else CHECK_CALL
        if bet(state) and RAISE in legal:
            action = RAISE
        state.apply(action)


def split_for(state: State, two: str) -> int:
    """The split action of the seat to act whose two-card hand is ``two``."""
    seat = state.current_seat
    assert seat is not None
    i, j = (state.cards[seat].index(c) for c in parse(two))
    return split_action(i, j)


def split_all(state: State, twos: dict[int, str]) -> None:
    """Every seat splits with the two-card hand given for it."""
    while in_split(state):
        state.apply(split_for(state, twos[state.current_seat]))  # type: ignore[index]
