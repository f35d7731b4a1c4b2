"""The batched collector: the scalar collector's algorithm on envs.batched tables.

Checked against the references: GAE, the training signal and step rewards against
training.episodes; the privileged input against training.episodes.privileged_cards on
the scalar engine replaying the batch's hands; per-seat sequences with a scripted
network; and what the scalar collector measures (hand lengths, returns against a bot,
decisions per hand) within sampling error on the same network and mix."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
import torch
from torch import nn

import envs
import envs.batched
from agents.candidates import FEATURES, candidate_features, candidate_slots
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.engine.actions import BRING_IN, CHECK_CALL, DRAW_BASE, SPLIT_BASE
from training.batched_candidates import HostCandidates
from training.batched_episodes import privileged_rows, sequence_gae, sequence_rewards, signal
from training.batched_rollout import BatchedCollector
from training.episodes import gae, privileged_cards, step_rewards, training_signal
from training.pool import OpponentPool
from training.rollout import FIRST_BOT, LEARNER, Collector, TableKind


# ------------------------------------------------------------------ pieces
@pytest.mark.parametrize(("gamma", "lam"), [(1.0, 0.95), (0.9, 0.0), (1.0, 1.0), (0.99, 0.5)])
def test_vectorised_gae_equals_the_per_sequence_reference(gamma: float, lam: float) -> None:
    rng = np.random.default_rng(3)
    lengths = rng.integers(1, 9, size=40)
    seq = np.repeat(np.arange(40) * 7 + 3, lengths)  # sorted, gaps between ids
    rewards = rng.normal(size=len(seq)).astype(np.float32)
    values = rng.normal(size=len(seq)).astype(np.float32)
    adv, ret = sequence_gae(torch.from_numpy(seq), torch.from_numpy(rewards), torch.from_numpy(values), gamma, lam)
    start = 0
    for n in lengths:
        want_adv, want_ret = gae(rewards[start : start + n], values[start : start + n], gamma, lam)
        assert np.allclose(adv[start : start + n].numpy(), want_adv, atol=1e-5)
        assert np.allclose(ret[start : start + n].numpy(), want_ret, atol=1e-5)
        start += n


def test_training_signal_elementwise_equals_the_reference() -> None:
    x = torch.tensor([0.0, 2.5, -99.9, 100.0, -100.0, 150.0, -1e6, 1e77], dtype=torch.float64)
    assert signal(x).tolist() == pytest.approx([training_signal(float(v)) for v in x], rel=1e-12)


def test_step_rewards_of_sorted_sequences_equal_the_reference() -> None:
    chips = [[-1.0, -1.0, 3.0], [-0.5], [-2.0, -4.0]]
    finals = [2.0, 7.0, -4.0]
    seq = torch.tensor([s for s, c in enumerate(chips) for _ in c])
    final = torch.tensor([finals[s] for s, c in enumerate(chips) for _ in c], dtype=torch.float64)
    flat = torch.tensor([x for c in chips for x in c], dtype=torch.float64)
    got = sequence_rewards(seq, final, flat, per_step=True).tolist()
    assert got == [r for c, f in zip(chips, finals, strict=True) for r in step_rewards(c, f).tolist()]
    last_only = sequence_rewards(seq, final, None, per_step=False).tolist()
    assert last_only == [0.0, 0.0, 2.0, 7.0, 0.0, -4.0]


@pytest.mark.parametrize("n", [2, 5])
def test_privileged_rows_equal_the_scalar_reference(n: int) -> None:
    """At every decision of random play, for the seat to act and another seat, the
    batch's privileged input equals privileged_cards of the scalar engine replaying
    the same deck, button and decisions (folded seats included)."""
    batch = envs.batched.make("stud", 16, n, auto_reset=False, record_limit=64, ante=1)
    out = batch.reset(seed=5)
    gen = torch.Generator().manual_seed(1)
    checked = 0
    for _ in range(40):
        live = ~batch.state.done
        if not bool(live.any()):
            break
        s = batch.state
        for seat in (s.actor.clamp(min=0), (s.actor.clamp(min=0) + 1) % n):
            got = privileged_rows(s.cards, s.folded, seat)
            for i in live.nonzero().squeeze(1).tolist():
                scalar = batch.game.new_state(0, button=int(s.button[i]), deck=s.deck[i].tolist(), hand=0)
                for action in s.decisions[i, : int(s.n_decisions[i])].tolist():
                    scalar.apply(int(action))
                assert np.array_equal(got[i].numpy(), privileged_cards(scalar, int(seat[i]))), i
                checked += 1
        legal = out.action_mask | ~live.unsqueeze(1)  # finished tables: anything, ignored
        actions = torch.multinomial(legal.float(), 1, generator=gen).squeeze(1)
        out = batch.step(actions, active=live)
    assert checked > 100


# ---------------------------------------------------------------- helpers
class ScriptedNet(nn.Module):
    """Prefers the actions of ``preference`` in order; the value of the k-th
    observation it acted on is k, so every stored value names its decision."""

    candidates = None
    privileged = 0

    def __init__(self, num_actions: int, preference: tuple[int, ...]) -> None:
        super().__init__()
        self.base = torch.zeros(num_actions)
        for rank, action in enumerate(preference):
            self.base[action] = 50.0 - 10.0 * rank
        self.value_mean = torch.zeros(())
        self.seen: dict[bytes, int] = {}
        self.asked = 0

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        for row in obs:
            self.seen[row.numpy().tobytes()] = self.asked
            self.asked += 1
        assert len(self.seen) == self.asked, "two decisions with the same observation"
        return self.base.expand(obs.shape[0], -1)

    def values(self, obs: torch.Tensor, priv: torch.Tensor | None = None) -> torch.Tensor:
        return torch.tensor([float(self.seen[row.numpy().tobytes()]) for row in obs])


def tiny_net(layout: Layout, privileged: bool = False) -> PolicyNet:
    torch.manual_seed(0)
    return PolicyNet(
        layout.obs_size,
        len(layout.action_names),
        [16],
        card_groups=layout.card_groups(),
        privileged=52 * (layout.num_players - 1) if privileged else 0,
    )


def batched(
    net: Any, n: int, mix: dict[str, float], *, tables: int = 8, variant: str = "stud", **kwargs: Any
) -> BatchedCollector:
    layout = Layout.build(variant, n, {})
    pool = kwargs.pop("pool", None) or OpponentPool(lambda: tiny_net(layout), capacity=3)
    settings = {"gamma": 1.0, "lam": 0.95, **kwargs}
    return BatchedCollector(
        variant, n, {}, num_tables=tables, net=net, pool=pool,
        mix=[TableKind(k, w) for k, w in mix.items()], rng=np.random.default_rng(7),
        generator=torch.Generator().manual_seed(7), **settings,
    )  # fmt: skip


def sequences(batch: Any, values: np.ndarray) -> list[np.ndarray]:
    """Row ranges of each sequence (the scripted values increase within one)."""
    cuts = [0, *(i for i in range(1, len(values)) if values[i] <= values[i - 1]), len(values)]
    return [np.arange(a, b) for a, b in itertools.pairwise(cuts)]


# ----------------------------------------------------------------- sequences
@pytest.mark.parametrize(("n", "lam", "gamma"), [(2, 0.0, 1.0), (3, 0.8, 0.9), (2, 1.0, 1.0)])
def test_each_seat_learns_from_its_own_decision_sequence(n: int, lam: float, gamma: float) -> None:
    net = ScriptedNet(7, (CHECK_CALL, BRING_IN))  # bring in, then check or call to the showdown
    c = batched(net, n, {"self": 1.0}, tables=1, lam=lam, gamma=gamma)
    batch, stats = c.collect(1)  # one hand at one table
    assert len(batch) == stats.learner_decisions == stats.decisions == net.asked == 5 * n
    assert stats.hands == 1 and len(stats.returns) == n and abs(sum(stats.returns)) < 1e-9
    rows = sequences(batch, batch.values)
    assert [len(r) for r in rows] == [5] * n  # seat by seat, each in its own decision order
    assert sorted(batch.values.tolist()) == list(range(5 * n))
    for seat, r in enumerate(rows):
        rewards = np.zeros(len(r), np.float32)
        rewards[-1] = stats.returns[seat]
        adv, ret = gae(rewards, batch.values[r], gamma, lam)
        assert np.allclose(batch.advantages[r], adv, atol=1e-4)
        assert np.allclose(batch.returns[r], ret, atol=1e-4)


@pytest.mark.parametrize("sync_free", [False, True], ids=["cpu-path", "sync-free-path"])
def test_rollouts_end_on_a_clean_boundary_with_legal_recorded_actions(sync_free: bool) -> None:
    layout = Layout.build("stud", 3, {})
    c = batched(tiny_net(layout), 3, {"self": 0.5, "random": 0.5}, tables=16, sync_free=sync_free, lam=1.0)
    batch, stats = c.collect(120)
    assert stats.learner_decisions >= 120 and len(batch) == stats.learner_decisions
    assert batch.masks[np.arange(len(batch)), batch.actions].all()  # recorded actions were legal
    assert (batch.logps <= 0).all() and np.isfinite(batch.advantages).all()
    # lambda = gamma = 1: every decision's return is its seat's final reward (scaled by 1)
    rows = np.flatnonzero(np.diff(batch.returns) != 0)
    assert len(rows) < len(batch) / 2  # constant within sequences
    assert stats.hands == len(stats.lengths) and sum(stats.lengths) == stats.decisions
    assert len(stats.returns) == len(stats.returns_vs_self) + len(stats.returns_vs_bots["random"])


def test_same_generators_give_the_same_rollout_and_fresh_ones_another() -> None:
    layout = Layout.build("stud", 2, {})
    net = tiny_net(layout, privileged=True)
    a, _ = batched(net, 2, {"self": 0.5, "call": 0.5}).collect(80)
    b, _ = batched(net, 2, {"self": 0.5, "call": 0.5}).collect(80)
    c = batched(net, 2, {"self": 0.5, "call": 0.5})
    c.rng = np.random.default_rng(8)
    other, _ = c.collect(80)
    for name in ("obs", "masks", "actions", "logps", "values", "advantages", "returns", "priv"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert len(a) != len(other) or not np.array_equal(a.obs, other.obs)
    assert a.priv is not None and a.priv.shape == (len(a), 52) and (a.priv.sum(1) >= 3).all()


# ----------------------------------------------------------------- seating
def test_pool_tables_train_only_the_learner_seat_and_score_the_snapshot() -> None:
    layout = Layout.build("stud", 2, {})
    pool = OpponentPool(lambda: tiny_net(layout), capacity=3)
    pool.add(tiny_net(layout), 0)
    c = batched(tiny_net(layout), 2, {"pool": 1.0}, pool=pool)
    _, stats = c.collect(60)
    assert len(stats.returns) == len(stats.returns_vs_pool) == stats.hands  # one learner seat per hand
    assert pool.snapshots[0].hands == stats.hands and pool.snapshots[0].score != 0.0


@pytest.mark.parametrize(("many", "learners"), [(0.0, 1), (1.0, 2)])
def test_bot_tables_seat_the_learner_against_a_fixed_bot(many: float, learners: int) -> None:
    layout = Layout.build("stud", 3, {})
    c = batched(tiny_net(layout), 3, {"call": 1.0}, many_learners=many)
    _, stats = c.collect(60)
    assert len(stats.returns) == len(stats.returns_vs_bots["call"]) == learners * stats.hands
    assert stats.learner_decisions < stats.decisions


def test_the_mix_draws_table_kinds_by_weight_and_seats_uniformly() -> None:
    layout = Layout.build("stud", 3, {})
    pool = OpponentPool(lambda: tiny_net(layout), capacity=3)
    pool.add(tiny_net(layout), 0)
    mix = {"self": 0.2, "pool": 0.3, "random": 0.1, "call": 0.4}
    c = batched(tiny_net(layout), 3, mix, pool=pool, many_learners=0.25)
    plan = c._draw(20_000)
    controllers = plan.controllers.numpy()
    n = len(plan.kinds)
    for k, (name, weight) in enumerate(mix.items()):
        share = plan.kinds.count(k) / n
        assert abs(share - weight) < 5 * math.sqrt(weight * (1 - weight) / n), name
    bots = (controllers <= FIRST_BOT).any(1)
    two = (controllers[bots] == LEARNER).sum(1) == 2
    assert abs(two.mean() - 0.25) < 0.03  # many_learners
    seat_share = (controllers[bots] == LEARNER).mean(0)
    assert np.allclose(seat_share, seat_share.mean(), atol=0.03)  # every seat alike


@pytest.mark.parametrize(("variant", "n"), [("cowpie", 2), ("stud_hilo_declare", 3)])
def test_host_candidate_rows_equal_those_of_the_scalar_env(variant: str, n: int) -> None:
    """At every split or declaration of random play, the rows built from the replayed
    hand equal candidate_features of the scalar env's own public view (same generator)."""
    batch = envs.batched.make(variant, 6, n)
    slots = candidate_slots(batch.num_actions)
    assert slots is not None
    host = HostCandidates(batch, slots, samples=16)
    out = batch.reset(seed=3)
    scalars = [envs.make_raw(variant, n) for _ in range(6)]
    gen = torch.Generator().manual_seed(2)
    compared = 0
    for _ in range(60):
        for i, env in enumerate(scalars):
            if env.state is None or env.state.is_over:
                env.reset(options={"deck": batch.state.deck[i].tolist(), "button": int(batch.state.button[i])})
        need = host.needed(out.action_mask).nonzero().squeeze(1).tolist()
        for i in need:
            seat = int(out.seat[i])
            host.rng = np.random.default_rng(i)
            got = host.rows([i], [seat])[0]
            want = candidate_features(scalars[i].public_view(f"player_{seat}"), slots, np.random.default_rng(i), 16)
            assert np.array_equal(got, want), (variant, i)
            compared += 1
        actions = torch.multinomial(out.action_mask.float(), 1, generator=gen).squeeze(1)
        for i, env in enumerate(scalars):
            env.step(int(actions[i]))
        out = batch.step(actions)
    assert compared >= 6


