"""Cowpie helpers for bots: how good each split is.

:func:`rank_splits` lists one seven-card hand's legal splits best first by a documented
score (the exact share of all five-card and two-card hands each half beats); the
heuristic bot and the training metrics use it.
"""

from __future__ import annotations

import functools
import itertools
import math
from typing import Any

import numpy as np

from envs.engine.actions import SPLIT_BASE
from envs.engine.hands import MAX_HIGH, MAX_TWO_CARD, cowpie_splits, evaluate_high
from envs.engine.hands.split import TWO_CARD_STRENGTH
from envs.engine.hands.wild import WildRules, max_wild_high
from envs.engine.hands.wild_split import wild_splits
from envs.engine.hands.wild_tables import nat_to_wild
from envs.engine.options import check_int


@functools.cache
def five_card_percentiles() -> np.ndarray:
    """``p[s]``: the share of all 2,598,960 five-card hands that a five-card hand of high
    strength ``s`` beats, counting ties as half (exact: every rank multiset is weighted
    by its number of suit assignments, flushes apart)."""
    hands, weights = [], []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = [ranks.count(r) for r in set(ranks)]
        if max(counts) > 4:
            continue
        ways = math.prod(math.comb(4, c) for c in counts)
        seen: dict[int, int] = {}
        suited = []  # the k-th card of a rank gets suit k: never five of one suit
        for r in ranks:
            suited.append(r * 4 + seen.get(r, 0))
            seen[r] = seen.get(r, 0) + 1
        if len(counts) == 5:  # five distinct ranks: 4 flushes, the rest plain
            hands.append([r * 4 for r in ranks])
            weights.append(4)
            suited[-1] += 1
            ways -= 4
        hands.append(suited)
        weights.append(ways)
    strengths = evaluate_high(np.array(hands), validate=False)
    return _percentiles(strengths, np.array(weights), MAX_HIGH)


@functools.cache
def two_card_percentiles() -> np.ndarray:
    """``p[s]``: the share of all 1,326 two-card hands that a two-card hand of strength
    ``s`` beats, counting ties as half."""
    high, low = np.divmod(np.arange(169), 13)
    keep = high >= low  # each rank pair once
    weights = np.where(high == low, 6, 16)[keep]  # a pair: C(4, 2) suitings; else 4 x 4
    return _percentiles(TWO_CARD_STRENGTH[keep], weights, MAX_TWO_CARD)


def _percentiles(strengths: np.ndarray, weights: np.ndarray, top: int) -> np.ndarray:
    counts = np.zeros(top + 1, np.float64)
    np.add.at(counts, strengths, weights)
    below = np.cumsum(counts) - counts
    return (below + counts / 2) / counts.sum()


def split_scores(cards: Any, down: Any, opponents: int = 1, rules: WildRules | None = None) -> np.ndarray:
    """Score of each of the 21 splits of seven-card hands, shape (..., 21); -1 for an
    illegal split. See :func:`rank_splits` for what the score means. With wild cards
    (``rules``) the splits are valued as the wild cards make them and a five-card hand
    scores as the best natural hand it equals or beats (five of a kind as a royal flush)."""
    check_int("opponents", opponents, 1)
    if rules is None:
        splits = cowpie_splits(cards, down)
        five_index, two_index = splits.five, splits.two
    else:
        splits = wild_splits(cards, down, rules)
        five_index = natural_floor()[np.asarray(rules.strength(splits.five))]
        two_index = np.asarray(rules.strength(splits.two))
    five = five_card_percentiles()[five_index] ** opponents
    two = two_card_percentiles()[two_index] ** opponents
    return np.where(splits.legal, (five + two) / 2, -1.0)


@functools.cache
def natural_floor() -> np.ndarray:
    """Wild high strength -> the strongest natural strength it equals or beats."""
    wild_of_natural = nat_to_wild()
    return (np.searchsorted(wild_of_natural, np.arange(max_wild_high() + 1), side="right") - 1).astype(np.int64)


def rank_splits(cards: Any, down: Any, opponents: int = 1, rules: WildRules | None = None) -> list[tuple[int, float]]:
    """The legal splits of one seven-card hand, best first: ``[(action, score), ...]``.

    The score estimates the share of the pot the split wins against ``opponents``
    players whose five-card and two-card hands are uniformly random and independent:
    ``(p5 ** k + p2 ** k) / 2``, where ``p5`` (``p2``) is the exact share of all
    five-card (two-card) hands that this five-card (two-card) hand beats, ties counting
    half, and ``k = opponents``. Why this score: each hand wins half the pot, so the
    pot share is the mean of the two halves' win chances; it rises with both hands,
    so a split is never preferred to one that is better on both sides, and it trades
    one half against the other on a common scale (a pair of aces as the two-card hand
    beats 99.8% of two-card hands, K-K-7-4-2 as the five-card hand 86% of five-card
    hands). Real opponents keep their better cards, so absolute values are
    optimistic; larger ``opponents`` favour one very strong half over two fair ones.
    Ties in score are listed by action index, so the order is deterministic.

    Args:
        cards: seven card ints in dealt order (or a string such as ``"As 9d 2c ..."``).
        down: seven booleans, True for a face-down card.
        opponents: number of opponents still in the hand (>= 1).

    >>> from envs.engine.cards import parse
    >>> from envs.variants.cowpie import split_label
    >>> best, score = rank_splits(parse("As 9d 2c Kh Kc 7s 4d"), [True] * 3 + [False] * 4)[0]
    >>> split_label(parse("As 9d 2c Kh Kc 7s 4d"), best), round(score, 3)
    ('split_As_9d', 0.874)
    """
    scores = split_scores(cards, down, opponents, rules)
    if scores.ndim != 1:
        raise ValueError(f"rank_splits takes one seven-card hand; use split_scores for {scores.shape[:-1]} hands")
    order = sorted((i for i in range(len(scores)) if scores[i] >= 0), key=lambda i: (-scores[i], i))
    return [(SPLIT_BASE + i, float(scores[i])) for i in order]
