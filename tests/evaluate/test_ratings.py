"""Bradley-Terry ratings and their bootstrap intervals on synthetic results."""

from __future__ import annotations

import math

import numpy as np
import pytest

from evaluation.ratings import bradley_terry, elo_points, rate, set_wins


def test_bradley_terry_recovers_known_strengths() -> None:
    strength = np.array([4.0, 2.0, 1.0, 0.5])
    games = 1000
    # expected wins of i over j: games * p_i / (p_i + p_j), exactly the model's fixed point
    wins = games * strength[:, None] / (strength[:, None] + strength[None, :])
    np.fill_diagonal(wins, 0)
    theta = bradley_terry(wins, prior=0.0)
    expected = np.log(strength) - np.log(strength).mean()
    np.testing.assert_allclose(theta, expected, atol=1e-8)
    elo = elo_points(theta)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(2))  # twice as strong: +120.4 Elo


def test_bradley_terry_is_batched_and_finite_for_a_perfect_record() -> None:
    perfect = np.array([[0.0, 10.0], [0.0, 0.0]])
    theta = bradley_terry(perfect)  # prior: half a win each way
    assert np.all(np.isfinite(theta))
    assert elo_points(theta[0] - theta[1]) == pytest.approx(400 * math.log10(10.5 / 0.5))
    batch = bradley_terry(np.stack([perfect, perfect.T]))
    np.testing.assert_allclose(batch[0], -batch[1])
    with pytest.raises(ValueError, match="at least one game"):
        bradley_terry(np.zeros((3, 3)))


def test_set_wins_counts_draws_as_halves() -> None:
    first, second = set_wins(np.array([1.0, -0.5, 0.0, 2.0, 1e-12]))
    assert (first, second) == (3.0, 2.0)  # two wins + two half draws; one loss + two halves


def _synthetic(rng: np.random.Generator, deals: int) -> dict[tuple[int, int], np.ndarray]:
    """Three bots with true margins a > b > c: a beats b by 0.3, b beats c by 0.3,
    a beats c by 0.6 units per hand, with per-set noise of sd 1."""
    skill = {0: 0.3, 1: 0.0, 2: -0.3}
    return {(i, j): skill[i] - skill[j] + rng.normal(0, 1, deals) for i in range(3) for j in range(i + 1, 3)}


def test_ratings_on_a_synthetic_result_matrix() -> None:
    pair_sets = _synthetic(np.random.default_rng(0), 2000)
    ratings = rate(pair_sets, 3, scale=100, bootstrap=300, seed=1)
    elo = [r.elo for r in ratings]
    assert elo[0] > elo[1] > elo[2]
    assert sum(elo) == pytest.approx(0, abs=1e-6)
    for r in ratings:
        assert r.elo_low < r.elo < r.elo_high
        assert r.field_low < r.field < r.field_high
    assert ratings[0].elo_low > ratings[2].elo_high  # clearly separated
    # vs field = mean margin over opponents, in units per 100 hands
    field_a = 100 * (pair_sets[(0, 1)].mean() + pair_sets[(0, 2)].mean()) / 2
    assert ratings[0].field == pytest.approx(field_a)
    assert ratings[0].field == pytest.approx(45, abs=5) and ratings[1].field == pytest.approx(0, abs=5)
    assert sum(r.field for r in ratings) == pytest.approx(0, abs=1e-9)


def test_intervals_cover_equal_bots_at_about_their_level() -> None:
    """Equal bots: each 95% interval should contain zero about 95% of the time (the
    percentile bootstrap runs a little short with few sets); checked over 60 draws,
    not one."""
    covered = []
    for rep in range(60):
        rng = np.random.default_rng(rep)
        pair_sets = {pair: rng.normal(0, 1, 300) for pair in ((0, 1), (0, 2), (1, 2))}
        covered += [
            (r.elo_low < 0 < r.elo_high, r.field_low < 0 < r.field_high) for r in rate(pair_sets, 3, 100, 200, rep)
        ]
    elo, field = np.mean(covered, axis=0)
    assert elo >= 0.85 and field >= 0.85, (elo, field)


def test_bootstrap_is_reproducible_and_checks_its_input() -> None:
    pair_sets = _synthetic(np.random.default_rng(2), 100)
    assert rate(pair_sets, 3, bootstrap=50, seed=4) == rate(pair_sets, 3, bootstrap=50, seed=4)
    with pytest.raises(ValueError, match="same deals"):
        rate({(0, 1): np.zeros(5), (0, 2): np.zeros(6), (1, 2): np.zeros(5)}, 3)
    with pytest.raises(ValueError, match="bootstrap=0"):
        rate(pair_sets, 3, bootstrap=0)


def test_a_forfeited_pair_counts_as_every_set_lost_and_no_chips() -> None:
    """Bot 2 forfeited both its pairs: it loses every set of them in the ratings, and its
    field mean (chips against the others) has nothing to average."""
    rng = np.random.default_rng(0)
    sets = {(0, 1): rng.normal(0.1, 1.0, 40)}
    ratings = rate(sets, 3, bootstrap=50, forfeits={(0, 2): 0, (1, 2): 1})
    assert ratings[2].elo < min(ratings[0].elo, ratings[1].elo) - 200
    assert math.isnan(ratings[2].field)
    assert ratings[0].field == pytest.approx(100 * np.mean(sets[(0, 1)]))  # its only counted opponent
    alone = rate({}, 2, bootstrap=10, forfeits={(0, 1): 1}, deals=40)  # every pair forfeited
    assert alone[1].elo > alone[0].elo
    with pytest.raises(ValueError, match="same deals"):
        rate(sets, 3, bootstrap=10, forfeits={(0, 2): 0}, deals=12)
