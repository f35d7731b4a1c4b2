"""Ratings from a round robin: Bradley-Terry (on the Elo scale) and the mean margin
against the field, each with a bootstrap interval over duplicate sets.

Each duplicate set of a pairwise match is one game between two bots: a win for the
bot whose mean result over the set is positive, a draw (half a win each) at zero.
Bradley-Terry gives bot i a strength ``p_i`` with ``P(i beats j) = p_i / (p_i + p_j)``;
we report ``400 * log10(p_i)`` (Elo points, mean zero over the bots), so a 100-point
gap means the stronger bot wins about 64% of duplicate sets. The fit is Hunter's
MM algorithm (2004) with ``prior`` virtual wins each way in every pair, which keeps
ratings finite when one bot wins every set.

"Field" is the other view: a bot's mean result per 100 hands (or per game), averaged
over its opponents, in the variant's unit. Win/loss ratings ignore margins; the
field mean ignores consistency; a table shows both.

A pair lost by forfeit (a bot that failed in isolated play, :mod:`evaluation.isolate`)
counts as every duplicate set won by the other bot in the Bradley-Terry fit, and not
at all in the field means (it has no chips to count).

Uncertainty: the tournament plays the same deals in every pair, so the bootstrap
resamples deals jointly for all pairs (``bootstrap`` times) and refits; the interval
is the 2.5 and 97.5 percentiles.

>>> import numpy as np
>>> wins = np.array([[0.0, 3.0], [1.0, 0.0]])  # bot 0 won 3 of 4 sets against bot 1
>>> theta = bradley_terry(wins, prior=0.0)
>>> round(float(elo_points(theta[0] - theta[1])), 1)  # 400 * log10(3)
190.8
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

TIE = 1e-9  # set means closer to zero than this are a draw (float sums of +x and -x)
ELO_PER_NATURAL_LOG = 400 / math.log(10)


@dataclass(frozen=True)
class Rating:
    """One bot's ratings and their 95% bootstrap intervals."""

    elo: float
    elo_low: float
    elo_high: float
    field: float  # mean result against the other bots, per 100 hands (or per game)
    field_low: float
    field_high: float


def bradley_terry(wins: np.ndarray, prior: float = 0.5, tol: float = 1e-10, max_iter: int = 10_000) -> np.ndarray:
    """Log-strengths (mean zero) from ``wins[..., i, j]`` = wins of i over j.

    Leading dimensions are independent problems (bootstrap resamples). Every bot must
    have played, and (with ``prior=0``) won and lost at least once.
    """
    wins = np.asarray(wins, dtype=float)
    k = wins.shape[-1]
    played = (wins + np.swapaxes(wins, -1, -2)) > 0
    w = wins + prior * (played & ~np.eye(k, dtype=bool))
    games = w + np.swapaxes(w, -1, -2)
    won = w.sum(-1)
    if np.any(games.sum(-1) == 0):
        raise ValueError("every bot needs at least one game to be rated")
    log_p = np.zeros(wins.shape[:-1])
    for _ in range(max_iter):
        p = np.exp(log_p)
        denom = (games / (p[..., :, None] + p[..., None, :])).sum(-1)
        with np.errstate(divide="ignore"):
            new = np.log(won) - np.log(denom)
        new -= new.mean(-1, keepdims=True)
        done = np.nanmax(np.abs(new - log_p)) < tol
        log_p = new
        if done:
            break
    return log_p


def elo_points(log_strength: np.ndarray | float) -> np.ndarray:
    """Bradley-Terry log-strength in Elo points (400 per factor of ten in odds)."""
    return np.asarray(log_strength) * ELO_PER_NATURAL_LOG


def set_wins(sets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Wins of the first bot and of the second over the last axis of ``sets`` (the
    first bot's mean result per set); a draw counts half to each."""
    draw = np.abs(sets) <= TIE
    first = (sets > TIE).sum(-1) + 0.5 * draw.sum(-1)
    second = (sets < -TIE).sum(-1) + 0.5 * draw.sum(-1)
    return first, second


def rate(
    pair_sets: Mapping[tuple[int, int], np.ndarray],
    num_bots: int,
    scale: float = 100.0,
    bootstrap: int = 1000,
    seed: int = 0,
    prior: float = 0.5,
    forfeits: Mapping[tuple[int, int], int] | None = None,
    deals: int | None = None,
) -> list[Rating]:
    """Ratings of ``num_bots`` bots from ``pair_sets[(i, j)]``: bot i's mean result per
    seat-hand against bot j in each duplicate set (the same deals in every pair).

    ``forfeits[(i, j)]``: the bot of pair (i, j) that won it by forfeit; it wins all
    ``deals`` sets (``deals`` is needed only when no pair has sets)."""
    forfeits = dict(forfeits or {})
    lengths = {len(s) for s in pair_sets.values()} | ({deals} if deals is not None else set())
    if len(lengths) != 1:
        raise ValueError(f"every pair must play the same deals; got set counts {sorted(lengths)}")
    deals = lengths.pop()
    if bootstrap < 1:
        raise ValueError(f"bootstrap={bootstrap} is not allowed: expected at least 1 resample")
    rng = np.random.default_rng(seed)
    index = np.vstack([np.arange(deals), rng.integers(deals, size=(bootstrap, deals))])  # row 0: the data
    wins = np.zeros((bootstrap + 1, num_bots, num_bots))
    margin = np.zeros((bootstrap + 1, num_bots))
    opponents = np.zeros(num_bots)
    for (i, j), sets in pair_sets.items():
        sample = np.asarray(sets, dtype=float)[index]
        wins[:, i, j], wins[:, j, i] = set_wins(sample)
        mean = sample.mean(-1) * scale
        margin[:, i] += mean
        margin[:, j] -= mean
        opponents[[i, j]] += 1
    for (i, j), winner in forfeits.items():
        loser = j if winner == i else i
        wins[:, winner, loser] = deals
    with np.errstate(invalid="ignore", divide="ignore"):
        margin = np.where(opponents > 0, margin / opponents, np.nan)
    elo = elo_points(bradley_terry(wins, prior=prior))
    elo_lo, elo_hi = np.percentile(elo[1:], [2.5, 97.5], axis=0)
    field_lo, field_hi = np.percentile(margin[1:], [2.5, 97.5], axis=0)
    return [
        Rating(
            elo=float(elo[0, b]),
            elo_low=float(elo_lo[b]),
            elo_high=float(elo_hi[b]),
            field=float(margin[0, b]),
            field_low=float(field_lo[b]),
            field_high=float(field_hi[b]),
        )
        for b in range(num_bots)
    ]
