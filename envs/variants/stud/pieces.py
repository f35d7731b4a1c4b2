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
from envs.engine.wild_options import wild_rules
from envs.engine.wild_piece import WildCards


def stud_pieces(game: Game, splits: bool = False) -> list[Piece]:
    """Own cards, others' up cards, (community), betting, chips, street, position, who is
    in, the action history, (declarations) and the cards shown at the showdown; with
    wild cards, ``wild_cards`` last (every other offset stays where it was). ``splits``:
    the wild piece marks the joker in Cowpie's splits too."""
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
    return pieces