def test_candidate_networks_get_their_rows_in_the_batch_and_cowpie_logs_split_regret() -> None:
    layout = Layout.build("cowpie", 2, {})
    torch.manual_seed(0)
    net = PolicyNet(
        layout.obs_size, len(layout.action_names), [8], candidates=candidate_slots(len(layout.action_names))
    )
    c = batched(net, 2, {"self": 1.0}, variant="cowpie", candidate_samples=8)
    batch, stats = c.collect(40)
    assert batch.cands is not None and batch.cands.shape == (len(batch), 24, FEATURES)
    splits = batch.masks[:, SPLIT_BASE:DRAW_BASE].any(1)
    assert splits.any() and (np.abs(batch.cands[splits]).sum((1, 2)) > 0).all()
    assert (batch.cands[~splits] == 0).all()
    assert len(stats.split_regret) == int(splits.sum()) and min(stats.split_regret) >= 0


# ----------------------------------------------------------- against scalar
def _z(a: list[float], b: list[float]) -> float:
    se = math.sqrt(np.var(a, ddof=1) / len(a) + np.var(b, ddof=1) / len(b))
    return abs(float(np.mean(a)) - float(np.mean(b))) / se


def test_the_scalar_and_batched_collectors_measure_the_same_game() -> None:
    """Same network, same mix: hand lengths, returns against the bot and the learner's
    share of the decisions agree within sampling error (|z| < 4.5)."""
    layout = Layout.build("stud", 2, {})
    net = tiny_net(layout)
    pool = OpponentPool(lambda: tiny_net(layout), capacity=2)
    mix = [TableKind("self", 0.5), TableKind("random", 0.5, None)]
    from agents.loading import load

    scalar = Collector(
        "stud", 2, {}, num_tables=16, net=net, pool=pool,
        mix=[mix[0], TableKind("random", 0.5, load("random", seed=0))], gamma=1.0, lam=0.95,
        rng=np.random.default_rng(1), generator=torch.Generator().manual_seed(1),
    )  # fmt: skip
    _, s = scalar.collect(1500)
    _, b = batched(net, 2, {"self": 0.5, "random": 0.5}, tables=64).collect(1500)
    assert _z(s.lengths, b.lengths) < 4.5
    assert _z(s.returns_vs_bots["random"], b.returns_vs_bots["random"]) < 4.5
    share_s, share_b = len(s.returns_vs_self) / len(s.returns), len(b.returns_vs_self) / len(b.returns)
    assert abs(share_s - share_b) < 0.08


