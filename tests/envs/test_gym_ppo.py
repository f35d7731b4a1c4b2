"""The PettingZoo-to-trainer recipe runs end to end: sb3-contrib's MaskablePPO trains a
few thousand steps on two variants (examples/maskable_ppo.py, unchanged), then plays
duplicate matches against random bots. This checks the pipeline, not the strength:
the numbers it prints are whatever a short run gives."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="sb3-contrib is in the dev extra")

from envs.gym_registry import gym_id
from examples.maskable_ppo import Config, main

VARIANTS = ("stud", "cowpie")
DEALS = 60


@pytest.fixture(scope="module")
def reports() -> list:
    config = Config(variants=VARIANTS, timesteps=2048, eval_deals=DEALS, n_steps=256, batch_size=64, progress=False)
    return main(config)


def test_training_runs_on_both_variants(reports: list) -> None:
    assert [r.variant for r in reports] == list(VARIANTS)
    for report in reports:
        assert report.timesteps >= 2048 and report.episodes > 100
        assert np.isfinite(report.train_reward)


def test_the_evaluation_plays_every_deal_in_every_seat(reports: list) -> None:
    for report in reports:
        hands = report.match.hands
        assert len(hands) == 2 * DEALS and report.ppo.n == DEALS and report.random_baseline.n == DEALS
        assert {tuple(h.lineup) for h in hands} == {(0, 1), (1, 0)}
        assert all(sum(h.rewards) == pytest.approx(0.0) for h in hands)
        assert np.isfinite(report.ppo.mean) and np.isfinite(report.ppo.half_width)


def test_the_trained_policy_only_takes_legal_actions(reports: list) -> None:
    """In the arena an illegal choice raises, so the finished evaluation already shows
    it; here the policy also plays fresh Gymnasium episodes, checked move by move."""
    for report in reports:
        assert sum(report.decisions.values()) >= DEALS  # the policy really decided things
        env = gymnasium.make(gym_id(report.variant), num_players=2)
        assert set(report.decisions) <= set(env.unwrapped.aec.action_names)
        obs, _ = env.reset(seed=99)
        model = report.model
        for _ in range(300):
            mask = env.get_wrapper_attr("action_masks")()
            action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=False)
            assert mask[int(action)] == 1
            obs, _, terminated, truncated, _ = env.step(int(action))
            if terminated or truncated:
                obs, _ = env.reset()
