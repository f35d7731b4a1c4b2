"""Two-card hands and the Cowpie split of seven cards into a five-card and a two-card hand.

Rules (docs/rules.md section 4):

* two-card hands: any pair beats any unpaired hand; pairs by rank; unpaired hands by
  the higher card, then the lower; aces high; no straights or flushes;
* a split is legal when each hand holds at least one face-down card and the five-card
  hand *ranks higher* than the two-card hand: two pair or better always does; a pair
  beats no pair; pair against pair, the higher pair wins; no pair against no pair, the
  highest cards, then the second highest; equal top cards go to the five-card hand
  (it has kickers: A-K-9-7-4 is higher than A-K, K-K-x-x-x than K-K).

``SPLITS[i]`` is the pair of positions (into the seven cards) that form the two-card
hand of split ``i``; environments use the same order for their 21 split actions.

>>> from envs.engine.cards import parse
>>> five_outranks_two(parse("Kh Kc 7s 4d 2c"), parse("As 9d"))
True
>>> five_outranks_two(parse("Kh 9d 7s 4d 2c"), parse("As Kc"))
False
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.engine.hands.evaluate import CHUNK, _validate, as_card_array, evaluate_high
from envs.engine.hands.tables import (
    PAIR,
    RANK_MASK,
    SUIT_SHIFT,
    TWO_PAIR,
    Tables,
    get_tables,
)

SPLITS: tuple[tuple[int, int], ...] = tuple(itertools.combinations(range(7), 2))
_I = np.array([s[0] for s in SPLITS])
_J = np.array([s[1] for s in SPLITS])


def _two_card_table() -> np.ndarray:
    """Dense two-card strength for index ``rank_a * 13 + rank_b`` (either order)."""
    a, b = np.divmod(np.arange(169), 13)
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    code = np.where(a == b, 1000 + a, hi * 13 + lo)
    return (np.unique(code, return_inverse=True)[1] + 1).astype(np.int32)


def _two_card_keys() -> np.ndarray:
    """Comparison key of a two-card hand against five-card hands (see _five_keys)."""
    a, b = np.divmod(np.arange(169), 13)
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    return np.where(a == b, 256 + a * 16 + a, hi * 16 + lo).astype(np.int32)


def _five_keys(t: Tables) -> np.ndarray:
    """Key per five-card strength such that "five ranks higher" is ``key5 >= key2``.

    Two pair or better: 512 (beats any two cards). Pair of r: 256 + 16 r + 13, so a pair
    of the same rank in the two-card hand (256 + 17 r) is lower. No pair: 16 r0 + r1,
    the two top ranks, equal top ranks counting as higher.
    """
    cat, r0, r1 = (t.class_ranks[:, i].astype(np.int32) for i in range(3))
    keys = np.where(cat >= TWO_PAIR, 512, np.where(cat == PAIR, 256 + r0 * 16 + 13, r0 * 16 + r1))
    keys[0] = -1
    return keys


def _down_ok() -> np.ndarray:
    """(128, 21): for a face-down bit pattern, does split i leave a down card in each hand?"""
    pattern = np.arange(128)[:, None]
    down = (pattern >> np.arange(7)) & 1
    two = down[:, _I] + down[:, _J]
    return (two >= 1) & (down.sum(axis=1)[:, None] - two >= 1)


TWO_CARD_STRENGTH = _two_card_table()
_TWO_KEYS = _two_card_keys()
_DOWN_OK_T = np.ascontiguousarray(_down_ok().T)  # (21, 128)
MAX_TWO_CARD = int(TWO_CARD_STRENGTH.max())


def two_card_strength(cards: Any) -> Any:
    """Strength (1..91, higher is better) of two-card hands, shape (..., 2)."""
    arr, single = as_card_array(cards)
    if arr.shape[-1] != 2:
        raise ValueError(f"two-card hands must have 2 cards, got {arr.shape[-1]}")
    ranks = arr >> 2
    out = TWO_CARD_STRENGTH[ranks[..., 0] * 13 + ranks[..., 1]]
    return int(out) if single else out


def five_outranks_two(five: Sequence[int], two: Sequence[int]) -> bool:
    """Whether a five-card hand ranks higher than a two-card hand (docs/rules.md section 4)."""
    key5 = _five_keys(get_tables())[evaluate_high(list(five))]
    ranks = [c >> 2 for c in two]
    return bool(key5 >= _TWO_KEYS[ranks[0] * 13 + ranks[1]])


@dataclass(frozen=True)
class Splits:
    """The 21 splits of each hand: arrays of shape (..., 21) in ``SPLITS`` order."""

    five: np.ndarray  # high strength of the five-card hand
    two: np.ndarray  # two-card strength
    legal: np.ndarray  # bool: one down card in each hand and five ranks higher


def cowpie_splits(cards: Any, down: Any, *, validate: bool = True) -> Splits:
    """Evaluate all 21 five/two splits of seven-card hands with face-down flags.

    Args:
        cards: (..., 7) card ints (or a string for one hand).
        down: (..., 7) booleans, True for a face-down card.
    """
    arr, _ = as_card_array(cards, validate=validate)
    if arr.shape[-1] != 7:
        raise ValueError(f"Cowpie hands must have 7 cards, got {arr.shape[-1]}")
    down_arr = np.asarray(down, dtype=bool)
    if down_arr.shape != arr.shape:
        raise ValueError(f"down flags must have the cards' shape {arr.shape}, got {down_arr.shape}")
    t = get_tables()
    flat = arr.reshape(-1, 7)
    if validate and flat.size:
        _validate(flat)
    pattern = (down_arr.reshape(-1, 7) << np.arange(7)).sum(axis=1)
    n = len(flat)
    # (21, N) layout: every block writes contiguous rows; callers get (..., 21) views.
    five, two = np.empty((21, n), np.int32), np.empty((21, n), np.int32)
    legal = np.empty((21, n), bool)
    for i in range(0, n, CHUNK):
        part = slice(i, i + CHUNK)
        _split_block(flat[part], pattern[part], t, five[:, part], two[:, part], legal[:, part])
    shape = (*arr.shape[:-1], 21)
    return Splits(five=five.T.reshape(shape), two=two.T.reshape(shape), legal=legal.T.reshape(shape))


def _split_block(
    flat: np.ndarray, pattern: np.ndarray, t: Tables, five: np.ndarray, two: np.ndarray, legal: np.ndarray
) -> None:
    """Fill (21, n) rows for n hands; the (21, n) layout keeps gathers contiguous."""
    cards = np.ascontiguousarray(flat.T)  # (7, n)
    keys = t.card_keys[5].take(cards)
    total = keys.sum(axis=0)
    sub = total - (keys[_I] + keys[_J])  # (21, n) keys of the five-card hands
    five[...] = t.high[5].take(sub & RANK_MASK)
    rows = np.flatnonzero(t.flush_suit.take(total >> SUIT_SHIFT) >= 0)
    if rows.size:  # only hands with five of a suit can hold a flush five
        s = sub[:, rows]
        flush = t.flush_suit.take(s >> SUIT_SHIFT) >= 0
        five[:, rows] = np.where(flush, t.flush5.take(s & RANK_MASK), five[:, rows])
    ranks = cards >> 2
    two_idx = ranks[_I] * 13 + ranks[_J]
    two[...] = TWO_CARD_STRENGTH.take(two_idx)
    np.greater_equal(_five_keys_cached(t).take(five), _TWO_KEYS.take(two_idx), out=legal)
    legal &= _DOWN_OK_T.take(pattern, axis=1)


_FIVE_KEYS: dict[int, np.ndarray] = {}


def _five_keys_cached(t: Tables) -> np.ndarray:
    key = id(t)
    if key not in _FIVE_KEYS:
        _FIVE_KEYS[key] = _five_keys(t)
    return _FIVE_KEYS[key]