def test_step_rewards_keep_each_first_decisions_return() -> None:
    """gamma = lambda = 1: a sequence's first return is the sum of its rewards, the same
    final reward with or without step rewards; later returns differ (not vacuous)."""
    layout = Layout.build("stud", 2, {})
    net = tiny_net(layout)
    c = batched(net, 2, {"self": 1.0}, lam=1.0)
    plain, _ = c.collect(80)
    steps, _ = batched(net, 2, {"self": 1.0}, lam=1.0, step_rewards=True).collect(80)
    assert np.array_equal(plain.actions, steps.actions)
    assert not np.allclose(plain.returns, steps.returns)
    seq = c.sequences
    assert len(seq) == len(plain) and (np.diff(seq) >= 0).all()
    starts = np.r_[0, np.flatnonzero(np.diff(seq)) + 1]
    assert np.allclose(plain.returns[starts], steps.returns[starts], atol=1e-5)
    for a, b in zip(starts, [*starts[1:], len(seq)], strict=True):
        assert np.allclose(plain.returns[a:b], plain.returns[a], atol=1e-5)  # lambda = 1: the final reward


def test_heuristic_tables() -> None:
    layout = Layout.build("stud", 2, {})
    c = batched(tiny_net(layout), 2, {"heuristic": 0.5, "heuristic:tight": 0.25, "self": 0.25}, tables=16)
    batch, stats = c.collect(80)
    assert len(stats.returns_vs_bots["heuristic"]) > 0 and len(batch) == stats.learner_decisions


