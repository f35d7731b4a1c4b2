"""The committee of specialists (``agents.load("specialists")``): every hand goes to its
game's specialist (on that game's own observation), the button's choice to the chooser,
games without a specialist to the heuristic, and other tables are refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import agents
import agents.loading
from agents.checkpoint import save_checkpoint
from agents.committee import SpecialistCommittee, SpecialistSeat
from agents.heuristic import HeuristicAgent
from agents.heuristic.mixed import game_view
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.registry import make_raw
from envs.variants.mixed import index_maps
from evaluation.arena import run_match


def tiny_checkpoint(path: Path, variant: str, seed: int) -> Path:
    layout = Layout.build(variant, 2, {})
    torch.manual_seed(seed)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    return save_checkpoint(path, net=net, layout=layout, step={}, config={})


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A pretrained folder with a chooser and two specialists (razz, chowaha) only."""
    folder = tmp_path / "pretrained"
    folder.mkdir()
    for k, variant in enumerate(("dealers_choice", "razz", "chowaha")):
        tiny_checkpoint(folder / f"{variant}.pt", variant, seed=k)
    monkeypatch.setattr(agents.loading, "PRETRAINED_DIR", folder)
    return folder


def play(bot: Any, hands: int, seed: int) -> list[tuple[dict[str, np.ndarray], Any, int]]:
    """Seat ``bot`` in both seats of a two-player table; every decision it made."""
    env = make_raw("dealers_choice", 2)
    seen = []
    for hand in range(hands):
        env.reset(seed=seed + hand, options={"button": hand % 2})
        while not env.state.is_over:
            agent = env.agent_selection
            observation, view = env.observe(agent), env.public_view(agent)
            action = bot.act(observation, view)
            assert observation["action_mask"][action]
            seen.append((observation, view, action))
            env.step(action)
    return seen


class Chooser:
    """Names a game uniformly at random and counts its calls."""

    def __init__(self) -> None:
        self.calls, self.rng = 0, np.random.default_rng(0)

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        self.calls += 1
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))


def test_each_game_goes_to_its_specialist_and_the_choice_to_the_chooser(shipped: Path) -> None:
    committee = agents.load("specialists", seed=0, greedy=True, chooser="pretrained:dealers_choice")
    assert committee.members() == {
        g: f"pretrained:{g}" if g in ("razz", "chowaha") else "heuristic" for g in committee.games
    }
    chooser = agents.load("pretrained:dealers_choice", seed=0, greedy=True)
    first = play(committee, hands=4, seed=1)
    choices = [(o, v, a) for o, v, a in first if not v.game or v.game == v.variant]
    assert choices and all(a == chooser.act(o, v) for o, v, a in choices)
    committee.chooser = Chooser()  # every game gets dealt
    specialists = {
        g: agents.load(f"pretrained:{g}", seed=0, greedy=True, strict_options=False) for g in ("razz", "chowaha")
    }
    places = index_maps(make_raw("dealers_choice", 2).game)
    decisions = play(committee, hands=40, seed=11)
    checked = dict.fromkeys(specialists, 0)
    for observation, view, action in decisions:
        if view.game in specialists:
            bot = specialists[view.game]
            own = {
                "observation": np.asarray(observation["observation"])[places[view.game]],
                "action_mask": np.asarray(observation["action_mask"])[: len(bot.layout.action_names)],
            }
            assert action == bot.act(own, game_view(view))
            checked[view.game] += 1
    assert committee.chooser.calls == 40 and min(checked.values()) >= 5


class Recorder:
    """Answers the first legal action and records which game it was asked about."""

    def __init__(self, name: str) -> None:
        self.name, self.games = name, []

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        self.games.append(view.variant)
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_no_decision_of_a_game_reaches_another_games_member(shipped: Path) -> None:
    committee = agents.load("specialists", seed=0)
    table = make_raw("dealers_choice", 2)
    recorders = {game: Recorder(game) for game in committee.games}
    committee.seats = {game: SpecialistSeat(recorders[game], game, table) for game in committee.games}
    committee.chooser = Chooser()
    play(committee, hands=40, seed=3)
    assert sum(bool(r.games) for r in recorders.values()) >= 3
    for game, recorder in recorders.items():
        assert set(recorder.games) <= {game}


def test_games_without_a_specialist_are_played_by_the_heuristic(shipped: Path) -> None:
    committee = agents.load("specialists", seed=4)
    assert isinstance(committee.seats["stud"], HeuristicAgent)
    assert isinstance(committee.seats["razz"], SpecialistSeat)
    result = run_match("dealers_choice", [committee, agents.load("heuristic", seed=1)], 6, num_players=2, seed=9)
    assert np.isfinite(result.result(0).mean)


def test_the_committee_plays_only_its_own_table(shipped: Path) -> None:
    built_for = "the committee plays the dealers_choice table it was built for, the generalist's"
    with pytest.raises(ValueError, match=built_for):
        agents.load("specialists", seed=0, variant="dealers_choice", num_players=3, options={})
    with pytest.raises(ValueError, match="the committee plays the dealers_choice table"):
        agents.load("specialists", seed=0, variant="stud", num_players=2, options={})
    with pytest.raises(ValueError, match="chooser must be a network of its table"):
        agents.load("specialists", chooser="pretrained:razz")
    layout = agents.loading.trained_layout("specialists")
    with pytest.raises(ValueError, match="needs a member for each listed game"):
        SpecialistCommittee(agents.load("heuristic"), {"razz": agents.load("heuristic")}, layout)
    committee = agents.load("specialists", seed=0)
    env = make_raw("dealers_choice", 3)
    env.reset(seed=1)
    agent = env.agent_selection
    with pytest.raises(ValueError, match="plays dealers_choice with 2 players, not dealers_choice with 3"):
        committee.act(env.observe(agent), env.public_view(agent))


def verdict(folder: Path, game: str, unit: str, greedy: float, sampled: float) -> None:
    results = {"heuristic": {"greedy": {"mean": greedy}, "sampled": {"mean": sampled}}}
    (folder / f"{game}.json").write_text(json.dumps({"verdict": {"unit": unit, "results": results}}))


def test_the_default_chooser_names_the_game_of_the_best_shipped_verdict(shipped: Path) -> None:
    verdict(shipped, "razz", "big bets per 100 hands", greedy=5.0, sampled=12.0)
    verdict(shipped, "chowaha", "big blinds per 100 hands", greedy=30.0, sampled=20.0)  # 15 and 10 big bets
    for greedy, best in ((True, "chowaha"), (False, "razz")):
        committee = agents.load("specialists", seed=0, greedy=greedy)
        assert committee.chooser.edges == {"razz": 5.0 if greedy else 12.0, "chowaha": 15.0 if greedy else 10.0}
        choices = [
            v.legal_names[v.legal_actions.index(a)] for _, v, a in play(committee, 6, 2) if v.game in ("", v.variant)
        ]
        assert choices and set(choices) == {f"choose_{best}"}
    (shipped / "razz.json").write_text('{"verdict": {"results": {"call": {}}}}')
    with pytest.raises(
        ValueError, match=r"razz\.json: not a shipped agent's record with a verdict against the heuristic"
    ):
        agents.load("specialists")


def test_its_table_is_the_choosers_for_the_command_lines(shipped: Path) -> None:
    assert agents.loading.trained_layout("specialists") == agents.loading.trained_layout("pretrained:dealers_choice")
    with pytest.raises(ValueError, match="specialists"):
        agents.load("specialist")  # the unknown-spec message lists it
