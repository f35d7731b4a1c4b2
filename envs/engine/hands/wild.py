"""Hand evaluation with wild cards (docs/rules.md section 11), batched like the natural one.

``wild`` names the house rule: ``"joker"`` (card 52, fully wild), ``"bug"`` (card 52,
an ace or any card that completes a straight, a flush or a straight flush; in a low
the lowest rank missing), ``"deuces"`` (the four twos, fully wild). Every function takes
arrays of card ints ``(..., k)`` (or one hand as a sequence or a string such as
``"As Ks Jk 9s 5s"``) and returns strengths of shape ``(...)`` (a Python int for one
hand); higher is better and equal is a tie.

* High hands are on the **wild high scale** (:mod:`envs.engine.hands.wild_tables`):
  five of a kind on top, 1 .. ``max_wild_high()``.
* Low hands are on the natural low scale (``NO_LOW`` when a qualifier fails).
* Two-card hands (Cowpie) are on the natural two-card scale.

Each value comes with the number of wild cards the best hand needs (fewest over the
ways to make it); :class:`WildRules` folds it into one comparable key when
``natural_beats_wild`` breaks an exact tie in favour of the hand with fewer wild cards.

>>> describe_wild_high(wild_high("As Ks Jk 9s 5s", "joker"))
'flush, A-A-K-9-5'
>>> describe_wild_high(wild_high("Ah Ad Ac As Jk", "bug"))
'five of a kind, aces'
>>> describe_wild_high(wild_high("Kh Kd Kc Ks Jk", "bug"))
'four of a kind, kings'
>>> from envs.engine.hands import describe_low
>>> describe_low(wild_low("2c 7d 4h 8s 3d", "deuces"))
'8-7-4-3-A'
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.engine.cards import JOKER, RANK_PLURALS, RANKS, parse
from envs.engine.hands import wild_tables as wt
from envs.engine.hands.evaluate import chunked, describe_high, describe_low, evaluate_high, evaluate_low, low_threshold
from envs.engine.hands.split import TWO_CARD_STRENGTH
from envs.engine.hands.tables import FLUSH, NO_LOW
from envs.engine.options import check_bool, check_choice, quoted

WILD_KINDS = ("joker", "bug", "deuces")
WILD_OPTIONS = ("none", *WILD_KINDS)
__all__ = [
    "WILD_KINDS",
    "WILD_OPTIONS",
    "WildRules",
    "describe_wild_high",
    "max_wild_high",
    "wild_count",
    "wild_high",
    "wild_high_category",
    "wild_low",
    "wild_mask",
    "wild_two_card",
]
max_wild_high = wt.max_wild_high


# ------------------------------------------------------------------------ input
def _check_kind(wild: Any) -> None:
    if wild not in WILD_KINDS:
        raise ValueError(
            f"wild={quoted(wild)} is not a wild-card rule: expected one of {', '.join(map(repr, WILD_KINDS))}"
        )


def _cards(cards: Any, wild: str, sizes: tuple[int, ...]) -> tuple[np.ndarray, bool]:
    """Card ints ``(N, k)`` (checked: 0..51, the joker too where the rule deals it, no
    card twice) and whether one hand was given."""
    _check_kind(wild)
    if isinstance(cards, str):
        cards = parse(cards)
    arr = np.asarray(cards)
    if arr.dtype.kind not in "iu" or arr.ndim == 0:
        raise ValueError(f"cards must be an array (..., k) of card ints, got {quoted(cards)}")
    k = arr.shape[-1]
    if k not in sizes:
        raise ValueError(f"hands must have {' or '.join(map(str, sizes))} cards, got {k}")
    flat = arr.reshape(-1, k).astype(np.int64)
    top = JOKER if wild != "deuces" else JOKER - 1
    if flat.size and (flat.min() < 0 or flat.max() > top):
        bad = flat[(flat < 0) | (flat > top)][0]
        allowed = "0..52 (52 = the joker)" if top == JOKER else "0..51 (wild='deuces' deals no joker)"
        raise ValueError(f"card {quoted(int(bad))} is not allowed with wild={wild!r}: expected {allowed}")
    if flat.size and (np.diff(np.sort(flat, axis=1), axis=1) == 0).any():
        row = int(np.flatnonzero((np.diff(np.sort(flat, axis=1), axis=1) == 0).any(axis=1))[0])
        raise ValueError(f"a hand holds the same card twice: {quoted(flat[row].tolist())}")
    return flat, arr.ndim == 1


def wild_mask(cards: Any, wild: str) -> np.ndarray:
    """Which cards are wild under the rule: the joker (card 52), or the four deuces."""
    arr = np.asarray(cards)
    return arr < 4 if wild == "deuces" else arr == JOKER


def wild_count(cards: Any, wild: str) -> Any:
    """Number of wild cards in each hand."""
    return wild_mask(cards, wild).sum(axis=-1)


def _split_naturals(flat: np.ndarray, wild: str, w: int) -> np.ndarray:
    """The natural cards of rows that hold ``w`` wild cards: (N, k - w)."""
    order = np.argsort(wild_mask(flat, wild), axis=1, kind="stable")
    return np.take_along_axis(flat, order, axis=1)[:, : flat.shape[1] - w]


def _by_wild_count(flat: np.ndarray, wild: str, fn: Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]):  # type: ignore[no-untyped-def]
    """Apply ``fn(naturals, w)`` to the rows of each wild-card count; (values, wilds)."""
    counts = wild_count(flat, wild)
    values = np.zeros(len(flat), np.int32)
    used = np.zeros(len(flat), np.int32)
    for w in np.unique(counts):
        rows = np.flatnonzero(counts == w)
        v, u = fn(_split_naturals(flat[rows], wild, int(w)), int(w))
        values[rows], used[rows] = v, u
    return values, used


def _rank_keys(naturals: np.ndarray) -> np.ndarray:
    return wt.weights(naturals.shape[1])[naturals >> 2].sum(axis=1)


def _suit_masks(naturals: np.ndarray) -> np.ndarray:
    """(N, 4) 13-bit masks of each suit's natural ranks."""
    bits = np.left_shift(1, naturals >> 2)
    suits = naturals & 3
    return np.stack([np.where(suits == s, bits, 0).sum(axis=1) for s in range(4)], axis=1)


