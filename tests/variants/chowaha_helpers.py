"""Stacked decks and scripted actions for Chowaha hands.

Dealing order (``envs.variants.chowaha``): hole cards one at a time clockwise from the
seat left of the button, round after round; then the layout in position order: top
flop 1-3, middle flop 1-3, bottom flop 1-3, upper turn, lower turn, river.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envs.engine.cards import parse
from envs.engine.state import State
from envs.variants import make_game

# docs/rules.md section 6 / the seed's example, in layout order:
# top K♠K♦9♣, middle 7♥4♠2♦, bottom J♣T♣3♥, upper turn 5♣, lower turn Q♣, river 8♠
SEED_LAYOUT = "Ks Kd 9c 7h 4s 2d Jc Tc 3h 5c Qc 8s"
# No board holds three cards of rank eight or lower: nobody can make a low.
NO_LOW_LAYOUT = "Ks Kd 9c Jh Ts 9d Jc Tc Qh 5c Qc 8s"


def stacked_deck(n: int, button: int, holes: dict[int, str], layout: str) -> list[int]:
    """Deck (top card first) dealing ``holes[seat]`` to each seat, then ``layout``."""
    cards = {seat: parse(text) for seat, text in holes.items()}
    assert sorted(cards) == list(range(n)), "give every seat its hole cards"
    rounds = {len(c) for c in cards.values()}
    assert len(rounds) == 1, "every seat gets as many hole cards"
    order = [(button + 1 + i) % n for i in range(n)]
    return [cards[seat][r] for r in range(rounds.pop()) for seat in order] + parse(layout)


def new_hand(n: int, button: int, holes: dict[int, str], layout: str = SEED_LAYOUT, **options: Any) -> State:
    """A stacked Chowaha hand, dealt up to the first decision."""
    game = make_game("chowaha", n, **options)
    return game.new_state(0, button=button, deck=stacked_deck(n, button, holes, layout))


def act(st: State, *moves: tuple[int, str]) -> None:
    """Apply (seat, action name) moves, checking that each seat is the one to act."""
    names = st.game.action_names
    for seat, name in moves:
        assert st.current_seat == seat, f"expected player_{seat} to act before {name}, found {st.current_seat}"
        st.apply(names.index(name))


def check_down(st: State) -> None:
    """Everyone checks (or calls) until the hand ends."""
    while not st.is_over:
        st.apply(1)


def set_stacks(st: State, stacks: Sequence[int]) -> None:
    """Give the seats different starting stacks (the option gives everyone the same).

    Called right after dealing, before any decision: the blinds already posted stay
    in the pot and come out of the new stacks.
    """
    assert not st.decisions and all(c <= s for c, s in zip(st.committed, stacks, strict=True))
    st.start_stack = list(stacks)
    st.stack = [s - c for s, c in zip(stacks, st.committed, strict=True)]


def notes(st: State) -> dict[int, str]:
    """Each shown seat's best-hands note from the history."""
    return {e.seat: e.text for e in st.events if e.kind == "note"}


def awards(st: State) -> list[tuple[int, int, str]]:
    """(seat, chips, text) of every award, in order."""
    return [(e.seat, e.amount, e.text) for e in st.events if e.kind == "award"]
