"""Data collection: many tables in one process, batched policy inference, a mix of opponents.

The collector drives raw AEC envs (``envs.make_raw``) directly. At every tick it
asks each table for its acting seat only, observes that seat, groups the seats by
who controls them (the learner, one pool snapshot, or one fixed bot), runs one
forward pass (or one ``act_batch`` call) per group, and steps every table. Nothing
else is observed: in a turn-based game the other seats have nothing to decide.

Turn-based bookkeeping (:mod:`training.episodes`): each learner seat keeps its *own*
decision sequence for the hand (or the whole Cowboy game); its rewards arrive when
the episode ends (or, with ``step_rewards``, as its chips change); the next value of
decision ``t`` is the value of the same seat's own decision ``t + 1`` (never another
seat's), and the sequence ends at its last decision. The values are computed once
the rollout is over, in one large batch: the weights do not change during a rollout,
so they are the values the learner had when it acted. Seats that never act in an
episode (a big blind whose opponent folded) produce no training data; their rewards
still count in the episode statistics.

The training signal is the reward times ``reward_scale``, passed through
:func:`training_signal`: unchanged up to :data:`SIGNAL_KNEE` (100 scaled units: with
the default scale 0.1, a thousand big bets or antes, which no stud or Chowaha hand at
the default stacks approaches) and growing logarithmically beyond. A Cowboy game with
no ``match_cap`` can end with 1e78 antes won or lost; the ``float32`` batch would hold
``inf`` and the first update would turn the network into NaNs. The knee keeps such
returns finite and ordered (a bigger win still counts for more) while leaving every
ordinary return exactly as it was. Statistics and evaluation use the plain rewards.

Rollouts end on a clean boundary: once enough learner decisions are collected, no
table starts a new episode and the ones in play finish. Every rollout therefore
starts from fresh deals drawn from the collector's generator, which makes resuming a
run exact (the generator state is all there is to save: bots and the candidate
features' Monte Carlo are reseeded from it at the start of every rollout).

Who sits where: each new episode draws a *table kind* from the ``mix`` by weight:

``self``
    self-play: the current policy in every seat, every seat a training sequence;
``pool``
    a snapshot drawn from the opponent pool by the pool's rule (self-play while the
    pool is empty);
any bot spec (``heuristic``, ``random``, a checkpoint...)
    that fixed bot, acting through ``act_batch`` with each seat's public view.

At a ``pool`` or bot table of two seats the learner takes one random seat. With three
or more seats it takes every seat but one with probability ``many_learners`` (the
evaluation's "two learners against one bot" lineup), else one seat against the
opponent in all the others, so training sees every lineup the evaluation plays.

Networks that score candidates (:mod:`agents.candidates`) get each candidate
decision's feature rows, computed from the acting seat's public view; a network with
a privileged critic gets the opponents' cards from the engine state for its value
only (:func:`training.episodes.privileged_cards`); the policy never sees them.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import torch

from agents.candidates import FEATURES, candidate_features, needs_candidates
from agents.loading import load
from agents.nets import PolicyNet, choose
from envs.aec import DealersChoiceEnv
from envs.engine.actions import DRAW_BASE, SPLIT_BASE
from envs.policy import Seating, act_many
from envs.registry import make_raw
from training.episodes import (
    Batch,
    Trajectory,
    chips_of,
    flatten,
    gae,
    privileged_cards,
    stack_cands,
    training_signal,
)
from training.pool import OpponentPool

if TYPE_CHECKING:
    from training.config import Config

__all__ = [
    "FIRST_BOT",
    "LEARNER",
    "POOL",
    "SELF",
    "Batch",
    "Collector",
    "RolloutStats",
    "TableKind",
    "collector_for",
    "collector_settings",
    "gae",
    "training_signal",
]

LEARNER = -1  # controller id of the learning policy (pool snapshots have ids >= 0)
FIRST_BOT = -2  # fixed bot i has controller id FIRST_BOT - i
SELF = "self"
POOL = "pool"
VALUE_CHUNK = 4096  # rows per forward pass of the after-rollout value computation


@dataclass(frozen=True)
class TableKind:
    """One entry of the table mix: ``self``, ``pool`` or a bot spec, its weight, and
    for a bot spec the loaded bot."""

    name: str
    weight: float
    bot: Any = None


def legacy_mix(self_play: float, bots: Sequence[tuple[str, Any]], bot_fraction: float) -> list[TableKind]:
    """The mix of the older settings: bot tables with probability ``bot_fraction``
    (bots equally likely), else self-play with probability ``self_play``, else pool."""
    rest = 1.0 - bot_fraction
    kinds = [TableKind(name, bot_fraction / len(bots), bot) for name, bot in bots] if bots else []
    kinds += [TableKind(SELF, rest * self_play), TableKind(POOL, rest * (1.0 - self_play))]
    return [k for k in kinds if k.weight > 0]


@dataclass
class RolloutStats:
    """What happened during a rollout (for logs)."""

    decisions: int = 0  # every decision at every table (learner and others)
    learner_decisions: int = 0
    hands: int = 0  # episodes finished (a whole game in the Cowboy family)
    seconds: float = 0.0
    returns: list[float] = field(default_factory=list)  # per learner seat and episode
    returns_vs_pool: list[float] = field(default_factory=list)
    returns_vs_self: list[float] = field(default_factory=list)
    returns_vs_bots: dict[str, list[float]] = field(default_factory=dict)  # by bot name
    lengths: list[int] = field(default_factory=list)  # decisions per episode, all seats
    split_regret: list[float] = field(default_factory=list)  # best split score - chosen (Cowpie)


@dataclass
class Table:
    """One env and who controls each of its seats this episode."""

    env: DealersChoiceEnv
    controllers: list[int] = field(default_factory=list)
    trajectories: dict[int, Trajectory] = field(default_factory=dict)
    decisions: int = 0


Member = tuple[Table, int, dict[str, np.ndarray]]  # table, acting seat, its observation


class Collector:
    """Steps ``num_tables`` tables with batched inference; see the module docstring.

    Args:
        variant, num_players, env_kwargs: the table.
        num_tables: tables stepped together (the inference batch size).
        net: the learner (shared by all its seats).
        pool: opponent snapshots.
        mix: the table kinds and their weights (:class:`TableKind`); when None, the
            older ``self_play`` / ``bots`` / ``bot_fraction`` settings build it
            (:func:`legacy_mix`).
        many_learners: with three or more seats, the probability that a pool or bot
            table seats the learner in every seat but one.
        gamma, lam: discount and GAE lambda over each seat's own decisions.
        reward_scale: rewards are multiplied by this for GAE, then go through
            :func:`training_signal` (statistics stay unscaled).
        step_rewards: reward the seat's chip changes between its decisions (same
            return; :mod:`training.episodes`) instead of only the final reward.
        candidate_samples: Monte Carlo deals per candidate decision's features.
        rng: draws deals, buttons, seats, table kinds and snapshots.
        generator: draws actions.
    """

    def __init__(
        self,
        variant: str,
        num_players: int,
        env_kwargs: dict[str, Any],
        *,
        num_tables: int,
        net: PolicyNet,
        pool: OpponentPool,
        mix: Sequence[TableKind] | None = None,
        self_play: float = 1.0,
        bots: Sequence[tuple[str, Any]] = (),
        bot_fraction: float = 0.0,
        many_learners: float = 0.5,
        gamma: float,
        lam: float,
        reward_scale: float = 1.0,
        step_rewards: bool = False,
        candidate_samples: int = 64,
        rng: np.random.Generator,
        generator: torch.Generator,
    ) -> None:
        if bot_fraction > 0 and not bots:
            raise ValueError("bot_fraction > 0 needs at least one bot")
        kinds = list(mix) if mix is not None else legacy_mix(self_play, bots, bot_fraction)
        if not kinds or any(k.weight < 0 for k in kinds) or sum(k.weight for k in kinds) <= 0:
            raise ValueError(f"the table mix needs non-negative weights with a positive sum, got {kinds}")
        self.kinds = kinds
        self.weights = np.array([k.weight for k in kinds]) / sum(k.weight for k in kinds)
        self.bots = [(k.name, k.bot) for k in kinds if k.name not in (SELF, POOL)]
        self.tables = [Table(make_raw(variant, num_players, **env_kwargs)) for _ in range(num_tables)]
        self.num_players = num_players
        self.net = net
        self.pool = pool
        self.many_learners = many_learners
        self.gamma, self.lam, self.reward_scale = gamma, lam, reward_scale
        self.step_rewards = step_rewards
        self.rng = rng
        self.generator = generator
        self.slots: tuple[int, int] | None = getattr(net, "candidates", None)
        self.privileged = int(getattr(net, "privileged", 0))
        self.candidate_samples = candidate_samples
        self.feature_rng = np.random.default_rng(0)
        # split decisions are recognised by their mask (only Cowpie, alone or in a mix, offers them)
        self.track_splits = self.tables[0].env.game.num_actions > SPLIT_BASE

    # ------------------------------------------------------------ episodes
    def _start(self, table: Table) -> None:
        """Deal a new episode and decide who plays each seat."""
        n = self.num_players
        seed = int(self.rng.integers(2**63 - 1))
        button = int(self.rng.integers(n))
        kind = self.kinds[int(self.rng.choice(len(self.kinds), p=self.weights))]
        if kind.name == SELF or (kind.name == POOL and len(self.pool) == 0):
            table.controllers = [LEARNER] * n
        else:
            opponent = self.pool.sample(self.rng) if kind.name == POOL else self._bot_id(kind.name)
            learners = n - 1 if n >= 3 and self.rng.random() < self.many_learners else 1
            table.controllers = [opponent] * n
            for seat in self.rng.permutation(n)[:learners]:
                table.controllers[int(seat)] = LEARNER
        table.trajectories = {s: Trajectory() for s in range(n) if table.controllers[s] == LEARNER}
        table.decisions = 0
        table.env.reset(seed=seed, options={"button": button})

    def _bot_id(self, name: str) -> int:
        return FIRST_BOT - next(i for i, (bot_name, _) in enumerate(self.bots) if bot_name == name)

    def _finish(self, table: Table, out: list[Trajectory], stats: RolloutStats) -> int:
        """Close an episode: each learner seat's sequence gets its rewards."""
        state = table.env.state
        assert state is not None
        rewards = state.rewards()
        opponents = {c for c in table.controllers if c != LEARNER}
        collected = 0
        for seat, traj in table.trajectories.items():
            reward = float(rewards[seat])
            stats.returns.append(reward)
            if not opponents:
                stats.returns_vs_self.append(reward)
            for opponent in opponents:
                if opponent <= FIRST_BOT:
                    stats.returns_vs_bots.setdefault(self.bots[FIRST_BOT - opponent][0], []).append(reward)
                else:
                    stats.returns_vs_pool.append(reward)
                    self.pool.record(opponent, reward)
            if not traj.actions:
                continue
            traj.close(reward, self.reward_scale, self.step_rewards)
            out.append(traj)
            collected += len(traj.actions)
        stats.hands += 1
        stats.lengths.append(table.decisions)
        return collected

    # ------------------------------------------------------------ collection
    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats]:
        """Play until at least ``min_decisions`` learner decisions are in finished
        episodes, then let the episodes in play finish."""
        stats = RolloutStats()
        start = time.perf_counter()
        finished: list[Trajectory] = []
        collected = 0
        # reseeded from our generator: resuming needs no bot state (Seating: the one place bots are seeded)
        seeds = [int(self.rng.integers(2**31 - 1)) if hasattr(bot, "seed") else None for _, bot in self.bots]
        Seating([bot for _, bot in self.bots], [name for name, _ in self.bots]).seed(seeds)
        self.feature_rng = np.random.default_rng(int(self.rng.integers(2**63 - 1)))
        for table in self.tables:
            self._start(table)
        active = list(self.tables)
        while active:
            self._tick(active, stats)
            still = []
            for table in active:
                state = table.env.state
                assert state is not None
                if not state.is_over:
                    still.append(table)
                    continue
                collected += self._finish(table, finished, stats)
                if collected < min_decisions:
                    self._start(table)
                    still.append(table)
            active = still
        batch = self._batch(finished)
        stats.learner_decisions = collected
        stats.seconds = time.perf_counter() - start
        return batch, stats

    def _tick(self, tables: Sequence[Table], stats: RolloutStats) -> None:
        """One decision at every table: observe the acting seats, infer per group, step."""
        groups: dict[int, list[Member]] = defaultdict(list)
        for table in tables:
            env = table.env
            state = env.state
            assert state is not None
            seat = state.current_seat
            assert seat is not None
            groups[table.controllers[seat]].append((table, seat, env.observe(env.possible_agents[seat])))
        for controller, members in groups.items():
            if controller <= FIRST_BOT:
                self._bots_act(controller, members)
                continue
            obs = np.stack([m[2]["observation"] for m in members])
            masks = np.stack([m[2]["action_mask"] for m in members]).astype(bool)
            cands = self._candidates(members, masks)
            net = self.net if controller == LEARNER else self.pool.net(controller)
            with torch.inference_mode():
                obs_t = torch.from_numpy(obs)
                logits = net.logits(obs_t) if cands is None else net.logits(obs_t, torch.from_numpy(cands))
                actions, logps = choose(logits, torch.from_numpy(masks), generator=self.generator)
            chosen = actions.tolist()
            if controller == LEARNER:
                self._record(members, obs, masks, cands, chosen, logps.tolist(), stats)
            for (table, _, _), action in zip(members, chosen, strict=True):
                table.decisions += 1
                table.env.step(action)
        stats.decisions += len(tables)

    def _candidates(self, members: list[Member], masks: np.ndarray) -> np.ndarray | None:
        """Candidate rows of the decisions that need them (zeros elsewhere), or None
        when the network scores no candidates or no decision here needs them."""
        if self.slots is None:
            return None
        rows = np.flatnonzero(needs_candidates(masks, self.slots))
        if not len(rows):
            return None
        lo, hi = self.slots
        out = np.zeros((len(members), hi - lo, FEATURES), np.float32)
        for i in rows:
            table, seat, _ = members[i]
            view = table.env.public_view(table.env.possible_agents[seat])
            out[i] = candidate_features(view, self.slots, self.feature_rng, self.candidate_samples)
        return out

    def _batch(self, finished: list[Trajectory]) -> Batch:
        """The values of every stored decision (one large batch), GAE, one flat batch."""
        if not finished:
            raise RuntimeError("the rollout collected no learner decisions (every learner seat was skipped)")
        obs = np.stack([o for t in finished for o in t.obs])
        priv = np.stack([p for t in finished for p in t.priv]) if self.privileged else None
        values = []
        with torch.inference_mode():
            for i in range(0, len(obs), VALUE_CHUNK):
                chunk = torch.from_numpy(obs[i : i + VALUE_CHUNK])
                if priv is None:
                    values.append(self.net.values(chunk))
                else:
                    values.append(self.net.values(chunk, torch.from_numpy(priv[i : i + VALUE_CHUNK])))
        shape = None if self.slots is None else (self.slots[1] - self.slots[0], FEATURES)
        return flatten(
            finished,
            obs,
            torch.cat(values).numpy().astype(np.float32),
            self.gamma,
            self.lam,
            cands=stack_cands(finished, shape),
            priv=priv,
        )

    def _bots_act(self, controller: int, members: list[Member]) -> None:
        """A fixed bot's decisions: one batched call with every acting seat's public view."""
        name, bot = self.bots[FIRST_BOT - controller]
        views = [t.env.public_view(t.env.possible_agents[seat]) for t, seat, _ in members]
        observations = [m[2] for m in members]
        actions = act_many(bot, name, [seat for _, seat, _ in members], observations, views)  # checked answers
        for (table, _, _), action in zip(members, actions, strict=True):
            table.decisions += 1
            table.env.step(action)

    def _record(
        self,
        members: list[Member],
        obs: np.ndarray,
        masks: np.ndarray,
        cands: np.ndarray | None,
        actions: list[int],
        logps: list[float],
        stats: RolloutStats,
    ) -> None:
        needs = needs_candidates(masks, self.slots) if cands is not None else None
        for i, (table, seat, _) in enumerate(members):
            traj = table.trajectories[seat]
            state = table.env.state
            assert state is not None
            traj.obs.append(obs[i])
            traj.masks.append(masks[i])
            traj.actions.append(actions[i])
            traj.logps.append(logps[i])
            traj.cands.append(cands[i] if needs is not None and needs[i] else None)
            if self.privileged:
                traj.priv.append(privileged_cards(state, seat))
            if self.step_rewards:
                traj.chips.append(chips_of(state, seat))
            if self.track_splits and masks[i, SPLIT_BASE:DRAW_BASE].any():
                stats.split_regret.append(split_regret(table.env, seat, actions[i]))


