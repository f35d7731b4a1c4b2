"""The stud environments: the env contract beyond PettingZoo's own tests."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import envs
from envs.engine.actions import BRING_IN, CHECK_CALL, DECLARE_BOTH, DECLARE_HIGH, FOLD, RAISE
from envs.engine.cards import parse
from envs.engine.errors import IllegalActionError
from envs.variants import replay
from tests.variants.scripted import stud_deck

STUD_FAMILY = ("stud", "razz", "stud_hilo", "stud_hilo_declare")


def _play_out(env, choose):  # type: ignore[no-untyped-def]
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else choose(agent, obs))


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = envs.make("stud", 3)
    env.reset(seed=0)
    raw = env.unwrapped
    events, agent = len(raw.state.events), env.agent_selection
    with pytest.raises(IllegalActionError, match=r"illegal action 0 \(fold\)"):
        env.step(FOLD)  # the bring-in cannot fold
    assert len(raw.state.events) == events and env.agent_selection == agent


def test_illegal_action_lose_mode_ends_the_episode() -> None:
    env = envs.make("stud", 3, illegal_action="lose")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(FOLD)
    assert all(env.terminations.values())
    rewards = {a: env._cumulative_rewards[a] for a in env.agents}
    assert rewards[offender] == -1.0
    assert all(r == pytest.approx(0.5) for a, r in rewards.items() if a != offender)
    assert env.infos[offender]["illegal_action"] == offender


def test_rewards_are_in_big_bets_and_sum_to_zero() -> None:
    hands = {1: "Ah Kh 2c", 2: "Ad Kd 9d", 0: "As Kc Ts"}
    env = envs.make("stud", 3, big_bet=8, small_bet=4, bring_in=2)
    env.reset(options={"deck": stud_deck(3, 0, hands, {0: 0, 1: 0, 2: 0}), "button": 0})
    script = iter([BRING_IN, RAISE, FOLD, FOLD])  # seat 1 brings in, seat 2 completes to 4
    totals = dict.fromkeys(env.possible_agents, 0.0)

    def choose(agent, obs):  # type: ignore[no-untyped-def]
        return next(script)

    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else choose(agent, obs))
    assert totals == {"player_0": 0.0, "player_1": -2 / 8, "player_2": 2 / 8}


def test_reset_is_deterministic_and_cheap() -> None:
    def run(env, seed):  # type: ignore[no-untyped-def]
        env.reset(seed=seed)
        rng = np.random.default_rng(0)
        seen = []
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if term or trunc else int(rng.choice(legal)))
        return seen

    a, b = envs.make("stud_hilo_declare", 4), envs.make("stud_hilo_declare", 4)
    assert run(a, 7) == run(b, 7)
    game = a.unwrapped.game
    assert run(a, 8) != run(a, 7)
    assert a.unwrapped.game is game  # reset never rebuilds the game or the spaces


def test_button_rotates_each_reset_and_options() -> None:
    env = envs.make("stud", 3)
    env.reset(seed=1)
    buttons = [env.unwrapped.state.button]
    for _ in range(4):
        env.reset()
        buttons.append(env.unwrapped.state.button)
    assert buttons == [0, 1, 2, 0, 1]
    fixed = envs.make("stud", 3, button=2)
    fixed.reset(seed=1)
    fixed.reset()
    assert fixed.unwrapped.state.button == 2
    rand = envs.make("stud", 5, button="random")
    seen = set()
    for seed in range(20):
        rand.reset(seed=seed)
        seen.add(rand.unwrapped.state.button)
    assert len(seen) > 2


def test_stacked_deck_from_card_strings() -> None:
    env = envs.make("stud", 2)
    env.reset(options={"deck": "As Kd Qh Jc 2c 3d", "button": 0})
    state = env.unwrapped.state
    assert state.cards[1] == parse("As Qh 2c") and state.cards[0] == parse("Kd Jc 3d")


def test_observation_shows_own_cards_and_others_up_cards_only() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(options={"deck": "As Kd Qh Jc 2c 3d", "button": 0})
    table = {p.name: p for p in env.pieces}
    obs1 = env.observe("player_1")["observation"]
    own = obs1[table["own_cards"].offset : table["own_cards"].offset + 7 * 53].reshape(7, 53)
    assert [int(np.argmax(row[:52])) for row in own[:3]] == parse("As Qh 2c")
    assert own[:3, 52].tolist() == [0, 0, 1]  # face-up flag on the third card only
    up = obs1[table["up_cards"].offset : table["up_cards"].offset + 52]
    assert np.flatnonzero(up).tolist() == parse("3d")  # player_0's up card, not its hole cards


def test_action_history_is_public_and_in_order() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(options={"deck": "As Kd Qh Jc 2c 3d", "button": 0})
    env.step(BRING_IN)  # player_1 (2c) brings in
    env.step(RAISE)  # player_0 completes
    hist = next(p for p in env.pieces if p.name == "history")
    for viewer, rel_bring_in in (("player_0", 1), ("player_1", 0)):
        block = env.observe(viewer)["observation"][hist.offset : hist.offset + hist.size].reshape(5, 2, 4, 7)
        assert block[0, rel_bring_in, 0, 3] == 1.0  # bring-in, street 0, lap 0
        assert block[0, 1 - rel_bring_in, 0, 4] == 1.0  # the completion counts as a bet
        assert block[0, 1 - rel_bring_in, 0, 6] == pytest.approx(2 / 4)  # total bet in big bets


def test_declarations_visible_to_others_only_after_the_reveal() -> None:
    env = envs.make_raw("stud_hilo_declare", 2, bring_in=None)
    env.reset(seed=3, options={"button": 0})
    while env.unwrapped.state.legal_actions()[0] != 4:  # check down to the declaration
        env.step(CHECK_CALL)
    piece = next(p for p in env.pieces if p.name == "declarations")
    first = env.agent_selection
    other = next(a for a in env.possible_agents if a != first)
    env.step(DECLARE_BOTH)
    mine = env.observe(first)["observation"][piece.offset : piece.offset + 6]
    theirs = env.observe(other)["observation"][piece.offset : piece.offset + 6]
    assert mine[2] == 1.0 and not theirs.any()  # secret until the reveal
    env.step(DECLARE_HIGH)
    assert env.observe(other)["observation"][piece.offset + 3 + 2] == 1.0  # revealed: relative seat 1


def test_mask_is_zero_for_agents_not_to_act() -> None:
    env = envs.make("razz", 4)
    env.reset(seed=2)
    acting = env.agent_selection
    for agent in env.possible_agents:
        assert env.observe(agent)["action_mask"].any() == (agent == acting)


def test_infos_name_legal_actions_and_carry_the_history_at_the_end() -> None:
    env = envs.make("stud", 2)
    env.reset(seed=4)
    assert env.infos[env.agent_selection]["legal_actions"] == ["bring_in", "raise"]
    _play_out(env, lambda agent, obs: int(np.flatnonzero(obs["action_mask"])[0]))
    env.reset(seed=4)  # always the last legal action: raise whenever possible
    for _ in env.agent_iter(max_iter=2000):
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            text = str(info["history"])
            assert "*** THIRD STREET ***" in text and "*** SUMMARY ***" in text
            assert not hasattr(info["history"], "record")  # the replay record holds the deck: the user's only
            assert replay(env.unwrapped.hand_record()).payoffs() == env.unwrapped.state.payoffs()
            env.step(None)
        else:
            env.step(int(np.flatnonzero(obs["action_mask"])[-1]))


def test_default_stacks_end_a_heads_up_raising_war() -> None:
    """No cap heads-up, but 100 big bets deep: two maniacs still finish the hand."""
    env = envs.make_raw("stud", 2)
    env.reset(seed=0)
    steps = 0
    while not env.state.is_over:
        env.step(RAISE if RAISE in env.state.legal_actions() else CHECK_CALL)
        steps += 1
    assert steps < 300 and sorted(env.state.payoffs()) == [-400, 400]


def test_render_hides_hole_cards_unless_omniscient() -> None:
    deck = "As Kd Qh Jc 2c 3d"
    env = envs.make("stud", 2, render_mode="ansi")
    env.reset(options={"deck": deck, "button": 0})
    text = env.render()
    assert "[A♠] [Q♥] 2♣" in text and "?? ?? 3♦" in text  # player_1 to act sees its own cards
    god = envs.make("stud", 2, render_mode="ansi", omniscient_render=True)
    god.reset(options={"deck": deck, "button": 0})
    assert "[K♦] [J♣] 3♦" in god.render()
    with pytest.raises(ValueError, match="render_mode='rgb' is not allowed"):  # rgb_array is a mode now
        envs.make("stud", 2, render_mode="rgb")


@pytest.mark.parametrize("name", STUD_FAMILY)
def test_module_docstring_documents_every_observation_piece(name: str) -> None:
    module = importlib.import_module(f"envs.{name}_v0")
    env = module.env(num_players=3)
    doc = module.__doc__ or ""  # generated from the variant: its rules and its observation table
    for piece in env.unwrapped.pieces:
        assert f"| `{piece.name}` |" in doc
    assert sum(p.size for p in env.unwrapped.pieces) == env.observation_space("player_0")["observation"].shape[0]
    assert env.unwrapped.metadata["name"] == f"{name}_v0"


def test_unknown_environment_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown environment 'stud_v9'"):
        envs.make("stud_v9")
    assert envs.make("razz_v0", 3).unwrapped.variant.name == "razz"


def test_a_refused_first_reset_leaves_the_env_unreset() -> None:
    """After a refused first reset, using the env says to reset first (the order
    checks still apply), and a good reset then works."""
    env = envs.make("stud")
    with pytest.raises(TypeError):
        env.reset(seed="abc")
    with pytest.raises(AssertionError, match="reset"):  # PettingZoo's own order check
        env.step(1)
    env.reset(seed=1)
    assert env.agent_selection in env.agents
