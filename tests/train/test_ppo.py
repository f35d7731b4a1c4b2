"""The PPO update's changes from the textbook version: separate clipping of the actor
and critic, PopArt-style value normalisation, the Huber value loss, the learning-rate
floor."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from agents.nets import PolicyNet
from training.episodes import Batch
from training.ppo import PPOSettings, _value_loss, linear_schedule, ppo_update, update_value_norm

OBS, ACTIONS, ROWS = 12, 5, 64


def make_batch(returns_scale: float, seed: int = 0) -> Batch:
    rng = np.random.default_rng(seed)
    masks = np.ones((ROWS, ACTIONS), bool)
    masks[:, 0] = rng.random(ROWS) < 0.5
    actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
    return Batch(
        obs=rng.random((ROWS, OBS), dtype=np.float32),
        masks=masks,
        actions=actions,
        logps=np.full(ROWS, -1.5, np.float32),
        values=np.zeros(ROWS, np.float32),
        advantages=rng.standard_normal(ROWS).astype(np.float32),
        returns=(returns_scale * rng.standard_normal(ROWS)).astype(np.float32),
    )


def one_step(returns_scale: float, settings: PPOSettings) -> tuple[PolicyNet, PolicyNet]:
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, [16])
    before = PolicyNet(OBS, ACTIONS, [16])
    before.load_state_dict(net.state_dict())
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    ppo_update(net, optimizer, make_batch(returns_scale), settings, np.random.default_rng(0))
    return before, net


def policy_change(before: PolicyNet, after: PolicyNet) -> list[torch.Tensor]:
    return [a.detach() - b.detach() for a, b in zip(after.policy_parameters(), before.policy_parameters(), strict=True)]


def test_the_policy_step_does_not_shrink_when_the_value_gradient_is_huge() -> None:
    """Returns a thousand times larger make the value gradient huge; with the actor
    clipped on its own the policy's step is exactly the same (one global clip would
    scale it down with the value gradient)."""
    settings = PPOSettings(epochs=1, minibatch_size=ROWS, value_norm=False, value_loss="mse", norm_adv=False)
    small = policy_change(*one_step(1.0, settings))
    huge = policy_change(*one_step(1000.0, settings))
    assert any(float(d.abs().sum()) > 0 for d in small)
    for a, b in zip(small, huge, strict=True):
        assert torch.allclose(a, b, atol=1e-7)


def test_value_normalisation_moves_the_statistics_and_keeps_the_predictions() -> None:
    torch.manual_seed(1)
    net = PolicyNet(OBS, ACTIONS, [16])
    obs = torch.rand(8, OBS)
    before = net.values(obs).detach()
    update_value_norm(net, np.array([40.0, 60.0, 55.0, 45.0]))
    assert float(net.value_mean) == pytest.approx(5.0)  # 0.9 * 0 + 0.1 * 50
    assert float(net.value_std) > 1.0
    assert torch.allclose(net.values(obs).detach(), before, atol=1e-4)  # same values in reward units


def test_the_huber_loss_grows_linearly_for_outliers() -> None:
    values, returns = torch.zeros(2), torch.tensor([0.5, 100.0])
    huber = _value_loss(values, values, returns, PPOSettings(value_loss="huber"))
    mse = _value_loss(values, values, returns, PPOSettings(value_loss="mse"))
    assert float(huber) == pytest.approx((0.5 * 0.25 + (100.0 - 0.5)) / 2)
    assert float(mse) == pytest.approx((0.5 * 0.25 + 0.5 * 100.0**2) / 2)


def test_the_learning_rate_keeps_its_floor() -> None:
    rates = [linear_schedule(3e-4, u, 100, True, floor=0.2) for u in range(1, 102)]
    assert rates[0] == pytest.approx(3e-4) and rates[-1] == pytest.approx(0.6e-4)
    assert all(a >= b for a, b in itertools.pairwise(rates)) and min(rates) == pytest.approx(0.6e-4)
    assert linear_schedule(3e-4, 50, 100, False, floor=0.2) == 3e-4
