"""GAE and the turn-based bookkeeping of the collector on scripted games: every seat
learns from its own decisions, its reward lands on its own last decision, and the
next value of a decision is the same seat's next estimate, never another seat's."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import torch
from torch import nn

from agents.nets import PolicyNet
from agents.neural import Layout
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD
from envs.engine.state import State
from training.episodes import Trajectory
from training.pool import OpponentPool
from training.rollout import FIRST_BOT, LEARNER, POOL, SELF, Batch, Collector, TableKind, gae, training_signal


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
    many_learners: float = 0.0,
    step_rewards: bool = False,
) -> Collector:
    layout = Layout.build(variant, n, {})
    if pool is None:
        pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=2)
    return Collector(
        variant, n, {}, num_tables=tables, net=net, pool=pool,  # type: ignore[arg-type]
        self_play=self_play, gamma=gamma, lam=lam, reward_scale=reward_scale, many_learners=many_learners,
        step_rewards=step_rewards, rng=np.random.default_rng(7), generator=torch.Generator().manual_seed(7),
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


@pytest.mark.parametrize(("many", "learners"), [(0.0, {1}), (1.0, {2})])
def test_bot_tables_seat_the_learner_against_a_fixed_bot(many: float, learners: set[int]) -> None:
    from agents.base import CallingStation

    layout = Layout.build("stud", 3, {})
    pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=2)
    net = ScriptedNet(7, (CHECK_CALL, BRING_IN))
    c = Collector(
        "stud", 3, {}, num_tables=2, net=net, pool=pool,  # type: ignore[arg-type]
        mix=[TableKind("call", 1.0, CallingStation())], many_learners=many, gamma=1.0, lam=0.95,
        rng=np.random.default_rng(3), generator=torch.Generator().manual_seed(3),
    )  # fmt: skip
    batch, stats = c.collect(20)
    seats = min(learners)
    assert stats.hands >= 2 and len(stats.returns_vs_bots["call"]) == stats.hands * seats == len(stats.returns)
    assert stats.returns_vs_pool == [] and stats.returns_vs_self == []
    assert len(batch) == net.asked == stats.learner_decisions  # the bot's decisions are not training data
    for table in c.tables:
        assert {table.controllers.count(LEARNER)} == learners and set(table.controllers) == {LEARNER, FIRST_BOT}
    with pytest.raises(ValueError, match="needs at least one bot"):
        Collector("stud", 2, {}, num_tables=1, net=net, pool=pool, self_play=1.0, gamma=1.0, lam=1.0, bot_fraction=0.5,  # type: ignore[arg-type]
                  rng=np.random.default_rng(0), generator=torch.Generator())  # fmt: skip
    with pytest.raises(ValueError, match="positive sum"):
        Collector("stud", 2, {}, num_tables=1, net=net, pool=pool, mix=[TableKind(SELF, 0.0)], gamma=1.0, lam=1.0,  # type: ignore[arg-type]
                  rng=np.random.default_rng(0), generator=torch.Generator())  # fmt: skip


def test_the_mix_draws_table_kinds_by_weight_and_three_seats_get_both_lineups() -> None:
    from agents.base import CallingStation, RandomAgent

    layout = Layout.build("stud", 3, {})
    pool = OpponentPool(lambda: PolicyNet(layout.obs_size, len(layout.action_names), [8]), capacity=2)
    pool.add(PolicyNet(layout.obs_size, len(layout.action_names), [8]), update=0)
    mix = [
        TableKind("call", 0.4, CallingStation()),
        TableKind("random", 0.1, RandomAgent()),
        TableKind(SELF, 0.2),
        TableKind(POOL, 0.3),
    ]
    c = Collector(
        "stud", 3, {}, num_tables=1, net=PolicyNet(layout.obs_size, 7, [8]), pool=pool, mix=mix, many_learners=0.25,
        gamma=1.0, lam=1.0, rng=np.random.default_rng(5), generator=torch.Generator().manual_seed(5),
    )  # fmt: skip
    kinds: dict[str, int] = {}
    learners: dict[int, int] = {}
    draws = 4000
    for _ in range(draws):
        table = c.tables[0]
        c._start(table)
        others = set(table.controllers) - {LEARNER}
        name = "self" if not others else "pool" if min(others) >= 0 else c.bots[FIRST_BOT - min(others)][0]
        kinds[name] = kinds.get(name, 0) + 1
        if others:
            count = table.controllers.count(LEARNER)
            learners[count] = learners.get(count, 0) + 1
            assert len(others) == 1  # one opponent fills every other seat
    for kind in mix:
        assert abs(kinds[kind.name] / draws - kind.weight) < 0.03, (kind.name, kinds)
    assert set(learners) == {1, 2}
    assert abs(learners[2] / sum(learners.values()) - 0.25) < 0.03  # two learners against one opponent


def test_step_rewards_telescope_to_the_final_reward_in_the_cowboy_games(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = Layout.build("cowboy", 3, {})
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    runs = []
    for per_step in (False, True):
        c = collector("cowboy", 3, net, self_play=1.0, lam=1.0, tables=4, step_rewards=per_step, reward_scale=0.5)
        captured: list[list[Trajectory]] = []
        original = c._batch

        def keep(finished: list[Trajectory], original: Any = original, captured: Any = captured) -> Batch:
            captured.append(finished)
            return original(finished)

        monkeypatch.setattr(c, "_batch", keep)
        batch, _ = c.collect(300)
        runs.append((batch, captured[0]))
    (plain, plain_trajs), (steps, step_trajs) = runs
    assert np.array_equal(plain.actions, steps.actions)  # the same games, decision by decision
    early = 0
    for a, b in zip(plain_trajs, step_trajs, strict=True):
        assert np.count_nonzero(a.rewards[:-1]) == 0
        assert b.rewards.sum() == pytest.approx(a.rewards[-1], abs=1e-5)  # the same return
        early += np.count_nonzero(b.rewards[:-1])
    assert early > 0  # chips moved before the end of some games: those rewards arrive earlier
    # lambda = gamma = 1: every decision's return is the rest of its trajectory's rewards
    first = np.cumsum([0] + [len(t.actions) for t in step_trajs])[:-1]
    assert np.allclose(steps.returns[first], plain.returns[first], atol=1e-4)


def test_privileged_inputs_reach_the_critic_and_never_the_policy() -> None:
    """Changing an opponent's hidden cards changes the critic's input and value, and
    nothing the acting policy reads (its observation, candidate rows, logits)."""
    from agents.candidates import candidate_features, candidate_slots
    from envs.engine.actions import SPLIT_BASE
    from envs.registry import make_raw
    from training.episodes import privileged_cards

    env = make_raw("cowpie", 2)
    env.reset(seed=11, options={"button": 0})
    state = env.state
    assert state is not None
    while not any(SPLIT_BASE <= a < SPLIT_BASE + 21 for a in state.legal_actions()):
        env.step(1 if 1 in state.legal_actions() else state.legal_actions()[0])
    seat = state.current_seat
    assert seat is not None
    layout = Layout.of_env(env, {})
    slots = candidate_slots(len(layout.action_names))
    net = PolicyNet(layout.obs_size, len(layout.action_names), [16], candidates=slots, privileged=52)

    def inputs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        agent = env.possible_agents[seat]
        cands = candidate_features(env.public_view(agent), slots, np.random.default_rng(0))  # type: ignore[arg-type]
        return env.observe(agent)["observation"].copy(), cands, privileged_cards(state, seat)

    before = inputs()
    other = 1 - seat
    hidden = [i for i, up in enumerate(state.up[other]) if not up]
    state.cards[other][hidden[0]], state.stub[0] = state.stub[0], state.cards[other][hidden[0]]
    after = inputs()
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    assert not np.array_equal(before[2], after[2])
    with torch.no_grad():
        obs = torch.from_numpy(np.stack([before[0], after[0]]))
        cands = torch.from_numpy(np.stack([before[1], after[1]]))
        priv = torch.from_numpy(np.stack([before[2], after[2]]))
        logits, _ = net(obs, cands, priv)
        assert torch.equal(logits[0], logits[1]) and torch.equal(net.logits(obs, cands), logits)
        values = net.values(obs, priv)
        assert values[0] != values[1]


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
