"""Random cards for many decisions at once, exactly as one decision at a time draws them.

A decision asks for ``samples`` ordered draws of ``count`` cards without replacement
from its ``pool`` of unseen cards (a :class:`Request`). The reference is
:func:`agents.heuristic.equity.sample_cards`: a row of float32 random keys per sample,
one key per pool card, and the cards of the ``count`` smallest keys in key order.
:func:`draw` serves a batch's requests, in order, with the same numbers and cards:

* each request draws its float32 keys from the generator in turn (its ``extra``
  numbers, a bluff's coin, right after them), exactly as ``sample_cards`` would;
  every decision's numbers are drawn before any is evaluated and their shapes depend
  only on the view, so ``act_batch`` consumes the generator exactly as ``act`` called
  on each view in turn;
* a float32 key from a numpy generator is an integer ``k / 2**24``; ``(k << 6) |
  column`` is a unique int32 whose sort order is the keys' order with ties broken by
  column, and ``np.sort`` of these int32 rows is several times faster than ``argsort``
  of the float rows (:func:`first_sorted`);
* the only possible difference from ``argsort`` is the order of equal keys, which its
  unstable algorithm leaves to its implementation. Where two of the ``count + 1``
  smallest keys of a row are equal (a few decisions in a thousand have such a row),
  that row is redone with ``argsort`` itself, so the cards are exactly the reference's.

The requests are not stacked into one big sort: one request's arrays (a few tens of
kilobytes) stay in the processor's cache, and stacked ones did not, which cost more
than the few numpy calls that stacking saves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

COLUMN_BITS = 6  # pools have at most 52 < 64 cards
PACK_SCALE = np.float32(1 << (24 + COLUMN_BITS))  # float32 keys are multiples of 2**-24
MAX_POOL = 1 << COLUMN_BITS
COLUMNS = np.arange(MAX_POOL, dtype=np.int32)
NO_EXTRA = np.empty(0, np.float32)


@dataclass(frozen=True)
class Request:
    """What one decision needs from the generator.

    Attributes:
        pool: the cards to draw from (sorted unseen cards).
        samples: rows of draws.
        count: cards per row (ordered, without replacement).
        extra: uniform numbers drawn after the keys (0 unless the style bluffs).
    """

    pool: np.ndarray
    samples: int
    count: int
    extra: int = 0

    def __post_init__(self) -> None:
        if self.count > len(self.pool):
            raise ValueError(f"cannot draw {self.count} cards from {len(self.pool)} unseen cards")


def draw(rng: np.random.Generator, requests: Sequence[Request | None]) -> list[Drawn | None]:
    """Serve the requests in order (``None``: a decision that draws nothing); see the
    module docstring. Each request is sorted on its own: its arrays stay in the
    processor's cache, which matters more than the few calls saved by stacking."""
    return [None if r is None else _serve(rng, r) for r in requests]


@dataclass(frozen=True)
class Drawn:
    """One request's numbers.

    Attributes:
        cards: ``(samples, count)`` cards, as :func:`~agents.heuristic.equity.sample_cards`.
        extra: its uniform numbers.
    """

    cards: np.ndarray
    extra: np.ndarray


def _serve(rng: np.random.Generator, r: Request) -> Drawn:
    if r.count == 0:  # as sample_cards: drawing no cards draws no keys
        cards = np.empty((r.samples, 0), np.intp)
    else:
        cards = r.pool[first_sorted(rng.random((r.samples, len(r.pool)), dtype=np.float32), r.count)]
    return Drawn(cards, rng.random(r.extra, dtype=np.float32) if r.extra else NO_EXTRA)


def first_sorted(keys: np.ndarray, count: int) -> np.ndarray:
    """``keys.argsort(axis=1)[:, :count]`` for float32 keys in [0, 1) drawn by a numpy
    generator (multiples of ``2**-24``), about twice as fast; see the module docstring."""
    size = keys.shape[1]
    if size > MAX_POOL:
        raise ValueError(f"a pool of {size} cards is more than the {MAX_POOL} the sampler handles")
    packed = np.multiply(keys, PACK_SCALE).astype(np.int32)  # k << 6: exact in float32 (24 significant bits)
    packed |= COLUMNS[:size]
    packed.sort(axis=1)
    head = packed[:, : count + 1]
    same = (head[:, 1:] ^ head[:, :-1]) < MAX_POOL  # neighbours with the same key k
    if not same.any():
        return packed[:, :count] & (MAX_POOL - 1)
    columns = packed[:, :count] & (MAX_POOL - 1)  # equal keys: argsort's own order (a few decisions in a thousand)
    rows = np.flatnonzero(same.any(axis=1))
    columns[rows] = keys[rows].argsort(axis=1)[:, :count]
    return columns
