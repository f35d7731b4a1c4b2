"""Self-play data collection: many tables in one process, batched policy inference.

The collector drives raw AEC envs (``envs.make_raw``) directly. At every tick it
asks each table for its acting seat only, observes that seat, groups the seats by
who controls them (the learner, or one pool snapshot), runs one forward pass per
group, and steps every table. Nothing else is observed: in a turn-based game the
other seats have nothing to decide.

Turn-based bookkeeping: each learner seat keeps its *own* decision sequence for the
hand (or the whole Cowboy game). Rewards arrive only when the episode ends, so the
reward of a seat's sequence is 0 at every decision but its last, which gets the
seat's final reward; the next value of decision ``t`` is the value of the same seat's
own decision ``t + 1`` (never another seat's), and the sequence ends at its last
decision. :func:`gae` then computes advantages over that sequence. The values are
computed once the rollout is over, in one large batch: the weights do not change
during a rollout, so they are the values the learner had when it acted, and acting
needs only the policy's half of the network.
Seats that never act in an episode (a big blind whose opponent folded) produce no
training data; their rewards still count in the episode statistics.

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
run exact (the generator state is all there is to save).

Which seats the learner plays: each new episode is a bot table with probability
``bot_fraction`` (the learner in one random seat, every other seat one fixed bot drawn
uniformly from ``bots``, such as the heuristic), else a self-play table (every seat
the current policy, every seat a training sequence) with probability ``self_play``,
or else a pool table: the learner in one random seat, every other seat played by one
snapshot drawn from the opponent pool by the pool's rule. Fixed bots act one
decision at a time through ``act_batch`` with the seat's public view; they are
reseeded from the collector's generator at the start of every rollout.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from agents.nets import PolicyNet, choose
from envs.aec import DealersChoiceEnv
from envs.engine.actions import DRAW_BASE, SPLIT_BASE
from envs.engine.scaling import soft_limit
from envs.policy import act_many
from envs.registry import make_raw
from training.pool import OpponentPool

LEARNER = -1  # controller id of the learning policy (pool snapshots have ids >= 0)
FIRST_BOT = -2  # fixed bot i has controller id FIRST_BOT - i
SIGNAL_KNEE = 100.0  # scaled rewards up to this size train as they are; beyond, log growth


def training_signal(scaled_reward: float) -> float:
    """The reward the learner trains on: ``scaled_reward`` up to :data:`SIGNAL_KNEE` in
    size, then ``K * (1 + ln(|r| / K))`` (finite and increasing, see the module docstring).

    >>> training_signal(-2.5), round(training_signal(1e77), 1)
    (-2.5, 17369.4)
    """
    return soft_limit(scaled_reward, SIGNAL_KNEE)


def gae(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Advantages and returns of one seat's decision sequence that ends the episode.

    ``values[t]`` is the seat's value estimate at its decision ``t``; after the last
    decision the episode is over (next value 0). Returns ``(advantages, returns)``
    with ``returns = advantages + values``.

    >>> adv, ret = gae(np.array([0.0, 0.0, 2.0]), np.array([0.5, 1.0, 1.5]), gamma=1.0, lam=1.0)
    >>> adv.tolist(), ret.tolist()
    ([1.5, 1.0, 0.5], [2.0, 2.0, 2.0])
    """
    n = len(rewards)
    advantages = np.zeros(n, np.float32)
    last = 0.0
    for t in range(n - 1, -1, -1):
        next_value = values[t + 1] if t + 1 < n else 0.0
        delta = rewards[t] + gamma * next_value - values[t]
        last = delta + gamma * lam * last
        advantages[t] = last
    return advantages, (advantages + values).astype(np.float32)


