"""Observation pieces of Chowaha.

Hole cards are a 52-wide multi-hot: their order carries no information, and the
width stays the same whether a player holds 2, 4 or (``remaining_as_hole``) 20 cards.
The twelve layout positions each get their own 52-wide slot (the community events
carry the position's name), so an agent knows which boards a card belongs to; each
slot is marked with the boards it is part of (``board_1`` .. ``board_4``) for agents
that build per-board card features.
"""

from __future__ import annotations

from envs.engine.events import Event, EventKind
from envs.engine.game import Game
from envs.engine.observation import (
    CardBlock,
    Community,
    Piece,
    Shown,
    Tracker,
    betting_pieces,
)
from envs.variants.chowaha.rules import BOARDS, LAYOUT


class HoleCards(Piece):
    """The viewer's own hole cards, multi-hot over the 52 cards."""

    def __init__(self) -> None:
        blocks = (CardBlock(0, ("own",)),)
        super().__init__("hole_cards", 52, "52 multi-hot: your hole cards", (EventKind.DEAL,), blocks)

    def on_event(self, t: Tracker, e: Event) -> None:
        t.set(e.seat, self, e.cards[0])


def board_groups() -> list[tuple[str, ...]]:
    """Per layout position: the card groups it belongs to (the whole board, and each of
    the four boards that use it)."""
    return [("board", *(f"board_{b + 1}" for b, cards in enumerate(BOARDS) if p in cards)) for p in range(len(LAYOUT))]


def chowaha_pieces(game: Game) -> list[Piece]:
    """Hole cards, the layout by position, betting, chips, street, position, who is in,
    the public action history and the hands shown at the showdown."""
    n, streets = game.num_players, game.streets
    return [
        HoleCards(),
        Community(len(LAYOUT), LAYOUT, board_groups()),
        *betting_pieces(n, game.options.raise_cap, [s.label for s in streets]),
        Shown(n),
    ]
