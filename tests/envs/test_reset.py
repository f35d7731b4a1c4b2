"""``reset``: argument checks that change nothing on failure, stacked decks, and the
button rotation (seeded or not)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

import envs
from envs.engine.cards import parse
from envs.engine.errors import IllegalActionError
from envs.gym_env import DealersChoiceGymEnv
from envs.gym_registry import variant_of
from envs.variants import get_variant
from tests.envs.test_gym import FoldBot


def hand(env: Any) -> tuple[int, list[Any]]:
    """What identifies a dealt hand: the button and every event so far."""
    state = env.unwrapped.state
    return state.button, list(state.events)


def play_first_legal(env: Any, steps: int) -> None:
    """Take the first legal action a few times (a hand in progress)."""
    for _ in range(steps):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            return
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))


# (reset keyword arguments, exception, message) for three-handed tables
BAD_RESETS = [
    ({"seed": "abc"}, TypeError, "seed='abc' is not allowed: expected None or an int >= 0"),
    ({"seed": 1.5}, TypeError, "seed=1.5 is not allowed"),
    ({"seed": True}, TypeError, "seed=True is not allowed"),
    ({"seed": [1, 2]}, TypeError, r"seed=\[1, 2\] is not allowed"),
    ({"seed": -1}, ValueError, "seed=-1 is not allowed: expected None or an int >= 0"),
    ({"options": []}, TypeError, r"reset options=\[\] is not allowed: expected None or a dict"),
    ({"options": "As Kd"}, TypeError, "reset options='As Kd' is not allowed"),
    ({"options": {"button": "x"}}, ValueError, r"button='x' is not allowed: expected an int in 0\.\.2"),
    ({"options": {"button": 3}}, ValueError, r"button=3 is not allowed: expected an int in 0\.\.2"),
    ({"options": {"button": -1}}, ValueError, "button=-1 is not allowed"),
    ({"options": {"button": True}}, ValueError, "button=True is not allowed"),
    ({"options": {"button": 1.0}}, ValueError, "button=1.0 is not allowed"),
    ({"seed": 5, "options": {"button": "x"}}, ValueError, "button='x' is not allowed"),
    ({"options": {"deck": [1.5, 2.7]}}, ValueError, r"stacked deck entry 0 is 1\.5 \(float\)"),
    ({"options": {"deck": [True, False]}}, ValueError, r"stacked deck entry 0 is True \(bool\)"),
    ({"options": {"deck": [3, None]}}, ValueError, r"stacked deck entry 1 is None \(NoneType\)"),
    ({"options": {"deck": [3, [4, 5]]}}, ValueError, r"stacked deck entry 1 is \[4, 5\] \(list\)"),
    ({"options": {"deck": [3, 52]}}, ValueError, "stacked deck entry 1 is 52, not a card: expected a card int 0..51"),
    ({"options": {"deck": [0, "2c"]}}, ValueError, r"stacked deck holds 2c twice \(entries 0 and 1\)"),
    ({"seed": 5, "options": {"deck": "As Zz"}}, ValueError, "unknown card 'Zz'"),
    ({"options": {"deck": 17}}, ValueError, "a stacked deck must be a string of cards or a sequence"),
]


@pytest.mark.parametrize(("kwargs", "error", "message"), BAD_RESETS, ids=[repr(b[0]) for b in BAD_RESETS])
@pytest.mark.parametrize("button", ["rotate", "random"])
def test_a_failed_reset_changes_nothing(kwargs: dict[str, Any], error: type, message: str, button: str) -> None:
    """The env that saw the bad call deals exactly what an env that never saw it deals,
    button included, both mid-hand and before the first reset."""
    env, twin = envs.make("stud", 3, button=button), envs.make("stud", 3, button=button)
    with pytest.raises(error, match=message):
        env.reset(**kwargs)
    env.reset(seed=1)
    twin.reset(seed=1)
    play_first_legal(env, 3)
    play_first_legal(twin, 3)
    before = hand(env)
    with pytest.raises(error, match=message):
        env.reset(**kwargs)
    assert hand(env) == before  # the hand in progress is untouched
    play_first_legal(env, 2)
    play_first_legal(twin, 2)
    assert hand(env) == hand(twin)
    for _ in range(4):  # the unseeded generator and the rotation are where they were
        env.reset()
        twin.reset()
        assert hand(env) == hand(twin)


@pytest.mark.parametrize("button", ["rotate", "random"])
def test_a_deal_that_fails_midway_does_not_advance_the_generator(button: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever fails inside the deal (here a stand-in error after the shuffle), the
    env's generator and rotation are where they were."""
    env, twin = envs.make("stud", 3, button=button), envs.make("stud", 3, button=button)
    env.reset(seed=2)
    twin.reset(seed=2)
    game = env.unwrapped.game
    deal = game.new_state

    def failing_deal(rng: np.random.Generator, **kwargs: Any) -> Any:
        deal(rng, **kwargs)  # draws from the generator, then fails
        raise RuntimeError("the deal failed")

    monkeypatch.setattr(game, "new_state", failing_deal)
    with pytest.raises(RuntimeError, match="the deal failed"):
        env.reset()
    monkeypatch.undo()
    for _ in range(3):
        env.reset()
        twin.reset()
        assert hand(env) == hand(twin)


