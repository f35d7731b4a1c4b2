"""GAE and the turn-based bookkeeping of the collector on scripted games: every seat
learns from its own decisions, its reward lands on its own last decision, and the
next value of a decision is the same seat's next estimate, never another seat's."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

from agents.nets import PolicyNet
from agents.neural import Layout
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD
from envs.engine.state import State
from training.pool import OpponentPool
from training.rollout import LEARNER, Collector, gae, training_signal


def brute_force_gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    """The definition: A_t = sum_l (gamma * lam)^l * delta_{t+l}."""
    n = len(rewards)
    nxt = np.append(values[1:], 0.0)
    deltas = rewards + gamma * nxt - values
    return np.array([sum((gamma * lam) ** (k - t) * deltas[k] for k in range(t, n)) for t in range(n)])


@pytest.mark.parametrize(("gamma", "lam"), [(1.0, 1.0), (1.0, 0.0), (0.9, 0.7), (0.99, 0.95)])
def test_gae_matches_its_definition(gamma: float, lam: float) -> None:
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 9):
        rewards = np.zeros(n)
        rewards[-1] = rng.normal(0, 3)  # rewards arrive at the end of the hand
        values = rng.normal(0, 1, n)
        adv, ret = gae(rewards, values, gamma, lam)
        assert np.allclose(adv, brute_force_gae(rewards, values, gamma, lam), atol=1e-5)
        assert np.allclose(ret, adv + values, atol=1e-5)
    adv, _ = gae(np.array([0.0, 0.0, 4.0]), np.array([1.0, 2.0, 3.0]), 1.0, 1.0)
    assert np.allclose(adv, [3.0, 2.0, 1.0])  # Monte Carlo: final reward minus each estimate
    adv, _ = gae(np.array([0.0, 0.0, 4.0]), np.array([1.0, 2.0, 3.0]), 1.0, 0.0)
    assert np.allclose(adv, [1.0, 1.0, 1.0])  # one step: own next value minus this one


class ScriptedNet(nn.Module):
    """Prefers the actions of ``preference`` in order. It remembers the observations it
    acted on, in order: the value of the k-th one (over the whole game) is k, so every
    stored value names the decision it belongs to."""

    def __init__(self, num_actions: int, preference: tuple[int, ...]) -> None:
        super().__init__()
        self.base = torch.zeros(num_actions)
        for rank, action in enumerate(preference):
            self.base[action] = 50.0 - 10.0 * rank  # never sampled below a preferred legal one
        self.seen: dict[bytes, int] = {}
        self.asked = 0

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        for row in obs:
            self.seen[row.numpy().tobytes()] = self.asked
            self.asked += 1
        assert len(self.seen) == self.asked, "two decisions with the same observation"
        return self.base.expand(obs.shape[0], -1)

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        return torch.tensor([float(self.seen[row.numpy().tobytes()]) for row in obs])


def collector(
    variant: str,
    n: int,
    net: nn.Module,
    *,
    self_play: float,
    lam: float,
    gamma: float = 1.0,
    reward_scale: float = 1.0,
    pool: OpponentPool | None = None,
    tables: int = 1,
) -> Collector:
    layout = Layout.build(variant, n, {})
    if pool is None:
        pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=2)
    return Collector(
        variant, n, {}, tables, net, pool,  # type: ignore[arg-type]
        self_play=self_play, gamma=gamma, lam=lam, reward_scale=reward_scale,
        rng=np.random.default_rng(7), generator=torch.Generator().manual_seed(7),
    )  # fmt: skip


def decision_seats(c: Collector) -> list[int]:
    """Seat of every decision of the last episode at table 0, in order."""
    state = c.tables[0].env.state
    assert state is not None and state.is_over
    return [e.seat for e in state.events if e.kind == "action"]


@pytest.mark.parametrize(("n", "lam", "gamma"), [(2, 0.0, 1.0), (3, 0.0, 1.0), (3, 0.8, 0.9), (2, 1.0, 1.0)])
def test_each_seat_learns_from_its_own_decision_sequence(n: int, lam: float, gamma: float) -> None:
    net = ScriptedNet(7, (CHECK_CALL, BRING_IN))  # bring in, then check or call to the showdown
    c = collector("stud", n, net, self_play=1.0, lam=lam, gamma=gamma)
    batch, stats = c.collect(min_decisions=1)  # one hand at one table
    seats = decision_seats(c)
    rewards = c.tables[0].env.state.rewards()  # type: ignore[union-attr]
    assert len(seats) == len(batch) == stats.learner_decisions == net.asked
    assert len(seats) == 5 * n  # third street: a bring-in and n - 1 calls; then n checks on each later street
    row = 0
    for seat in range(n):  # rows come seat by seat, each in its own decision order
        own = [k for k, s in enumerate(seats) if s == seat]  # value k <=> decision k
        values = np.array(own, np.float32)
        assert batch.values[row : row + len(own)].tolist() == own
        r = np.zeros(len(own))
        r[-1] = rewards[seat]
        expected = brute_force_gae(r, values, gamma, lam)
        assert np.allclose(batch.advantages[row : row + len(own)], expected, atol=1e-4)
        assert np.allclose(batch.returns[row : row + len(own)], expected + values, atol=1e-4)
        row += len(own)
    assert sorted(stats.returns) == sorted(rewards)


def test_reward_scale_scales_the_targets_not_the_statistics() -> None:
    results = []
    for scale in (1.0, 0.25):
        c = collector("stud", 2, ScriptedNet(7, (CHECK_CALL, BRING_IN)), self_play=1.0, lam=1.0, reward_scale=scale)
        batch, stats = c.collect(1)
        results.append((batch.returns, stats.returns))  # lam = 1: every return is the scaled final reward
    assert np.allclose(results[1][0], 0.25 * results[0][0])
    assert results[1][1] == results[0][1]


def test_a_seat_that_never_acts_gives_no_data_but_counts_its_reward() -> None:
    # heads-up Chowaha: the button posts the small blind and acts first; it folds, so
    # the big blind wins without a decision
    c = collector("chowaha", 2, ScriptedNet(4, (FOLD, CHECK_CALL)), self_play=1.0, lam=0.95)
    batch, stats = c.collect(1)
    assert decision_seats(c) == [c.tables[0].env.state.button]  # type: ignore[union-attr]
    assert len(batch) == 1 and batch.actions.tolist() == [FOLD]
    assert sorted(stats.returns) == [-0.5, 0.5]  # in big blinds
    assert batch.returns.tolist() == [-0.5]


def test_pool_tables_train_only_the_learner_seat_and_score_the_snapshot() -> None:
    layout = Layout.build("stud", 3, {})
    pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=3, rule="weighted")
    pool.add(PolicyNet(layout.obs_size, len(layout.action_names), [8]), update=0)
    net = ScriptedNet(7, (CHECK_CALL, BRING_IN))
    c = collector("stud", 3, net, self_play=0.0, lam=0.95, pool=pool)
    batch, stats = c.collect(1)
    table = c.tables[0]
    (learner_seat,) = [s for s, who in enumerate(table.controllers) if who == LEARNER]
    assert set(table.controllers) == {LEARNER, pool.snapshots[0].id}
    own = [k for k, s in enumerate(decision_seats(c)) if s == learner_seat]
    assert len(batch) == len(own) == net.asked  # only the learner's decisions went through it
    reward = table.env.state.rewards()[learner_seat]  # type: ignore[union-attr]
    assert stats.returns == stats.returns_vs_pool == [reward]
    assert pool.snapshots[0].hands == 1
    assert pool.snapshots[0].score == pytest.approx(pool.score_step * reward)


def test_rollouts_end_on_a_clean_boundary() -> None:
    layout = Layout.build("razz", 2, {})
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    c = collector("razz", 2, net, self_play=0.5, lam=0.95, tables=8)
    c.pool.add(net, 0)
    batch, stats = c.collect(min_decisions=300)
    assert len(batch) == stats.learner_decisions >= 300
    assert all(t.env.state.is_over for t in c.tables)  # type: ignore[union-attr]
    assert stats.hands == len(stats.lengths) and sum(stats.lengths) == stats.decisions
    assert batch.masks[np.arange(len(batch)), batch.actions].all()  # every stored action was legal


def test_bot_tables_seat_the_learner_once_against_a_fixed_bot() -> None:
    from agents.base import CallingStation

    layout = Layout.build("stud", 3, {})
    pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=2)
    net = ScriptedNet(7, (CHECK_CALL, BRING_IN))
    c = Collector(
        "stud", 3, {}, 2, net, pool,  # type: ignore[arg-type]
        self_play=1.0, gamma=1.0, lam=0.95, bots=[("call", CallingStation())], bot_fraction=1.0,
        rng=np.random.default_rng(3), generator=torch.Generator().manual_seed(3),
    )  # fmt: skip
    batch, stats = c.collect(20)
    assert stats.hands >= 2 and len(stats.returns_vs_bots["call"]) == stats.hands == len(stats.returns)
    assert stats.returns_vs_pool == []
    assert len(batch) == net.asked == stats.learner_decisions  # the bot's decisions are not training data
    for table in c.tables:
        assert sorted(table.controllers) == [-2, -2, LEARNER]
    with pytest.raises(ValueError, match="needs at least one bot"):
        Collector("stud", 2, {}, 1, net, pool, self_play=1.0, gamma=1.0, lam=1.0, bot_fraction=0.5,  # type: ignore[arg-type]
                  rng=np.random.default_rng(0), generator=torch.Generator())  # fmt: skip


def test_astronomical_rewards_train_as_finite_signals(monkeypatch: pytest.MonkeyPatch) -> None:
    # a Cowboy game without match_cap can end with 1e78 antes won: forced here on stud
    monkeypatch.setattr(State, "rewards", lambda self: [1e200, -1e200])
    c = collector("stud", 2, ScriptedNet(7, (CHECK_CALL, BRING_IN)), self_play=1.0, lam=1.0, reward_scale=0.5)
    batch, stats = c.collect(min_decisions=1)
    for name in ("values", "advantages", "returns"):
        assert np.isfinite(getattr(batch, name)).all(), name
    signal = training_signal(0.5e200)
    assert 100.0 < signal < 1e5 and training_signal(-0.5e200) == -signal
    assert sorted(set(batch.returns.tolist())) == pytest.approx([-signal, signal])  # lam = 1: the final signal
    assert sorted(stats.returns) == [-1e200, 1e200]  # statistics keep the plain rewards
    assert training_signal(-7.5) == -7.5 and training_signal(100.0) == 100.0  # ordinary rewards unchanged
