"""Data collection on the batched engine (:mod:`envs.batched`): the algorithm of
:class:`training.rollout.Collector` on one batch of tables, on one device.

What is the same as the scalar collector (its module docstring is the reference):

* the table mix, drawn per episode from the collector's generator: ``self``, ``pool``
  (a snapshot by the pool's rule; self-play while the pool is empty) and bot specs,
  here their batched forms (:func:`agents.batched.load_batched`);
* the seating: at a pool or bot table of two seats the learner takes one random seat;
  with three or more it takes every seat but one with probability ``many_learners``,
  else one seat;
* each learner seat's own decision sequence per episode, its final reward (or its
  chip changes with ``step_rewards``) through :func:`training.episodes.training_signal`,
  GAE over each sequence with the values computed after the rollout in large batches,
  the same :class:`~training.episodes.Batch` and :class:`~training.rollout.RolloutStats`;
* the clean boundary: once enough learner decisions are in finished episodes, no
  table starts a new episode and the episodes in play finish; every rollout starts
  from fresh deals, so the generators are all there is to save (exact resume);
* the privileged critic input (:func:`training.episodes.privileged_cards`' layout),
  read from the batch's state;
* candidate features for candidate-scoring networks at declarations and Cowpie splits,
  and Cowpie's split regret: computed on the host for the few decisions that need
  them, from the scalar engine replaying the hand (:mod:`training.batched_candidates`).

How it runs: one :class:`~envs.batched.table.TableBatch` with ``auto_reset`` and a
random button per hand; per step one masked forward pass per controller group (the
learner, each pool snapshot in use; a frozen network's rows in one pass) and one
``act`` call per batched bot, the actions combined with ``torch.where`` and one
``batch.step(actions, active=live)``. Learner decisions go into preallocated device
tensors (row positions computed on the device; rows of other tables go to a spare
row), so nothing is copied to the host per step (but the rows that need candidate
features, where the variant has any). The episode assignments (kind,
opponent, learner seats) are drawn on the host in blocks before they are needed and
moved to the device once per block. The host looks at the device only every
``check_every`` steps (one scalar read: the stop rule, the buffers' room), which is
every step on the CPU (where it costs nothing) and every 16 on a GPU.

Differences, by design: the weighted pool rule samples from the snapshot scores as
they stand at the start of the rollout (the scores are updated in finish order at its
end, to the same values); the deals are the batched engine's (counter-based), so the
two collectors play other hands, alike in distribution.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from agents.batched import BatchedBot, load_batched
from agents.candidates import FEATURES
from agents.loading import frozen_network
from agents.nets import MASKED_LOGIT, PolicyNet
from envs.batched import make as make_batch
from envs.batched.spec import NoBatchedFormError
from envs.engine.actions import SPLIT_BASE
from training.batched_candidates import HostCandidates, split_regrets, split_rows
from training.batched_episodes import privileged_rows, sequence_gae, sequence_rewards, signal
from training.episodes import Batch
from training.pool import OpponentPool
from training.rollout import (
    FIRST_BOT,
    LEARNER,
    POOL,
    SELF,
    VALUE_CHUNK,
    RolloutStats,
    TableKind,
    collector_settings,
)

if TYPE_CHECKING:
    from envs.batched.table import TableBatch
    from training.config import Config

__all__ = ["BatchedCollector", "batched_collector_for", "resolve_device"]

RECORD_LIMIT = 256  # decisions kept per hand: the host replays a hand for its candidate features
GPU_CHECK_EVERY = 16  # steps between host reads on a device where a read stalls the queue


def resolve_device(name: str) -> torch.device:
    """``cpu``, ``cuda`` (``cuda:<n>``) or ``auto`` (cuda when torch sees one)."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"train.device = {name!r}, but torch sees no CUDA device here (use 'cpu' or 'auto')")
    return torch.device(name)


@dataclass
class _Plan:
    """Episode assignments drawn ahead on the host: controllers ``[E, P]`` on the device,
    the kind of each and the opponents (snapshot ids, bot ids) that occur (host)."""

    controllers: torch.Tensor
    kinds: list[int]
    opponents: frozenset[int]


