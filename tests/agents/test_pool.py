"""The opponent pool: sampling rules, capacity, frozen snapshots, state round trip."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.nets import PolicyNet
from training.pool import OpponentPool


def make_net() -> PolicyNet:
    return PolicyNet(10, 3, [4])


def filled(rule: str, k: int = 4, capacity: int = 10) -> OpponentPool:
    pool = OpponentPool(make_net, capacity=capacity, rule=rule, temperature=0.5)
    for update in range(k):
        pool.add(make_net(), update=update * 10)
    return pool


def frequencies(pool: OpponentPool, draws: int = 4000) -> np.ndarray:
    rng = np.random.default_rng(0)
    ids = [s.id for s in pool.snapshots]
    counts = np.bincount([ids.index(pool.sample(rng)) for _ in range(draws)], minlength=len(ids))
    return counts / draws


def test_latest_always_picks_the_newest() -> None:
    pool = filled("latest")
    assert frequencies(pool, 200).tolist() == [0, 0, 0, 1]


def test_uniform_picks_every_snapshot_equally() -> None:
    assert np.allclose(frequencies(filled("uniform")), 0.25, atol=0.03)


def test_weighted_prefers_the_snapshots_that_beat_the_learner() -> None:
    pool = filled("weighted")
    assert np.allclose(pool.probabilities(), 0.25)  # new snapshots start level
    losing_to = pool.snapshots[1].id
    for _ in range(200):
        pool.record(losing_to, -2.0)  # the learner keeps losing to snapshot 1
        pool.record(pool.snapshots[3].id, +2.0)  # and beating snapshot 3
    p = pool.probabilities()
    expected = np.exp(-np.array([s.score for s in pool.snapshots]) / 0.5)
    assert np.allclose(p, expected / expected.sum())
    assert p[1] > 0.5 > p[0] > p[3]
    assert frequencies(pool)[1] == pytest.approx(p[1], abs=0.03)


def test_capacity_drops_the_oldest_and_snapshots_stay_frozen() -> None:
    pool = OpponentPool(make_net, capacity=2)
    net = make_net()
    first = pool.add(net, update=1)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(1.0)  # the learner moves on
    second = pool.add(net, update=2)
    assert not torch.equal(pool.net(first).policy.weight, pool.net(second).policy.weight)
    assert torch.equal(pool.net(second).policy.weight, net.policy.weight)
    pool.add(net, update=3)
    assert [s.update for s in pool.snapshots] == [2, 3]
    with pytest.raises(KeyError, match="no snapshot 0"):
        pool.net(first)


def test_state_round_trip_and_bad_settings() -> None:
    pool = filled("weighted", k=3)
    pool.record(pool.snapshots[0].id, 1.5)
    copy = OpponentPool(make_net, capacity=10, rule="weighted", temperature=0.5)
    copy.load_state_dict(pool.state_dict())
    assert copy.summary() == pool.summary() and copy.next_id == pool.next_id
    assert np.allclose(copy.probabilities(), pool.probabilities())
    with pytest.raises(ValueError, match="latest, uniform, weighted"):
        OpponentPool(make_net, capacity=3, rule="best")
    with pytest.raises(ValueError, match="capacity"):
        OpponentPool(make_net, capacity=0)
    with pytest.raises(ValueError, match="empty"):
        OpponentPool(make_net, capacity=2).sample(np.random.default_rng(0))
