"""Lookup tables for hands with wild cards (docs/rules.md section 11), built from the rules.

A wild card may stand for any card, a duplicate included, so a five-card hand "as the
wild cards make it" is a multiset of ranks (five of one rank is five of a kind) that
may be suited with a repeated rank (A-A-K-9-5 of spades is a flush that beats
A-K-Q-9-5 of spades). The **wild high scale** ranks every such hand:

* categories: high card .. straight flush as in section 1, then five of a kind;
* within a category the natural order (grouped by count, then rank), except a flush,
  which compares its five ranks from the top, repeats included;
* every natural hand keeps its place relative to every other (``NAT_TO_WILD`` maps the
  natural scale 1..7462 into this one), so a hand without wild cards and one with them
  compare on one scale.

The tables are indexed as the natural ones are (:mod:`envs.engine.hands.tables`): the
natural cards' rank part of their keys (a sum of per-rank weights, unique for every
rank multiset of up to five cards with the five-card weights, and of six cards with
the six-card weights) and, for flushes, a 13-bit mask of one suit's ranks. Because a
fully wild card can duplicate the card it replaces, using every wild card never makes
a hand worse; so the best hand of ``n`` natural cards and ``w`` wild cards is the best
over the ``(5 - w)``-card subsets of the natural cards of "those cards plus ``w``
wild cards", a small table per subset size. Low hands keep the natural low scale:
a wild card there is the lowest rank missing from the five-card low, which never
pairs, so it only ever makes natural lows.

Built in about a second on first use (cached per process).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from envs.engine.hands.tables import (
    _BASE,
    CATEGORY_NAMES,
    FLUSH,
    RANK_MASK,
    RANK_WEIGHTS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    _ordered_ranks,
    _rank_counts,
    _straight_top,
    get_tables,
)

FIVE_OF_A_KIND = 9
WILD_CATEGORY_NAMES = (*CATEGORY_NAMES, "five of a kind")
ACE = 12


# ------------------------------------------------------------------------ codes
def _pack(category: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    code = category.astype(np.int64) * _BASE
    for i in range(5):
        code += np.maximum(ordered[:, i], 0).astype(np.int64) * 13 ** (4 - i)
    return code


def wild_codes(ranks: np.ndarray, suited: bool) -> np.ndarray:
    """Comparable codes of five-card hands as wild cards make them: (M, 5) ranks, any
    rank up to five times; ``suited``: all five of one suit."""
    counts = _rank_counts(ranks)
    ordered = _ordered_ranks(counts)
    pattern = -np.sort(-counts, axis=1)
    c1, c2 = pattern[:, 0], pattern[:, 1]
    category = np.select(
        [c1 == 5, c1 == 4, (c1 == 3) & (c2 == 2), c1 == 3, (c1 == 2) & (c2 == 2), c1 == 2],
        [FIVE_OF_A_KIND, 7, 6, 3, 2, 1],
        0,
    )
    top = _straight_top(counts)
    straight = (top >= 0) & (c1 == 1)
    straight_ranks = np.where(np.arange(5) == 0, top[:, None], -1)
    if suited:
        flush_ranks = -np.sort(-ranks, axis=1)  # from the top, repeats included
        flush = ~straight & (category < FLUSH)
        ordered = np.where(flush[:, None], flush_ranks, ordered)
        category = np.where(flush, FLUSH, category)
        category = np.where(straight, STRAIGHT_FLUSH, category)
    else:
        category = np.where(straight, STRAIGHT, category)
    ordered = np.where(straight[:, None], straight_ranks, ordered)
    return _pack(category, ordered)


def _multisets(n: int, most: int = 4) -> np.ndarray:
    """Sorted rank multisets of size n, each rank at most ``most`` times: (M, n)."""
    if n == 0:
        return np.zeros((1, 0), np.int64)
    combos = np.array(list(itertools.combinations_with_replacement(range(13), n)), np.int64)
    return combos[_rank_counts(combos).max(axis=1) <= most]


@functools.cache
def all_wild_codes() -> np.ndarray:
    """Every code of the wild high scale, sorted (index + 1 = strength)."""
    plain = wild_codes(_multisets(5, most=5), suited=False)
    suited = wild_codes(_multisets(5, most=4), suited=True)
    return np.unique(np.concatenate([plain, suited]))


def strength_of(codes: np.ndarray) -> np.ndarray:
    """Wild high strengths (1 = weakest) of codes."""
    return (np.searchsorted(all_wild_codes(), codes) + 1).astype(np.int32)


@functools.cache
def max_wild_high() -> int:
    """The strongest wild high strength: five aces."""
    return int(all_wild_codes().size)


@functools.cache
def nat_to_wild() -> np.ndarray:
    """Natural high strength (0..7462) -> wild high strength (0 stays 0)."""
    decoded = get_tables().class_ranks[1:].astype(np.int64)
    codes = decoded[:, 0] * _BASE
    for i in range(5):
        codes += decoded[:, 1 + i] * 13 ** (4 - i)
    found = np.searchsorted(all_wild_codes(), codes)
    assert (all_wild_codes()[found] == codes).all(), "every natural hand has a wild-scale code"
    return np.concatenate([[0], found + 1]).astype(np.int32)


@functools.cache
def wild_class_ranks() -> np.ndarray:
    """Wild strength -> (category, five ranks in ranking order); row 0 is 'no hand'."""
    codes = all_wild_codes()
    out = np.zeros((codes.size + 1, 6), np.int8)
    out[1:, 0] = codes // _BASE
    for i in range(5):
        out[1:, 1 + i] = (codes // 13 ** (4 - i)) % 13
    return out


# ------------------------------------------------------------------- rank keys
def weights(n: int) -> np.ndarray:
    """Rank weights for a rank-key of ``n`` natural cards: the five-card weights give
    unique sums for every multiset of up to five ranks, the six-card weights for six."""
    return np.asarray(RANK_WEIGHTS[max(n, 5)], np.int64)


def _table_size(n: int) -> int:
    """The natural tables' sizes (five aces' key for up to five cards), so that
    tables of one key width combine elementwise."""
    w = weights(n)
    return int(w[ACE] * 5 if n <= 5 else w[ACE] * 4 + w[ACE - 1] * (n - 4)) + 1


def _keys(multisets: np.ndarray, n: int) -> np.ndarray:
    return weights(n)[multisets].sum(axis=1)


def _dense(n: int, keys: np.ndarray, values: np.ndarray) -> np.ndarray:
    table = np.zeros(_table_size(n), np.uint16)
    table[keys] = values
    return table


# --------------------------------------------------------- fully wild: high
@functools.cache
def _with_wilds(m: int) -> np.ndarray:
    """Dense by 5-weight key of ``m`` natural ranks: the best non-flush strength of
    those ranks plus ``5 - m`` fully wild cards."""
    naturals = _multisets(m)
    extra = _multisets(5 - m, most=5)
    hands = np.concatenate([np.repeat(naturals, len(extra), axis=0), np.tile(extra, (len(naturals), 1))], axis=1)
    best = strength_of(wild_codes(hands, suited=False)).reshape(len(naturals), len(extra)).max(axis=1)
    return _dense(m, _keys(naturals, m), best)


def _best_of_subsets(n: int, m: int, per_subset: np.ndarray) -> np.ndarray:
    """Dense by ``n``-key: the best ``per_subset`` value over the ``m``-subsets of the
    ``n`` natural ranks (``per_subset`` dense by 5-weight key of ``m`` ranks)."""
    naturals = _multisets(n)
    subsets = np.array(list(itertools.combinations(range(n), m)))
    sub_keys = weights(m)[naturals[:, subsets]].sum(axis=2)
    return _dense(n, _keys(naturals, n), per_subset[sub_keys].max(axis=1))


@functools.cache
def high_rank_table(n: int, w: int) -> np.ndarray:
    """Dense by ``n``-key: the best non-flush wild strength of ``n`` natural ranks and
    ``w`` fully wild cards (all zeros when ``n + w < 5``)."""
    if n + w < 5:
        return np.zeros(_table_size(n), np.uint16)
    if w == 0:
        natural = get_tables().high[n].astype(np.int64)
        return nat_to_wild()[natural].astype(np.uint16)
    m = 5 - w
    return _with_wilds(m) if n == m else _best_of_subsets(n, m, _with_wilds(m))


@functools.cache
def flush_table(w: int) -> np.ndarray:
    """13-bit mask of one suit's natural ranks -> the best hand of five of that suit
    using ``w`` fully wild cards (0 when the suit cannot fill five)."""
    if w == 0:
        return nat_to_wild()[get_tables().flush_mask.astype(np.int64)].astype(np.uint16)
    m = 5 - w
    subsets = np.array(list(itertools.combinations(range(13), m))).reshape(-1, m)
    extra = _multisets(w, most=5)
    hands = np.concatenate([np.repeat(subsets, len(extra), axis=0), np.tile(extra, (len(subsets), 1))], axis=1)
    values = strength_of(wild_codes(hands, suited=True)).reshape(len(subsets), len(extra)).max(axis=1)
    return _by_mask(subsets, values)


def _by_mask(subsets: np.ndarray, values: np.ndarray) -> np.ndarray:
    """For every 13-bit mask, the best value of a subset inside it (0 if none)."""
    sub_masks = (np.int64(1) << subsets).sum(axis=1)
    masks = np.arange(8192)[:, None]
    inside = (sub_masks[None, :] & ~masks) == 0
    return np.where(inside, values[None, :], 0).max(axis=1).astype(np.uint16)


# ------------------------------------------------------------------ the bug
@functools.cache
def _bug_four() -> np.ndarray:
    """Dense by 5-weight key of four natural ranks: the best non-flush hand with the
    bug, which is an ace, or any card that completes a straight."""
    naturals = _multisets(4)
    as_ace = strength_of(wild_codes(np.concatenate([naturals, np.full((len(naturals), 1), ACE)], axis=1), False))
    extra = np.arange(13)[:, None]
    hands = np.concatenate([np.repeat(naturals, 13, axis=0), np.tile(extra, (len(naturals), 1))], axis=1)
    codes = wild_codes(hands, suited=False)
    straight = (codes // _BASE) == STRAIGHT
    completed = np.where(straight, strength_of(codes), 0).reshape(len(naturals), 13).max(axis=1)
    return _dense(4, _keys(naturals, 4), np.maximum(as_ace, completed))


@functools.cache
def bug_rank_table(n: int) -> np.ndarray:
    """Dense by ``n``-key: the best non-flush strength of ``n`` natural ranks and the
    bug (n = 4, 5, 6): the bug's best four-card completion, or a natural five."""
    if n == 4:
        return _bug_four()
    with_bug = _best_of_subsets(n, 4, _bug_four())
    return np.maximum(with_bug, high_rank_table(n, 0))


