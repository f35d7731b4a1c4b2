"""Hands made of exactly two hole cards and exactly three cards of one board.

Chowaha (docs/rules.md section 6) lays out four five-card boards; Omaha uses one. A player's
hand is two of their hole cards plus three cards of a single board; the high hand and
the low hand may come from different boards and different hole cards.

``best_board_hands(hole, boards)`` evaluates every (hole pair, board, board triple)
combination at once: the five-card key of a combination is the key of the hole pair
plus the key of the board triple, so the whole search is one broadcast add and a
few table lookups.

>>> from envs.engine.cards import parse
>>> layout = [parse(b) for b in ("Ks Kd 9c 5c 8s", "7h 4s 2d 5c 8s", "7h 4s 2d Qc 8s",
...                               "Jc Tc 3h Qc 8s")]
>>> a = best_board_hands(parse("Ac 3c"), layout)
>>> describe_high(a.high), a.high_board, describe_low(a.low), a.low_board
('ace-high flush', 3, '5-4-3-2-A', 1)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.engine.hands.evaluate import (
    NO_LOW,
    _invalid_rows,
    as_card_array,
    chunked,
    describe_high,
    describe_low,
    low_threshold,
)
from envs.engine.hands.tables import RANK_MASK, RANK_WEIGHTS, SUIT_SHIFT, Tables, get_tables

__all__ = ["BoardHands", "best_board_hands", "describe_high", "describe_low"]
BLOCK = 2048  # players per pass: each holds (combinations x players) temporaries
COMBO_BITS = 16  # low bits of a packed value that number its (hole pair, board, triple)
_TRIPLES = np.array(list(itertools.combinations(range(5), 3)))  # (10, 3)


@dataclass(frozen=True)
class BoardHands:
    """Best hands per player; arrays of the players' leading shape (ints for one player).

    ``high_cards`` / ``low_cards`` are the five cards used, shape (..., 5): two hole cards
    then three board cards. Boards are numbered from 0 in the order given. A player with
    no qualifying low has ``low == NO_LOW`` and ``low_board == -1``.
    """

    high: Any
    high_board: Any
    high_cards: np.ndarray
    low: Any
    low_board: Any
    low_cards: np.ndarray


def best_board_hands(
    hole: Any,
    boards: Any,
    *,
    qualifier: int | None = 8,
    validate: bool = True,
) -> BoardHands:
    """Best high and (optionally qualified) low of exactly two hole + three board cards.

    Args:
        hole: (..., h) hole cards, h >= 2 (exactly two are used).
        boards: (..., B, 5) boards (B >= 1), broadcastable against the players' shape;
            a single (5,) board is accepted too.
        qualifier: eight-or-better by default; ``None`` evaluates ace-to-five lows with no
            qualifier. Pass ``low=False`` semantics by ignoring the low fields.
        validate: check card values and that no player sees a card twice.
    """
    hole_arr, single = as_card_array(hole, validate=False)
    board_arr = np.asarray(boards)
    if board_arr.ndim == 1:
        board_arr = board_arr[None]
    if hole_arr.shape[-1] < 2 or board_arr.shape[-1] != 5:
        shapes = f"{hole_arr.shape} and {board_arr.shape}"
        raise ValueError(f"need (..., h>=2) hole cards and (..., B, 5) boards, got {shapes}")
    lead = np.broadcast_shapes(hole_arr.shape[:-1], board_arr.shape[:-2])
    h, b = hole_arr.shape[-1], board_arr.shape[-2]
    if h * (h - 1) // 2 * b * 10 > 1 << COMBO_BITS:
        raise ValueError(f"{h} hole cards with {b} boards make too many combinations to pack")
    flat_hole = np.broadcast_to(hole_arr, (*lead, h)).reshape(-1, h)
    flat_boards = np.broadcast_to(board_arr, (*lead, *board_arr.shape[-2:])).reshape(-1, b * 5)
    packed = np.concatenate([flat_hole, flat_boards], axis=1)
    if validate and packed.size:
        _check(flat_hole, flat_boards.reshape(-1, b, 5))
    threshold = 0 if qualifier is None else low_threshold(qualifier)
    t = get_tables()
    if not len(packed):
        out = np.empty((0, 14), np.int64)
    else:
        out = chunked(packed, lambda p: _block(p, h, b, threshold, t), BLOCK)
    parts = [out[:, 0], out[:, 1], out[:, 2:7], out[:, 7], out[:, 8], out[:, 9:14]]
    fields: list[Any] = [f.reshape((*lead, *f.shape[1:])) for f in parts]
    if single and not lead:
        fields = [int(f) if f.ndim == 0 else f for f in fields]
    return BoardHands(*fields)


def _check(hole: np.ndarray, boards: np.ndarray) -> None:
    """Boards may share cards (Chowaha's do); a hand of hole cards plus one board may not."""
    for j in range(boards.shape[1]):
        hand = np.concatenate([hole, boards[:, j]], axis=1)
        bad = _invalid_rows(hand, hand.shape[1])
        if bad.any():
            row = int(np.argmax(bad))
            raise ValueError(
                f"player {row}: hole cards {hole[row].tolist()} with board {j} {boards[row, j].tolist()} "
                "must be distinct cards 0..51"
            )


def _triples(board_values: np.ndarray) -> np.ndarray:
    """(B, 5, N) per-card values -> (B, 10, N) sums over the ten three-card subsets.

    Ten slice adds beat fancy indexing along the middle axis by several times.
    """
    b, _, n = board_values.shape
    out = np.empty((b, 10, n), board_values.dtype)
    for t, (x, y, z) in enumerate(_TRIPLES):
        np.add(board_values[:, x], board_values[:, y], out=out[:, t])
        out[:, t] += board_values[:, z]
    return out


class _Packed:
    """Tables with the strength shifted left by ``COMBO_BITS``, so that ``value | combination``
    can be maximised in one reduction (numpy's argmax over a leading axis is slow)."""

    def __init__(self, t: Tables) -> None:
        self.weights = np.asarray(RANK_WEIGHTS[5], np.int32)[np.arange(52) >> 2]
        self.high = t.high[5].astype(np.int32) << COMBO_BITS
        self.flush = t.flush5.astype(np.int32) << COMBO_BITS
        self.low = t.low[5].astype(np.int32) << COMBO_BITS


_PACKED: dict[int, _Packed] = {}


def _packed(t: Tables) -> _Packed:
    if id(t) not in _PACKED:
        _PACKED[id(t)] = _Packed(t)
    return _PACKED[id(t)]


def _block(packed: np.ndarray, h: int, b: int, threshold: int, t: Tables) -> np.ndarray:
    """(N, h + 5b) -> (N, 14): high, board, 5 cards, low, board, 5 cards.

    Works in (combinations, N) layout so every operation runs over contiguous rows.
    """
    n, pk = len(packed), _packed(t)
    cards = np.ascontiguousarray(packed.T)  # (h + 5b, N)
    w = pk.weights.take(cards)
    pairs = np.array(list(itertools.combinations(range(h), 2)))  # (P, 2)
    triple = _triples(w[h:].reshape(b, 5, n))
    combo = ((w[pairs[:, 0]] + w[pairs[:, 1]])[:, None, None] + triple[None]).reshape(-1, n)
    index = np.arange(len(combo), dtype=np.int32)[:, None]
    high = pk.high.take(combo)
    high |= index
    _add_flushes(high, cards, pairs, b, t, pk)
    low = pk.low.take(combo)
    low |= index
    out = np.empty((14, n), np.int64)
    cols = np.arange(n)
    for row, values in ((0, high), (7, low)):
        best = values.max(axis=0)
        out[row] = best >> COMBO_BITS
        p, rest = np.divmod(best & ((1 << COMBO_BITS) - 1), b * 10)
        board, tri = np.divmod(rest, 10)
        out[row + 1] = board
        out[row + 2 : row + 4] = cards[pairs[p].T, cols]
        out[row + 4 : row + 7] = cards[h + board * 5 + _TRIPLES[tri].T, cols]
    no_low = out[7] < threshold
    out[7, no_low] = NO_LOW
    out[8, no_low] = -1
    return out.T


def _add_flushes(high: np.ndarray, cards: np.ndarray, pairs: np.ndarray, b: int, t: Tables, pk: _Packed) -> None:
    """Raise ``high`` where a combination is a flush.

    A flush needs a suited hole pair and three board cards of that suit, which few
    (player, board) pairs have; only those are evaluated.
    """
    h = len(cards) - 5 * b
    suits = cards & 3
    keys = t.card_keys[5]
    for p, (i, j) in enumerate(pairs):
        cols = np.flatnonzero(suits[i] == suits[j])
        if not cols.size:
            continue
        hits = (suits[h:, cols].reshape(b, 5, -1) == suits[i, cols]).sum(axis=1)  # (B, n)
        board, which = np.nonzero(hits >= 3)
        if not board.size:
            continue
        col = cols[which]
        bk = keys.take(cards[h + board * 5 + np.arange(5)[:, None], col])  # (5, M)
        combo = (keys.take(cards[i, col]) + keys.take(cards[j, col]))[:, None] + _triples(bk[None])[0].T  # (M, 10)
        flush = t.flush_suit.take(combo >> SUIT_SHIFT) >= 0
        rows = p * b * 10 + board[:, None] * 10 + np.arange(10)
        value = pk.flush.take(combo & RANK_MASK) | rows
        high[rows[flush], np.broadcast_to(col[:, None], rows.shape)[flush]] = value[flush]
