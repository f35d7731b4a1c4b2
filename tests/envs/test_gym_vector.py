"""The Gymnasium envs inside SyncVectorEnv and AsyncVectorEnv, with both 1.x autoreset
modes (the semantics docs/gymnasium.md describes)."""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv

import envs

ENV_ID = "DealersChoice/Cowpie-v0"
NUM_ENVS = 3


def make_fns(num_envs: int = NUM_ENVS) -> list[Callable[[], gymnasium.Env]]:
    return [lambda: gymnasium.make(ENV_ID, num_players=3) for _ in range(num_envs)]


def masked_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A random legal action per sub-env; 0 where nothing is legal (the autoreset step
    of NEXT_STEP mode, whose action is ignored)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]])


def rollout(venv: gymnasium.vector.VectorEnv, steps: int, seed: int = 3) -> list[tuple[Any, ...]]:
    obs, _ = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = venv.step(masked_actions(obs, rng))
        out.append((obs["observation"].copy(), obs["action_mask"].copy(), reward, terminated, truncated))
    venv.close()
    return out


def test_async_and_sync_vector_envs_play_the_same_seeded_games() -> None:
    sync = rollout(SyncVectorEnv(make_fns()), 60)
    asynchronous = rollout(AsyncVectorEnv(make_fns()), 60)
    assert sum(int(step[3].sum()) for step in sync) >= 3  # several episodes ended on the way
    for a, b in zip(sync, asynchronous, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_each_sub_env_matches_a_single_env_with_the_same_seed() -> None:
    """Sub-env i of ``reset(seed=s)`` is seeded with s + i; its learner rewards are the
    ones a lone env gets from the same actions."""
    venv = SyncVectorEnv(make_fns(2))
    obs, _ = venv.reset(seed=20)
    lone = gymnasium.make(ENV_ID, num_players=3)
    lone_obs, _ = lone.reset(seed=21)
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(40):
        actions = masked_actions(obs, rng)
        np.testing.assert_array_equal(obs["observation"][1], lone_obs["observation"])
        if not obs["action_mask"][1].any():  # NEXT_STEP autoreset step: the lone env resets
            lone_obs, _ = lone.reset()
            obs, reward, *_ = venv.step(actions)
            resets += 1
            assert reward[1] == 0.0
            continue
        lone_obs, lone_reward, lone_terminated, *_ = lone.step(int(actions[1]))
        obs, reward, terminated, *_ = venv.step(actions)
        assert (reward[1], terminated[1]) == (lone_reward, lone_terminated)
    assert resets >= 2


def test_next_step_autoreset_semantics() -> None:
    """Default mode: the terminal step returns the learner's final observation (mask all
    zeros), its final reward and the history; the next step resets that sub-env,
    ignores its action (even an illegal one), returns reward 0, terminated False and
    the first observation and reset info of the new episode."""
    venv = SyncVectorEnv(make_fns())
    obs, _ = venv.reset(seed=5)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(80):
        obs, reward, terminated, truncated, info = venv.step(masked_actions(obs, rng))
        ended = terminated | truncated
        if not ended.any():
            continue
        for i in np.flatnonzero(ended):
            assert not obs["action_mask"][i].any() and info["_history"][i]
            assert "wins" in str(info["history"][i]) or "takes" in str(info["history"][i])
        illegal = np.where(ended, 4, masked_actions(obs, rng))  # declare_low: never legal in Cowpie
        obs, reward, terminated, truncated, info = venv.step(illegal)
        for i in np.flatnonzero(ended):
            assert reward[i] == 0.0 and not terminated[i] and not truncated[i]
            assert obs["action_mask"][i].any() and info["_skipped_deals"][i]
            checked += 1
    assert checked >= 3


def test_same_step_autoreset_semantics() -> None:
    """SAME_STEP mode: the terminal step already returns the new episode's observation;
    the final one and its info are in ``info["final_obs"][i]`` / ``info["final_info"][key][i]``."""
    venv = SyncVectorEnv(make_fns(), autoreset_mode=AutoresetMode.SAME_STEP)
    obs, _ = venv.reset(seed=6)
    rng = np.random.default_rng(6)
    checked = 0
    for _ in range(60):
        obs, _, terminated, truncated, info = venv.step(masked_actions(obs, rng))
        assert obs["action_mask"].any(axis=1).all()  # every sub-env always has a decision
        for i in np.flatnonzero(terminated | truncated):
            assert not info["final_obs"][i]["action_mask"].any()
            assert info["final_info"]["_history"][i] and info["final_info"]["learner_seat"][i] in range(3)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("mode", "context"), [("sync", None), ("async", None), ("async", "spawn")])
def test_make_vec(mode: str, context: str | None) -> None:
    """Spawned workers start from a fresh interpreter: they find the env through its
    entry point (importing ``envs`` registers the ids there too)."""
    kwargs = {"vector_kwargs": {"context": context}} if context else {}
    venv = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode, num_players=4, opponents="call", **kwargs)
    obs, info = venv.reset(seed=0)
    # sub-env k is seeded with k: the learner rotation starts where the seed says
    assert obs["observation"].shape[0] == 2 and (info["learner_seat"] == [0, 1]).all()
    obs, *_ = venv.step(masked_actions(obs, np.random.default_rng(0)))
    venv.close()


@pytest.mark.parametrize(
    ("name", "n", "options"),
    [("stud_hilo_declare", 4, {}), ("cowboy", 4, {"match_cap": 4}), ("chowaha", 3, {"betting": "no_limit"})],
)
def test_hand_histories_pickle(name: str, n: int, options: dict[str, Any]) -> None:
    """AsyncVectorEnv pickles infos: a seat's history is plain data and comes back with
    the same text, events and viewer (multi-deal Cowboy games included)."""
    env = envs.make_raw(name, n, **options)
    rng = np.random.default_rng(1)
    for seed in range(3):
        env.reset(seed=seed)
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        for agent in env.possible_agents:
            history = env.infos[agent]["history"]
            copy = pickle.loads(pickle.dumps(history))
            assert copy == history and str(copy) == str(history) and copy.viewer == history.viewer
