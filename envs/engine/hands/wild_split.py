"""Cowpie splits with wild cards (docs/rules.md sections 4 and 11).

The 21 five/two splits of seven cards, each hand evaluated as its wild cards make it:
the five-card hand on the wild high scale, the two-card hand with a wild card pairing
the other card (two wild cards: a pair of aces; the bug: an ace). Legality is section
4's at those best values: the five-card hand must rank higher than the two-card hand,
and each hand must hold a face-down card.

>>> from envs.engine.cards import parse
>>> s = wild_splits(parse("Kh Kc 7s 4d 2c Jk 9d"), [True] * 7, WildRules("joker"))
>>> bool(s.legal[SPLITS.index((5, 6))])  # K-K-7-4-2 against Jk-9 (a pair of nines)
True
>>> bool(s.legal[SPLITS.index((0, 5))])  # K-7-4-2-9 against Kh-Jk (a pair of kings)
False
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.engine.hands import wild_tables as wt
from envs.engine.hands.split import _DOWN_OK_T, _I, _J, SPLITS, Splits, cowpie_splits
from envs.engine.hands.tables import PAIR, TWO_PAIR
from envs.engine.hands.wild import TIE_BITS, WildRules, _cards, two_card_ranks, wild_count

__all__ = ["SPLITS", "wild_five_keys", "wild_splits"]


def wild_five_keys(strength: np.ndarray) -> np.ndarray:
    """The split comparison key of five-card wild strengths (as ``split._five_keys``):
    two pair or better (five of a kind, a flush with a repeat) always outranks two
    cards; a pair by its rank with kickers; no pair by its two top ranks."""
    decoded = wt.wild_class_ranks()[np.asarray(strength)].astype(np.int32)
    cat, r0, r1 = decoded[..., 0], decoded[..., 1], decoded[..., 2]
    return np.where(cat >= TWO_PAIR, 512, np.where(cat == PAIR, 256 + r0 * 16 + 13, r0 * 16 + r1))


def _two_keys(ranks: np.ndarray) -> np.ndarray:
    a, b = ranks[..., 0], ranks[..., 1]
    return np.where(a == b, 256 + a * 17, np.maximum(a, b) * 16 + np.minimum(a, b))


def wild_splits(cards: Any, down: Any, rules: WildRules) -> Splits:
    """All 21 splits of seven-card hands ``(..., 7)`` with face-down flags.

    ``five`` and ``two`` are the hands' showdown keys under ``rules`` (with
    ``natural_beats_wild`` they carry the wild-card count); ``legal`` as section 4.
    """
    flat, _ = _cards(cards, rules.wild, (7,))
    arr_shape = np.asarray(cards).shape if not isinstance(cards, str) else (7,)
    down_arr = np.asarray(down, dtype=bool).reshape(-1, 7)
    if down_arr.shape != flat.shape:
        raise ValueError(f"down flags must have the cards' shape {arr_shape}, got {np.shape(down)}")
    five_key, two_key = np.zeros((len(flat), 21), np.int64), np.zeros((len(flat), 21), np.int64)
    legal = np.zeros((len(flat), 21), bool)
    plain = wild_count(flat, rules.wild) == 0
    for rows, fn in ((np.flatnonzero(plain), _natural_rows), (np.flatnonzero(~plain), _wild_rows)):
        if rows.size:
            five_key[rows], two_key[rows], legal[rows] = fn(flat[rows], down_arr[rows], rules)
    shape = (*arr_shape[:-1], 21)
    return Splits(five=five_key.reshape(shape), two=two_key.reshape(shape), legal=legal.reshape(shape))


def _natural_rows(flat: np.ndarray, down: np.ndarray, rules: WildRules) -> tuple[np.ndarray, ...]:
    """Hands without a wild card: the natural splits (fast), on the wild scale."""
    natural = cowpie_splits(flat, down, validate=False)
    five = wt.nat_to_wild()[natural.five.astype(np.int64)].astype(np.int64)
    two = natural.two.astype(np.int64)
    if rules.natural_beats_wild:  # no wild card in either hand
        five, two = (five << TIE_BITS) + 7, (two << TIE_BITS) + 7
    return five, two, natural.legal


def _wild_rows(flat: np.ndarray, down_arr: np.ndarray, rules: WildRules) -> tuple[np.ndarray, ...]:
    """Hands with a wild card: every five-card and two-card hand evaluated as it is made."""
    n = len(flat)
    keep = np.array([[c for c in range(7) if c not in s] for s in SPLITS])  # (21, 5)
    fives = flat[:, keep].reshape(-1, 5)
    twos = np.stack([flat[:, _I], flat[:, _J]], axis=-1).reshape(-1, 2)
    five_key = rules.high(fives).reshape(n, 21)
    two_key = rules.two_card(twos).reshape(n, 21)
    strength = np.asarray(rules.strength(five_key))
    outranks = wild_five_keys(strength) >= _two_keys(two_card_ranks(twos, rules.wild)).reshape(n, 21)
    pattern = (down_arr << np.arange(7)).sum(axis=1)
    return five_key, two_key, outranks & _DOWN_OK_T[:, pattern].T
