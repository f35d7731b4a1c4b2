"""High and ace-to-five low evaluation of five, six or seven cards, batched and scalar.

Both scales are "higher is better, equal is a tie" so that one comparison rule serves
every pot share. Batched functions take any array of shape ``(..., k)`` (k = 5, 6, 7)
and return an ``int32`` array of shape ``(...)``; a single hand (a 1-D sequence, or a
string such as ``"As Ks Qs Js Ts"``) returns a Python ``int``.

>>> evaluate_high("As Ks Qs Js Ts") == MAX_HIGH
True
>>> describe_high(evaluate_high("Kd Kh 9c 9s 2d 3h 4c"))
'two pair, kings and nines'
>>> describe_low(evaluate_low("8c 5d 4h 3s Ad Kc Kd", qualifier=8))
'8-5-4-3-A'
>>> evaluate_low("9c 5d 4h 3s 2d", qualifier=8) == NO_LOW
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.engine.cards import RANK_NAMES, RANK_PLURALS, parse
from envs.engine.hands.tables import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    NO_LOW,
    NUM_HIGH_CLASSES,
    NUM_LOW_CLASSES,
    PAIR,
    QUADS,
    RANK_MASK,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUIT_SHIFT,
    TRIPS,
    TWO_PAIR,
    Tables,
    get_tables,
)
from envs.engine.options import quoted

MAX_HIGH = NUM_HIGH_CLASSES
MAX_LOW = NUM_LOW_CLASSES
__all__ = [
    "CATEGORY_NAMES",
    "MAX_HIGH",
    "MAX_LOW",
    "NO_LOW",
    "as_card_array",
    "describe_high",
    "describe_low",
    "evaluate_high",
    "evaluate_low",
    "high_category",
    "high_value",
    "low_threshold",
    "low_value",
]


# ------------------------------------------------------------------------ input
def as_card_array(cards: Any, *, validate: bool = True) -> tuple[np.ndarray, bool]:
    """Cards as an integer array ``(..., k)`` and whether the input was a single hand.

    With ``validate`` (the default) every value must be a card 0..51 and no hand may
    hold the same card twice; the check costs about a third of an evaluation, so hot
    loops that build their own hands may pass ``validate=False``.
    """
    if isinstance(cards, str):
        cards = parse(cards)
    arr = np.asarray(cards)
    if arr.dtype.kind not in "iu":
        if arr.size == 0 or arr.dtype == object:
            raise ValueError(f"cards must be integers 0..51, got {quoted(cards)}")
        raise ValueError(f"cards must be integers 0..51, got dtype {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError("expected a hand of cards (shape (..., k)), got a scalar")
    arr = arr.astype(np.intp, copy=False)  # small dtypes would overflow in rank arithmetic
    if validate and arr.ndim == 1:
        _validate_one(arr)
    return arr, arr.ndim == 1


def _validate_one(hand: np.ndarray) -> None:
    values = hand.tolist()
    bad = [c for c in values if not 0 <= c <= 51]
    if bad:
        raise ValueError(f"card values must be in 0..51, got {quoted(bad[0])} in {quoted(values)}")
    if len(set(values)) != len(values):
        raise ValueError(f"a hand holds the same card twice: {quoted(values)} (hand index ())")


_BITS = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))


class _InvalidBlockError(Exception):
    """A block holds a bad hand; the caller re-checks the whole batch for the message."""


def _run(arr: np.ndarray, validate: bool, fn: Any, cards: int | None = None) -> np.ndarray:
    """``chunked`` over the rows of ``arr``, validating each block while it is in cache.

    ``cards`` limits the check to the first columns when extra data rides along.
    """
    width = arr.shape[-1]
    k = width if cards is None else cards

    def block(f: np.ndarray) -> np.ndarray:
        if validate and f.size and not _block_is_valid(f[:, :k], k):
            raise _InvalidBlockError
        return fn(f)

    try:
        return chunked(arr.reshape(-1, width), block)
    except _InvalidBlockError:
        _validate(arr.reshape(-1, width)[:, :k])
        raise AssertionError("unreachable: _validate raises for an invalid block") from None


def _validate(arr: np.ndarray) -> None:
    k = arr.shape[-1]
    if not arr.size:
        return
    bad = chunked(arr.reshape(-1, k), lambda f: _invalid_rows(f, k))
    if bad.any():
        row = int(np.argmax(bad))
        hand = arr.reshape(-1, k)[row]
        where = tuple(int(i) for i in np.unravel_index(row, arr.shape[:-1]))
        if ((hand < 0) | (hand > 51)).any():
            raise ValueError(f"card values must be in 0..51, got {quoted(hand.tolist())} (hand index {where})")
        raise ValueError(f"a hand holds the same card twice: {quoted(hand.tolist())} (hand index {where})")


def _block_is_valid(flat: np.ndarray, k: int) -> bool:
    """Fast all-rows check (few numpy calls); ``_invalid_rows`` finds the culprit."""
    if flat.min() < 0:
        return False
    try:
        bits = _BITS.take(flat.T)  # raises for a card above 51
    except IndexError:
        return False
    # Distinct cards <=> the sum of their bits has no carries <=> popcount == k.
    return bool(np.bitwise_count(bits.sum(axis=0)).min() == k)


def _invalid_rows(flat: np.ndarray, k: int) -> np.ndarray:
    """Rows with a value outside 0..51 or a repeated card."""
    if flat.min() < 0 or flat.max() > 51:
        return np.asarray(((flat < 0) | (flat > 51)).any(axis=1))
    # Distinct cards <=> the sum of their bits has no carries <=> popcount == k.
    return np.asarray(np.bitwise_count(_BITS.take(flat.T).sum(axis=0)) != k)


CHUNK = 4096  # hands per numpy pass: keeps every temporary in cache


def chunked(flat: np.ndarray, fn: Any, size: int = 0) -> np.ndarray:
    """Apply ``fn`` to row blocks of ``flat`` and concatenate.

    Large temporaries fall out of cache (and, on glibc, get fresh pages from the OS at
    every call); blocks of a few thousand hands run 3-5x faster per hand.
    """
    size = size or CHUNK
    if len(flat) <= size:
        return fn(flat)
    first = fn(flat[:size])
    out = np.empty((len(flat), *first.shape[1:]), first.dtype)
    out[:size] = first
    for i in range(size, len(flat), size):
        out[i : i + size] = fn(flat[i : i + size])
    return out


def _check_size(k: int, allowed: Sequence[int] = (5, 6, 7)) -> None:
    if k not in allowed:
        raise ValueError(f"hands must have {', '.join(map(str, allowed))} cards, got {k}")


def _hand_keys(flat: np.ndarray, k: int, t: Tables) -> np.ndarray:
    """Sum of card keys per hand; ``flat`` is (N, k)."""
    return t.card_keys[k].take(flat.T).sum(axis=0)


_RANK_KEYS: dict[int, np.ndarray] = {}


def _rank_keys(k: int) -> np.ndarray:
    """int32 rank-only card keys: lows ignore suits, and half-width sums are faster."""
    if k not in _RANK_KEYS:
        _RANK_KEYS[k] = (get_tables().card_keys[k] & RANK_MASK).astype(np.int32)
    return _RANK_KEYS[k]


def _flush_values(flat: np.ndarray, suit: np.ndarray, t: Tables) -> np.ndarray:
    """Best flush for the rows of ``flat`` whose flush suit is ``suit``."""
    ranks, suits = np.divmod(flat, 4)
    bits = np.where(suits == suit[:, None], np.left_shift(1, ranks), 0).sum(axis=1)
    return t.flush_mask.take(bits)


# ------------------------------------------------------------------------- high
def evaluate_high(cards: Any, *, validate: bool = True) -> Any:
    """Strength of the best five-card high hand in each hand of 5, 6 or 7 cards.

    Returns ints in ``1 .. MAX_HIGH`` (7,462 = royal flush); equal strengths tie.
    """
    arr, single = as_card_array(cards, validate=validate)
    k = arr.shape[-1]
    _check_size(k)
    if single:  # one hand: plain Python beats a dozen numpy calls
        return _scalar().high_value(arr.tolist())
    t = get_tables()
    out = _run(arr, validate, lambda flat: _high_block(flat, k, t))
    return out.reshape(arr.shape[:-1])


def _high_block(flat: np.ndarray, k: int, t: Tables) -> np.ndarray:
    keys = _hand_keys(flat, k, t)
    out = t.high[k].take(keys & RANK_MASK).astype(np.int32)
    flush_suit = t.flush_suit.take(keys >> SUIT_SHIFT)
    rows = np.flatnonzero(flush_suit >= 0)
    if rows.size:
        out[rows] = np.maximum(out[rows], _flush_values(flat[rows], flush_suit[rows], t))
    return out


def high_category(strength: Any) -> Any:
    """Category index (0 high card .. 8 straight flush) of strengths; see CATEGORY_NAMES."""
    cats = get_tables().class_ranks[np.asarray(strength), 0]
    return int(cats) if np.ndim(cats) == 0 else cats.astype(np.int32)


def describe_high(strength: int) -> str:
    """Readable name of a high strength, e.g. ``'two pair, kings and nines'``."""
    if not 1 <= int(strength) <= MAX_HIGH:
        raise ValueError(f"high strength must be 1..{MAX_HIGH}, got {strength}")
    cat, *r = (int(x) for x in get_tables().class_ranks[int(strength)])
    word, plural = RANK_NAMES, RANK_PLURALS
    if cat == STRAIGHT_FLUSH:
        return "royal flush" if r[0] == 12 else f"{word[r[0]]}-high straight flush"
    if cat == QUADS:
        return f"four of a kind, {plural[r[0]]}"
    if cat == FULL_HOUSE:
        return f"full house, {plural[r[0]]} full of {plural[r[1]]}"
    if cat == FLUSH:
        return f"{word[r[0]]}-high flush"
    if cat == STRAIGHT:
        return f"{word[r[0]]}-high straight"
    if cat == TRIPS:
        return f"three of a kind, {plural[r[0]]}"
    if cat == TWO_PAIR:
        return f"two pair, {plural[r[0]]} and {plural[r[1]]}"
    if cat == PAIR:
        return f"pair of {plural[r[0]]}"
    assert cat == HIGH_CARD
    return f"{word[r[0]]}-high"


# -------------------------------------------------------------------------- low
@functools.lru_cache(maxsize=16)
def low_threshold(qualifier: int) -> int:
    """Smallest low value that qualifies: the value of ``qualifier``-high unpaired low.

    ``qualifier=8`` gives the value of 8-7-6-5-4, the worst eight-or-better low.
    """
    if isinstance(qualifier, bool) or not isinstance(qualifier, (int, np.integer)):
        raise ValueError(f"qualifier must be an int 5..13 or None, got {quoted(qualifier)}")
    if not 5 <= qualifier <= 13:
        raise ValueError(f"qualifier must be 5..13 (5 = 5-4-3-2-A only, 8 = eight-or-better), got {qualifier}")
    faces = [qualifier - i for i in range(5)]  # ace-to-five faces: A = 1 .. K = 13
    ranks = [(f - 2) % 13 for f in faces]  # back to card ranks (ace = 12)
    return _scalar().low_value([r * 4 + i % 2 for i, r in enumerate(ranks)])


def evaluate_low(cards: Any, qualifier: int | None = None, *, validate: bool = True) -> Any:
    """Best ace-to-five low of each hand of 5, 6 or 7 cards; higher is better.

    Aces are low, straights and flushes do not count, pairs count against (docs/rules.md
    section 1). With ``qualifier`` (e.g. 8) a hand that does not make an unpaired low
    of that card or better gets ``NO_LOW`` (0).
    """
    arr, single = as_card_array(cards, validate=validate)
    k = arr.shape[-1]
    _check_size(k)
    threshold = NO_LOW if qualifier is None else low_threshold(qualifier)
    if single:
        value = _scalar().low_value(arr.tolist())
        return value if value >= threshold else NO_LOW
    table, keys = get_tables().low[k], _rank_keys(k)
    out = _run(arr, validate, lambda f: table.take(keys.take(f.T).sum(axis=0, dtype=np.int32)).astype(np.int32))
    if threshold:
        out[out < threshold] = NO_LOW
    return out.reshape(arr.shape[:-1])


def describe_low(value: int) -> str:
    """Readable ace-to-five low, e.g. ``'8-5-4-3-A'`` or ``'pair of twos, 5-4-3'``."""
    if int(value) == NO_LOW:
        return "no low"
    if not 1 <= int(value) <= MAX_LOW:
        raise ValueError(f"low value must be 0..{MAX_LOW}, got {value}")
    cat, *r = (int(x) for x in get_tables().low_ranks[int(value)])
    face = "A23456789TJQK"
    distinct = (5, 4, 3, 3, 2, 2)[cat]
    r = r[:distinct]
    names = [RANK_PLURALS[(x - 1) % 13] for x in r]  # ace-low index back to card rank
    kickers = "-".join(face[x] for x in r)
    if cat == 0:
        return kickers
    tail = "-".join(face[x] for x in r[1:])
    if cat == 1:
        return f"pair of {names[0]}, {tail}"
    if cat == 2:
        return f"two pair, {names[0]} and {names[1]}, {face[r[2]]}"
    if cat == 3:
        return f"three of a kind, {names[0]}, {tail}"
    if cat == 4:
        return f"full house, {names[0]} full of {names[1]}"
    return f"four of a kind, {names[0]}, {tail}"


# ------------------------------------------------------------ scalar fast path
class _Scalar:
    """Pure-Python lookups for one hand at a time (the engine's showdowns).

    numpy calls cost microseconds each; a showdown of a few hands is faster with
    Python ints and list indexing.
    """

    def __init__(self, t: Tables) -> None:
        self.keys = {k: [int(x) for x in v] for k, v in t.card_keys.items()}
        self.high, self.low = t.high, t.low
        self.flush_suit = [int(x) for x in t.flush_suit]
        self.flush_mask = t.flush_mask

    def high_value(self, cards: Sequence[int]) -> int:
        keys = self.keys[len(cards)]
        key = 0
        for c in cards:
            key += keys[c]
        value = int(self.high[len(cards)][key & RANK_MASK])
        suit = self.flush_suit[key >> SUIT_SHIFT]
        if suit >= 0:
            mask = 0
            for c in cards:
                if c & 3 == suit:
                    mask |= 1 << (c >> 2)
            value = max(value, int(self.flush_mask[mask]))
        return value

    def low_value(self, cards: Sequence[int]) -> int:
        keys = self.keys[len(cards)]
        key = 0
        for c in cards:
            key += keys[c]
        return int(self.low[len(cards)][key & RANK_MASK])


_SCALAR: _Scalar | None = None


def _scalar() -> _Scalar:
    global _SCALAR
    if _SCALAR is None:
        _SCALAR = _Scalar(get_tables())
    return _SCALAR


def high_value(cards: Sequence[int]) -> int:
    """Fast high strength of one hand of 5-7 valid, distinct card ints (no validation)."""
    return _scalar().high_value(cards)


def low_value(cards: Sequence[int], threshold: int = 0) -> int:
    """Fast ace-to-five low of one hand; ``NO_LOW`` if below ``threshold`` (no validation)."""
    value = _scalar().low_value(cards)
    return value if value >= threshold else NO_LOW
