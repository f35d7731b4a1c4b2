"""envs.rllib: the AEC env as RLlib's multi-agent dicts (RLlibAdapter: no Ray needed here;
tests/distributed/ trains on it with RLlib)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from envs.engine.actions import FOLD
from envs.engine.errors import IllegalActionError
from envs.registry import make_raw
from envs.rllib import (
    MASK_KEY,
    OBS_KEY,
    SEAT_RETURNS,
    SHARED_MODULE,
    EnvConfig,
    RLlibAdapter,
    check_env,
    log_seat_returns,
    module_ids,
    policy_mapping,
)


def _play_to_end(env: RLlibAdapter, obs: dict, rng: np.random.Generator) -> tuple:
    while True:
        ((agent, ob),) = obs.items()
        step = env.step({agent: int(rng.choice(np.flatnonzero(ob[MASK_KEY])))})
        obs, _, terminateds, truncateds, _ = step
        if terminateds["__all__"] or truncateds["__all__"]:
            return step


def test_observations_are_the_aec_ones_under_rllibs_keys() -> None:
    env = RLlibAdapter({"variant": "cowpie", "num_players": 3})
    aec = make_raw("cowpie", 3)
    obs, infos = env.reset(seed=11)
    aec.reset(seed=11)
    ((agent, ob),) = obs.items()
    assert agent == aec.agent_selection and set(infos) == {agent}
    assert set(ob) == {OBS_KEY, MASK_KEY} and ob[MASK_KEY].dtype == np.float32
    expected = aec.observe(agent)
    np.testing.assert_array_equal(ob[OBS_KEY], expected["observation"])
    np.testing.assert_array_equal(ob[MASK_KEY], expected["action_mask"])
    assert env.observation_spaces[agent].contains(ob)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("stud", 2, {}),
        ("razz", 4, {}),
        ("stud_hilo_declare", 3, {}),
        ("cowpie", 2, {}),
        ("chowaha", 3, {"betting": "no_limit"}),
        ("cowboy", 3, {"match_cap": 4, "max_deals": 3}),
    ],
    ids=["stud", "razz-4", "declare-3", "cowpie", "chowaha-nl-3", "cowboy-3"],
)
def test_masked_random_play_passes_the_multi_agent_check(variant: str, players: int, options: dict) -> None:
    check_env(RLlibAdapter({"variant": variant, "num_players": players, "options": options}), episodes=15)


def test_the_last_step_reports_every_seat_including_one_that_never_acted() -> None:
    """Three-handed Chowaha folded round to the big blind: it never acts, yet RLlib gets
    its final observation and result (and every seat's result in each info)."""
    env = RLlibAdapter({"variant": "chowaha", "num_players": 3})
    obs, _ = env.reset(seed=3, options={"button": 0})
    actors = []
    while True:
        ((agent, ob),) = obs.items()
        assert ob[MASK_KEY][FOLD] == 1
        actors.append(agent)
        obs, rewards, terminateds, truncateds, infos = env.step({agent: FOLD})
        if terminateds["__all__"]:
            break
    (walker,) = set(env.possible_agents) - set(actors)
    assert set(obs) == set(rewards) == set(infos) == set(env.possible_agents)
    assert rewards[walker] > 0 and sum(rewards.values()) == pytest.approx(0)
    assert all(terminateds[a] and not truncateds[a] for a in env.possible_agents) and not truncateds["__all__"]
    assert infos["player_0"]["seat_returns"] == rewards
    assert all(not ob[MASK_KEY].any() for ob in obs.values())  # nothing left to do


def test_a_cowboy_game_cut_at_max_deals_is_truncated_not_terminated() -> None:
    env = RLlibAdapter({"variant": "cowboy", "num_players": 3, "options": {"max_deals": 1}})
    rng = np.random.default_rng(0)
    seen = set()
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        _, rewards, terminateds, truncateds, _ = _play_to_end(env, obs, rng)
        assert terminateds["__all__"] != truncateds["__all__"]
        assert all(truncateds[a] == truncateds["__all__"] for a in env.possible_agents)
        assert sum(rewards.values()) == pytest.approx(0)
        seen.add(truncateds["__all__"])
    assert seen == {True, False}  # both endings occur over these seeds


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = RLlibAdapter({"variant": "stud"})
    obs, _ = env.reset(seed=5)
    ((agent, ob),) = obs.items()
    illegal = int(np.flatnonzero(ob[MASK_KEY] == 0)[0])
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step({agent: illegal})
    legal = int(np.flatnonzero(ob[MASK_KEY])[0])
    next_obs, rewards, *_ = env.step({agent: legal})  # the hand goes on from where it was
    assert agent in rewards and len(next_obs) == 1


def test_illegal_action_lose_ends_the_hand_with_the_offender_at_minus_one() -> None:
    env = RLlibAdapter({"variant": "stud", "illegal_action": "lose"})
    obs, _ = env.reset(seed=5)
    ((agent, ob),) = obs.items()
    _, rewards, terminateds, _, _ = env.step({agent: int(np.flatnonzero(ob[MASK_KEY] == 0)[0])})
    assert terminateds["__all__"] and rewards[agent] == -1.0 and sum(rewards.values()) == pytest.approx(0)


def test_actions_for_anyone_but_the_agent_to_act_are_refused() -> None:
    env = RLlibAdapter({"variant": "stud"})
    obs, _ = env.reset(seed=1)
    ((agent, ob),) = obs.items()
    other = next(a for a in env.possible_agents if a != agent)
    legal = int(np.flatnonzero(ob[MASK_KEY])[0])
    with pytest.raises(ValueError, match=f"expected exactly one, for '{agent}'"):
        env.step({other: legal})
    with pytest.raises(ValueError, match="expected exactly one"):
        env.step({agent: legal, other: legal})


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"variant": "stud", "seats": 2}, "unknown env_config key 'seats'; known keys: variant, num_players"),
        ({"variant": "holdem"}, "holdem"),
        ({"variant": "stud", "illegal_action": "remap"}, "illegal_action='remap' is not allowed"),
        ({"variant": "stud", "options": {"antes": 1}}, "unknown option 'antes'"),
        ({"variant": "stud", "options": [1]}, "options=\\[1\\] is not allowed: expected a dict"),
    ],
    ids=["unknown-key", "unknown-variant", "bad-illegal-action", "bad-option", "options-not-a-dict"],
)
def test_bad_env_config_is_named(config: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RLlibAdapter(config)


def test_env_config_defaults_to_the_variants_fewest_seats() -> None:
    assert EnvConfig.of({}).variant == "stud" and EnvConfig.of({}).num_players == 2
    assert EnvConfig.of({"variant": "cowboy_v0"}) == EnvConfig(variant="cowboy", num_players=3)


def test_policy_mappings_share_one_module_or_give_each_seat_its_own() -> None:
    agents = ["player_0", "player_1", "player_2"]
    assert {policy_mapping("shared")(a, None) for a in agents} == {SHARED_MODULE}
    assert [policy_mapping("per_seat")(a, None) for a in agents] == agents
    assert module_ids("shared", agents) == [SHARED_MODULE] and module_ids("per_seat", agents) == agents
    with pytest.raises(ValueError, match="policies='one' is not allowed"):
        policy_mapping("one")


def test_the_project_imports_no_ray_until_asked() -> None:
    """The modules that use Ray import it lazily: without the extra nothing changes."""
    code = (
        "import sys, envs.rllib, evaluation.ray_cluster, evaluation.ray_runner, agents.rllib_agent\n"
        "import agents.loading, evaluate\n"
        "assert not [m for m in sys.modules if m == 'ray' or m.startswith('ray.')], 'ray was imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_without_rllib_the_env_class_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import envs.rllib

    monkeypatch.setattr(envs.rllib, "_CLASS", None)
    monkeypatch.setitem(sys.modules, "ray.rllib.env.multi_agent_env", None)  # as if Ray were not installed
    with pytest.raises(ImportError, match=r'pip install -e "\.\[ray\]"'):
        envs.rllib.RLlibEnv  # noqa: B018 (the attribute access builds the class)
    with pytest.raises(AttributeError, match="has no attribute 'Nothing'"):
        envs.rllib.Nothing  # noqa: B018


class _ForgetsASeat(RLlibAdapter):
    """A broken adapter: the last step leaves out one seat."""

    def _final_step(self) -> tuple:
        obs, rewards, terminateds, truncateds, infos = super()._final_step()
        lost = self.possible_agents[-1]
        return {a: o for a, o in obs.items() if a != lost}, rewards, terminateds, truncateds, infos


def test_check_env_catches_a_last_step_without_every_seat() -> None:
    with pytest.raises(AssertionError, match="the last step reports \\['player_0'\\], not every seat"):
        check_env(_ForgetsASeat({"variant": "stud"}), episodes=1)


def test_seat_returns_are_logged_for_every_seat_from_the_final_infos() -> None:
    """The callback reads any acting seat's final info, which holds every seat's result
    (RLlib keeps no episode for a seat that never acted)."""
    env = RLlibAdapter({"variant": "chowaha", "num_players": 3})
    obs, _ = env.reset(seed=3, options={"button": 0})
    while True:
        ((agent, _),) = obs.items()
        obs, rewards, terminateds, _, infos = env.step({agent: FOLD})
        if terminateds["__all__"]:
            break

    class AgentEpisode:  # what RLlib keeps of a seat that acted: its infos
        def __init__(self, info: dict) -> None:
            self.info = info

        def get_infos(self, index: int) -> dict:
            assert index == -1
            return self.info

    class Episode:
        def __init__(self) -> None:
            self.agent_episodes = {"player_0": AgentEpisode(infos["player_0"])}  # the walker is missing

    logged: dict = {}

    class Logger:
        def log_value(self, key: tuple, value: float, **kwargs: object) -> None:
            assert kwargs["reduce"] == "mean"
            logged[key] = value

    log_seat_returns(episode=Episode(), metrics_logger=Logger())
    assert logged == {(SEAT_RETURNS, a): rewards[a] for a in env.possible_agents}
