"""Any bot's exact exploitability: every information set asked through the real env."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import training.exploitability as exploitability
import training.run as train
from agents import load
from agents.base import Agent, RandomAgent
from agents.nets import log_probs
from envs.engine.events import EventKind
from evaluation.toy_policy import InfoSetReplayer, bot_policy, bot_table
from solvers.cfr import CFRSolver
from solvers.exploit import exploitability as nash
from solvers.infosets import InfoSets
from solvers.policy import TabularPolicy
from solvers.toy import ToyParams
from solvers.tree import PublicTree
from tests.envs.openspiel_helpers import engine_key, solver_rows
from training.config import load_config

ONE_ROUND = ToyParams(ranks="QKA", suits="cd", streets=1)
TWO_ROUNDS = ToyParams(ranks="QKA", suits="cd", streets=2)  # 6 cards, 22,320 information sets
OPTIONS = ["--option", "ranks=QKA", "--option", "suits=cd", "--option", "streets=1"]


def view_key(view) -> tuple:  # type: ignore[no-untyped-def]
    """The solver's description of an information set, read from a public view only."""
    seat = view.seat
    ups = [tuple(c for c, up in zip(view.own_cards, view.own_up, strict=True) if up), tuple(view.up_cards[1 - seat])]
    down = next(c for c, up in zip(view.own_cards, view.own_up, strict=True) if not up)
    decisions = tuple((e.seat, e.action) for e in view.events if e.kind == EventKind.ACTION)
    return (seat, down, ups[0], ups[1], decisions)


