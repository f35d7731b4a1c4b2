"""Events carry typed kinds and verbs: what reads the log (observations, decision
counts) does not depend on the English text, which is for people only."""

from __future__ import annotations

import numpy as np
import pytest

import envs
from envs.engine.events import EventKind, Verb
from evaluation.mix import decision_mix

TEXT_ONLY = (EventKind.ACTION, EventKind.DECLARE, EventKind.REVEAL, EventKind.SPLIT, EventKind.SPLIT_REVEAL)


def _random_hand(name: str, n: int, seed: int):  # type: ignore[no-untyped-def]
    env = envs.make_raw(name, n)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.state.is_over:
        legal = env.state.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return env


@pytest.mark.parametrize("name", ["stud", "stud_hilo_declare", "cowpie", "chowaha", "five_card_stud"])
def test_observations_and_counts_do_not_read_the_text(name: str) -> None:
    env = _random_hand(name, 3, 7)
    state = env.state
    before = [env.tracker.observe(s) for s in range(3)]
    counts = decision_mix(state)
    state.events[:] = [e._replace(text="") if e.kind in TEXT_ONLY else e for e in state.events]
    env.tracker.reset(state)
    env.tracker.sync()
    for seat in range(3):
        np.testing.assert_array_equal(env.tracker.observe(seat), before[seat])
    assert decision_mix(state) == counts


def test_every_player_choice_has_a_verb() -> None:
    for name in ("stud_hilo_declare", "cowpie", "cowboy"):
        env = _random_hand(name, 3, 3)
        for e in env.state.events:
            if e.kind in (EventKind.ACTION, EventKind.DECLARE, EventKind.REVEAL, EventKind.SPLIT, EventKind.STAY):
                assert e.verb != Verb.NONE, e