# ------------------------------------------------------------------------- high
def _high_with(naturals: np.ndarray, w: int, wild: str, keys: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Best high using exactly ``w`` wild cards (the bug's meaning when ``wild='bug'``)."""
    n = naturals.shape[1]
    if n + w < 5:
        return np.zeros(len(naturals), np.int32)
    if wild == "bug" and w == 1:
        ranks = wt.bug_rank_table(n).take(keys)
        flush = np.maximum(wt.flush_table(1).take(masks), wt.flush_table(0).take(masks))
    else:
        ranks = wt.high_rank_table(n, w).take(keys)
        flush = wt.flush_table(w).take(masks)
    return np.maximum(ranks.astype(np.int32), flush.max(axis=1).astype(np.int32))


def _high_block(flat: np.ndarray, wild: str, fewest: bool) -> tuple[np.ndarray, np.ndarray]:
    def group(naturals: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
        if w == 0:  # no wild card: the natural evaluator, on the wild scale
            natural = evaluate_high(naturals, validate=False).astype(np.int64)
            return wt.nat_to_wild()[natural], np.zeros(len(naturals), np.int32)
        keys, masks = _rank_keys(naturals), _suit_masks(naturals)
        best = _high_with(naturals, w, wild, keys, masks)
        used = np.full(len(naturals), w, np.int32)
        if fewest:  # the fewest wild cards that still make the best hand
            for j in range(w - 1, -1, -1):
                used = np.where(_high_with(naturals, j, wild, keys, masks) == best, j, used)
        return best, used

    return _by_wild_count(flat, wild, group)


def _batched(cards: Any, wild: str, sizes: tuple[int, ...], block: Callable[[np.ndarray], np.ndarray]) -> Any:
    flat, single = _cards(cards, wild, sizes)
    arr = np.asarray(cards) if not isinstance(cards, str) else flat
    out = chunked(flat, block)
    if single:
        return tuple(int(x) for x in out[0]) if out.ndim == 2 else int(out[0])
    return out.reshape(*arr.shape[:-1], *out.shape[1:])


def wild_high_values(cards: Any, wild: str, *, fewest: bool = True) -> Any:
    """(strength, wild cards used) of the best high hand of 5-7 cards, stacked on a last
    axis of 2 (a pair of ints for one hand). ``fewest=False`` skips the count (0)."""

    def block(flat: np.ndarray) -> np.ndarray:
        best, used = _high_block(flat, wild, fewest)
        return np.stack([best, used if fewest else np.zeros_like(used)], axis=1)

    return _batched(cards, wild, (5, 6, 7), block)


def wild_high(cards: Any, wild: str) -> Any:
    """Wild high strength (1 .. ``max_wild_high()``) of the best five of 5-7 cards."""
    return _batched(cards, wild, (5, 6, 7), lambda flat: _high_block(flat, wild, False)[0])


def wild_high_category(strength: Any) -> Any:
    """Category (0 high card .. 8 straight flush, 9 five of a kind) of wild strengths."""
    cats = wt.wild_class_ranks()[np.asarray(strength), 0]
    return int(cats) if np.ndim(cats) == 0 else cats.astype(np.int32)


def describe_wild_high(strength: int) -> str:
    """Readable name of a wild high strength: a hand that exists without wild cards as
    ``describe_high`` names it; ``'five of a kind, aces'``; a flush with a repeated
    rank by its ranks (``'flush, A-A-K-9-5'``)."""
    if not 1 <= int(strength) <= max_wild_high():
        raise ValueError(f"wild high strength must be 1..{max_wild_high()}, got {strength}")
    natural = int(_wild_to_natural()[int(strength)])
    if natural:
        return describe_high(natural)
    cat, *r = (int(x) for x in wt.wild_class_ranks()[int(strength)])
    if cat == wt.FIVE_OF_A_KIND:
        return f"five of a kind, {RANK_PLURALS[r[0]]}"
    assert cat == FLUSH, "only five of a kind and flushes with a repeated rank need a wild card"
    return "flush, " + "-".join(RANKS[x] for x in r)


@functools.cache
def _wild_to_natural() -> np.ndarray:
    """Wild high strength -> natural strength (0 for hands only wild cards make)."""
    out = np.zeros(max_wild_high() + 1, np.int32)
    out[wt.nat_to_wild()] = np.arange(wt.nat_to_wild().size)
    return out


# -------------------------------------------------------------------------- low
def _low_with(naturals: np.ndarray, w: int, keys: np.ndarray) -> np.ndarray:
    if naturals.shape[1] + w < 5:
        return np.zeros(len(naturals), np.int32)
    return wt.low_table(naturals.shape[1], w).take(keys).astype(np.int32)


def _low_block(flat: np.ndarray, wild: str, fewest: bool) -> tuple[np.ndarray, np.ndarray]:
    def group(naturals: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
        if w == 0:  # no wild card: the natural evaluator (lows keep the natural scale)
            return evaluate_low(naturals, validate=False).astype(np.int32), np.zeros(len(naturals), np.int32)
        keys = _rank_keys(naturals)
        best = _low_with(naturals, w, keys)
        used = np.full(len(naturals), w, np.int32)
        if fewest:
            for j in range(w - 1, -1, -1):
                used = np.where(_low_with(naturals, j, keys) == best, j, used)
        return best, used

    return _by_wild_count(flat, wild, group)


def _qualify(values: np.ndarray, qualifier: int | None) -> np.ndarray:
    if qualifier is None:
        return values
    return np.where(values >= low_threshold(qualifier), values, NO_LOW)


def wild_low_values(cards: Any, wild: str, qualifier: int | None = None, *, fewest: bool = True) -> Any:
    """(low value, wild cards used) of the best ace-to-five low of 5-7 cards; a wild card
    is the lowest rank missing from the low (the bug too). ``NO_LOW`` if unqualified."""

    def block(flat: np.ndarray) -> np.ndarray:
        best, used = _low_block(flat, wild, fewest)
        best = _qualify(best, qualifier)
        return np.stack([best, np.where(best > 0, used, 0) if fewest else np.zeros_like(used)], axis=1)

    return _batched(cards, wild, (5, 6, 7), block)


def wild_low(cards: Any, wild: str, qualifier: int | None = None) -> Any:
    """Best ace-to-five low (natural low scale; ``NO_LOW`` when ``qualifier`` fails)."""
    return _batched(cards, wild, (5, 6, 7), lambda flat: _qualify(_low_block(flat, wild, False)[0], qualifier))


# --------------------------------------------------------------------- two cards
def two_card_ranks(cards: np.ndarray, wild: str) -> np.ndarray:
    """The ranks two-card hands ``(..., 2)`` play as: a fully wild card pairs the other
    card, two wild cards are a pair of aces; the bug is an ace (two cards make no
    straight or flush for it to complete)."""
    cards = np.asarray(cards)
    ranks = np.where(cards == JOKER, 12, cards >> 2)
    if wild == "bug":
        return ranks
    wilds = wild_mask(cards, wild)
    a, b = ranks[..., 0], ranks[..., 1]
    a2 = np.where(wilds[..., 0], np.where(wilds[..., 1], 12, b), a)
    b2 = np.where(wilds[..., 1], np.where(wilds[..., 0], 12, a), b)
    return np.stack([a2, b2], axis=-1)


def wild_two_card_values(cards: Any, wild: str) -> Any:
    """(two-card strength, wild cards in it) of two-card hands ``(..., 2)``."""

    def block(flat: np.ndarray) -> np.ndarray:
        r = two_card_ranks(flat, wild)
        return np.stack([TWO_CARD_STRENGTH[r[:, 0] * 13 + r[:, 1]], wild_count(flat, wild)], axis=1)

    return _batched(cards, wild, (2,), block)


def wild_two_card(cards: Any, wild: str) -> Any:
    """Two-card strength (natural two-card scale) of two-card hands with wild cards."""
    values = wild_two_card_values(cards, wild)
    return values[0] if isinstance(values, tuple) else values[..., 0]


# ------------------------------------------------------------------------ rules
TIE_BITS = 3  # the wild-card count needs 0..7 (seven wild cards at most)


@dataclass(frozen=True)
class WildRules:
    """A wild-card house rule as the showdown compares hands: one int key per hand.

    With ``natural_beats_wild`` the key is ``strength * 8 + (7 - wild cards used)``, so
    an exact tie goes to the hand made with fewer wild cards; otherwise it is the
    strength itself. ``strength(key)`` recovers the strength for descriptions.
    """

    wild: str
    natural_beats_wild: bool = False

    def __post_init__(self) -> None:
        check_choice("wild", self.wild, WILD_KINDS)
        check_bool("natural_beats_wild", self.natural_beats_wild)

    def _key(self, values: Any) -> Any:
        v = np.asarray(values)
        if not self.natural_beats_wild:
            key = v[..., 0]
        else:
            key = np.where(v[..., 0] > 0, (v[..., 0] << TIE_BITS) + (7 - v[..., 1]), 0)
        return int(key) if key.ndim == 0 else key

    def is_wild(self, card: int) -> bool:
        """Whether one card is wild under this rule."""
        return bool(wild_mask(card, self.wild))

    def high(self, cards: Any) -> Any:
        """Key of the best high hand of 5-7 cards."""
        return self._key(wild_high_values(cards, self.wild, fewest=self.natural_beats_wild))

    def low(self, cards: Any, qualifier: int | None = None) -> Any:
        """Key of the best ace-to-five low (0 when ``qualifier`` fails)."""
        return self._key(wild_low_values(cards, self.wild, qualifier, fewest=self.natural_beats_wild))

    def two_card(self, cards: Any) -> Any:
        """Key of two-card hands."""
        return self._key(wild_two_card_values(cards, self.wild))

    def strength(self, key: Any) -> Any:
        """The strength inside a key (for descriptions)."""
        return np.asarray(key) >> TIE_BITS if self.natural_beats_wild else key

    def describe_high(self, key: int) -> str:
        """The high hand a key stands for."""
        return describe_wild_high(int(self.strength(key)))

    def describe_low(self, key: int) -> str:
        """The low hand a key stands for."""
        return describe_low(int(self.strength(key)))
