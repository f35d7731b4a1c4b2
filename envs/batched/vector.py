"""A Gymnasium ``VectorEnv`` over a batch: one learner seat per table, the other seats
played by a batched policy.

The opponents' policy is any callable ``(observation [B, O], action_mask [B, A]) ->
actions [B]`` on tensors (a frozen network, :func:`uniform_random`); it is asked for
every table at once and only the tables whose seat to act is not the learner's act
on it (``TableBatch.step(actions, active=...)``), until every table waits for the
learner. Observations are dicts of torch tensors on the batch's device
(``{"observation": [B, O], "action_mask": [B, A]}``). A table whose hand ends is dealt
the next one at once (Gymnasium's ``SAME_STEP`` autoreset): ``terminated`` marks the
step in which a hand ended and the observation is already the next hand's. Rewards
are the learner's, in the variant's unit; a hand that ends before the learner acts
(every other seat folded to it... in multiway pots) is counted at the next step.
Playing the opponents checks on the host whether any table still waits for them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.batched.table import BatchStep, make

__all__ = ["BatchedVectorEnv", "Policy", "uniform_random"]

Policy = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def uniform_random(seed: int = 0, device: str | torch.device = "cpu") -> Policy:
    """A policy that picks uniformly among the legal actions of every table."""
    generator = torch.Generator(device=device).manual_seed(seed)

    def policy(observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
        return torch.multinomial(action_mask.float(), 1, generator=generator).squeeze(1)

    return policy


class BatchedVectorEnv(VectorEnv):  # type: ignore[misc]
    """``num_envs`` tables of ``name``; the agent plays ``learner_seat`` at every table."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        name: str,
        num_envs: int,
        num_players: int = 2,
        *,
        learner_seat: int = 0,
        opponent: Policy | None = None,
        device: str | torch.device = "cpu",
        **options: Any,
    ) -> None:
        self.batch = make(name, num_envs, num_players, device, **options)
        if not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat={learner_seat!r} is not allowed: expected a seat 0..{num_players - 1}")
        self.num_envs = num_envs
        self.learner = learner_seat
        self.opponent = opponent if opponent is not None else uniform_random(device=self.batch.device)
        o, a = self.batch.observation_size, self.batch.num_actions
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (o,), np.float32),
                "action_mask": spaces.Box(0, 1, (a,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(a)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._pending = torch.zeros(num_envs, device=self.batch.device)
        self._pending_done = torch.zeros(num_envs, dtype=torch.bool, device=self.batch.device)
        self._out: BatchStep | None = None

    def _opponents(self, out: BatchStep) -> tuple[BatchStep, torch.Tensor, torch.Tensor]:
        """Play the other seats until every table waits for the learner."""
        won = torch.zeros(self.num_envs, device=self.batch.device)
        ended = torch.zeros(self.num_envs, dtype=torch.bool, device=self.batch.device)
        while True:
            others = out.seat != self.learner
            if not bool(others.any()):
                return out, won, ended
            actions = self.opponent(out.observation, out.action_mask).to(self.batch.device)
            out = self.batch.step(torch.where(others, actions, 0), active=others)
            won = won + out.rewards[:, self.learner]
            ended = ended | out.done

    def _obs(self, out: BatchStep) -> dict[str, torch.Tensor]:
        return {"observation": out.observation, "action_mask": out.action_mask.to(torch.int8)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """Deal every table (``options`` may hold ``decks`` and ``buttons``)."""
        options = options or {}
        out = self.batch.reset(seed=seed, decks=options.get("decks"), buttons=options.get("buttons"))
        out, self._pending, self._pending_done = self._opponents(out)
        self._out = out
        return self._obs(out), {}

    def step(self, actions: Any) -> tuple[Any, torch.Tensor, torch.Tensor, torch.Tensor, dict[str, Any]]:
        """The learner's action at every table, then the opponents until it is the learner's turn again."""
        actions = torch.as_tensor(actions, device=self.batch.device)
        out = self.batch.step(actions)
        rewards = out.rewards[:, self.learner] + self._pending
        terminated = out.done | self._pending_done
        out, won, ended = self._opponents(out)
        self._pending, self._pending_done = won * 0, ended & False
        rewards, terminated = rewards + won, terminated | ended
        self._out = out
        truncated = torch.zeros_like(terminated)
        return self._obs(out), rewards, terminated, truncated, {}
