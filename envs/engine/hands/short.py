"""Hands of fewer than five cards (toy stud), ranked by rank only.

docs/rules.md section 10: three of a kind > pair > high card, compared rank by rank from the
top; no straights or flushes; suits never count. With four cards two pair sits between
trips and one pair and four of a kind above trips, as in poker. The strength is one
int, higher is better, equal is a tie (0 is never returned: 0 means "cannot win").

>>> from envs.engine.cards import parse
>>> evaluate_short(parse("Kc Kd 3h")) > evaluate_short(parse("Ac Qd Jh"))
True
>>> evaluate_short(parse("Kc Kd 3h")) == evaluate_short(parse("Kh Ks 3c"))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

# count patterns (the two largest rank counts), weakest first
PATTERNS = ((1,), (1, 1), (2,), (2, 1), (2, 2), (3,), (3, 1), (4,))
MAX_CARDS = 4
_BASE = 16  # ranks 0..12 and counts 1..4 both fit in a hex digit
_PATTERN_CODE = {(p + (0,) * (2 - len(p))): i + 1 for i, p in enumerate(PATTERNS)}


def evaluate_short(cards: Any) -> Any:
    """Strengths of hands of 1-4 cards, any leading shape (one hand: a Python int)."""
    arr = np.asarray(cards, dtype=np.int64)
    one = arr.ndim == 1
    if arr.ndim == 0 or not 1 <= arr.shape[-1] <= MAX_CARDS:
        raise ValueError(f"short hands have 1 to {MAX_CARDS} cards, got shape {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise ValueError("cards must be ints 0..51")
    counts = (arr[..., :, None] >> 2 == np.arange(13)).sum(axis=-2)  # (..., 13)
    key = np.where(counts > 0, counts * _BASE + np.arange(13), -1)
    top = -np.sort(-key, axis=-1)[..., :MAX_CARDS]  # by count, then rank, descending
    present = top >= 0
    pattern = np.where(present[..., :2], top[..., :2] // _BASE, 0)
    strength: np.ndarray = np.zeros(arr.shape[:-1], np.int64)
    for p, code in _PATTERN_CODE.items():
        strength = np.where((pattern[..., 0] == p[0]) & (pattern[..., 1] == p[1]), code, strength)
    for i in range(MAX_CARDS):
        strength = strength * _BASE + np.where(present[..., i], top[..., i] % _BASE + 1, 0)
    return int(strength) if one else strength
