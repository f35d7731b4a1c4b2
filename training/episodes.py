"""What the collector records per learner seat, and how it becomes a training batch.

A seat's *trajectory* is its own decisions in one episode (a hand, or a whole Cowboy
game): observation, mask, action, log-probability, and when the network uses them
the candidate rows (:mod:`agents.candidates`) and the privileged critic input. Its
rewards are

* by default 0 at every decision but the last, which gets the seat's final reward;
* with *step rewards* (``step_rewards``, meant for the multi-deal Cowboy games) the
  change of the seat's chips between its decisions: decision ``t`` gets what the
  seat's chips did until its next decision (the first also what it paid before it
  first acted, the antes), the last what happened after it. The sum telescopes to the
  final reward exactly, so the return of every decision is the same; the value of a
  decision then predicts only what is still to come in the game, not the pots of
  deals already settled, which is far less noisy.

:func:`gae` runs over each trajectory; :func:`flatten` stacks them into a
:class:`Batch`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from envs.engine.scaling import soft_limit
from envs.engine.state import State

CARDS = 52
SIGNAL_KNEE = 100.0  # scaled rewards up to this size train as they are; beyond, log growth


def training_signal(scaled_reward: float) -> float:
    """The reward the learner trains on: ``scaled_reward`` up to :data:`SIGNAL_KNEE` in
    size, then ``K * (1 + ln(|r| / K))`` (finite and increasing; see
    :mod:`training.rollout`).

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


def step_rewards(chips: list[float], final: float) -> np.ndarray:
    """Rewards of a seat's decisions from its chips (in reward units, relative to its
    starting stack) at each decision and its final reward; they sum to ``final``.

    >>> step_rewards([-1.0, -1.0, 3.0], final=2.0).tolist()
    [-1.0, 4.0, -1.0]
    """
    rewards = np.zeros(len(chips), np.float64)  # float64: Cowboy chip counts can pass 1e38
    if not chips:
        return rewards
    rewards[:-1] = np.diff(chips)
    rewards[-1] = final - chips[-1]
    rewards[0] += chips[0]
    return rewards


def chips_of(state: State, seat: int) -> float:
    """The seat's chips now, in reward units, relative to its starting stack (in the
    Cowboy games chips move between the stacks and the pot as deals are settled)."""
    return (state.stack[seat] - state.start_stack[seat]) / state.game.unit


def privileged_cards(state: State, seat: int) -> np.ndarray:
    """The privileged critic's input for ``seat``: every live opponent's cards (hidden
    ones included), one 52-wide multi-hot per opponent in relative seat order (the
    next seat first); folded opponents' rows stay zero. Training only: read from the
    engine state, never shown to the acting policy."""
    n = state.n
    out = np.zeros((n - 1) * CARDS, np.float32)
    for k in range(1, n):
        other = (seat + k) % n
        if not state.folded[other] and state.cards[other]:
            out[(k - 1) * CARDS + np.asarray(state.cards[other])] = 1.0
    return out


@dataclass
class Trajectory:
    """One learner seat's decisions in the current episode."""

    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    logps: list[float] = field(default_factory=list)
    cands: list[np.ndarray | None] = field(default_factory=list)  # candidate rows (None: not a candidate decision)
    priv: list[np.ndarray] = field(default_factory=list)  # privileged critic inputs
    chips: list[float] = field(default_factory=list)  # the seat's chips at each decision (step rewards)
    rewards: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))  # scaled, once it is over

    def close(self, final: float, scale: float, per_step: bool) -> None:
        """Set the rewards once the episode is over (``final``: the seat's reward)."""
        if per_step:
            scaled = [float(r) * scale for r in step_rewards(self.chips, final)]
        else:
            scaled = [0.0] * (len(self.actions) - 1) + [final * scale]
        self.rewards = np.array([training_signal(r) for r in scaled], np.float32)


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
    cands: np.ndarray | None = None  # (N, slots, features) float32 candidate rows, zero where none
    priv: np.ndarray | None = None  # (N, privileged) float32 privileged critic inputs

    def __len__(self) -> int:
        return len(self.actions)


def stack_cands(trajectories: list[Trajectory], shape: tuple[int, int] | None) -> np.ndarray | None:
    """The candidate rows of every decision, zeros where a decision had none."""
    if shape is None:
        return None
    rows = [c for t in trajectories for c in t.cands]
    out = np.zeros((len(rows), *shape), np.float32)
    for i, c in enumerate(rows):
        if c is not None:
            out[i] = c
    return out


def flatten(
    trajectories: list[Trajectory],
    obs: np.ndarray,
    values: np.ndarray,
    gamma: float,
    lam: float,
    *,
    cands: np.ndarray | None = None,
    priv: np.ndarray | None = None,
) -> Batch:
    """One batch from finished sequences (in order), their stacked observations, the
    values of those rows and (when used) their candidate rows and privileged inputs."""
    advantages, returns = [], []
    start = 0
    for traj in trajectories:
        end = start + len(traj.actions)
        adv, ret = gae(traj.rewards, values[start:end], gamma, lam)
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
        cands=cands,
        priv=priv,
    )
