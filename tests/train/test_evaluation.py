"""The batched duplicate evaluation and the final verdict: the arena's deals and
lineups, exact agreement with ``evaluation.run_match`` for deterministic play, fresh
seeds, and the JSON summary."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import torch

import agents
import evaluation
from agents.base import CallingStation
from agents.checkpoint import save_checkpoint
from agents.nets import PolicyNet
from agents.neural import Layout, NeuralAgent
from training import verdict
from training.evaluation import duplicate_match


@pytest.fixture(autouse=True)
def one_torch_thread() -> Iterator[None]:
    """The arena's one-hand-at-a-time inference is ten times slower on two threads of a
    busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def net_for(variant: str, n: int, seed: int = 0) -> tuple[PolicyNet, Layout]:
    layout = Layout.build(variant, n, {})
    torch.manual_seed(seed)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [32], card_groups=layout.card_groups())
    return net, layout


@pytest.mark.parametrize(("variant", "n"), [("stud", 2), ("razz", 3), ("chowaha", 2)])
def test_greedy_matches_agree_with_the_arena_hand_for_hand(variant: str, n: int) -> None:
    """Deterministic players (a greedy network, the calling station in games where it
    never chooses at random): the batched match plays exactly the arena's hands."""
    net, layout = net_for(variant, n)
    batched = duplicate_match(net, layout, CallingStation(), deals=12, seed=5, greedy=True, tables=7)
    arena = evaluation.run_match(variant, [NeuralAgent(net, layout, greedy=True), "call"], 12, num_players=n, seed=5)
    assert np.allclose(batched.per_set, arena.per_set()[:, 0])
    assert batched.hands == len(arena.hands)
    assert batched.stat.mean == pytest.approx(arena.result(0).mean)


def test_identical_players_tie_every_duplicate_set() -> None:
    """A network that always checks or calls against the calling station: whoever holds
    which cards, the duplicate sets cancel exactly (two and three seats, both lineups)."""
    for n in (2, 3):
        layout = Layout.build("stud", n, {})
        net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
        with torch.no_grad():
            net.policy.bias.copy_(torch.tensor([0.0, 50.0, 40.0, 0.0, 0.0, 0.0, 0.0]))
            net.policy.weight.zero_()
        match = duplicate_match(net, layout, CallingStation(), deals=20, seed=1, greedy=False)
        assert np.all(match.per_set == 0.0) and match.stat.mean == 0.0
        assert match.hands == 20 * (2 if n == 2 else 6)  # every rotation of each lineup


def test_seeds_choose_the_deals_and_replay_exactly() -> None:
    net, layout = net_for("stud", 2)
    a = duplicate_match(net, layout, agents.load("random"), deals=30, seed=3, greedy=False)
    b = duplicate_match(net, layout, agents.load("random"), deals=30, seed=3, greedy=False)
    c = duplicate_match(net, layout, agents.load("random"), deals=30, seed=4, greedy=False)
    assert np.array_equal(a.per_set, b.per_set)
    assert not np.array_equal(a.per_set, c.per_set)
    # deterministic play: any split of the deals into chunks plays the same hands
    chunks = [
        duplicate_match(net, layout, CallingStation(), deals=r, seed=3, greedy=True) for r in (range(12), range(12, 30))
    ]
    whole = duplicate_match(net, layout, CallingStation(), deals=30, seed=3, greedy=True)
    assert np.array_equal(np.concatenate([m.per_set for m in chunks]), whole.per_set)


def test_verdict_writes_a_summary_next_to_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    net, layout = net_for("stud", 2)
    run = tmp_path / "stud__x__1__0"
    path = save_checkpoint(run / "checkpoints" / "latest.pt", net=net, layout=layout, step={"update": 3}, config={})
    previous = save_checkpoint(
        tmp_path / "old.pt", net=net_for("stud", 2, seed=1)[0], layout=layout, step={}, config={}
    )
    status = verdict.main([str(run), "--deals", "6", "--opponents", "random", "call", "--previous", str(previous)])
    assert status == 0
    summary = json.loads((run / "verdict.json").read_text())
    assert summary["checkpoint"] == str(path) and summary["deals"] == 6 and summary["variant"] == "stud"
    assert set(summary["results"]) == {"random", "call", str(previous)}
    for modes in summary["results"].values():
        assert set(modes) == {"greedy", "sampled"}
        for r in modes.values():
            assert r["sets"] == 6 and r["hands"] == 12 and r["low"] <= r["mean"] <= r["high"]
    assert "vs random: greedy" in capsys.readouterr().out
    replay = verdict.verdict(path, deals=6, opponents=["random"], seed=summary["seed"])
    assert replay["results"]["random"] == summary["results"]["random"]
    assert verdict.main([str(run), "--opponents", "nobody"]) == 2
    assert "unknown bot spec 'nobody'" in capsys.readouterr().err


def test_a_previous_agent_of_another_table_is_refused_naming_the_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before any match, in words a command-line user can act on (no API argument)."""
    layout = Layout.build("cowboy", 3, {"match_cap": 8, "max_deals": 20})
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8], card_groups=layout.card_groups())
    run = tmp_path / "cowboy__x__1__0"
    save_checkpoint(run / "checkpoints" / "latest.pt", net=net, layout=layout, step={}, config={})
    other = save_checkpoint(tmp_path / "default.pt", net=net, layout=Layout.build("cowboy", 3, {}), step={}, config={})
    assert verdict.main([str(run), "--deals", "4", "--opponents", "random", "--previous", str(other)]) == 2
    err = capsys.readouterr().err
    assert "the options differ" in err and "--option match_cap=8 --option max_deals=20" in err
    assert "strict_options" not in err and not (run / "verdict.json").exists()


class Cheater:
    """Answers an action that is never legal (and a string once it has done that)."""

    name = "cheater"

    def __init__(self) -> None:
        self.asked = 0

    def act(self, observation: dict[str, np.ndarray], view: object) -> object:
        self.asked += 1
        return 10_000 if self.asked == 1 else "fold"


def test_an_opponents_illegal_answer_is_an_error_naming_it_never_a_remapped_action() -> None:
    from envs.policy import BotActionError

    net, layout = net_for("stud", 2)
    with pytest.raises(BotActionError, match=r"cheater.*returned 10000, which is not a legal action"):
        duplicate_match(net, layout, Cheater(), deals=2, seed=1, greedy=True, tables=2)
