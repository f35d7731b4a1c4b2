"""One observation layout for several games: each game's own vector embedded, without
loss, into a vector whose size and meaning do not depend on the game in play.

A dealer's choice table deals one of several games, so its observation must hold any
of them. :func:`merge_layouts` lays the games' pieces side by side, sharing a slice
wherever pieces mean the same thing (the same class and name, see
:meth:`~envs.engine.observation.Piece.union`): one ``own_cards`` block with the most
slots of any game, one ``street`` one-hot over every label, one ``community`` block
with every labelled position, one ``history`` block with the most streets; pieces of
one size and meaning (``betting``, ``chips``, ``position``...) share a slice value for
value, and pieces found in one game only keep their own. Each game gets an index map:
``vector[index_map] = own_vector`` puts its own observation into the common one.

:class:`EmbeddingTracker` computes that vector: its own pieces (the table's: the game
in play) as usual, and the game in play's own :class:`~envs.engine.observation.Tracker`
(the same pieces and code as the game's single-game env) scattered through its map.
Values therefore mean exactly what they mean in the single-game env; chips are in the
tracker's unit, which the table passes to every game's tracker (one unit for all).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from envs.engine.observation import Piece, Tracker
from envs.engine.state import State


@dataclass(frozen=True)
class MergedLayout:
    """The shared slices of several games' pieces, and where each game's values go.

    Attributes:
        pieces: inert pieces describing the slices, in order of first appearance.
        index_maps: per game (in the order given), for each value of its own vector
            the index of its place in the slices (0 is the first slice's first value).
    """

    pieces: list[Piece]
    index_maps: list[np.ndarray]

    @property
    def size(self) -> int:
        """Values in all the slices."""
        return sum(p.size for p in self.pieces)


def merge_layouts(layouts: Sequence[Sequence[Piece]], owners: Sequence[str]) -> MergedLayout:
    """Merge the games' piece lists (``layouts[g]``, game ``g`` of the family
    ``owners[g]``, which names slices that would otherwise clash).

    Pieces with the same :meth:`~envs.engine.observation.Piece.merge_key` share a
    slice when their ``union`` allows it; otherwise each keeps its own. Where two
    slices have one name, a slice of one family's games is renamed ``<family>_<name>``
    (the Cowboy family's ``chips`` beside the ``chips`` the stud games and Chowaha
    share), so every name in the layout is one slice.
    """
    groups: dict[tuple[object, ...], list[tuple[int, int]]] = {}  # key -> (game, piece index)
    for g, pieces in enumerate(layouts):
        seen: set[tuple[object, ...]] = set()
        for i, piece in enumerate(pieces):
            key = piece.merge_key()
            if key in seen:  # a game with two pieces of one key keeps the second apart
                key = (*key, g, i)
            seen.add(key)
            groups.setdefault(key, []).append((g, i))
    slices: list[tuple[Piece, list[tuple[int, int]], list[np.ndarray]]] = []
    for members in groups.values():
        pieces = [layouts[g][i] for g, i in members]
        union = pieces[0].union(pieces)
        if union is not None:
            slices.append((union.piece, members, union.slots))
            continue
        for (g, i), piece in zip(members, pieces, strict=True):  # cannot share: one slice each
            slices.append((piece.inert(), [(g, i)], [np.arange(piece.size)]))
    return _laid_out(slices, layouts, owners)


def _laid_out(
    slices: list[tuple[Piece, list[tuple[int, int]], list[np.ndarray]]],
    layouts: Sequence[Sequence[Piece]],
    owners: Sequence[str],
) -> MergedLayout:
    """Offsets, unique names and every game's index map for the slices in order."""
    maps = [[np.zeros(0, np.intp)] * len(pieces) for pieces in layouts]
    _unique_names(slices, owners)
    out: list[Piece] = []
    offset = 0
    for piece, members, slots in slices:
        for (g, i), slot in zip(members, slots, strict=True):
            maps[g][i] = offset + np.asarray(slot, dtype=np.intp)
        out.append(piece)
        offset += piece.size
    index_maps = [np.concatenate(m) if m else np.zeros(0, np.intp) for m in maps]
    return MergedLayout(out, index_maps)


def _unique_names(slices: list[tuple[Piece, list[tuple[int, int]], list[np.ndarray]]], owners: Sequence[str]) -> None:
    """Rename clashing slices: one family's slice gets the family's prefix; any clash
    left (two slices of one family) a number."""
    count: dict[str, int] = {}
    for piece, _, _ in slices:
        count[piece.name] = count.get(piece.name, 0) + 1
    for piece, members, _ in slices:
        families = {owners[g] for g, _ in members}
        if count[piece.name] > 1 and len(families) == 1:
            piece.name = f"{families.pop()}_{piece.name}"
    seen: dict[str, int] = {}
    for piece, _, _ in slices:
        seen[piece.name] = seen.get(piece.name, 0) + 1
        if seen[piece.name] > 1:
            piece.name = f"{piece.name}_{seen[piece.name]}"


class EmbeddingTracker(Tracker):
    """Observations of a table whose rules are named during the hand.

    ``pieces`` are the table's layout: its own pieces (they track as usual) and the
    inert slices of :func:`merge_layouts`. ``games`` maps a game's name to its own
    tracker and the places of its values in this layout (offsets included). While
    ``state.playing`` is one of them, that tracker follows the state's events and its
    vector is scattered into every observation; values of the other games stay 0.
    """

    def __init__(
        self,
        pieces: Sequence[Piece],
        num_players: int,
        unit: int,
        games: Mapping[str, tuple[Tracker, np.ndarray]],
    ) -> None:
        super().__init__(pieces, num_players, unit)
        self.games = dict(games)
        self.inner: Tracker | None = None
        self.inner_map: np.ndarray | None = None
        self.playing: object = None

    def reset(self, state: State) -> None:
        """Start a new hand (no game in play yet)."""
        self.inner = self.inner_map = self.playing = None
        super().reset(state)

    def sync(self) -> None:
        """Consume new events: the table's pieces, then the game in play's tracker
        (started from the first event when the game is named)."""
        super().sync()
        state = self.state
        assert state is not None
        if state.playing is not self.playing:
            self.playing = state.playing
            entry = self.games.get(state.playing.name)
            self.inner, self.inner_map = entry if entry is not None else (None, None)
            if self.inner is not None:
                self.inner.reset(state)
        elif self.inner is not None:
            self.inner.sync()

    def observe(self, seat: int) -> np.ndarray:
        """The table's vector with the game in play's own vector in its places."""
        out = super().observe(seat)
        if self.inner is not None:
            out[self.inner_map] = self.inner.observe(seat)
        return out
