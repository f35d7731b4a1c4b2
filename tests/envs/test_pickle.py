"""Environments pickle (AsyncVectorEnv with spawn, Ray, checkpointing a rollout): a copy
taken at any point continues exactly as the original."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv

import envs
from envs.gym_registry import gym_id
from envs.registry import ENV_SPECS
from envs.variants import VARIANTS

# A few options per variant where they change what the steps hold (declarations, the
# split round, no-limit sizes, a capped Cowboy game).
OPTIONS: dict[str, dict[str, Any]] = {
    "stud_hilo_declare": {"swing_rule": "outright"},
    "cowpie": {"bet_after_split": True},
    "chowaha": {"betting": "no_limit"},
    "cowboy": {"match_cap": 4},
    "cowgirl": {"match_cap": 4},
    "cowpattie": {"match_cap": 4},
}
PLAYERS = 3  # three seats (the Cowboy family needs them), or the most a variant seats (toy stud: two)


def players(name: str) -> int:
    return min(PLAYERS, VARIANTS[name].seats[1])


def _gym_trace(env: gymnasium.Env, obs: dict[str, np.ndarray], steps: int, seed: int) -> tuple[list[Any], Any]:
    """``steps`` learner steps from ``obs`` with random legal actions (resetting at each
    end); returns what was seen and the last observation."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        out.append((obs["observation"].tolist(), obs["action_mask"].tolist(), reward, terminated, truncated))
        out.append(tuple(info["legal_actions"]))
        if terminated or truncated:
            obs, info = env.reset()
            out.append((obs["observation"].tolist(), info["learner_seat"], info["skipped_deals"]))
    return out, obs


@pytest.mark.parametrize("name", list(ENV_SPECS))
def test_a_pickled_gym_env_continues_identically(name: str) -> None:
    env = gymnasium.make(gym_id(name), num_players=players(name), **OPTIONS.get(name, {}))
    obs, _ = env.reset(seed=5)
    _, obs = _gym_trace(env, obs, 7, seed=1)  # somewhere in an episode (or a later one)
    copy = pickle.loads(pickle.dumps(env))
    assert _gym_trace(copy, obs, 40, seed=2)[0] == _gym_trace(env, obs, 40, seed=2)[0]


def _aec_trace(env: Any, steps: int, seed: int) -> list[tuple[Any, ...]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        observation = env.observe(agent)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        out.append((agent, observation["observation"].tolist(), action, dict(env.rewards)))
    return out


@pytest.mark.parametrize("name", list(ENV_SPECS))
def test_a_pickled_aec_env_continues_identically(name: str) -> None:
    env = envs.make(name, players(name), **OPTIONS.get(name, {}))
    env.reset(seed=9)
    fresh = pickle.loads(pickle.dumps(env))  # just after the reset
    _aec_trace(env, 5, seed=3)
    middle = pickle.loads(pickle.dumps(env))
    assert _aec_trace(middle, 60, seed=4) == _aec_trace(env, 60, seed=4)
    again = envs.make(name, players(name), **OPTIONS.get(name, {}))
    again.reset(seed=9)
    assert _aec_trace(fresh, 30, seed=5) == _aec_trace(again, 30, seed=5)


def _return_env(env: gymnasium.Env) -> gymnasium.Env:
    return env


def test_async_vector_env_with_spawn_takes_built_envs() -> None:
    """Spawned workers receive the env functions pickled: here each function carries a
    built, reset env, so the env itself crosses the process boundary."""
    built = []
    for seed in (0, 1):
        env = gymnasium.make("DealersChoice/StudHilo-v0", num_players=3, opponents="call")
        env.reset(seed=seed)
        built.append(functools.partial(_return_env, env))
    venv = AsyncVectorEnv(built, context="spawn")
    try:
        obs, _ = venv.reset(seed=0)
        assert obs["observation"].shape[0] == 2 and obs["action_mask"].any(axis=1).all()
        actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, reward, *_ = venv.step(actions)
        assert obs["observation"].shape[0] == 2 and reward.shape == (2,)
    finally:
        venv.close()
