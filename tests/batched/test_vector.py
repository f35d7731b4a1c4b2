"""The single-agent VectorEnv: the learner always acts, the observation is its own, and
its rewards add up to what its seat won at the tables."""

from __future__ import annotations

import numpy as np
import torch

from envs.batched.vector import BatchedVectorEnv, uniform_random


def test_learner_acts_and_rewards_add_up() -> None:
    env = BatchedVectorEnv("stud", 8, 3, learner_seat=1, opponent=uniform_random(3), ante=1)
    obs, _ = env.reset(seed=2)
    pick = uniform_random(4)
    total, hands = torch.zeros(8), 0
    for _ in range(25):
        assert (env._out.seat == 1).all()
        assert torch.equal(obs["observation"], env.batch.observe(1))
        assert (obs["action_mask"].sum(1) > 0).all()
        obs, rewards, terminated, truncated, _ = env.step(pick(obs["observation"], obs["action_mask"].bool()))
        total += rewards
        hands += int(terminated.sum())
        assert not truncated.any()
        assert (rewards[~terminated] == 0).all()
    assert hands > 0 and total.abs().sum() > 0
    assert env.single_action_space.n == 7
    assert env.observation_space["observation"].shape == (8, env.batch.observation_size)


def test_numpy_actions_and_a_frozen_network_opponent() -> None:
    net = torch.nn.Linear(1, 1)  # any callable on tensors: here a "network" that prefers the highest legal index

    def frozen(observation: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            scores = net(torch.ones(len(mask), 1)) * 0 + torch.arange(mask.shape[1]).float()
        return torch.where(mask, scores, -np.inf).argmax(1)

    env = BatchedVectorEnv("razz", 4, 2, opponent=frozen)
    obs, _ = env.reset(seed=0)
    for _ in range(10):
        legal = obs["action_mask"].numpy()
        obs, *_ = env.step(np.array([np.flatnonzero(row)[0] for row in legal]))
