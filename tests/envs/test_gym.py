"""The single-agent Gymnasium envs: registration, check_env, the learner's perspective,
seats, masks, seeding, illegal actions and truncation."""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import envs
from agents.base import Agent, RandomAgent
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE, STAY
from envs.engine.errors import IllegalActionError
from envs.gym_env import DealersChoiceGymEnv
from envs.gym_registry import ENTRY_POINT, gym_id, register_gymnasium_envs, variant_of
from envs.registry import ENV_SPECS

EXPECTED_IDS = [
    "DealersChoice/Stud-v0",
    "DealersChoice/Razz-v0",
    "DealersChoice/StudHilo-v0",
    "DealersChoice/StudHiloDeclare-v0",
    "DealersChoice/Cowpie-v0",
    "DealersChoice/Chowaha-v0",
    "DealersChoice/Cowboy-v0",
    "DealersChoice/Cowgirl-v0",
    "DealersChoice/Cowpattie-v0",
    "DealersChoice/FiveCardStud-v0",
    "DealersChoice/ToyStud-v0",
    "DealersChoice/DealersChoice-v0",
]
# check_env's only complaint, deliberate: chip counts have no upper bound (Cowboy pots
# grow without limit). The envs declare a frame rate (metadata["render_fps"]).
KNOWN_WARNINGS = ("observation space maximum value is infinity", "minimum value is -infinity")
# Learner seat 0, button 0: seat 1 is dealt first. Seat 0 shows A-K-Q-J (acts first from
# fourth street on) but ends with ace high; seat 1 brings in with the 2d and makes twos.
STACKED = "2h 7h 9c 8d 2d As 3c Kc 4d Qd 6c Jh Td 9s"


class FoldBot(Agent):
    """Folds to any bet; otherwise checks, calls, brings in, or takes the first legal action."""

    name = "fold"

    def act(self, observation: Any, view: Any) -> int:
        legal = list(view.legal_actions)
        for preferred in (FOLD, CHECK_CALL, BRING_IN):
            if preferred in legal:
                return preferred
        return legal[0]