def test_unknown_options_warn_and_are_ignored() -> None:
    env, twin = envs.make("stud", 2), envs.make("stud", 2)
    with pytest.warns(UserWarning, match="ignoring unknown reset options 'seat'"):
        env.reset(seed=3, options={"seat": 1})
    twin.reset(seed=3)
    assert hand(env) == hand(twin)


# ------------------------------------------------------------------ stacked decks
@pytest.mark.parametrize(
    "deck",
    [
        "As Kd Qh Jc 2c 3d",
        ["As", "Kd", "Qh", "Jc", "2c", "3d"],
        ["As Kd", 42, "Jc", np.int64(0), 5],
        parse("As Kd Qh Jc 2c 3d"),
        np.asarray(parse("As Kd Qh Jc 2c 3d")),
        tuple(parse("As Kd Qh Jc 2c 3d")),
    ],
    ids=["string", "strings", "mixed", "ints", "numpy", "tuple"],
)
def test_stacked_deck_forms_deal_the_same_cards(deck: Any) -> None:
    env = envs.make("stud", 2)
    env.reset(seed=0, options={"deck": deck, "button": 0})
    state = env.unwrapped.state
    assert state.cards[1] == parse("As Qh 2c") and state.cards[0] == parse("Kd Jc 3d")


def test_a_float_numpy_deck_is_refused() -> None:
    env = envs.make("stud", 2)
    with pytest.raises(ValueError, match=r"stacked deck entry 0 is np\.float64\(1\.0\) \(float64\)"):
        env.reset(options={"deck": np.asarray([1.0, 2.0])})
    with pytest.raises(ValueError, match=r"one-dimensional, got an array of shape \(2, 2\)"):
        env.reset(options={"deck": np.zeros((2, 2), int)})


# ------------------------------------------------------------------ long input
HUGE = 900_000


def assert_short(err: pytest.ExceptionInfo[BaseException], size: int) -> None:
    message = str(err.value)
    assert f"... ({size} characters)" in message
    assert len(message) < 600


