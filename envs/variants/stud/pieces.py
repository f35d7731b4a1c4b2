"""Observation pieces of the stud family, built from the game's streets.

The layout follows the streets: one ``own_cards`` slot per card a player can be dealt,
one one-hot per street, a betting-history block per street, the community card only
where a street can deal one (seven-card stud's seventh), declarations only where the
pots are declared.
"""

from __future__ import annotations

from envs.engine.game import Game
from envs.engine.observation import (
    Community,
    Declarations,
    OwnCards,
    Piece,
    Shown,
    UpCards,
    betting_pieces,
)


def stud_pieces(game: Game) -> list[Piece]:
    """Own cards, others' up cards, (community), betting, chips, street, position, who is
    in, the action history, (declarations) and the cards shown at the showdown."""
    n, streets = game.num_players, game.streets
    pieces: list[Piece] = [OwnCards(sum(len(s.deal) for s in streets)), UpCards(n)]
    if any(s.community_when_short for s in streets):
        pieces.append(Community(1, ("community card",)))
    pieces += betting_pieces(n, game.options.raise_cap, [s.label for s in streets])
    if any(share.declared for share in game.pot_shares):
        pieces.append(Declarations(n))
    pieces.append(Shown(n))
    return pieces