@dataclass
class Trajectory:
    """One learner seat's decisions in the current episode."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logps: list[float] = field(default_factory=list)
    reward: float = 0.0  # the seat's final reward, scaled (not yet training_signal), once the episode is over


@dataclass
class Batch:
    """A rollout's learner decisions, flattened (one row per decision)."""

    obs: np.ndarray  # (N, obs_size) float32
    masks: np.ndarray  # (N, actions) bool
    actions: np.ndarray  # (N,) int64
    logps: np.ndarray  # (N,) float32, behaviour policy
    values: np.ndarray  # (N,) float32, value estimates when acting
    advantages: np.ndarray  # (N,) float32
    returns: np.ndarray  # (N,) float32

    def __len__(self) -> int:
        return len(self.actions)


@dataclass
class RolloutStats:
    """What happened during a rollout (for logs)."""

    decisions: int = 0  # every decision at every table (learner and pool)
    learner_decisions: int = 0
    hands: int = 0  # episodes finished (a whole game in the Cowboy family)
    seconds: float = 0.0
    returns: list[float] = field(default_factory=list)  # per learner seat and episode
    returns_vs_pool: list[float] = field(default_factory=list)
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


class Collector:
    """Steps ``num_tables`` tables with batched inference; see the module docstring.

    Args:
        variant, num_players, env_kwargs: the table.
        num_tables: tables stepped together (the inference batch size).
        net: the learner (shared by all its seats).
        pool: opponent snapshots.
        self_play: probability that a new episode is a pure self-play table.
        gamma, lam: discount and GAE lambda over each seat's own decisions.
        reward_scale: rewards are multiplied by this for GAE, then go through
            :func:`training_signal` (statistics stay unscaled).
        bots: fixed opponents (anything with ``act_batch(observations, views)``) and
            their names; ``bot_fraction``: probability that a new episode is a bot table.
        rng: draws deals, buttons, seats and snapshots.
        generator: draws actions.
    """

    def __init__(
        self,
        variant: str,
        num_players: int,
        env_kwargs: dict[str, Any],
        num_tables: int,
        net: PolicyNet,
        pool: OpponentPool,
        *,
        self_play: float,
        gamma: float,
        lam: float,
        reward_scale: float = 1.0,
        bots: Sequence[tuple[str, Any]] = (),
        bot_fraction: float = 0.0,
        rng: np.random.Generator,
        generator: torch.Generator,
    ) -> None:
        if bot_fraction > 0 and not bots:
            raise ValueError("bot_fraction > 0 needs at least one bot")
        self.tables = [Table(make_raw(variant, num_players, **env_kwargs)) for _ in range(num_tables)]
        self.num_players = num_players
        self.net = net
        self.pool = pool
        self.self_play = self_play
        self.gamma, self.lam, self.reward_scale = gamma, lam, reward_scale
        self.bots = list(bots)
        self.bot_fraction = bot_fraction
        self.rng = rng
        self.generator = generator
        self.track_splits = self.tables[0].env.game.num_actions > SPLIT_BASE and variant == "cowpie"

    # ------------------------------------------------------------ episodes
    def _start(self, table: Table) -> None:
        """Deal a new episode and decide who plays each seat."""
        n = self.num_players
        seed = int(self.rng.integers(2**63 - 1))
        button = int(self.rng.integers(n))
        if self.bot_fraction > 0 and self.rng.random() < self.bot_fraction:
            opponent = FIRST_BOT - int(self.rng.integers(len(self.bots)))
        elif len(self.pool) == 0 or self.rng.random() < self.self_play:
            opponent = LEARNER
        else:
            opponent = self.pool.sample(self.rng)
        table.controllers = [opponent] * n
        table.controllers[int(self.rng.integers(n))] = LEARNER
        table.trajectories = {s: Trajectory() for s in range(n) if table.controllers[s] == LEARNER}
        table.decisions = 0
        table.env.reset(seed=seed, options={"button": button})

    def _finish(self, table: Table, out: list[Trajectory], stats: RolloutStats) -> int:
        """Close an episode: each learner seat's sequence gets its final reward."""
        state = table.env.state
        assert state is not None
        rewards = state.rewards()
        opponents = {c for c in table.controllers if c != LEARNER}
        collected = 0
        for seat, traj in table.trajectories.items():
            reward = float(rewards[seat])
            stats.returns.append(reward)
            for opponent in opponents:
                if opponent <= FIRST_BOT:
                    stats.returns_vs_bots.setdefault(self.bots[FIRST_BOT - opponent][0], []).append(reward)
                else:
                    stats.returns_vs_pool.append(reward)
                    self.pool.record(opponent, reward)
            if not traj.actions:
                continue
            traj.reward = reward * self.reward_scale
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
        for _, bot in self.bots:  # reseeded from our generator: resuming needs no bot state
            if hasattr(bot, "seed"):
                bot.seed(int(self.rng.integers(2**31 - 1)))
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
        groups: dict[int, list[tuple[Table, int, dict[str, np.ndarray]]]] = defaultdict(list)
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
            net = self.net if controller == LEARNER else self.pool.net(controller)
            with torch.inference_mode():
                logits = net.logits(torch.from_numpy(obs))
                actions, logps = choose(logits, torch.from_numpy(masks), generator=self.generator)
            chosen = actions.tolist()
            if controller == LEARNER:
                self._record(members, obs, masks, chosen, logps.tolist(), stats)
            for (table, _, _), action in zip(members, chosen, strict=True):
                table.decisions += 1
                table.env.step(action)
        stats.decisions += len(tables)

    def _batch(self, finished: list[Trajectory]) -> Batch:
        """The values of every stored decision (one large batch), GAE, one flat batch."""
        if not finished:
            raise RuntimeError("the rollout collected no learner decisions (every learner seat was skipped)")
        obs = np.stack([o for t in finished for o in t.obs])
        with torch.inference_mode():
            values = torch.cat(
                [self.net.values(torch.from_numpy(obs[i : i + VALUE_CHUNK])) for i in range(0, len(obs), VALUE_CHUNK)]
            )
        return flatten(finished, obs, values.numpy().astype(np.float32), self.gamma, self.lam)

    def _bots_act(self, controller: int, members: list[tuple[Table, int, dict[str, np.ndarray]]]) -> None:
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
        members: list[tuple[Table, int, dict[str, np.ndarray]]],
        obs: np.ndarray,
        masks: np.ndarray,
        actions: list[int],
        logps: list[float],
        stats: RolloutStats,
    ) -> None:
        for i, (table, seat, _) in enumerate(members):
            traj = table.trajectories[seat]
            traj.obs.append(obs[i])
            traj.masks.append(masks[i])
            traj.actions.append(actions[i])
            traj.logps.append(logps[i])
            if self.track_splits and masks[i, SPLIT_BASE:DRAW_BASE].any():
                stats.split_regret.append(split_regret(table.env, seat, actions[i]))


