"""Chowaha through the PettingZoo AEC API: the observation layout, rewards, and the
PettingZoo checks for the big-bet modes (limit runs in tests/envs through cases.py)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import envs
from envs import chowaha_v0
from envs.engine.cards import parse
from tests.variants.chowaha_helpers import SEED_LAYOUT, stacked_deck

BIG_BET_MODES = [(mode, n) for mode in ("pot_limit", "no_limit") for n in (2, 6, 10)]


def _slice(env: object, name: str, vector: np.ndarray) -> np.ndarray:
    piece = next(p for p in env.unwrapped.pieces if p.name == name)  # type: ignore[attr-defined]
    return vector[piece.offset : piece.offset + piece.size]


def _cards_by_slot(part: np.ndarray, slots: int) -> list[int | None]:
    rows = part.reshape(slots, 52)
    return [int(np.argmax(r)) if r.any() else None for r in rows]


def test_env_module_and_spaces() -> None:
    env = chowaha_v0.env(num_players=3)
    assert env.metadata["name"] == "chowaha_v0"
    assert env.action_space("player_0").n == 4
    assert envs.make("chowaha", 2, betting="pot_limit").action_space("player_0").n == 63
    assert envs.make("chowaha_v0", 2, betting="no_limit").action_space("player_0").n == 64


def test_seed_example_through_the_env_with_layout_slots() -> None:
    """Heads-up, A (button) A♣3♣ against B K♥K♣; both call down: the layout fills
    its positions round by round, the pot splits, rewards are in big blinds."""
    env = chowaha_v0.env(num_players=2)
    deck = stacked_deck(2, 0, {0: "Ac 3c", 1: "Kh Kc"}, SEED_LAYOUT)
    env.reset(seed=1, options={"deck": deck, "button": 0})
    layout = parse(SEED_LAYOUT)
    filled = {0: 0, 1: 9, 2: 11, 3: 12}  # layout slots showing in each round
    rounds_seen = set()
    while True:
        agent = env.agent_selection
        obs, _, term, _, _ = env.last()
        if term:
            break
        vec = obs["observation"]
        hole = np.flatnonzero(_slice(env, "hole_cards", vec)).tolist()
        assert hole == sorted(parse("Ac 3c" if agent == "player_0" else "Kh Kc"))
        street = int(np.argmax(_slice(env, "street", vec)))
        slots = _cards_by_slot(_slice(env, "community", vec), 12)
        assert slots == [*layout[: filled[street]], *[None] * (12 - filled[street])]
        rounds_seen.add(street)
        env.step(1)
    assert rounds_seen == {0, 1, 2, 3}
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    shown = _slice(env, "shown", env.observe("player_0")["observation"]).reshape(2, 52)
    assert np.flatnonzero(shown[1]).tolist() == sorted(parse("Kh Kc"))
    history = str(env.infos["player_0"]["history"])
    assert "player_1: high: four of a kind, kings, board 1 (Kh Kc Ks Kd 9c); low: no low" in history


def test_rewards_in_big_blinds() -> None:
    env = envs.make("chowaha", 3, small_blind=5, big_blind=10)
    env.reset(seed=3, options={"button": 0})
    env.step(0)  # the button folds
    env.step(0)  # the small blind folds
    assert env.rewards == {"player_0": 0.0, "player_1": -0.5, "player_2": 0.5}


@pytest.mark.parametrize(("mode", "n"), BIG_BET_MODES, ids=[f"{m}-{n}p" for m, n in BIG_BET_MODES])
def test_api_and_seed_for_big_bet_modes(mode: str, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test passes an unknown reset option on purpose
        api_test(envs.make("chowaha", n, betting=mode), num_cycles=200)
        seed_test(lambda: envs.make("chowaha", n, betting=mode, stack=60), num_cycles=200)
