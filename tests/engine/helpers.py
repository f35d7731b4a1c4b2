"""Test helpers: random hands and exhaustive combinations as numpy arrays."""

from __future__ import annotations

import itertools

import numpy as np


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    """n hands of k distinct cards each."""
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k]


def all_combinations(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) in lexicographic order, as uint8 rows."""
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), np.uint8)
    return flat.reshape(-1, k)