def test_a_huge_deck_string_gives_a_short_message() -> None:
    env = envs.make("stud", 2)
    with pytest.raises(ValueError) as err:
        env.reset(options={"deck": "Zz" * (HUGE // 2)})
    assert "unknown card 'ZzZz" in str(err.value)
    assert_short(err, HUGE)


def test_a_huge_deck_list_gives_a_short_message() -> None:
    env = envs.make("stud", 2)
    with pytest.raises(ValueError, match="stacked deck entry 0") as err:
        env.reset(options={"deck": ["As" * (HUGE // 2)]})
    assert_short(err, HUGE)


def test_a_huge_option_value_gives_a_short_message() -> None:
    with pytest.raises(ValueError, match="option ante='xxxx") as err:
        envs.make("stud", 2, ante="x" * HUGE)
    assert_short(err, HUGE)
    env = envs.make("stud", 2)
    with pytest.raises(ValueError, match="option button='xxxx") as err:
        env.reset(options={"button": "x" * HUGE})
    assert_short(err, HUGE)
    with pytest.raises(TypeError, match="seed='xxxx") as err:
        env.reset(seed="x" * HUGE)
    assert_short(err, HUGE)


def test_a_huge_action_gives_a_short_message() -> None:
    env = envs.make("stud", 2)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="illegal action 'xxxx") as err:
        env.step("x" * HUGE)
    assert_short(err, HUGE)
    with pytest.raises(IllegalActionError, match=r"illegal action \[0, 0, 0") as err:
        env.step([0] * HUGE)
    assert_short(err, len(repr([0] * HUGE)))


# ------------------------------------------------------------------ the button
ROTATION_CASES = [("stud", 3), ("chowaha", 6), ("cowpie", 4), ("cowboy", 5)]


@pytest.mark.parametrize(("name", "n"), ROTATION_CASES, ids=[f"{v}-{n}p" for v, n in ROTATION_CASES])
def test_seeding_every_hand_still_rotates_the_button(name: str, n: int) -> None:
    """The usual evaluation loop seeds every hand; every seat gets the button equally often."""
    env = envs.make(name, n)
    buttons = []
    for i in range(3 * n):
        env.reset(seed=i)
        buttons.append(env.unwrapped.state.button)
    assert buttons == [i % n for i in range(3 * n)]
    assert Counter(buttons) == dict.fromkeys(range(n), 3)


def test_unseeded_and_mixed_loops_rotate_the_same_way() -> None:
    env = envs.make("stud", 4)
    buttons = []
    for i in range(8):
        env.reset(seed=i if i % 3 == 0 else None)
        buttons.append(env.unwrapped.state.button)
    assert buttons == [0, 1, 2, 3, 0, 1, 2, 3]


def test_same_seed_and_reset_count_deal_the_same_hand() -> None:
    """Two envs with different histories of seeds deal the same hand for the same seed
    at the same reset count; at another count only the button differs."""
    first, second = envs.make("stud", 3), envs.make("stud", 3)
    for seed in (5, 6):
        first.reset(seed=seed)
    for _ in range(2):
        second.reset()
    first.reset(seed=9)
    second.reset(seed=9)
    assert hand(first) == hand(second) and hand(first)[0] == 2
    early = envs.make("stud", 3)
    early.reset(seed=9)
    assert hand(early)[0] == 0
    assert early.unwrapped.state.initial_deck == first.unwrapped.state.initial_deck


def test_an_explicit_button_is_for_that_hand_and_the_rotation_continues_from_it() -> None:
    env = envs.make("stud", 4)
    env.reset(seed=1, options={"button": 2})
    assert env.unwrapped.state.button == 2
    env.reset(seed=1)
    assert env.unwrapped.state.button == 3
    env.reset(options={"button": np.int64(1)})  # numpy ints are seats too
    assert env.unwrapped.state.button == 1


def test_numpy_seeds_are_seeds() -> None:
    env, twin = envs.make("stud", 2), envs.make("stud", 2)
    env.reset(seed=np.int64(7))
    twin.reset(seed=7)
    assert hand(env) == hand(twin)


# ------------------------------------------------------------------ the Gymnasium env
GYM_BAD_RESETS = [
    ({"seed": "abc"}, TypeError, "seed='abc' is not allowed: expected None or an int >= 0"),
    ({"seed": -2}, ValueError, "seed=-2 is not allowed"),
    ({"seed": True}, TypeError, "seed=True is not allowed"),
    ({"options": []}, TypeError, r"reset options=\[\] is not allowed: expected None or a dict"),
    ({"options": [("button", 0)]}, TypeError, "reset options=.* is not allowed"),
    ({"seed": 4, "options": {"button": "x"}}, ValueError, "button='x' is not allowed"),
    ({"seed": 4, "options": {"learner_seat": 2.0}}, ValueError, "learner_seat=2.0 is not allowed"),
    ({"seed": 4, "options": {"deck": [True, 3]}}, ValueError, r"stacked deck entry 0 is True \(bool\)"),
    ({"seed": 4, "options": {"seat": 1}}, ValueError, "unknown reset option 'seat'"),
]


def gym_trace(env: Any, resets: int) -> list[Any]:
    """Observations, learner seats and buttons over a few unseeded resets."""
    out = []
    for _ in range(resets):
        obs, info = env.reset()
        out.append((obs["observation"].tolist(), info["learner_seat"], info["button"], info["legal_actions"]))
    return out


@pytest.mark.parametrize(("kwargs", "error", "message"), GYM_BAD_RESETS, ids=[repr(b[0]) for b in GYM_BAD_RESETS])
@pytest.mark.parametrize("learner_seat", ["rotate", "random"])
def test_a_failed_gym_reset_changes_nothing(
    kwargs: dict[str, Any], error: type, message: str, learner_seat: str
) -> None:
    """Checked before Gymnasium reseeds its generator (``learner_seat="random"`` draws from it)."""
    env = DealersChoiceGymEnv("stud", 3, learner_seat=learner_seat)
    twin = DealersChoiceGymEnv("stud", 3, learner_seat=learner_seat)
    env.reset(seed=1)
    twin.reset(seed=1)
    with pytest.raises(error, match=message):
        env.reset(**kwargs)
    assert gym_trace(env, 4) == gym_trace(twin, 4)


def test_gym_reset_takes_numpy_seeds_and_seats() -> None:
    env, twin = DealersChoiceGymEnv("stud", 3), DealersChoiceGymEnv("stud", 3)
    obs, info = env.reset(seed=np.int64(3), options={"learner_seat": np.int64(1), "button": np.int64(2)})
    twin_obs, twin_info = twin.reset(seed=3, options={"learner_seat": 1, "button": 2})
    assert (info["learner_seat"], info["button"]) == (1, 2) == (twin_info["learner_seat"], twin_info["button"])
    assert obs["observation"].tolist() == twin_obs["observation"].tolist()


def test_gym_step_cuts_a_long_action_in_its_message() -> None:
    env = DealersChoiceGymEnv("stud", 2)
    env.reset(seed=0)
    with pytest.raises(TypeError, match="the action must be an integer index") as err:
        env.step("x" * HUGE)
    assert_short(err, HUGE)


def test_huge_names_give_short_messages() -> None:
    with pytest.raises(ValueError, match="unknown environment 'yyyy") as err:
        envs.make("y" * HUGE)
    assert_short(err, HUGE)
    with pytest.raises(ValueError, match="unknown option 'zzzz") as err:
        envs.make("stud", 2, **{"z" * HUGE: 1})
    assert_short(err, HUGE)
    with pytest.raises(ValueError, match="unknown variant 'vvvv") as err:
        get_variant("v" * HUGE)
    assert_short(err, HUGE)
    with pytest.raises(ValueError, match="unknown Gymnasium id 'DealersChoice/") as err:
        variant_of("DealersChoice/" + "w" * HUGE)
    assert_short(err, HUGE + len("DealersChoice/"))


def test_gym_deck_none_is_an_ordinary_shuffle() -> None:
    """deck=None is no stacked deck: a deal without a learner decision is skipped, not an error."""
    env = DealersChoiceGymEnv("chowaha", 2, opponents=FoldBot(), learner_seat=1)
    twin = DealersChoiceGymEnv("chowaha", 2, opponents=FoldBot(), learner_seat=1)
    for seed in range(3):
        _, info = env.reset(seed=seed, options={"deck": None})
        _, twin_info = twin.reset(seed=seed)
        assert info["skipped_deals"] == twin_info["skipped_deals"]
    assert info["skipped_deals"] > 0
