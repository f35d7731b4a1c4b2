"""The reach-weighted average of iterates (solvers/average.py) is the mixture of the
iterates: against any fixed opponent its value is the weighted mean of theirs."""

from __future__ import annotations

import numpy as np
import pytest

from solvers import InfoSets, PublicTree, TabularPolicy, ToyParams
from solvers.average import ReachAverage, average_policy
from solvers.exploit import policy_values

PARAMS = ToyParams(ranks="QKA", suits="cd", streets=2)


@pytest.fixture(scope="module")
def infosets() -> InfoSets:
    return InfoSets(PublicTree(PARAMS))


def _random_policy(infosets: InfoSets, rng: np.random.Generator, sharpness: float = 3.0) -> TabularPolicy:
    """A random policy, far from uniform (so reach weights differ a lot between iterates)."""
    legal = infosets.legal_mask()
    table = np.where(legal, rng.random(legal.shape) ** sharpness + 1e-3, 0.0)
    return TabularPolicy(PARAMS, table / table.sum(1, keepdims=True), infosets=infosets)


def _combine(seat0: TabularPolicy, seat1: TabularPolicy, seats: np.ndarray) -> TabularPolicy:
    """Seat 0's rows from ``seat0``, seat 1's from ``seat1``."""
    table = np.where((seats == 0)[:, None], seat0.table, seat1.table)
    return TabularPolicy(PARAMS, table, infosets=seat0.infosets)


def test_value_of_the_average_is_the_mean_of_the_values(infosets: InfoSets) -> None:
    rng = np.random.default_rng(0)
    iterates = [_random_policy(infosets, rng) for _ in range(3)]
    weights = [1.0, 2.0, 5.0]
    opponent = _random_policy(infosets, rng)
    seats = infosets.batch(0, infosets.count).seat
    average = average_policy(iterates, weights)
    for seat in (0, 1):

        def against(policy: TabularPolicy, seat: int = seat) -> float:
            mine = _combine(policy, opponent, seats) if seat == 0 else _combine(opponent, policy, seats)
            return policy_values(infosets.tree, mine.source())[seat]

        mean = sum(w * against(p) for w, p in zip(weights, iterates, strict=True)) / sum(weights)
        assert against(average) == pytest.approx(mean, abs=1e-9)
        # the naive per-information-set mean of the probabilities is not the mixture
        naive = TabularPolicy(
            PARAMS, sum(w * p.table for w, p in zip(weights, iterates, strict=True)) / sum(weights), infosets=infosets
        )
        assert abs(against(naive) - mean) > 1e-4


def test_average_of_one_policy_is_itself(infosets: InfoSets) -> None:
    policy = _random_policy(infosets, np.random.default_rng(1))
    running = ReachAverage(infosets)
    running.add(policy)
    running.add(policy, 3.0)
    np.testing.assert_allclose(running.policy().table, policy.table, atol=1e-12)


def test_bad_input(infosets: InfoSets) -> None:
    with pytest.raises(ValueError, match="at least one"):
        average_policy([])
    policy = _random_policy(infosets, np.random.default_rng(2))
    with pytest.raises(ValueError, match="weight"):
        ReachAverage(infosets).add(policy, 0.0)
    with pytest.raises(ValueError, match="weights"):
        average_policy([policy], [1.0, 2.0])
    with pytest.raises(ValueError, match="no iterate"):
        ReachAverage(infosets).policy()
