"""CFR+ and discounted CFR converge to an equilibrium of toy stud."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.cfr import CFRConfig, CFRSolver
from solvers.exploit import exploitability
from solvers.policy import NodeSource
from solvers.toy import ToyParams

TINY = ToyParams(ranks="QKA", suits="cd", streets=1)


@pytest.mark.parametrize(("scheme", "iterations"), [("dcfr", 150), ("cfr+", 300)])
def test_converges_on_a_tiny_game(scheme: str, iterations: int) -> None:
    solver = CFRSolver(TINY, CFRConfig(scheme=scheme))
    solver.iterate(10)
    early = solver.exploitability().nash_conv
    solver.iterate(iterations - 10)
    late = solver.exploitability().nash_conv
    assert late < 1e-3 < early


def test_converges_with_two_streets_on_the_full_tree() -> None:
    solver = CFRSolver(ToyParams(ranks="QKA", suits="cd", streets=2), CFRConfig(canonical=False))
    solver.iterate(150)
    assert solver.exploitability().nash_conv < 1e-3


def test_canonical_nash_conv_equals_the_full_game_measurement() -> None:
    """CFR's average strategy is measured on the full game; the canonical tree agrees."""
    solver = CFRSolver(ToyParams(ranks="QKA", suits="cdh", streets=2))
    solver.iterate(5)
    on_full = solver.exploitability()
    on_canon = exploitability(NodeSource(solver.average_nodes()), solver.tree, with_values=False)
    assert on_full.br_values == pytest.approx(on_canon.br_values, abs=1e-12)
    assert solver.tree.layers[0].size < solver.full_tree().layers[0].size


def test_average_policy_is_a_valid_table() -> None:
    solver = CFRSolver(TINY)
    solver.iterate(20)
    policy = solver.average_policy()
    legal = policy.infosets.legal_mask()
    assert np.allclose(policy.table.sum(axis=1), 1.0)
    assert (policy.table[~legal] == 0).all()
    assert exploitability(policy, policy.infosets.tree).nash_conv == pytest.approx(solver.exploitability().nash_conv)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"scheme": "cfr"}, "expected one of cfr\\+, dcfr"),
        ({"alpha": -1.0}, "alpha=-1.0"),
        ({"gamma": "2"}, "gamma='2'"),
    ],
)
def test_bad_config_is_a_clear_error(options: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CFRConfig(**options)


@pytest.mark.slow
def test_default_toy_reaches_a_thousandth_of_an_ante() -> None:
    """Issue 17's target: NashConv below 0.001 antes on the default toy (about 300 DCFR iterations)."""
    solver = CFRSolver(ToyParams())
    solver.iterate(320)
    assert solver.exploitability().nash_conv < 1e-3
