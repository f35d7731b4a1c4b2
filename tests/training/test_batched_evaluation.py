"""Evaluation on the batched engine: the scalar evaluation's deals, lineups and
intervals; identical results for deterministic play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from agents.loading import load
from agents.nets import PolicyNet
from agents.neural import Layout
from training.batched_evaluation import batched_match, covered, evaluate, scalar_decks
from training.evaluation import duplicate_match


def net_for(layout: Layout, **kwargs: object) -> PolicyNet:
    torch.manual_seed(3)
    return PolicyNet(layout.obs_size, len(layout.action_names), [16], card_groups=layout.card_groups(), **kwargs)


@pytest.mark.parametrize(("variant", "n"), [("stud", 2), ("razz", 3), ("toy_stud", 2), ("stud_hilo", 2)])
def test_greedy_network_against_call_gives_the_scalar_results_deal_for_deal(variant: str, n: int) -> None:
    layout = Layout.build(variant, n, {})
    net = net_for(layout)
    scalar = duplicate_match(net, layout, load("call", seed=0), deals=12, seed=5, greedy=True)
    batched = batched_match(net, layout, "call", deals=12, seed=5, greedy=True, tables=7)  # several chunks
    assert np.array_equal(scalar.per_set, batched.per_set)
    assert scalar.stat == batched.stat and scalar.hands == batched.hands
    assert np.abs(batched.per_set).sum() > 0  # the hands were played


def test_sampled_play_agrees_with_the_scalar_match_within_the_intervals() -> None:
    layout = Layout.build("stud", 2, {})
    net = net_for(layout)
    scalar = duplicate_match(net, layout, load("random", seed=0), deals=150, seed=9, greedy=False)
    batched = batched_match(net, layout, "random", deals=150, seed=9, greedy=False, tables=300)
    gap = abs(scalar.stat.mean - batched.stat.mean)
    assert gap < 2.0 * np.hypot(scalar.stat.half_width, batched.stat.half_width)


def test_the_deals_are_the_scalar_evaluations_decks() -> None:
    layout = Layout.build("stud", 2, {})
    decks = scalar_decks(layout, 5, [0, 1, 0])
    assert np.array_equal(decks[0], decks[2]) and not np.array_equal(decks[0], decks[1])
    assert sorted(decks[0].tolist()) == list(range(52))


def test_uncovered_matches_fall_back_to_the_scalar_path() -> None:
    layout = Layout.build("stud_hilo_declare", 2, {})
    net = net_for(layout, candidates=(4, 7))
    assert not covered(net, layout, "call")  # candidate features: scalar path
    assert covered(net_for(Layout.build("stud", 2, {})), Layout.build("stud", 2, {}), "call")
    bots = {"call": load("call", seed=0)}
    got = evaluate(net, layout, bots, deals=4, seed=2, modes=["greedy"])
    want = duplicate_match(net, layout, bots["call"], deals=4, seed=2, greedy=True)
    assert got["call/greedy"] == want.stat


def test_the_batched_verdict_equals_the_scalar_verdict_for_deterministic_play(tmp_path: Path) -> None:
    from agents.checkpoint import save_checkpoint
    from training import verdict

    layout = Layout.build("stud", 2, {})
    run = tmp_path / "stud__x__1__0"
    path = save_checkpoint(run / "checkpoints" / "latest.pt", net=net_for(layout), layout=layout, step={}, config={})
    previous = save_checkpoint(tmp_path / "old.pt", net=net_for(layout), layout=layout, step={}, config={})
    common = {"deals": 6, "opponents": ["call"], "modes": ["greedy"], "seed": 4, "previous": str(previous)}
    scalar = verdict.verdict(path, **common)
    batched = verdict.verdict(path, engine="batched", **common)
    assert batched["results"] == scalar["results"] and batched["engine"] == "batched"
    assert verdict.main([str(run), "--deals", "4", "--opponents", "call", "--engine", "batched"]) == 0
    with pytest.raises(ValueError, match="engine"):
        verdict.verdict(path, engine="gpu", **common)