class BatchedCollector:
    """Plays ``num_tables`` batched tables; the arguments of :class:`training.rollout.Collector`
    (``mix`` required), plus the ``device``, the bot specs' ``seed`` and ``sync_free``
    (default: on for cuda; the tests run the GPU's code path on the CPU with it)."""

    def __init__(
        self,
        variant: str,
        num_players: int,
        env_kwargs: dict[str, Any],
        *,
        num_tables: int,
        net: PolicyNet,
        pool: OpponentPool,
        mix: Sequence[TableKind],
        many_learners: float = 0.5,
        gamma: float,
        lam: float,
        reward_scale: float = 1.0,
        step_rewards: bool = False,
        candidate_samples: int = 64,
        rng: np.random.Generator,
        generator: torch.Generator,
        device: str | torch.device = "cpu",
        seed: int = 0,
        sync_free: bool | None = None,
    ) -> None:
        kinds = list(mix)
        if not kinds or any(k.weight < 0 for k in kinds) or sum(k.weight for k in kinds) <= 0:
            raise ValueError(f"the table mix needs non-negative weights with a positive sum, got {kinds}")
        self.device = torch.device(device)
        options = {**env_kwargs, "button": "random"}  # as the scalar collector: a random button per hand
        self.batch: TableBatch = make_batch(
            variant,
            num_tables,
            num_players,
            self.device,
            check_actions=False,
            record_limit=RECORD_LIMIT,
            sync_free=sync_free,
            **options,
        )
        self.kinds = kinds
        self.weights = np.array([k.weight for k in kinds]) / sum(k.weight for k in kinds)
        self.bot_names = [k.name for k in kinds if k.name not in (SELF, POOL)]
        # a checkpoint in the mix is a frozen network, acted like a pool snapshot; other bots are batched
        self.frozen: dict[int, PolicyNet] = {}
        self.bots: list[BatchedBot | None] = []
        for i, name in enumerate(self.bot_names):
            frozen = frozen_network(name, variant, num_players, env_kwargs)
            if frozen is not None:
                self.frozen[FIRST_BOT - i] = frozen.to(self.device).eval().requires_grad_(False)
            self.bots.append(load_batched(name, self.batch, seed=seed) if frozen is None else None)
        slots = net.candidates or next((f.candidates for f in self.frozen.values() if f.candidates), None)
        self.slots = net.candidates
        self.host = (
            HostCandidates(self.batch, slots, candidate_samples) if slots and has_candidates(self.batch) else None
        )
        self.track_splits = self.batch.num_actions > SPLIT_BASE  # Cowpie's split regret (statistics)
        self.num_players = num_players
        self.num_tables = num_tables
        self.net, self.pool = net, pool
        self.many_learners = many_learners
        self.gamma, self.lam, self.reward_scale = gamma, lam, reward_scale
        self.step_rewards = step_rewards
        self.rng, self.generator = rng, generator
        self.privileged = int(net.privileged)
        self.sync_free = self.batch.program.sync_free
        self.check_every = GPU_CHECK_EVERY if self.sync_free else 1
        self.start_stack = self.batch.stacks.double()
        self.unit = float(self.batch.spec.unit)
        self._device_nets: dict[int, PolicyNet] = {}
        self.timing: dict[str, float] = {}  # seconds per part of the last rollout (benchmarks)
        self.sequences = np.zeros(0, np.int64)  # the last batch's sequence id per row (episode * P + seat)

    # ------------------------------------------------------------ plans
    def _draw(self, count: int) -> _Plan:
        """``count`` episode assignments (kind, opponent, learner seats) from the generator,
        drawn as the scalar collector draws them per episode, for all at once."""
        n, rng = self.num_players, self.rng
        kinds = rng.choice(len(self.kinds), size=count, p=self.weights)
        opponent = np.full(count, LEARNER, np.int64)
        for k, kind in enumerate(self.kinds):
            if kind.name not in (SELF, POOL):
                opponent[kinds == k] = FIRST_BOT - self.bot_names.index(kind.name)
        at_pool = np.flatnonzero(np.isin(kinds, [k for k, kind in enumerate(self.kinds) if kind.name == POOL]))
        if len(self.pool) and len(at_pool):
            ids = np.array([s.id for s in self.pool.snapshots])
            opponent[at_pool] = ids[rng.choice(len(ids), size=len(at_pool), p=self.pool.probabilities())]
        many = (rng.random(count) < self.many_learners) if n >= 3 else np.zeros(count, bool)
        learners = np.where(many, n - 1, 1)
        rank = rng.random((count, n)).argsort(1).argsort(1)  # a random permutation's position of each seat
        seated = rank < learners[:, None]
        controllers = np.where(seated | (opponent == LEARNER)[:, None], LEARNER, opponent[:, None])
        used = frozenset(int(x) for x in np.unique(opponent) if x != LEARNER)
        return _Plan(torch.from_numpy(controllers).to(self.device), kinds.tolist(), used)

    def _extend(self, plan: _Plan, count: int) -> _Plan:
        more = self._draw(count)
        return _Plan(
            torch.cat([plan.controllers, more.controllers]), plan.kinds + more.kinds, plan.opponents | more.opponents
        )

    # ------------------------------------------------------------ networks
    def _on_device(self, controller: int) -> PolicyNet:
        """The learner, a snapshot or a frozen checkpoint as a network on the collector's device."""
        if controller in self.frozen:
            return self.frozen[controller]
        net = self.net if controller == LEARNER else self.pool.net(controller)
        if net.value_mean.device == self.device:
            return net
        if controller not in self._device_nets:
            copy = PolicyNet.from_arch(net.arch())
            copy.load_state_dict(net.state_dict())
            self._device_nets[controller] = copy.to(self.device).eval().requires_grad_(False)
        return self._device_nets[controller]

    # ------------------------------------------------------------ backend
    def state(self) -> dict[str, Any]:
        """Nothing of its own to save: its generators are the trainer's (see the module docstring)."""
        return {}

    def load_state(self, state: dict[str, Any] | None, *, update: int) -> None:
        """Nothing to restore (:meth:`state`)."""

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------ collection
    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats]:
        """Play until at least ``min_decisions`` learner decisions are in finished
        episodes, then let the episodes in play finish."""
        began = time.perf_counter()
        self._device_nets.clear()  # the learner's weights changed since the last rollout
        self.timing = dict.fromkeys(("env", "opponents", "policy", "values"), 0.0)
        for bot in self.bots:  # reseeded from our generator: resuming needs no bot state
            bot_seed = int(self.rng.integers(2**31 - 1))  # drawn for a frozen network too: one draw per bot
            if bot is not None:
                bot.seed(bot_seed)
        feature_seed = int(self.rng.integers(2**63 - 1))  # the candidate features' Monte Carlo, as the scalar one
        if self.host is not None:
            self.host.rng = np.random.default_rng(feature_seed)
        deal_seed = int(self.rng.integers(2**62))
        sample_seed = int(torch.randint(2**62, (1,), generator=self.generator))
        generator = self.generator if self.device.type == "cpu" else torch.Generator(self.device)
        if generator is not self.generator:
            generator.manual_seed(sample_seed)
        run = _Run(self, min_decisions, generator)
        tick = time.perf_counter()
        out = self.batch.reset(seed=deal_seed)
        self.timing["env"] += time.perf_counter() - tick
        run.play(out)
        stats = run.stats()
        batch = run.batch()
        stats.seconds = time.perf_counter() - began
        return batch, stats


