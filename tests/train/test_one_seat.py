"""One seat against the rest: what a best responder is measured in at three or more
seats (``lone``, ``--one-seat``). Two copies of a responder against one policy measure
a coalition, not a unilateral deviation, so they are no bound on exploitability."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import torch

import evaluation
from agents.base import CallingStation
from agents.checkpoint import save_checkpoint
from agents.nets import PolicyNet
from agents.neural import Layout, NeuralAgent
from training import verdict
from training.approx import format_report, measure_responder
from training.evaluation import LEARNER, duplicate_match, match_lineups, one_thread


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    with one_thread():  # the evaluation's own guard: small-batch inference on one thread
        yield


def net_for(variant: str, n: int) -> tuple[PolicyNet, Layout]:
    layout = Layout.build(variant, n, {})
    torch.manual_seed(0)
    return PolicyNet(layout.obs_size, len(layout.action_names), [32], card_groups=layout.card_groups()), layout


def test_one_seat_lineups_hold_one_learner_each_and_change_nothing_heads_up() -> None:
    assert match_lineups(2, lone=True) == match_lineups(2) == [(0, 1), (1, 0)]
    for n in (3, 4):
        lone, every = match_lineups(n, lone=True), match_lineups(n)
        assert len(lone) == n and all(lineup.count(LEARNER) == 1 for lineup in lone)
        assert sorted(lineup.index(LEARNER) for lineup in lone) == list(range(n))  # every seat once
        assert any(lineup.count(LEARNER) > 1 for lineup in every)  # the verdict's lineups seat coalitions
    assert set(match_lineups(3, lone=True)) < set(match_lineups(3))


def test_one_seat_match_is_the_arenas_learner_against_two_copies_of_the_bot() -> None:
    """An independent reference: the arena seating the learner and two calling stations
    (three bots rotated through three seats) plays exactly the one-seat lineups."""
    net, layout = net_for("razz", 3)
    lone = duplicate_match(net, layout, CallingStation(), deals=10, seed=5, greedy=True, lone=True)
    learner = NeuralAgent(net, layout, greedy=True)
    arena = evaluation.run_match("razz", [learner, "call", "call"], 10, num_players=3, seed=5)
    assert lone.hands == len(arena.hands) == 30
    assert np.allclose(lone.per_set, arena.per_set()[:, 0])
    mixed = duplicate_match(net, layout, CallingStation(), deals=10, seed=5, greedy=True)
    assert mixed.hands == 60 and not np.allclose(mixed.per_set, lone.per_set)


def test_verdict_one_seat_and_the_approx_measurement(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--one-seat`` reaches the matches and the JSON; ``--approx`` and approx-curve
    always measure their responder that way."""
    net, layout = net_for("razz", 3)
    path = save_checkpoint(tmp_path / "responder.pt", net=net, layout=layout, step={}, config={})
    out = tmp_path / "v.json"
    args = [str(path), "--deals", "4", "--opponents", "call", "--modes", "greedy", "--seed", "3", "--out", str(out)]
    assert verdict.main([*args, "--one-seat"]) == 0
    one = json.loads(out.read_text())
    assert one["lone"] is True and one["results"]["call"]["greedy"]["hands"] == 12
    assert verdict.main(args) == 0
    both = json.loads(out.read_text())
    assert both["lone"] is False and both["results"]["call"]["greedy"]["hands"] == 24
    assert "3 players, the target in one seat" in capsys.readouterr().out
    measured = measure_responder(path, "call", deals=4, seed=3)
    assert measured["hands"] == 12 and measured["mean"] == pytest.approx(one["results"]["call"]["greedy"]["mean"])


def test_the_approx_report_says_the_responder_held_one_seat() -> None:
    report = {"variant": "cowboy", "num_players": 3, "policy": "heuristic", "updates": 2, "learner_decisions": 10,
              "minutes": 1.0, "best_responder": "x.pt", "deals": 4, "seed": 1, "mean": 0.5, "ci95": 0.1,
              "unit": "antes per game", "per": 1}  # fmt: skip
    assert "in one seat, the policy in the others" in format_report(report)
    assert "in one seat" not in format_report({**report, "num_players": 2})