def flatten(trajectories: list[Trajectory], obs: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> Batch:
    """One batch from finished sequences (in order), their stacked observations and the
    values of those rows."""
    advantages, returns = [], []
    start = 0
    for traj in trajectories:
        end = start + len(traj.actions)
        rewards = np.zeros(end - start, np.float32)
        rewards[-1] = training_signal(traj.reward)
        adv, ret = gae(rewards, values[start:end], gamma, lam)
        advantages.append(adv)
        returns.append(ret)
        start = end
    return Batch(
        obs=obs,
        masks=np.stack([m for t in trajectories for m in t.masks]),
        actions=np.array([a for t in trajectories for a in t.actions], np.int64),
        logps=np.array([p for t in trajectories for p in t.logps], np.float32),
        values=values,
        advantages=np.concatenate(advantages),
        returns=np.concatenate(returns),
    )


def split_regret(env: DealersChoiceEnv, seat: int, action: int) -> float:
    """Score of the best Cowpie split minus the chosen one's (0: the best split)."""
    from envs.variants.cowpie import split_scores

    state = env.state
    assert state is not None
    opponents = max(1, state.live_count() - 1)
    scores = split_scores(np.array(state.cards[seat]), ~np.array(state.up[seat]), opponents)
    return float(scores.max() - scores[action - SPLIT_BASE])


VALUE_CHUNK = 4096  # rows per forward pass of the after-rollout value computation