class SeatRecorder(RandomAgent):
    """A random bot that remembers which seats it was asked to play."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seats: set[int] = set()

    def act(self, observation: Any, view: Any) -> int:
        self.seats.add(view.seat)
        return super().act(observation, view)


class IllegalBot(Agent):
    """Always plays index 0 (fold), legal or not."""

    def act(self, observation: Any, view: Any) -> int:
        return 0


def play_episode(env: gymnasium.Env, rng: np.random.Generator, check: Any = None) -> tuple[float, dict]:
    """One episode with uniformly random legal learner actions; returns the return
    and the last info. ``check(obs, info)`` runs at every learner decision."""
    obs, info = env.reset()
    total, done = 0.0, False
    while not done:
        if check is not None:
            check(obs, info)
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        total += float(reward)
        done = terminated or truncated
    return total, info


# ------------------------------------------------------------------ registration
def test_every_variant_is_registered_under_the_namespace() -> None:
    assert envs.gym_ids() == EXPECTED_IDS
    assert [gym_id(spec.variant) for spec in ENV_SPECS.values()] == EXPECTED_IDS  # derived from the registry
    for env_id in EXPECTED_IDS:
        spec = gymnasium.spec(env_id)
        assert spec.entry_point == ENTRY_POINT and spec.namespace == "DealersChoice"
        assert variant_of(env_id) == spec.kwargs["variant"]
    with pytest.raises(ValueError, match="unknown Gymnasium id 'DealersChoice/Poker-v0'; known: DealersChoice/Stud"):
        variant_of("DealersChoice/Poker-v0")


def test_registration_is_idempotent_and_follows_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Gymnasium warns when an id is overridden
        assert register_gymnasium_envs() == EXPECTED_IDS
        assert register_gymnasium_envs() == EXPECTED_IDS
    monkeypatch.setitem(ENV_SPECS, "stud_copy", dataclasses.replace(ENV_SPECS["stud"], variant="stud_copy"))
    try:
        ids = register_gymnasium_envs()
        assert ids == [*EXPECTED_IDS, "DealersChoice/StudCopy-v0"]
        assert gymnasium.spec("DealersChoice/StudCopy-v0").kwargs == {"variant": "stud_copy"}
        assert gymnasium.spec("DealersChoice/Stud-v0").kwargs == {"variant": "stud"}
    finally:
        gymnasium.registry.pop("DealersChoice/StudCopy-v0", None)


def test_make_with_options_and_the_module_prefix() -> None:
    env = gymnasium.make("DealersChoice/Cowpie-v0", num_players=3, opponents=["call", "random"], ante=1)
    assert isinstance(env.unwrapped, DealersChoiceGymEnv)
    assert env.unwrapped.num_players == 3 and env.unwrapped.aec.game.options.ante == 1
    assert env.action_space.n == 28
    assert isinstance(gymnasium.make("envs:DealersChoice/Razz-v0").unwrapped, DealersChoiceGymEnv)
    assert gymnasium.make("DealersChoice/Cowboy-v0").unwrapped.num_players == 3  # the variant's fewest


@pytest.mark.parametrize("env_id", EXPECTED_IDS)
def test_check_env(env_id: str) -> None:
    """check_env steps with unmasked ``action_space.sample()`` actions, so it runs with
    the explicit ``illegal_action="lose"`` (the default raises on those, by design)."""
    env = gymnasium.make(env_id, illegal_action="lose")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    unexpected = [str(w.message) for w in caught if not any(k in str(w.message) for k in KNOWN_WARNINGS)]
    assert not unexpected


def test_bad_arguments_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match="opponents: got 1 bots for 2 opponent seats"):
        DealersChoiceGymEnv("stud", 3, opponents=["random"])
    with pytest.raises(ValueError, match="unknown bot spec 'nobody'"):
        DealersChoiceGymEnv("stud", 2, opponents="nobody")
    with pytest.raises(ValueError, match="learner_seat='left' is not allowed: expected one of 'rotate', 'random'"):
        DealersChoiceGymEnv("stud", 2, learner_seat="left")
    with pytest.raises(ValueError, match=r"learner_seat=2 is not allowed: expected an int in 0\.\.1"):
        DealersChoiceGymEnv("stud", 2, learner_seat=2)
    with pytest.raises(ValueError, match="illegal_action='skip' is not allowed"):
        DealersChoiceGymEnv("stud", 2, illegal_action="skip")
    env = DealersChoiceGymEnv("stud", 2)
    with pytest.raises(ValueError, match="unknown reset option 'seat'; known: deck, button, learner_seat"):
        env.reset(options={"seat": 1})
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"the action must be an integer index, got 1\.5"):
        env.step(1.5)


# ------------------------------------------------------------ reward perspective
def test_learner_loses_on_the_opponents_final_action() -> None:
    """The learner calls the bring-in and checks down; the opponent's last check ends
    the hand at showdown and its twos beat the learner's ace high."""
    env = gymnasium.make("DealersChoice/Stud-v0", opponents="call", learner_seat=0)
    obs, info = env.reset(seed=1, options={"deck": STACKED, "button": 0})
    assert info["learner_seat"] == 0 and info["legal_actions"] == ["fold", "check_call", "raise"]
    rewards, done = [], False
    while not done:
        obs, reward, terminated, truncated, info = env.step(CHECK_CALL)
        rewards.append(reward)
        done = terminated or truncated
    aec = env.unwrapped.aec
    last_action = [e for e in aec.state.events if e.kind == "action"][-1]
    assert last_action.seat == 1  # the hand ended on the opponent's move
    assert rewards == [0.0, 0.0, 0.0, 0.0, -0.25]  # lost the 1-chip bring-in call, in big bets (4 chips)
    assert aec.rewards == {"player_0": -0.25, "player_1": 0.25}
    assert terminated and not truncated and not obs["action_mask"].any()
    assert "player_1 wins 2 (the pot with pair of twos)" in str(info["history"])
    assert "[7h 8d]" in str(info["history"]) and "[?? ??]" in str(info["history"])  # the learner's view


def test_learner_wins_when_the_opponent_folds() -> None:
    env = gymnasium.make("DealersChoice/Stud-v0", opponents=FoldBot(), learner_seat=0)
    env.reset(seed=1, options={"deck": STACKED, "button": 0})
    _, reward, terminated, truncated, _ = env.step(RAISE)
    assert (reward, terminated, truncated) == (0.25, True, False)
    assert [e for e in env.unwrapped.aec.state.events if e.kind == "action"][-1].text.startswith("folds")
    with pytest.raises(RuntimeError, match=r"the episode is over: call reset\(\) before step\(\)"):
        env.step(CHECK_CALL)


def test_rewards_sum_to_the_learners_aec_result() -> None:
    """Over many random episodes, the learner's return equals its AEC reward (and the
    other seats' rewards are never what it gets)."""
    env = gymnasium.make("DealersChoice/StudHiloDeclare-v0", num_players=4)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(30):
        total, info = play_episode(env, rng)
        aec = env.unwrapped.aec
        assert total == pytest.approx(aec.rewards[info["agent"]])
        assert sum(aec.rewards.values()) == pytest.approx(0.0)


