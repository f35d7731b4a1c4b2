"""Stable-Baselines3's own helpers take the envs as they come: ``make_vec_env`` (which
asks for ``render_mode="rgb_array"``) works for every id, and sb3-contrib's
``MaskablePPO`` trains on such a vector env with the masks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib", reason="sb3-contrib is in the dev extra")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.env_util import make_vec_env

import envs  # noqa: F401 (registers the ids)
from envs.gym_registry import gym_ids
from envs.render import HEIGHT, WIDTH


@pytest.mark.parametrize("env_id", gym_ids())
def test_make_vec_env_works_for_every_id(env_id: str) -> None:
    venv = make_vec_env(env_id, n_envs=2, seed=0, env_kwargs={"opponents": "call"})
    try:
        assert venv.render_mode == "rgb_array"
        obs = venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(5):
            masks = get_action_masks(venv)
            assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            obs, rewards, _, _ = venv.step(actions)
            assert obs["observation"].shape[0] == 2 and rewards.shape == (2,)
        frames = venv.get_images()
        assert [f.shape for f in frames] == [(HEIGHT, WIDTH, 3)] * 2
    finally:
        venv.close()


def test_maskable_ppo_trains_on_make_vec_env() -> None:
    """A few hundred steps: the masks reach the policy (an illegal action would raise in
    the env), the rollouts finish episodes and the weights move."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny networks: more threads only contend on a shared machine
    venv = make_vec_env("DealersChoice/Razz-v0", n_envs=2, seed=0)
    try:
        model = MaskablePPO("MultiInputPolicy", venv, n_steps=64, batch_size=32, n_epochs=2, seed=0, device="cpu")
        before = [p.detach().clone() for p in model.policy.parameters()]
        model.learn(total_timesteps=256)
        assert model.num_timesteps >= 256
        assert len(model.ep_info_buffer) > 0  # whole hands were played
        assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))
    finally:
        venv.close()
        torch.set_num_threads(threads)
