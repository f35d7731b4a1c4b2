"""Golden playthroughs: a seeded game of every variant, replayed and compared as text.

Each file under tests/golden/ holds the omniscient hand history of a seeded random
game and, at every decision, the acting seat's legal actions and observation (as the
piece-by-piece text view). Any change of rules, dealing, observations or histories
shows up as a diff; when a change is intended, regenerate with
``UPDATE_GOLDEN=1 pytest tests/envs/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import envs
from envs.engine.history import hand_history
from envs.registry import ENV_SPECS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PLAYERS = {"cowboy": 3, "cowgirl": 3, "cowpattie": 3, "chowaha": 3, "toy_stud": 2}
_COW = {"match_cap": 4, "max_deals": 6}
OPTIONS = {"cowboy": _COW, "cowgirl": _COW, "cowpattie": _COW}


def playthrough(name: str, seed: int = 2026) -> str:
    env = envs.make_raw(name, PLAYERS.get(name, 3), **OPTIONS.get(name, {}))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = []
    while not env.state.is_over:
        agent = env.agent_selection
        obs = env.observe(agent)
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        weights = np.array([0.05 if a == 0 else 1.0 for a in legal])  # rarely fold: reach showdowns
        action = legal[int(rng.choice(len(legal), p=weights / weights.sum()))]
        names = [env.action_names[a] for a in legal]
        lines.append(f"--- {agent} to act; legal: {names}; plays {env.action_names[action]}")
        lines.append(env.describe_observation(obs["observation"]))
        env.step(action)
    lines.append("=== history")
    lines.append(hand_history(env.state))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(ENV_SPECS))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    text = playthrough(name)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert path.exists(), f"no golden file for {name}: run UPDATE_GOLDEN=1 pytest {__file__}"
    assert text == path.read_text(), f"{name} playthrough changed; if intended: UPDATE_GOLDEN=1 pytest {__file__}"
