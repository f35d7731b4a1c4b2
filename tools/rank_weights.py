"""Find per-rank weights whose sums are unique over every k-card rank multiset.

The evaluator indexes its tables by the sum of the cards' rank weights
(``envs/engine/hands/tables.py``, ``RANK_WEIGHTS``). This script derives those weights
greedily: rank 0 weighs 0 (a fixed-size hand's deuce count follows from the others),
and each next rank takes the smallest weight that keeps every reachable sum unique.
Forbidden weights are found for all candidates at once by correlating occupancy
bitmaps with FFTs, so ``k = 7`` takes seconds rather than hours.

Usage: ``python tools/rank_weights.py 5 6 7``
"""

from __future__ import annotations

import argparse

import numpy as np

MAX_OF_A_RANK = 4


def _pairs_at_distance(a: np.ndarray, b: np.ndarray, size: int) -> np.ndarray:
    """out[t] is True when some s has a[s + t] and b[s] set, for t in [0, size)."""
    n = 1 << (len(a) + len(b) - 1).bit_length()
    fa, fb = np.fft.rfft(a.astype(float), n), np.fft.rfft(b[::-1].astype(float), n)
    c = np.fft.irfft(fa * fb, n)
    return c[len(b) - 1 : len(b) - 1 + size] > 0.5


def _bitmap(values: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, np.uint8)
    out[values] = 1
    return out


def _can_collide(count_a: int, count_b: int, shift: int, k: int, last: bool) -> bool:
    """Could partial multisets with these card counts collide once ``shift`` more copies
    of the new rank separate them and later ranks complete both to a legal k-card hand?"""
    for base in range(MAX_OF_A_RANK - shift + 1):
        for extra in [0] if last else range(k + 1):
            a, b = count_a + base + extra, count_b + base + shift + extra
            if k - MAX_OF_A_RANK <= a <= k and k - MAX_OF_A_RANK <= b <= k:
                return True
    return False


def search(k: int) -> tuple[list[int], int]:
    """Greedy weights for k-card hands and the largest sum they produce."""
    sums, counts, weights = np.zeros(1, np.int64), np.zeros(1, np.int64), [0]
    for rank in range(1, 13):
        last = rank == 12
        size = int(sums.max()) + 1
        forbidden = np.zeros(size + 2, bool)
        for shift in range(1, MAX_OF_A_RANK + 1):
            for cb in range(k + 1):
                a = np.zeros(len(sums), bool)
                for ca in range(k + 1):
                    if _can_collide(ca, cb, shift, k, last):
                        a |= counts == ca
                b = counts == cb
                if not (a.any() and b.any()):
                    continue
                dist = np.flatnonzero(_pairs_at_distance(_bitmap(sums[a], size), _bitmap(sums[b], size), size))
                dist = dist[(dist > 0) & (dist % shift == 0)] // shift
                forbidden[dist[dist < len(forbidden)]] = True
        w = int(np.flatnonzero(~forbidden[weights[-1] + 1 :])[0]) + weights[-1] + 1
        weights.append(w)
        sums = np.concatenate([sums[counts <= k - j] + j * w for j in range(MAX_OF_A_RANK + 1)])
        counts = np.concatenate([counts[counts <= k - j] + j for j in range(MAX_OF_A_RANK + 1)])
    final = counts >= k - MAX_OF_A_RANK
    assert np.unique(sums[final]).size == final.sum(), "weights are not unique"
    return weights, int(sums[final].max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[5, 6, 7], help="hand sizes (default 5 6 7)")
    for k in parser.parse_args().sizes:
        weights, largest = search(k)
        print(f"{k}: {tuple(weights)}  # largest sum {largest:,}")


if __name__ == "__main__":
    main()
