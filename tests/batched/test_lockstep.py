"""The batched engine against the scalar env in lockstep: every covered variant, seat
counts from two to the most, random option sets; seat, mask, the actor's and another
seat's whole observation, rewards and done flags agree at every decision."""

from __future__ import annotations

import numpy as np
import pytest

from envs.variants import get_variant
from tests.batched.lockstep import run_lockstep
from tests.batched.options import random_options

VARIANTS = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "toy_stud", "cowpie")


def _seat_counts(name: str, every: bool) -> list[int]:
    low, high = get_variant(name).seats
    return list(range(low, high + 1)) if every else sorted({low, (low + high) // 2, high})


DEFAULT = [(name, n) for name in VARIANTS for n in _seat_counts(name, every=False)]
EVERY = [(name, n) for name in VARIANTS for n in _seat_counts(name, every=True)]


@pytest.mark.parametrize(("name", "num_players"), DEFAULT, ids=[f"{v}-{n}" for v, n in DEFAULT])
def test_lockstep_random_options(name: str, num_players: int) -> None:
    rng = np.random.default_rng(hash((name, num_players)) % 2**32)
    options = random_options(name, num_players, rng)
    tally = run_lockstep(name, num_players, 3, 30, num_players, **options)
    assert tally.decisions == 90  # every decision compared (long runs: the slow test)


def test_lockstep_default_options_heads_up_stud() -> None:
    tally = run_lockstep("stud", 2, 6, 80, 7)
    assert tally.hands >= 10 and tally.paths["showdown"] > 0


@pytest.mark.slow
@pytest.mark.parametrize(("name", "num_players"), EVERY, ids=[f"{v}-{n}" for v, n in EVERY])
def test_lockstep_long(name: str, num_players: int) -> None:
    """Every seat count, ten option sets, 8 tables x 300 decisions each."""
    rng = np.random.default_rng(hash((name, num_players, "slow")) % 2**32)
    for k in range(10):
        options = random_options(name, num_players, rng)
        tally = run_lockstep(name, num_players, 8, 300, 100 + k, **options)
        assert tally.hands > 0


UP_BY_STREET = [("stud", 8), ("razz", 3), ("stud_hilo_declare", 2), ("five_card_stud", 10), ("toy_stud", 2)]


@pytest.mark.parametrize(("name", "num_players"), UP_BY_STREET, ids=[f"{v}-{n}" for v, n in UP_BY_STREET])
def test_lockstep_up_by_street(name: str, num_players: int) -> None:
    """The observation option up_by_street, every stud game: the batched piece (ranked
    by a running count of face-up slots) agrees with the scalar one (fed by deal events)."""
    tally = run_lockstep(name, num_players, 3, 60, 11, up_by_street=True)
    assert tally.decisions == 180 and (tally.hands > 0 or num_players > 3)
