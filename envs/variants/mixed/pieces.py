"""Observation of a dealer's choice table: one layout for every listed game.

``game``: which game is in play (one-hot over the listed games) and a flag while the
game is not named yet. Then every listed game's own pieces, merged where they mean the
same thing (:func:`envs.engine.embedding.merge_layouts`): ``own_cards`` with the most
slots of any game (five-card stud fills the first five of seven-card stud's seven),
``up_cards`` by relative seat, ``community`` with every position (stud's seventh-street
community card and Chowaha's twelve layout positions), ``street`` over every game's
labels, ``history`` with the most streets, the money pieces shared, and pieces found in
one family only (Cowpie's ``splits``, Chowaha's ``hole_cards``, the Cowboy family's
pieces) in their own slices. The game in play's own vector, exactly as its single-game
env writes it, lies at its index map (:func:`index_maps`); the other games' slices are
0. Chip amounts are in big bets of the table's stakes in every game.
"""

from __future__ import annotations

import numpy as np

from envs.engine.embedding import EmbeddingTracker, MergedLayout, merge_layouts
from envs.engine.game import Game
from envs.engine.observation import Piece, Tracker
from envs.variants.mixed.rules import ChooseGame


class GameInPlay(Piece):
    """One-hot: the game in play, then "not named yet" (the dealer is choosing)."""

    def __init__(self, names: list[str]) -> None:
        doc = (
            "one-hot: " + ", ".join(names) + ", not named yet (every chip amount below is in big bets of the "
            "table's stakes, whatever unit a game's own piece names)"
        )
        super().__init__("game", len(names) + 1, doc)
        self.index = {name: i for i, name in enumerate(names)}

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        assert t.state is not None
        out[:] = 0.0
        out[self.index.get(t.state.playing.name, len(self.index))] = 1.0


def choose_step(game: Game) -> ChooseGame:
    """The table's one step, which holds the listed games."""
    step = game.program[0]
    assert isinstance(step, ChooseGame), f"{game.name} is not a dealer's choice table"
    return step


def _merged(game: Game) -> tuple[list[Game], list[list[Piece]], MergedLayout]:
    games = list(choose_step(game).games)
    layouts = [g.variant.pieces(g) for g in games]
    return games, layouts, merge_layouts(layouts, [g.variant.family for g in games])


def mixed_pieces(game: Game) -> list[Piece]:
    """The game piece, then the merged slices of every listed game."""
    games, _, merged = _merged(game)
    return [GameInPlay([g.name for g in games]), *merged.pieces]


def index_maps(game: Game) -> dict[str, np.ndarray]:
    """Per listed game: where each value of its own observation lies in the table's
    (``table_vector[index_maps[name]] == own_vector``)."""
    games, _, merged = _merged(game)
    header = len(games) + 1
    return {g.name: header + m for g, m in zip(games, merged.index_maps, strict=True)}


def mixed_tracker(game: Game, pieces: list[Piece]) -> Tracker:
    """The table's tracker: its own pieces, and each game's own tracker (in the
    table's unit: big bets of the stakes) embedded by its index map."""
    games, layouts, merged = _merged(game)
    header = len(games) + 1
    inner = {
        g.name: (Tracker(own, game.num_players, game.unit), header + m)
        for g, own, m in zip(games, layouts, merged.index_maps, strict=True)
    }
    return EmbeddingTracker(pieces, game.num_players, game.unit, inner)