class TableBot(Agent):
    """Plays a tabular policy by finding its information set in the public view."""

    def __init__(self, policy: TabularPolicy, *, sample: bool = False, seed: int | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.rows = solver_rows(policy.infosets)
        self.sample = sample

    def probabilities(self, view) -> np.ndarray:  # type: ignore[no-untyped-def]
        out = np.zeros(7)
        out[:4] = self.policy.table[self.rows[view_key(view)]]
        return out

    def act(self, observation, view) -> int:  # type: ignore[no-untyped-def]
        return int(self.rng.choice(7, p=self.probabilities(view)))


class ExactTableBot(TableBot):
    def action_probabilities(self, observations, views) -> np.ndarray:  # type: ignore[no-untyped-def]
        return np.stack([self.probabilities(v) for v in views])


def cfr_policy(params: ToyParams, iterations: int = 20) -> TabularPolicy:
    solver = CFRSolver(params)
    solver.iterate(iterations)
    return solver.average_policy()


@pytest.mark.parametrize("params", [ONE_ROUND, TWO_ROUNDS], ids=["one-round", "two-rounds"])
def test_one_replay_per_public_node_gives_every_information_sets_own_replay(params: ToyParams) -> None:
    infosets = InfoSets(PublicTree(params))
    batch = infosets.batch(0, infosets.count)
    replayer = InfoSetReplayer(params)
    fast_obs, fast_views = replayer.observations(batch)
    full_obs, full_views = replayer.observations(batch, full=True)
    for i in range(len(batch)):
        assert np.array_equal(fast_obs[i]["observation"], full_obs[i]["observation"]), i
        assert np.array_equal(fast_obs[i]["action_mask"], full_obs[i]["action_mask"]), i
        assert fast_views[i] == full_views[i], i


def test_replays_visit_exactly_the_trees_information_sets_in_order() -> None:
    infosets = InfoSets(PublicTree(TWO_ROUNDS))
    batch = infosets.batch(0, infosets.count)
    replayer = InfoSetReplayer(TWO_ROUNDS)
    rows = solver_rows(infosets)
    visited = []
    for i in range(len(batch)):
        replayer.replay(batch, i)
        assert replayer.env.state is not None
        visited.append(rows[engine_key(replayer.env.state)])
    assert visited == list(range(infosets.count))


@pytest.mark.parametrize("params", [ONE_ROUND, TWO_ROUNDS], ids=["one-round", "two-rounds"])
def test_tabulated_random_agent_is_exactly_uniform(params: ToyParams) -> None:
    tree = PublicTree(params)
    table = bot_table(params, RandomAgent(seed=3), infosets=InfoSets(tree))
    assert np.array_equal(table.table, TabularPolicy.uniform(params, infosets=table.infosets).table)
    assert nash(table, tree).nash_conv == pytest.approx(nash("uniform", tree).nash_conv, abs=1e-12)


def test_a_bot_playing_a_table_tabulates_back_to_it() -> None:
    policy = cfr_policy(TWO_ROUNDS)
    table = bot_table(TWO_ROUNDS, ExactTableBot(policy), infosets=policy.infosets)
    assert np.allclose(table.table, policy.table, atol=1e-12)
    tree = policy.infosets.tree
    assert nash(table, tree).nash_conv == pytest.approx(nash(policy, tree).nash_conv, abs=1e-12)


def test_a_bot_without_probabilities_is_read_as_its_seeded_pure_strategy() -> None:
    mixed = cfr_policy(ONE_ROUND)
    pure = TabularPolicy(ONE_ROUND, np.eye(4)[mixed.table.argmax(axis=1)], infosets=mixed.infosets)
    assert np.array_equal(bot_table(ONE_ROUND, TableBot(pure), infosets=pure.infosets).table, pure.table)
    sampled = bot_table(ONE_ROUND, TableBot(mixed), infosets=mixed.infosets, samples=3, seed=5)
    again = bot_table(ONE_ROUND, TableBot(mixed), infosets=mixed.infosets, samples=3, seed=5)
    assert np.array_equal(sampled.table, again.table)  # reproducible
    assert set(np.unique(sampled.table * 3).round(9)) <= {0.0, 1.0, 2.0, 3.0}  # frequencies of 3 samples
    assert np.all(sampled.table[mixed.table == 0] == 0)  # never an action the bot never plays
    with pytest.raises(ValueError, match="samples=0"):
        bot_policy(ONE_ROUND, TableBot(mixed), samples=0)


def test_heuristic_spec_is_measured_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    report = exploitability.main(["toy_stud", "heuristic:tight", *OPTIONS])
    assert "NashConv" in capsys.readouterr().out
    assert 0 < report["nash_conv"] < 100 and report["nash_conv"] == pytest.approx(sum(report["br_values"]))


def test_checkpoint_of_a_tiny_net_equals_its_own_probabilities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = load_config(
        str(Path(__file__).resolve().parents[2] / "configs" / "toy_stud.toml"),
        [
            "env.options={ranks = 'QKA', suits = 'cd', streets = 1}",
            "train.updates=2",
            "train.threads=1",
            "train.progress=false",
            f"train.runs_dir={tmp_path}",
            "rollout.tables=4",
            "rollout.decisions=64",
            "model.hidden=[8]",
            "ppo.minibatch_size=32",
            'eval.opponents=["random"]',
            "eval.deals=2",
        ],
    )
    checkpoint = train.main(config).checkpoint
    report = exploitability.main(["toy_stud", str(checkpoint), *OPTIONS, "--json"])
    agent = load(str(checkpoint))
    infosets = InfoSets(PublicTree(ONE_ROUND))
    batch = infosets.batch(0, infosets.count)
    observations, _ = InfoSetReplayer(ONE_ROUND).observations(batch, full=True)
    obs = torch.tensor(np.stack([o["observation"] for o in observations]))
    mask = torch.tensor(np.stack([o["action_mask"] for o in observations]))
    with torch.no_grad():
        probs = log_probs(agent.net.logits(obs), mask).exp().double().numpy()
    direct = TabularPolicy(ONE_ROUND, probs[:, :4], infosets=infosets)
    assert np.isfinite(report["nash_conv"])
    assert report["nash_conv"] == pytest.approx(nash(direct, infosets.tree).nash_conv, abs=1e-9)
    with pytest.raises(SystemExit):  # trained for one round: it cannot play two
        exploitability.main(["toy_stud", str(checkpoint), *OPTIONS, "--option", "streets=2"])
    err = capsys.readouterr().err
    assert "run with --option ranks=QKA --option suits=cd --option streets=1" in err  # the flags of its own game
    assert "strict_options" not in err


def test_unknown_bot_spec_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        exploitability.main(["toy_stud", "pretrained:no_such_variant", *OPTIONS])
    assert "no shipped agent" in capsys.readouterr().err
