"""RLlib adapter: any variant as an RLlib ``MultiAgentEnv`` (needs ``pip install -e ".[ray]"``).

``envs.rllib.RLlibEnv`` wraps the PettingZoo AEC env for RLlib's new API stack
(tested with ray[rllib] 2.60), and :func:`ppo_config` builds a PPO config that trains
on it. What RLlib needs, and how this module gives it (docs/rllib.md has the story):

* **Observation keys.** RLlib's ``ActionMaskingTorchRLModule`` reads a Dict with
  ``"observations"`` and ``"action_mask"`` (float), not PettingZoo's ``"observation"``
  and int8 mask: every agent's observation is renamed and cast here, nothing else
  changes (same vector, same mask).
* **Turn-based play.** ``reset`` and ``step`` return only the agent to act; the step
  that ends the hand returns every seat's final observation (mask all zeros) and
  result, with ``"__all__"`` terminated (or truncated, when a Cowboy game stops at
  ``max_deals``), so RLlib closes every seat's episode and bootstraps nothing.
* **Illegal actions raise.** An action outside the mask raises the engine's
  ``IllegalActionError`` (``illegal_action="lose"`` gives PettingZoo's convention
  instead); nothing is remapped. RLlib's env pre-check steps a uniformly sampled,
  unmasked action, which is illegal most of the time here, so :func:`ppo_config` turns
  that check off (``disable_env_checking=True``) and :func:`check_env` runs an
  equivalent check with masked actions.
* **Policies.** ``"shared"``: one module plays every seat (parameter sharing, the
  usual self-play setup); ``"per_seat"``: one module per seat (:func:`policy_mapping`).
* **Per-agent returns.** The game is zero-sum, so RLlib's ``episode_return_mean`` (the
  sum over seats) is always 0. RLlib also reports ``agent_episode_returns_mean/<seat>``
  but leaves out a seat that never acted in a hand (a big blind that wins when all
  fold); :func:`log_seat_returns` logs every seat's result, ``seat_returns_mean/<seat>``,
  from the final infos.

Nothing here imports Ray until ``RLlibEnv`` or :func:`ppo_config` is used, and nothing
imports ``agents``. Loading the trained module as a bot: ``agents.rllib_agent``.

>>> from envs.rllib import EnvConfig
>>> EnvConfig.of({"variant": "razz", "num_players": 3}).variant
'razz'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from gymnasium import spaces

from envs.aec import DealersChoiceEnv
from envs.engine.options import check_choice, quoted
from envs.registry import get_spec, make_raw
from envs.variants import get_variant

OBS_KEY = "observations"  # RLlib's action-masking module reads this key (PettingZoo: "observation")
MASK_KEY = "action_mask"
POLICIES = ("shared", "per_seat")
SHARED_MODULE = "shared"
SEAT_RETURNS = "seat_returns_mean"  # the metric :func:`log_seat_returns` logs, per seat
INSTALL_HINT = 'RLlib is not installed: pip install -e ".[ray]"'


@dataclass(frozen=True)
class EnvConfig:
    """What ``RLlibEnv`` builds, from RLlib's ``env_config`` dict.

    Keys: ``variant`` (name or env id, default ``"stud"``), ``num_players`` (default
    the variant's fewest), ``options`` (variant options, ``envs.make`` keywords) and
    ``illegal_action`` (``"raise"`` or ``"lose"``).
    """

    variant: str = "stud"
    num_players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    illegal_action: str = "raise"

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", get_spec(self.variant).variant)  # names the known variants on error
        if self.num_players is None:
            object.__setattr__(self, "num_players", get_variant(self.variant).seats[0])
        check_choice("illegal_action", self.illegal_action, ("raise", "lose"))
        if not isinstance(self.options, Mapping):
            raise ValueError(f"env_config options={quoted(self.options)} is not allowed: expected a dict")

    @classmethod
    def of(cls, config: Mapping[str, Any] | None) -> EnvConfig:
        """From RLlib's ``env_config`` (an ``EnvContext`` is a dict); unknown keys are named."""
        config = dict(config or {})
        known = ("variant", "num_players", "options", "illegal_action")
        unknown = sorted(set(config) - set(known))
        if unknown:
            raise ValueError(f"unknown env_config key {quoted(unknown[0])}; known keys: {', '.join(known)}")
        return cls(**config)

    def make_aec(self) -> DealersChoiceEnv:
        """The raw AEC env this config describes (options validated by the variant)."""
        assert self.num_players is not None
        return make_raw(self.variant, self.num_players, illegal_action=self.illegal_action, **self.options)


def rllib_observation(obs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The AEC's ``{"observation", "action_mask"}`` as RLlib's masking module reads it."""
    return {OBS_KEY: obs["observation"], MASK_KEY: obs["action_mask"].astype(np.float32)}


def rllib_observation_space(space: spaces.Dict) -> spaces.Dict:
    """The AEC's observation space with RLlib's key and a float mask."""
    mask = space[MASK_KEY]
    assert isinstance(mask, spaces.Box)
    return spaces.Dict({OBS_KEY: space["observation"], MASK_KEY: spaces.Box(0.0, 1.0, mask.shape, np.float32)})


class RLlibAdapter:
    """The translation from the AEC env to RLlib's multi-agent dicts (no Ray in here).

    ``RLlibEnv`` is this class with RLlib's ``MultiAgentEnv`` as its second base, built
    when first asked for (so that importing this module needs no Ray).
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()  # MultiAgentEnv's (and gymnasium.Env's) constructor
        self.env_config = EnvConfig.of(config)
        self.aec = self.env_config.make_aec()
        self.agents = list(self.aec.possible_agents)
        self.possible_agents = list(self.aec.possible_agents)
        obs_space = rllib_observation_space(self.aec.observation_space(self.possible_agents[0]))  # type: ignore[arg-type]
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: self.aec.action_space(a) for a in self.possible_agents}
        # RLlib's old-API-stack attributes (the env checker still looks for them).
        self.observation_space = spaces.Dict(self.observation_spaces)
        self.action_space = spaces.Dict(self.action_spaces)
        self._agent_ids = set(self.possible_agents)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Deal a hand (``options``: the AEC's ``deck`` / ``button``); the agent to act observes."""
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        agent = self.aec.agent_selection
        return {agent: rllib_observation(self.aec.observe(agent))}, {agent: {}}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        """Apply the action of the agent to act; return what the next agent (or, at
        the end, every seat) observes, with rewards and done flags."""
        acting = self.aec.agent_selection
        if set(action_dict) != {acting}:
            raise ValueError(
                f"RLlibEnv.step got actions for {sorted(action_dict)}; expected exactly one, for {acting!r}, "
                "the agent to act (turn-based: only the agent in the last observations acts)"
            )
        self.aec.step(int(action_dict[acting]))  # IllegalActionError on an action outside the mask
        state = self.aec.state
        assert state is not None
        if self.aec.terminations[acting] or self.aec.truncations[acting]:
            return self._final_step()
        agent = self.aec.agent_selection
        rewards = {acting: 0.0, agent: 0.0}  # the hand's result comes at its end; nothing before
        done = {"__all__": False}
        return {agent: rllib_observation(self.aec.observe(agent))}, rewards, done, dict(done), {agent: {}}

    def _final_step(self) -> tuple[dict[str, Any], ...]:
        """Every seat's final observation and result: RLlib closes every seat's episode."""
        truncated = any(self.aec.truncations.values())
        seats = self.possible_agents
        results = {a: float(self.aec.rewards[a]) for a in seats}
        observations = {a: rllib_observation(self.aec.observe(a)) for a in seats}
        terminateds: dict[str, bool] = {a: not truncated for a in seats}
        truncateds: dict[str, bool] = {a: truncated for a in seats}
        terminateds["__all__"], truncateds["__all__"] = not truncated, truncated
        infos = {a: {"seat_returns": dict(results)} for a in seats}
        self.agents = []
        return observations, results, terminateds, truncateds, infos

    def close(self) -> None:
        self.aec.close()


_CLASS: type | None = None


def _rllib_env_class() -> type:
    """``RLlibEnv``: :class:`RLlibAdapter` on RLlib's ``MultiAgentEnv`` (imports Ray once)."""
    global _CLASS
    if _CLASS is None:
        try:
            from ray.rllib.env.multi_agent_env import MultiAgentEnv
        except ImportError as err:
            raise ImportError(f"{INSTALL_HINT} ({err})") from None
        _CLASS = type(
            "RLlibEnv",
            (RLlibAdapter, MultiAgentEnv),
            {"__module__": __name__, "__doc__": "A Dealer's Choice variant as an RLlib MultiAgentEnv."},
        )
    return _CLASS


def __getattr__(name: str) -> Any:
    """``envs.rllib.RLlibEnv`` is built on first access: only then is Ray imported."""
    if name == "RLlibEnv":
        return _rllib_env_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---------------------------------------------------------------- policies
def policy_mapping(policies: str) -> Callable[..., str]:
    """RLlib's ``policy_mapping_fn``: every seat to the shared module, or each seat to its own."""
    check_choice("policies", policies, POLICIES)
    return _shared_module if policies == "shared" else _own_module


def _shared_module(agent_id: str, *args: Any, **kwargs: Any) -> str:
    return SHARED_MODULE


def _own_module(agent_id: str, *args: Any, **kwargs: Any) -> str:
    return agent_id


def module_ids(policies: str, agents: list[str]) -> list[str]:
    """The RLModule ids a config with these ``policies`` trains."""
    check_choice("policies", policies, POLICIES)
    return [SHARED_MODULE] if policies == "shared" else list(agents)


# ----------------------------------------------------------------- metrics
def log_seat_returns(*, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
    """RLlib ``on_episode_end`` callback: every seat's result, ``seat_returns_mean/<seat>``.

    Read from the final infos (the adapter gives each seat all seats' results), so a
    seat that never acted in the hand is counted too.
    """
    for agent_episode in episode.agent_episodes.values():
        info = agent_episode.get_infos(-1)
        if "seat_returns" in info:
            for seat, result in info["seat_returns"].items():
                metrics_logger.log_value((SEAT_RETURNS, seat), result, reduce="mean", window=1000)
            return


# ------------------------------------------------------------------- checks
def check_env(env: RLlibAdapter, *, episodes: int = 20, seed: int = 0) -> None:
    """RLlib's multi-agent env check, with masked random actions: dict structure, one
    agent acting at a time, every seat's result at the end summing to zero. Raises
    ``AssertionError`` naming what is wrong (RLlib's own check samples unmasked actions,
    which this env rightly refuses)."""
    rng = np.random.default_rng(seed)
    seats = set(env.possible_agents)
    for episode in range(episodes):
        obs, _ = env.reset(seed=seed + episode)
        for _ in range(100_000):
            _expect(len(obs) == 1, f"expected one agent to act, got {sorted(obs)}")
            ((agent, ob),) = obs.items()
            _expect(env.observation_spaces[agent].contains(ob), f"{agent}'s observation is outside its space")
            legal = np.flatnonzero(ob[MASK_KEY])
            _expect(legal.size > 0, f"{agent} is to act with an empty mask")
            obs, rewards, terminateds, truncateds, _ = env.step({agent: int(rng.choice(legal))})
            _expect(set(rewards) <= seats, f"rewards for unknown agents: {sorted(set(rewards) - seats)}")
            _expect("__all__" in terminateds and "__all__" in truncateds, "done dicts need the '__all__' key")
            if terminateds["__all__"] or truncateds["__all__"]:
                _expect(set(obs) == set(rewards) == seats, f"the last step reports {sorted(obs)}, not every seat")
                _expect(abs(sum(rewards.values())) < 1e-6, f"results {rewards} do not sum to zero")
                break
        else:
            raise AssertionError("an episode did not end within 100,000 steps")


def _expect(ok: bool, message: str) -> None:
    """A failed check (an ``AssertionError`` that ``python -O`` does not strip)."""
    if not ok:
        raise AssertionError(message)


# --------------------------------------------------------------- PPO recipe
def ppo_config(
    env_config: Mapping[str, Any] | None = None,
    *,
    policies: str = "shared",
    hidden: tuple[int, ...] = (256, 256),
    seed: int | None = 0,
) -> Any:
    """A ``PPOConfig`` for a variant: the adapter env, RLlib's action-masking module,
    shared or per-seat policies, every seat's return logged, RLlib's unmasked env check
    off (see the module docs). Tune it further with RLlib's usual methods
    (``.training(...)``, ``.env_runners(...)``)."""
    env_class = _rllib_env_class()  # imports RLlib, or says how to install it
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    config = EnvConfig.of(env_config)
    agents = [f"player_{i}" for i in range(config.num_players or 0)]
    model = {"fcnet_hiddens": list(hidden), "head_fcnet_hiddens": [], "vf_share_layers": False}
    modules = module_ids(policies, agents)
    specs = {m: RLModuleSpec(module_class=ActionMaskingTorchRLModule, model_config=dict(model)) for m in modules}
    return (
        PPOConfig()
        .environment(env_class, env_config=dict(env_config or {}), disable_env_checking=True)
        .multi_agent(
            policies=set(modules),
            policy_mapping_fn=policy_mapping(policies),
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .callbacks(on_episode_end=log_seat_returns)
        .debugging(seed=seed)
    )
