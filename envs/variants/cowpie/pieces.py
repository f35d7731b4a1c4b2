"""Observation pieces of Cowpie: stud's pieces, a longer phase list, and the splits.

What a player needs to split is already in stud's ``own_cards``: seven slots in dealt
order (the positions that the ``split_i_j`` actions refer to), each with a face-up
flag, so a dealt slot without the flag is a face-down card. Cowpie adds:

* ``street``: stud's five streets plus ``split`` (and ``after the split`` with
  ``bet_after_split``), so the phase is visible without the mask;
* ``history``: a sixth street of betting actions with ``bet_after_split`` (from the
  game's streets);
* ``splits``: per relative seat the two-card and the five-card hand (multi-hot) and a
  legal flag; the viewer's own as soon as it splits (it must remember its split during
  the betting round after the split), every other player's only at the reveal.
"""

from __future__ import annotations

from envs.engine.cards import JOKER
from envs.engine.events import Event, EventKind, Verb
from envs.engine.game import Game
from envs.engine.observation import Piece, StreetPiece, Tracker
from envs.variants.cowpie.rules import street_labels
from envs.variants.stud.pieces import stud_pieces

SPLIT_ROW = 52 + 52 + 1  # two-card hand, five-card hand, legal


class Splits(Piece):
    """Per relative seat: the two-card hand, the five-card hand and whether the split is
    legal; the viewer's own at its (secret) split, the others' at the reveal."""

    def __init__(self, n: int) -> None:
        doc = (
            f"relative seats 0..{n - 1} x (52 multi-hot two-card hand, 52 multi-hot five-card hand, "
            "1 split legal): yours once you split, the others' when the splits are revealed"
        )
        super().__init__("splits", n * SPLIT_ROW, doc, (EventKind.SPLIT, EventKind.SPLIT_REVEAL))

    def on_event(self, t: Tracker, e: Event) -> None:
        legal = e.verb == Verb.SPLIT
        viewers = [e.seat] if e.kind == EventKind.SPLIT else range(t.n)  # a split is secret until revealed
        for viewer in viewers:
            base = t.rel(viewer, e.seat) * SPLIT_ROW
            for card in e.cards[:2]:
                if card != JOKER:  # the wild_cards piece marks the joker
                    t.set(viewer, self, base + card)
            for card in e.cards[2:]:
                if card != JOKER:
                    t.set(viewer, self, base + 52 + card)
            t.set(viewer, self, base + 104, 1.0 if legal else 0.0)


def cowpie_pieces(game: Game) -> list[Piece]:
    """Stud's pieces with Cowpie's phases, plus ``splits`` before ``shown``."""
    n = game.num_players
    pieces: list[Piece] = []
    for piece in stud_pieces(game, splits=True):
        if piece.name == "street":
            piece = StreetPiece(street_labels(game.streets))
        elif piece.name == "shown":
            pieces.append(Splits(n))
        pieces.append(piece)
    return pieces