class _Run:
    """One rollout's device buffers and counters (see the module docstring)."""

    def __init__(self, owner: BatchedCollector, min_decisions: int, generator: torch.Generator) -> None:
        self.c = owner
        self.min_decisions = min_decisions
        self.generator = generator
        b, p, dev = owner.num_tables, owner.num_players, owner.device
        self.b, self.p, self.dev = b, p, dev
        room = owner.check_every * b  # the most episodes (and rows) the steps between two checks can start
        self.plan = owner._draw(b + room)
        self.episode = torch.arange(b, device=dev)  # each table's assignment (its episode id)
        self.next_episode = torch.full((), b, dtype=torch.int64, device=dev)
        self.live = torch.ones(b, dtype=torch.bool, device=dev)  # in a recorded episode
        self.length = torch.zeros(b, dtype=torch.int64, device=dev)  # decisions this episode, all seats
        self.learner_rows = torch.zeros(b, dtype=torch.int64, device=dev)
        self.collected = torch.zeros((), dtype=torch.int64, device=dev)
        self.decisions = torch.zeros((), dtype=torch.int64, device=dev)
        self.count = torch.zeros((), dtype=torch.int64, device=dev)  # rows stored
        # per episode, plus a spare last entry that absorbs the writes of tables that did not finish
        self.ep_reward = torch.zeros(len(self.plan.kinds) + 1, p, dtype=torch.float64, device=dev)
        self.ep_finish = torch.full((len(self.plan.kinds) + 1,), -1, dtype=torch.int64, device=dev)
        self.ep_length = torch.zeros(len(self.plan.kinds) + 1, dtype=torch.int64, device=dev)
        self.steps = 0
        self.split_regret: list[float] = []
        self.capacity = 0
        self.rows: dict[str, torch.Tensor] = {}
        self._grow(min_decisions + room)
        self.groups = self._groups()

    def _groups(self) -> list[int]:
        """Controllers that can act: the learner and the opponents of the episodes drawn
        so far (snapshots by id, then bots), so that absent ones cost nothing."""
        return [LEARNER, *sorted(self.plan.opponents, reverse=True)]

    # -------------------------------------------------------------- room
    def _grow(self, capacity: int) -> None:
        """Room for ``capacity`` rows (plus the spare row that absorbs the others' writes)."""
        c, batch = self.c, self.c.batch
        shapes: dict[str, tuple[tuple[int, ...], torch.dtype]] = {
            "obs": ((batch.observation_size,), torch.float32),
            "masks": ((batch.num_actions,), torch.bool),
            "actions": ((), torch.int64),
            "logps": ((), torch.float32),
            "seq": ((), torch.int64),
        }
        if c.privileged:
            shapes["priv"] = ((c.privileged,), torch.float32)
        if c.step_rewards:
            shapes["chips"] = ((), torch.float64)
        if c.slots is not None:
            shapes["cands"] = ((c.slots[1] - c.slots[0], FEATURES), torch.float32)
        for name, (shape, dtype) in shapes.items():
            fresh = torch.zeros(capacity + 1, *shape, dtype=dtype, device=self.dev)
            if name in self.rows:
                fresh[: self.capacity] = self.rows[name][: self.capacity]
            self.rows[name] = fresh
        self.capacity = capacity

    def _check(self, stopping: bool) -> tuple[bool, bool]:
        """The host's look at the device: (stop starting episodes, anything still live);
        also makes room for the next ``check_every`` steps."""
        collected, count, nxt, live = (
            int(x) for x in torch.stack([self.collected, self.count, self.next_episode, self.live.sum()]).tolist()
        )
        room = self.c.check_every * self.b
        if count + room > self.capacity:
            self._grow(2 * (count + room))
        if nxt + room > len(self.plan.kinds):
            self._more_episodes(nxt + room - len(self.plan.kinds) + self.b)
        return stopping or collected >= self.min_decisions, live > 0

    def _more_episodes(self, count: int) -> None:
        self.plan = self.c._extend(self.plan, count)
        self.groups = self._groups()
        self.ep_reward = torch.cat([self.ep_reward[:-1], self.ep_reward.new_zeros(count + 1, self.p)])
        self.ep_finish = torch.cat([self.ep_finish[:-1], self.ep_finish.new_full((count + 1,), -1)])
        self.ep_length = torch.cat([self.ep_length[:-1], self.ep_length.new_zeros(count + 1)])

    # -------------------------------------------------------------- play
    def play(self, out: Any) -> None:
        """Step until every recorded episode is over."""
        stopping, running = False, True
        while running:
            out = self._step(out, stopping)
            self.steps += 1
            if self.steps % self.c.check_every == 0:
                stopping, running = self._check(stopping)

    def _step(self, out: Any, stopping: bool) -> Any:
        c, timing = self.c, self.c.timing
        seat = out.seat.clamp(min=0)
        who = self.plan.controllers[self.episode].gather(1, seat.unsqueeze(1)).squeeze(1)
        actions = torch.zeros(self.b, dtype=torch.int64, device=self.dev)
        for controller in self.groups:
            rows = self.live & (who == controller)
            if controller <= FIRST_BOT and controller not in c.frozen:
                tick = time.perf_counter()
                bot = c.bots[FIRST_BOT - controller]
                assert bot is not None  # the frozen networks are not here
                chosen = bot.act(c.batch, rows)
                actions = torch.where(rows, chosen, actions)
                timing["opponents"] += time.perf_counter() - tick
                continue
            actions = self._network_acts(controller, rows, out, actions, seat)
        tick = time.perf_counter()
        stepped = c.batch.step(actions, active=self.live)
        timing["env"] += time.perf_counter() - tick
        self._after_step(stepped, stopping)
        return stepped

    def _network_acts(
        self, controller: int, rows: torch.Tensor, out: Any, actions: torch.Tensor, seat: torch.Tensor
    ) -> torch.Tensor:
        """One forward pass of a network's rows (all rows on a sync-free device)."""
        c = self.c
        tick = time.perf_counter()
        net = c._on_device(controller)
        if c.sync_free:
            index = torch.arange(self.b, device=self.dev)
        else:
            index = rows.nonzero().squeeze(1)
            if len(index) == 0:
                return actions
        obs, mask = out.observation[index], out.action_mask[index]
        cands = self._candidates(net, rows, index, mask, seat)
        with torch.inference_mode():
            logits = net.logits(obs) if cands is None else net.logits(obs, cands)
            chosen, logp = sample(logits, mask | ~rows[index].unsqueeze(1), self.generator)
        acted = torch.zeros_like(actions).index_copy(0, index, chosen)
        actions = torch.where(rows, acted, actions)
        key = "policy" if controller == LEARNER else "opponents"
        c.timing[key] += time.perf_counter() - tick
        if controller == LEARNER:
            self._store(rows, index, obs, mask, chosen, logp, seat, cands)
            if c.track_splits:
                self._split_regrets(rows, index, mask, chosen, seat)
        return actions

    def _candidates(
        self, net: PolicyNet, rows: torch.Tensor, index: torch.Tensor, mask: torch.Tensor, seat: torch.Tensor
    ) -> torch.Tensor | None:
        """Candidate rows ``[len(index), slots, FEATURES]`` where a candidate decision is
        in ``rows`` (zeros elsewhere; computed on the host), or None where none is."""
        host = self.c.host
        if host is None or net.candidates is None:
            return None
        need = (rows[index] & host.needed(mask)).nonzero().squeeze(1)  # positions in index
        if len(need) == 0:
            return None
        lo, hi = host.slots
        feats = host.rows(index[need].tolist(), seat[index[need]].tolist())
        out = torch.zeros(len(index), hi - lo, FEATURES, device=self.dev)
        out[need] = torch.from_numpy(feats).to(self.dev)
        return out

    def _split_regrets(
        self, rows: torch.Tensor, index: torch.Tensor, mask: torch.Tensor, chosen: torch.Tensor, seat: torch.Tensor
    ) -> None:
        at = (rows[index] & split_rows(mask)).nonzero().squeeze(1)
        if len(at):
            tables = index[at].tolist()
            self.split_regret += split_regrets(self.c.batch, tables, seat[index[at]].tolist(), chosen[at].tolist())

    def _store(
        self,
        rows: torch.Tensor,
        index: torch.Tensor,
        obs: torch.Tensor,
        mask: torch.Tensor,
        chosen: torch.Tensor,
        logp: torch.Tensor,
        seat: torch.Tensor,
        cands: torch.Tensor | None,
    ) -> None:
        """Write the learner's decisions at the next free rows (others to the spare row)."""
        mine = rows[index]
        pos = self.count + torch.cumsum(mine.long(), 0) - 1
        pos = torch.where(mine, pos, torch.full_like(pos, self.capacity))
        r = self.rows
        r["obs"].index_copy_(0, pos, obs)
        r["masks"].index_copy_(0, pos, mask)
        r["actions"].index_copy_(0, pos, chosen)
        r["logps"].index_copy_(0, pos, logp.float())
        r["seq"].index_copy_(0, pos, self.episode[index] * self.p + seat[index])
        if "cands" in r and cands is not None:  # rows without candidates stay zero, as in the scalar batch
            r["cands"].index_copy_(0, pos, cands)
        state = self.c.batch.state
        if "priv" in r:
            r["priv"].index_copy_(0, pos, privileged_rows(state.cards[index], state.folded[index], seat[index]))
        if "chips" in r:
            chips = state.stack[index].gather(1, seat[index].unsqueeze(1)).squeeze(1).double()
            r["chips"].index_copy_(0, pos, (chips - self.c.start_stack[seat[index]]) / self.c.unit)
        self.count += mine.sum()
        self.learner_rows += rows.long()

    def _after_step(self, out: Any, stopping: bool) -> None:
        """Book the finished episodes and start the next ones (unless stopping)."""
        self.decisions += self.live.sum()
        self.length += self.live.long()
        done = out.done & self.live
        ep = torch.where(done, self.episode, torch.full_like(self.episode, len(self.plan.kinds)))
        self.ep_reward.index_copy_(0, ep, out.rewards.double())
        self.ep_finish.index_copy_(0, ep, torch.full_like(ep, self.steps))
        self.ep_length.index_copy_(0, ep, self.length)
        self.collected += torch.where(done, self.learner_rows, 0).sum()
        if stopping or (not self.c.sync_free and int(self.collected) >= self.min_decisions):
            self.live &= ~done
        else:
            new = self.next_episode + torch.cumsum(done.long(), 0) - 1
            self.episode = torch.where(done, new, self.episode)
            self.next_episode += done.sum()
        self.length = torch.where(done, 0, self.length)
        self.learner_rows = torch.where(done, 0, self.learner_rows)

    # -------------------------------------------------------------- results
    def stats(self) -> RolloutStats:
        """The rollout's statistics; the pool's scores updated in finish order."""
        c = self.c
        stats = RolloutStats(decisions=int(self.decisions), learner_decisions=int(self.collected))
        stats.split_regret = list(self.split_regret)
        finish = self.ep_finish[:-1].cpu().numpy()
        episodes = np.flatnonzero(finish >= 0)
        episodes = episodes[np.argsort(finish[episodes], kind="stable")]
        controllers = self.plan.controllers.cpu().numpy()
        rewards = self.ep_reward.cpu().numpy()
        lengths = self.ep_length.cpu().numpy()
        for e in episodes:
            seats = controllers[e]
            opponents = sorted({int(x) for x in seats if x != LEARNER})
            for seat in np.flatnonzero(seats == LEARNER):
                reward = float(rewards[e, seat])
                stats.returns.append(reward)
                if not opponents:
                    stats.returns_vs_self.append(reward)
                for opponent in opponents:
                    if opponent <= FIRST_BOT:
                        stats.returns_vs_bots.setdefault(c.bot_names[FIRST_BOT - opponent], []).append(reward)
                    else:
                        stats.returns_vs_pool.append(reward)
                        c.pool.record(opponent, reward)
            stats.hands += 1
            stats.lengths.append(int(lengths[e]))
        return stats

    def batch(self) -> Batch:
        """The stored decisions by sequence, their values, GAE: one flat batch (one host copy)."""
        c = self.c
        n = int(self.count)
        if n == 0:
            raise RuntimeError("the rollout collected no learner decisions (every learner seat was skipped)")
        rows = {k: v[:n] for k, v in self.rows.items()}
        order = torch.sort(rows["seq"], stable=True).indices
        rows = {k: v[order] for k, v in rows.items()}
        tick = time.perf_counter()
        net = c._on_device(LEARNER)
        values = []
        with torch.inference_mode():
            for i in range(0, n, VALUE_CHUNK):
                priv = rows["priv"][i : i + VALUE_CHUNK] if "priv" in rows else None
                values.append(net.values(rows["obs"][i : i + VALUE_CHUNK], priv))
        value = torch.cat(values).float()
        c.timing["values"] += time.perf_counter() - tick
        seq = rows["seq"]
        c.sequences = seq.cpu().numpy()
        final = self.ep_reward.reshape(-1)[seq]  # the seat's reward in its episode
        rewards = signal(sequence_rewards(seq, final, rows.get("chips"), c.step_rewards) * c.reward_scale).float()
        advantages, returns = sequence_gae(seq, rewards, value, c.gamma, c.lam)
        host = {k: v.cpu().numpy() for k, v in rows.items()}
        return Batch(
            obs=host["obs"],
            masks=host["masks"],
            actions=host["actions"],
            logps=host["logps"],
            values=value.cpu().numpy(),
            advantages=advantages.cpu().numpy(),
            returns=returns.cpu().numpy(),
            cands=host.get("cands"),
            priv=host.get("priv"),
        )