# ---------------------------------------------------------------------- lows
def _fill_low(naturals: np.ndarray) -> np.ndarray:
    """Five ranks: the naturals plus, for each missing card, the lowest ace-to-five
    rank not yet in the hand (ace first, then the deuce ...)."""
    m = naturals.shape[1]
    order = np.array([ACE, *range(12)])  # ace-to-five order of card ranks
    present = _rank_counts(naturals) > 0
    missing = ~present[:, order]
    # positions (in ace-to-five order) of the first 5 - m missing ranks
    picks = np.argsort(~missing, axis=1, kind="stable")[:, : 5 - m]
    return np.concatenate([naturals, order[picks]], axis=1)


@functools.cache
def _low_with_wilds(m: int) -> np.ndarray:
    naturals = _multisets(m)
    hands = _fill_low(naturals)
    low5 = get_tables().low[5]
    return _dense(m, _keys(naturals, m), low5[_keys(hands, 5)])


@functools.cache
def low_table(n: int, w: int) -> np.ndarray:
    """Dense by ``n``-key: the best ace-to-five low (natural low scale) of ``n`` natural
    ranks and ``w`` wild cards, each the lowest rank missing from the low."""
    if n + w < 5:
        return np.zeros(_table_size(n), np.uint16)
    if w == 0:
        return get_tables().low[n].astype(np.uint16)
    m = 5 - w
    return _low_with_wilds(m) if n == m else _best_of_subsets(n, m, _low_with_wilds(m))


__all__ = [
    "FIVE_OF_A_KIND",
    "RANK_MASK",
    "WILD_CATEGORY_NAMES",
    "all_wild_codes",
    "bug_rank_table",
    "flush_table",
    "high_rank_table",
    "low_table",
    "max_wild_high",
    "nat_to_wild",
    "strength_of",
    "weights",
    "wild_class_ranks",
    "wild_codes",
]