def test_the_learner_may_retry_after_an_illegal_action() -> None:
    env = gymnasium.make("DealersChoice/Stud-v0", opponents="call", learner_seat=0)
    env.reset(seed=1, options={"deck": STACKED, "button": 0})
    events = len(env.unwrapped.aec.state.events)
    with pytest.raises(IllegalActionError, match=r"illegal action 4 \(declare_low\)"):
        env.step(4)
    assert len(env.unwrapped.aec.state.events) == events  # nothing changed
    _, reward, terminated, _, _ = env.step(CHECK_CALL)
    assert reward == 0.0 and not terminated


def test_illegal_action_lose_ends_the_episode_for_the_learner() -> None:
    env = gymnasium.make("DealersChoice/Stud-v0", opponents="call", learner_seat=0, illegal_action="lose")
    env.reset(seed=1, options={"deck": STACKED, "button": 0})
    obs, reward, terminated, truncated, info = env.step(4)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] == "player_0" and not obs["action_mask"].any()


def test_an_opponents_illegal_action_always_raises() -> None:
    env = gymnasium.make("DealersChoice/Stud-v0", opponents=IllegalBot(), learner_seat=0, illegal_action="lose")
    with pytest.raises(IllegalActionError, match=r"bot 'opponent agent' \(player_1\) returned 0, which is not a legal"):
        env.reset(seed=1, options={"deck": STACKED, "button": 0})  # seat 1 must bring in; fold is not legal


def test_cowboy_max_deals_is_a_truncation() -> None:
    """Everyone folds every deal: the pot carries until max_deals cuts the game short."""
    env = gymnasium.make("DealersChoice/Cowboy-v0", num_players=3, opponents=FoldBot(), max_deals=2)
    env.reset(seed=0)
    steps = 0
    while True:
        _, reward, terminated, truncated, info = env.step(FOLD)
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and steps == 2
    assert env.unwrapped.aec.truncations[info["agent"]]
    assert reward == pytest.approx(0.0)  # the pot is returned in equal shares


def test_cowboy_ends_by_the_rules_when_the_learner_alone_stays() -> None:
    env = gymnasium.make("DealersChoice/Cowboy-v0", num_players=3, opponents=FoldBot())
    env.reset(seed=0)
    _, reward, terminated, truncated, _ = env.step(STAY)
    assert terminated and not truncated and reward == pytest.approx(2.0)  # the other two antes


# --------------------------------------------------------------------- seats
def test_rotation_covers_every_seat_at_every_distance_from_the_button() -> None:
    n = 3
    env = gymnasium.make("DealersChoice/Stud-v0", num_players=n)  # every seat acts on third street: no skips
    seen = []
    for episode in range(n * n):
        obs, info = env.reset(seed=9 if episode == 0 else None)  # 9 % (n * n) == 0: the rotation starts at seat 0
        seat, aec = info["learner_seat"], env.unwrapped.aec
        assert info["skipped_deals"] == 0
        assert aec.agent_selection == info["agent"] == f"player_{seat}"
        np.testing.assert_array_equal(obs["observation"], aec.observe(f"player_{seat}")["observation"])
        seen.append((seat, (seat - info["button"]) % n))
    assert [s for s, _ in seen[:n]] == [0, 1, 2]  # one seat clockwise per episode
    assert sorted(seen) == [(s, d) for s in range(n) for d in range(n)]


def test_fixed_and_random_learner_seats() -> None:
    fixed = gymnasium.make("DealersChoice/Razz-v0", num_players=4, learner_seat=2)
    assert {fixed.reset(seed=i)[1]["learner_seat"] for i in range(8)} == {2}
    drawn = gymnasium.make("DealersChoice/Razz-v0", num_players=4, learner_seat="random")
    drawn.reset(seed=5)
    seats = [drawn.reset()[1]["learner_seat"] for _ in range(40)]
    assert set(seats) == {0, 1, 2, 3}
    drawn.reset(seed=5)
    assert [drawn.reset()[1]["learner_seat"] for _ in range(40)] == seats
    assert fixed.reset(options={"learner_seat": 1})[1]["learner_seat"] == 1  # this episode only
    assert fixed.reset()[1]["learner_seat"] == 2


def test_opponents_keep_their_places_relative_to_the_learner() -> None:
    left, across = SeatRecorder(), SeatRecorder()
    env = gymnasium.make("DealersChoice/Stud-v0", num_players=3, opponents=[left, across], learner_seat=2)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(10):
        play_episode(env, rng)
    assert left.seats == {0} and across.seats == {1}  # one and two seats to the learner's left


