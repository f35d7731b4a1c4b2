"""PettingZoo's own API and seeding checks on every registered environment."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

import envs
from tests.envs.cases import API_PLAYERS

CASES = [(name, n) for name, counts in API_PLAYERS.items() for n in counts]


@pytest.mark.parametrize(("name", "n"), CASES, ids=[f"{name}-{n}p" for name, n in CASES])
def test_api(name: str, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test passes an unknown reset option on purpose
        api_test(envs.make(name, n), num_cycles=400)


@pytest.mark.parametrize(("name", "n"), CASES, ids=[f"{name}-{n}p" for name, n in CASES])
def test_seed(name: str, n: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: envs.make(name, n), num_cycles=400)


def test_every_variant_has_an_environment() -> None:
    from envs.variants import VARIANTS

    assert sorted(envs.env_ids()) == sorted(f"{v}_v0" for v in VARIANTS)
    assert set(API_PLAYERS) == set(VARIANTS)
