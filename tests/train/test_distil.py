"""Distilling CFR into the policy network: a tiny run lowers the exact NashConv far below
the uniform policy's, the saved network measures the same through exploitability.py's
bot path, and reach weights are the policy's own action probabilities times chance."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from solvers.cfr import CFRSolver
from solvers.infosets import InfoSets
from solvers.policy import TabularPolicy
from solvers.toy import ToyParams
from solvers.tree import PublicTree
from training import distil
from training.exploitability import evaluate

SMALL = ToyParams(ranks="QKA", suits="cd")  # 22,320 information sets


def test_a_tiny_distillation_beats_uniform_and_reloads_exactly(tmp_path: Path) -> None:
    out = tmp_path / "distilled.pt"
    report = distil.main(
        ["--option", "ranks=QKA", "--option", "suits=cd", "--epochs", "12", "--cfr-iterations", "100",
         "--batch-size", "1024", "--weighting", "reach", "--eval-every", "6", "--hidden", "32", "32",
         "--out", str(out), "-q"]
    )  # fmt: skip
    assert report["target_nash_conv"] < 0.01
    assert report["nash_conv"] < 0.25 * report["uniform_nash_conv"], report["rows"]
    assert [r["epoch"] for r in report["rows"]] == [6, 12]
    again = evaluate(SMALL, str(out))  # the checkpoint, asked through the env like any bot
    assert again["nash_conv"] == pytest.approx(report["nash_conv"], abs=1e-4)
    with pytest.raises(ValueError, match=r"run with --option ranks=QKA --option suits=cd$"):
        evaluate(ToyParams(), str(out))  # measured on another toy game: the flags of its own


def test_reach_weights_are_own_action_probabilities_times_chance() -> None:
    infosets = InfoSets(PublicTree(SMALL))
    solver = CFRSolver(SMALL)
    solver.iterate(20)
    policy = TabularPolicy(SMALL, solver.average_policy().table, infosets=infosets)
    weights = distil.reach_weights(policy, infosets)
    batch = infosets.batch(0, infosets.count)
    key = {distil._key(batch, i, int(batch.num_actions[i])): i for i in range(infosets.count)}
    n = SMALL.num_cards
    checked = 0
    for i in range(infosets.count):
        k, m, seat = int(batch.betting_round[i]), int(batch.num_actions[i]), int(batch.seat[i])
        expected = 1.0 / math.perm(n, 1 + 2 * (k + 1))
        for p in range(m):  # walk the history by hand: each own action's probability where it was taken
            if int(batch.action_seat[i, p]) == seat:
                at = key[distil._key(batch, i, p, int(batch.action_round[i, p]))]
                expected *= policy.table[at, int(batch.action[i, p])]
        assert weights[i] == pytest.approx(expected, rel=1e-9)
        checked += m > 1
    assert checked > 1000


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--epochs", "0"], "epochs=0"),
        (["--weighting", "none"], "invalid choice"),
        (["--hidden", "0"], "hidden"),
    ],
    ids=["epochs", "weighting", "hidden"],
)
def test_bad_settings_are_refused(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        distil.main(argv)
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_the_observation_check_groups_information_sets_that_look_alike() -> None:
    """Information sets with one observation get one averaged row; a policy that is a
    function of the observation (uniform) is left as it is; the groups are the distinct
    observations."""
    from evaluation.toy_policy import ObservationCache

    infosets = InfoSets(PublicTree(SMALL))
    cache = ObservationCache(SMALL, infosets)
    rng = np.random.default_rng(0)
    legal = infosets.legal_mask()
    table = rng.random((infosets.count, 4)) * legal
    table /= table.sum(axis=1, keepdims=True)
    average, distinct = distil.observation_average(cache, table, np.ones(infosets.count))
    obs, _ = distil._rows(cache, np.arange(infosets.count))
    _, groups = np.unique(obs, axis=0, return_inverse=True)
    groups = groups.ravel()
    assert distinct == groups.max() + 1 < infosets.count  # the opponent's up cards come as a set
    for g in np.flatnonzero(np.bincount(groups) > 1)[:50]:
        rows = np.flatnonzero(groups == g)
        np.testing.assert_allclose(average[rows], np.broadcast_to(table[rows].mean(axis=0), (len(rows), 4)))
    uniform = legal / legal.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(distil.observation_average(cache, uniform, rng.random(infosets.count))[0], uniform)


def test_up_by_street_tells_apart_every_information_set_and_keeps_the_observation() -> None:
    """The env option up_by_street keeps the default observation and appends the other
    seat's up cards one-hot by street; with them no two information sets look alike
    (the only aliasing of the toy's observation is the order of those up cards)."""
    from evaluation.toy_policy import ObservationCache

    infosets = InfoSets(PublicTree(SMALL))
    before, _ = distil._rows(ObservationCache(SMALL, infosets), np.arange(infosets.count))
    cache = ObservationCache(SMALL, infosets, observe={"up_by_street": True})
    after, _ = distil._rows(cache, np.arange(infosets.count))
    width = before.shape[1]
    assert [p.name for p in cache.env.pieces][-1] == "up_by_street"
    np.testing.assert_array_equal(after[:, :width], before)
    batch = infosets.batch(0, infosets.count)
    for i in range(0, infosets.count, 97):
        extra = after[i, width:].reshape(SMALL.streets, 52)
        for street in range(SMALL.streets):
            card = int(batch.opp_up[i, street])
            expected = np.zeros(52)
            if card >= 0:
                expected[card] = 1.0
            np.testing.assert_array_equal(extra[street], expected)
    assert len(np.unique(after, axis=0)) == infosets.count


def test_a_network_fitted_to_the_up_by_street_observation_measures_the_same_through_the_env(tmp_path: Path) -> None:
    """Saved with the option in its layout, the network is asked by exploitability.py
    with the observation it was fitted to (the bot's own observation options), and
    refuses the default table with the flag that fixes it."""
    out = tmp_path / "by_street.pt"
    report = distil.main(
        ["--option", "ranks=QKA", "--option", "suits=cd", "--epochs", "2", "--cfr-iterations", "50",
         "--batch-size", "2048", "--weighting", "reach", "--hidden", "16", "--up-by-street", "--out", str(out), "-q"]
    )  # fmt: skip
    again = evaluate(SMALL, str(out))
    assert again["nash_conv"] == pytest.approx(report["nash_conv"], abs=1e-4)
    import agents
    from envs.registry import make_raw

    env = make_raw("toy_stud", 2, ranks="QKA", suits="cd")
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(ValueError, match=r"'up_by_street': \(True, False\)\}; that option changes the observation"):
        agents.load(str(out)).act(env.observe(agent), env.public_view(agent))
    from evaluation.seating import trained_table

    fix = r"up_by_street=false \(trained: true\)\): run with .*--option up_by_street=true"
    with pytest.raises(ValueError, match=fix):
        trained_table("toy_stud", 2, [str(out)], {"ranks": "QKA", "suits": "cd"})
    options, note = trained_table("toy_stud", 2, [str(out)], {})  # no --option: seated at its own table
    assert options["up_by_street"] is True and note is not None


def test_the_trainers_nash_conv_probe_observes_as_the_run_does() -> None:
    """A toy run trained with up_by_street logs eval/nash_conv from that observation (a
    network of that input size is tabulated, not refused for its size)."""
    import torch

    from agents.nets import PolicyNet
    from agents.neural import Layout
    from training.trainer import nash_conv_probe

    options = {"ranks": "QKA", "suits": "cd", "up_by_street": True}
    probe = nash_conv_probe("toy_stud", 2, options)
    assert probe is not None and probe.observe == {"up_by_street": True}
    layout = Layout.build("toy_stud", 2, options)
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), (8,), value=False)
    assert 0 < probe(net).nash_conv < 4