# ------------------------------------------------------------------- masks
@pytest.mark.parametrize("name", ["stud", "cowpie", "chowaha", "cowgirl"])
def test_action_masks_method_equals_the_observations_mask(name: str) -> None:
    n = 3
    env = gymnasium.make(gym_id(name), num_players=n, **({"match_cap": 5} if name == "cowgirl" else {}))
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    decisions = 0

    def check(obs: dict, info: dict) -> None:
        nonlocal decisions
        decisions += 1
        mask = env.get_wrapper_attr("action_masks")()  # how sb3-contrib reaches it through wrappers
        np.testing.assert_array_equal(mask, obs["action_mask"])
        assert mask.dtype == np.int8 and mask.sum() == len(info["legal_actions"]) > 0

    for _ in range(5):
        _, info = play_episode(env, rng, check)
        assert not env.unwrapped.action_masks().any() and info["legal_actions"] == []
    assert decisions >= 5


def test_deals_without_a_learner_decision_are_skipped_and_reported() -> None:
    """Heads-up Chowaha: the big blind never acts when the small blind folds."""
    env = gymnasium.make("DealersChoice/Chowaha-v0", opponents=FoldBot())
    skipped = [env.reset(seed=4 if i == 0 else None)[1] for i in range(6)]
    assert sum(info["skipped_deals"] for info in skipped) > 0
    for info in skipped:  # the learner, in the big blind, wins the small blind (0.5) in each skipped deal
        assert info["skipped_reward"] == pytest.approx(0.5 * info["skipped_deals"])
    with pytest.raises(ValueError, match="stacked deck ends the deal before the learner's first decision"):
        env.reset(options={"deck": [], "button": 0, "learner_seat": 1})


# ----------------------------------------------------------------- seeding
def trajectory(env: gymnasium.Env, seed: int, episodes: int = 6) -> list[Any]:
    """Everything observable over a few episodes: observations, rewards, every event."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out: list[Any] = []

    def record(obs: dict, info: dict) -> None:
        out.append((obs["observation"].tolist(), info["legal_actions"], info["learner_seat"]))

    for _ in range(episodes):
        total, _ = play_episode(env, rng, record)
        out.append((total, list(env.unwrapped.aec.state.events)))
    return out


def test_seeded_reset_fixes_everything_including_the_opponents() -> None:
    """Two envs whose random opponents start from different seeds play identically
    after the same reset(seed): the opponents are reseeded from the env's seed."""
    one = gymnasium.make("DealersChoice/Cowpie-v0", num_players=3, opponents=[RandomAgent(1), RandomAgent(2)])
    two = gymnasium.make("DealersChoice/Cowpie-v0", num_players=3, opponents=[RandomAgent(98), RandomAgent(99)])
    first = trajectory(one, seed=7)
    assert trajectory(two, seed=7) == first
    assert trajectory(one, seed=7) == first  # reseeding the same env replays it
    assert trajectory(one, seed=8) != first


# ------------------------------------------------------------------ render
def test_render_shows_the_learners_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = gymnasium.make("DealersChoice/Stud-v0", opponents="call", learner_seat=0, render_mode="ansi")
    env.reset(seed=1, options={"deck": STACKED, "button": 0})
    text = env.render()
    assert "[7♥] [8♦] A♠" in text and "?? ?? 2♦" in text and "to act: player_0" in text
    human = gymnasium.make("DealersChoice/Stud-v0", opponents="call", learner_seat=0, render_mode="human")
    human.reset(seed=1, options={"deck": STACKED, "button": 0})
    assert human.render() is None and "[7♥] [8♦] A♠" in capsys.readouterr().out


def test_seeding_every_episode_still_rotates_the_learner_and_the_button() -> None:
    """A loop that seeds every episode (the usual evaluation loop) visits every pair of
    learner seat and button; the same seed deals the same episode in any env."""
    env = gymnasium.make("DealersChoice/Stud-v0", num_players=3, opponents="call")
    seen = [env.reset(seed=s)[1] for s in range(9)]
    assert len({(i["learner_seat"], i["button"]) for i in seen}) == 9
    again = gymnasium.make("DealersChoice/Stud-v0", num_players=3, opponents="call")
    for s in reversed(range(9)):
        _, info = again.reset(seed=s)
        assert (info["learner_seat"], info["button"]) == (seen[s]["learner_seat"], seen[s]["button"])