# ---------------------------------------------------------- frozen networks
def calling_checkpoint(path: Any, layout: Layout) -> str:
    """A checkpoint whose network plays as the calling station plays stud: check or
    call, else bring in (the policy bias decides; the weights are zero)."""
    from agents.checkpoint import save_checkpoint

    net = tiny_net(layout)
    with torch.no_grad():
        net.policy.weight.zero_()
        net.policy.bias.fill_(-50.0)
        net.policy.bias[CHECK_CALL], net.policy.bias[BRING_IN] = 50.0, 40.0
    return str(save_checkpoint(path, net=net, layout=layout, step={}, config={}))


def test_a_checkpoint_in_the_mix_plays_as_its_frozen_network(tmp_path: Any) -> None:
    """A network that calls, seated from its checkpoint, gives the very rollout the
    batched calling station gives (same deals, a deterministic learner)."""
    layout = Layout.build("stud", 2, {})
    spec = calling_checkpoint(tmp_path / "caller.pt", layout)
    runs = []
    for name in ("call", spec):
        net = ScriptedNet(7, (CHECK_CALL, BRING_IN))
        runs.append(batched(net, 2, {name: 1.0}, tables=4).collect(40))
    (call_batch, call_stats), (net_batch, net_stats) = runs
    assert np.array_equal(call_batch.actions, net_batch.actions)
    assert np.array_equal(call_stats.returns_vs_bots["call"], net_stats.returns_vs_bots[spec])
    assert net_stats.learner_decisions < net_stats.decisions  # the frozen seat acted


def test_check_batched_takes_checkpoints_for_the_table_and_refuses_others(tmp_path: Any) -> None:
    from training.batched_rollout import check_batched
    from training.config import ConfigError, from_dict

    spec = calling_checkpoint(tmp_path / "caller.pt", Layout.build("stud", 2, {}))
    ok = {"env": {"variant": "stud"}, "rollout": {"engine": "batched", "mix": {spec: 1.0}}}
    check_batched(from_dict(ok))
    bad = {"env": {"variant": "razz"}, "rollout": {"engine": "batched", "mix": {spec: 1.0}}}
    with pytest.raises(ConfigError, match="cannot play this table"):
        check_batched(from_dict(bad))