def sample(logits: torch.Tensor, mask: torch.Tensor, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`agents.nets.choose` (sampled) without its host check that every row has a
    legal action (every row here does: rows outside the group are all legal)."""
    logp = torch.log_softmax(torch.where(mask, logits, torch.full_like(logits, MASKED_LOGIT)), dim=-1)
    actions = torch.multinomial(logp.exp(), 1, generator=generator).squeeze(-1)
    return actions, logp.gather(-1, actions.unsqueeze(-1)).squeeze(-1)


def has_candidates(batch: TableBatch) -> bool:
    """Does the table offer decisions that candidate-scoring networks need features for?"""
    return bool(batch.spec.declare or batch.spec.split)


def check_batched(config: Config) -> None:
    """A :class:`~training.config.ConfigError` when ``rollout.engine = "batched"`` cannot
    play this config: the table, a bot of the mix, the device, Ray."""
    from training.config import ConfigError

    env, rollout = config.env, config.rollout
    change = 'set rollout.engine = "scalar"'
    try:
        resolve_device(config.train.device)
    except ValueError as err:
        raise ConfigError(str(err)) from None
    try:
        batch = make_batch(env.variant, 1, env.num_players, "cpu", **{**env.options, "button": "random"})
    except NoBatchedFormError as err:
        raise ConfigError(f'rollout.engine = "batched": {err}; {change} for this table') from None
    if rollout.backend != "local":
        raise ConfigError(
            f'rollout.engine = "batched" collects in this process: set rollout.backend = "local" or {change}'
        )
    for name in rollout.mix:
        if name in (SELF, POOL):
            continue
        try:
            if frozen_network(name, env.variant, env.num_players, env.options) is not None:
                continue
            load_batched(name, batch)
        except ImportError as err:
            raise ConfigError(
                f"rollout.mix: the bot {name!r} has no batched form in this installation ({err}); remove it from "
                f"rollout.mix or {change}"
            ) from None
        except ValueError as err:  # NoBatchedBotError, a bad style, or a checkpoint for another table
            raise ConfigError(f"rollout.mix: {err}") from None


def batched_collector_for(
    config: Config, net: PolicyNet, pool: OpponentPool, *, rng: np.random.Generator, generator: torch.Generator
) -> BatchedCollector:
    """A :class:`BatchedCollector` for ``config`` (checked by :func:`check_batched`)."""
    env = config.env
    return BatchedCollector(
        env.variant,
        env.num_players,
        env.options,
        net=net,
        pool=pool,
        mix=[TableKind(name, weight) for name, weight in config.rollout.mix.items()],
        rng=rng,
        generator=generator,
        device=resolve_device(config.train.device),
        seed=config.train.seed,
        **collector_settings(config),
    )
