"""Exact chips to finite floats: the observation transforms and zero-sum rewards.

Chips are Python ints of any size; observations are float32 and rewards float64. The
transforms must be finite for any int, exact where a float can be, and increasing.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import envs
from envs.engine.actions import CHECK_CALL
from envs.engine.scaling import LINEAR_UNITS, soft_limit, soft_units, symlog_units
from envs.engine.state import zero_sum_rewards

HUGE = st.integers(-(10**400), 10**400)
UNITS = st.sampled_from([1, 2, 3, 4, 7, 10**6, 3**50])


@given(amount=HUGE, unit=UNITS)
def test_transforms_are_finite_odd_and_exact_where_floats_are(amount: int, unit: int) -> None:
    for transform in (symlog_units, soft_units):
        value = transform(amount, unit)
        assert math.isfinite(value) and np.isfinite(np.float32(value))
        assert transform(-amount, unit) == -value
    if abs(amount) <= LINEAR_UNITS * unit:
        assert soft_units(amount, unit) == amount / unit  # the plain quotient: no real game goes further
    if abs(amount) < 2**52:
        assert symlog_units(amount, unit) == pytest.approx(math.copysign(math.log1p(abs(amount) / unit), amount))


@given(a=HUGE, b=HUGE, unit=UNITS)
def test_transforms_increase(a: int, b: int, unit: int) -> None:
    low, high = sorted((a, b))
    for transform in (symlog_units, soft_units):
        assert transform(low, unit) <= transform(high, unit)
    assert soft_limit(low / 10**300, 100.0) <= soft_limit(high / 10**300, 100.0)


def test_the_knee_is_continuous() -> None:
    edge = LINEAR_UNITS * 4
    assert soft_units(edge + 1, 4) == pytest.approx(soft_units(edge, 4), abs=1.0)
    assert soft_limit(100.0 + 1e-9, 100.0) == pytest.approx(100.0)
    assert soft_limit(-1e300, 100.0) == pytest.approx(-100.0 * (1.0 + math.log(1e298)))


@given(payoffs=st.lists(st.integers(-(10**160), 10**160), min_size=1, max_size=9), unit=UNITS)
def test_rewards_add_up_to_exactly_zero_in_any_order(payoffs: list[int], unit: int) -> None:
    payoffs = [*payoffs, -sum(payoffs)]
    rewards = zero_sum_rewards(payoffs, unit)
    assert sum(rewards) == 0.0 and sum(reversed(rewards)) == 0.0 and sum(sorted(rewards)) == 0.0
    assert float(np.sum(np.array(rewards))) == 0.0
    largest = max(abs(p) for p in payoffs) / unit
    for payoff, reward in zip(payoffs, rewards, strict=True):
        assert abs(reward - payoff / unit) <= len(payoffs) * 2**-52 * largest


def test_ordinary_rewards_are_the_plain_quotients() -> None:
    assert zero_sum_rewards([-6, 2, 4], 2) == [-3.0, 1.0, 2.0]
    assert zero_sum_rewards([5, -3, -2], 4) == [1.25, -0.75, -0.5]
    assert zero_sum_rewards([0, 0], 3) == [0.0, 0.0]


@pytest.mark.parametrize("options", [{"stack": None, "ante": 10**45}, {"stack": 10**46, "ante": 10**45}])
def test_shared_pieces_stay_finite_with_absurd_chip_amounts(options: dict[str, int | None]) -> None:
    # an ante of 1e45 chips: the pot is 5e44 big bets, the stacks 2.5e45 (float32 ends at 3.4e38)
    env = envs.make_raw("stud", 2, **options)
    env.reset(seed=0)
    state = env.state
    assert state is not None
    betting = next(p for p in env.pieces if p.name == "betting")
    while not state.is_over:
        obs = env.observe(env.agent_selection)
        vector = obs["observation"]
        assert np.isfinite(vector).all()
        assert vector[betting.offset] == pytest.approx(soft_units(state.pot(), state.game.unit), rel=1e-6)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(CHECK_CALL if CHECK_CALL in legal else int(legal[0]))  # bring in, then check or call
    rewards = state.rewards()
    assert all(math.isfinite(r) for r in rewards) and sum(rewards) == 0.0
