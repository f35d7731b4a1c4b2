"""Observation pieces of Chowaha.

Hole cards are a 52-wide multi-hot: their order carries no information, and the
width stays the same whether a player holds 2, 4 or (``remaining_as_hole``) 20 cards.
The twelve layout positions each get their own 52-wide slot (the community events
carry the position's name), so an agent knows which boards a card belongs to.
"""

from __future__ import annotations

from typing import Any

from envs.engine.events import Event
from envs.observation import Betting, Chips, Community, History, InHand, Piece, Position, Shown, Street, Tracker
from envs.variants.chowaha import LAYOUT, STREET_NAMES


class HoleCards(Piece):
    """The viewer's own hole cards, multi-hot over the 52 cards."""

    def __init__(self) -> None:
        super().__init__("hole_cards", 52, "52 multi-hot: your hole cards", ("deal",))

    def on_event(self, t: Tracker, e: Event) -> None:
        t.set(e.seat, self, e.cards[0])


def chowaha_pieces(game: Any) -> list[Piece]:
    """Hole cards, the layout by position, betting, chips, street, position, who is in,
    the public action history and the hands shown at the showdown."""
    n = game.num_players
    return [
        HoleCards(),
        Community(len(LAYOUT), LAYOUT),
        Betting(game.options.raise_cap),
        Chips(n),
        Street(STREET_NAMES),
        Position(n),
        InHand(n),
        History(len(STREET_NAMES), n),
        Shown(n),
    ]
