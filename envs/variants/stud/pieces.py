"""Observation pieces of the stud family, built from the game's streets.

The layout follows the streets: one ``own_cards`` slot per card a player can be dealt,
one one-hot per street, a betting-history block per street, the community card only
where a street can deal one (seven-card stud's seventh), declarations only where the
pots are declared.
"""

from __future__ import annotations

from envs.engine.cards import JOKER
from envs.engine.events import Event
from envs.engine.game import Game
from envs.engine.observation import (
    Community,
    Declarations,
    OwnCards,
    Piece,
    Shown,
    Tracker,
    UpCards,
    betting_pieces,
)
from envs.engine.variant import UP
from envs.engine.wild_options import wild_rules
from envs.engine.wild_piece import WildCards


def stud_pieces(game: Game, splits: bool = False) -> list[Piece]:
    """Own cards, others' up cards, (community), betting, chips, street, position, who is
    in, the action history, (declarations) and the cards shown at the showdown; with
    wild cards, ``wild_cards`` last (every other offset stays where it was). ``splits``:
    the wild piece marks the joker in Cowpie's splits too. With the option
    ``up_by_street``, :class:`UpByStreet` after them all (the default layout unchanged)."""
    n, streets = game.num_players, game.streets
    slots = sum(len(s.deal) for s in streets)
    community = any(s.community_when_short for s in streets)
    pieces: list[Piece] = [OwnCards(slots), UpCards(n)]
    if community:
        pieces.append(Community(1, ("community card",)))
    pieces += betting_pieces(n, game.options.raise_cap, [s.label for s in streets])
    if any(share.declared for share in game.pot_shares):
        pieces.append(Declarations(n))
    pieces.append(Shown(n))
    if wild_rules(game.options) is not None:
        pieces.append(WildCards(game.options, n, slots, community, splits))
    if getattr(game.options, "up_by_street", False):
        pieces.append(UpByStreet(n, sum(face == UP for s in streets for face in s.deal)))
    return pieces


class UpByStreet(Piece):
    """The other seats' face-up cards in the order they were dealt (option ``up_by_street``).

    ``up_cards`` shows a seat's up cards as a set. The order is information, because each
    betting round was played with only the cards dealt so far showing: two toy-stud hands
    that differ only in which of the opponent's two up cards came first share an
    observation, and an equilibrium can play them differently (docs/exploitability.md:
    the aliasing alone keeps a distilled network 0.06 antes per hand from equilibrium).
    Here the k-th up card a seat was dealt is one-hot in its k-th block, so the
    observation recalls the board perfectly. No card blocks: the cards are those of
    ``up_cards``, which the card features already count. The joker (wild cards) is in
    no 52-card block, as in ``up_cards``; the ``wild_cards`` piece marks it.
    """

    def __init__(self, n: int, ups: int) -> None:
        doc = f"relative seats 1..{n - 1} x {ups} up cards in dealt order x 52 one-hot"
        super().__init__("up_by_street", (n - 1) * ups * 52, doc, ("deal",))
        self.ups = ups

    def on_event(self, t: Tracker, e: Event) -> None:
        if not e.up:
            return
        key = (-4, e.seat)  # this piece's count of the seat's up cards
        k = t.counters.get(key, 0)
        t.counters[key] = k + 1
        card = e.cards[0]
        if card == JOKER or k >= self.ups:
            return
        for viewer in range(t.n):
            if viewer != e.seat:
                t.set(viewer, self, (t.rel(viewer, e.seat) - 1) * self.ups * 52 + k * 52 + card)
