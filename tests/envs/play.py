"""Helpers that play random legal hands through the engine and the environment."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from envs.engine.state import State
from envs.variants import make_game

MAX_DECISIONS = 20_000  # a hand (or Cowboy game) that runs longer than this is a bug


def play_random(
    name: str,
    num_players: int,
    options: dict[str, Any],
    seed: int,
    check: Callable[[State], None] | None = None,
    button: int = 0,
) -> State:
    """One hand of uniformly random legal actions; ``check`` runs after every step."""
    game = make_game(name, num_players, **options)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng, button=button % num_players)
    if check:
        check(state)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            return state
        legal = state.legal_actions()
        assert legal, f"no legal action in {state.describe()}"
        state.apply(legal[int(rng.integers(len(legal)))])
        if check:
            check(state)
    raise AssertionError(f"{name} did not end within {MAX_DECISIONS} decisions")