def collector_for(
    config: Config, net: PolicyNet, pool: OpponentPool, *, rng: np.random.Generator, generator: torch.Generator
) -> Collector:
    """A :class:`Collector` for ``config``'s table, ``[rollout]`` and ``[ppo]`` settings,
    its mix's bots loaded here (the trainer's, and each Ray actor's own)."""
    env, rollout = config.env, config.rollout
    seat_at = {"variant": env.variant, "num_players": env.num_players, "options": env.options}
    return Collector(
        env.variant,
        env.num_players,
        env.options,
        net=net,
        pool=pool,
        mix=[
            TableKind(name, weight, None if name in (SELF, POOL) else load(name, seed=config.train.seed, **seat_at))
            for name, weight in rollout.mix.items()
        ],
        rng=rng,
        generator=generator,
        **collector_settings(config),
    )


def collector_settings(config: Config) -> dict[str, Any]:
    """The ``[rollout]`` and ``[ppo]`` settings every collector (scalar or batched) takes."""
    rollout, ppo = config.rollout, config.ppo
    return {
        "num_tables": rollout.tables,
        "many_learners": rollout.many_learners,
        "gamma": ppo.gamma,
        "lam": ppo.gae_lambda,
        "reward_scale": ppo.reward_scale,
        "step_rewards": rollout.step_rewards,
        "candidate_samples": rollout.candidate_samples,
    }


def split_regret(env: DealersChoiceEnv, seat: int, action: int) -> float:
    """Score of the best Cowpie split minus the chosen one's (0: the best split)."""
    from envs.variants.cowpie import split_scores

    state = env.state
    assert state is not None
    opponents = max(1, state.live_count() - 1)
    scores = split_scores(np.array(state.cards[seat]), ~np.array(state.up[seat]), opponents)
    return float(scores.max() - scores[action - SPLIT_BASE])
