"""Monte Carlo building blocks shared by every family of the heuristic bot.

The heuristic estimates its *equity* (expected share of the pot at the showdown)
against opponents whose hidden cards are random, given everything the seat can see.
Every estimate is a few hundred samples evaluated at once with the batched numpy
evaluators of :mod:`envs.engine.hands`: no Python loop runs per sample.

Why random opponents: the bot has no model of how others play, and against the
random baseline it is exactly right (a random bot's cards are independent of its
actions). Against thoughtful opponents it is optimistic: their continuing ranges are
stronger than random.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from envs.engine.cards import NUM_CARDS
from envs.engine.hands import NO_LOW


@dataclass
class Context:
    """What a family's decision function may use besides the view.

    Attributes:
        rng: the bot's generator (reseeded by the arena every hand); the only source
            of randomness, so a decision is a function of (seed, view).
        samples: Monte Carlo samples per estimate (families with costly evaluators
            scale it down, never up).
    """

    rng: np.random.Generator
    samples: int


def unseen(known: Iterable[int]) -> np.ndarray:
    """Sorted cards not in ``known``: those an opponent may hold or the deck may deal."""
    mask = np.ones(NUM_CARDS, bool)
    mask[list(known)] = False
    return np.flatnonzero(mask)


def sample_cards(rng: np.random.Generator, pool: np.ndarray, samples: int, count: int) -> np.ndarray:
    """``(samples, count)`` cards: each row an ordered draw without replacement from ``pool``.

    Sorting random keys gives a uniformly random permutation per row (argpartition would
    be cheaper but leaves the chosen cards in an order that depends on their positions
    in ``pool``, which would bias who gets which card). This is the reference sampler:
    the bot draws through :func:`agents.heuristic.sampling.draw`, which returns exactly
    these cards from the same generator, faster and for many decisions in a row.
    """
    if count > len(pool):
        raise ValueError(f"cannot draw {count} cards from {len(pool)} unseen cards")
    if count == 0:
        return np.empty((samples, 0), np.intp)
    keys = rng.random((samples, len(pool)), dtype=np.float32)
    return pool[keys.argsort(axis=1)[:, :count]]


def share_of_best(values: np.ndarray, qualified: bool = False) -> np.ndarray:
    """Seat 0's fraction of one share per sample: ``1 / ties`` when its value is best.

    Args:
        values: ``(S, P)`` strengths (higher is better), column 0 is the bot.
        qualified: a value of ``NO_LOW`` (0) cannot win (eight-or-better lows).
    """
    best = values.max(axis=1)
    ties = (values == best[:, None]).sum(axis=1)
    share = np.where(values[:, 0] == best, 1.0 / ties, 0.0)
    if qualified:
        share[best == NO_LOW] = 0.0
    return share


def hilo_shares(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """Seat 0's pot share per sample in a split-pot game: half to the best high and half
    to the best qualifying low, the high taking everything when nobody has a low."""
    hi = share_of_best(high)
    lo = share_of_best(low, qualified=True)
    has_low = low.max(axis=1) > NO_LOW
    return np.where(has_low, 0.5 * (hi + lo), hi)


def wins_or_ties(values: np.ndarray, outright: bool = False, qualified: bool = False) -> np.ndarray:
    """Per sample: does seat 0 win (or tie, unless ``outright``) this direction?"""
    others = values[:, 1:].max(axis=1) if values.shape[1] > 1 else np.zeros(len(values), values.dtype)
    mine = values[:, 0]
    won = mine > others if outright else mine >= others
    return won & (mine > NO_LOW) if qualified else won
