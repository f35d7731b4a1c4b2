"""The generalist's per-game table: forced choices deal only the game measured, a
specialist seated at the mixed table reads exactly its own game's inputs, and the
report has a row per listed game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import agents.loading
from agents.base import RandomAgent
from agents.checkpoint import save_checkpoint
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.registry import make_raw
from evaluation.generalist import WHOLE_TABLE, ForcedGame, SpecialistSeat, generalist_table, listed_games, markdown


def tiny_checkpoint(path: Path, variant: str) -> Path:
    layout = Layout.build(variant, 2, {})
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    return save_checkpoint(path, net=net, layout=layout, step={}, config={})


def test_a_forced_choice_deals_only_that_game() -> None:
    env = make_raw("dealers_choice", 2)
    for game in ("razz", "chowaha"):
        bots = [ForcedGame(RandomAgent(seed=s), game, env.action_names) for s in (1, 2)]
        for hand in range(4):
            env.reset(seed=hand, options={"button": hand % 2})
            while not env.state.is_over:
                agent = env.agent_selection
                seat = env.possible_agents.index(agent)
                env.step(bots[seat].act(env.observe(agent), env.public_view(agent)))
            assert env.state.playing.name == game


class Recorder:
    """Answers the first legal action and keeps what it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[np.ndarray, np.ndarray, Any]] = []

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        self.seen.append((observation["observation"], observation["action_mask"], view))
        return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_specialist_reads_its_own_games_observation_mask_and_view() -> None:
    table = make_raw("dealers_choice", 2)
    own = make_raw("stud", 2)
    recorder = Recorder()
    seat_bot = SpecialistSeat(recorder, "stud", table)
    chooser = ForcedGame(seat_bot, "stud", table.action_names)
    table.reset(seed=3, options={"button": 0})
    while not table.state.is_over:
        agent = table.agent_selection
        table.step(chooser.act(table.observe(agent), table.public_view(agent)))
    assert recorder.seen
    for obs, mask, view in recorder.seen:
        assert obs.shape == own.observation_space(own.possible_agents[0])["observation"].shape
        assert len(mask) == own.game.num_actions and mask.any()
        assert view.variant == "stud"


def test_the_table_has_a_row_per_game_and_a_specialist_where_one_is_shipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "pretrained"
    shipped.mkdir()
    tiny_checkpoint(shipped / "razz.pt", "razz")
    monkeypatch.setattr(agents.loading, "PRETRAINED_DIR", shipped)
    generalist = tiny_checkpoint(tmp_path / "dc.pt", "dealers_choice")
    report = generalist_table(str(generalist), deals=2, seed=5, modes=["greedy"], show=False)
    games = listed_games(2, {})
    assert list(report["games"]) == [*games, WHOLE_TABLE] and "razz" in games
    for game, row in report["games"].items():
        assert np.isfinite(row["heuristic/greedy"]["mean"])
        assert ("specialist/greedy" in row) == (game == "razz")
    whole = report["games"][WHOLE_TABLE]
    assert sorted(whole) == ["call/greedy", "heuristic/greedy", "random/greedy"]
    table = markdown(report)
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    assert len(rows) == len(games) + 2 and "n/a" in table
    assert f"{WHOLE_TABLE} vs random: greedy" in table and f"{WHOLE_TABLE} vs call: greedy" in table


def test_the_opponents_can_be_the_heuristic_only(tmp_path: Path) -> None:
    generalist = tiny_checkpoint(tmp_path / "dc.pt", "dealers_choice")
    report = generalist_table(
        str(generalist), deals=2, seed=5, modes=["sampled"], opponents=["heuristic"], table_deals=3, show=False
    )
    games = {game: row for game, row in report["games"].items() if game != WHOLE_TABLE}
    assert games and all(list(row) == ["heuristic/sampled"] for row in games.values())
    assert sorted(report["games"][WHOLE_TABLE]) == ["call/sampled", "heuristic/sampled", "random/sampled"]
    assert report["table_deals"] == 3 and report["deals"] == 2
    only = generalist_table(
        str(generalist), deals=2, seed=5, modes=["sampled"], opponents=["heuristic"], games=["razz"], show=False
    )
    assert list(only["games"]) == ["razz", WHOLE_TABLE]
    assert only["games"]["razz"] == report["games"]["razz"]  # the same match seed as in the full table
    with pytest.raises(ValueError, match=r"\['poker'\] not among the table's games"):
        generalist_table(str(generalist), deals=2, seed=5, games=["poker"], show=False)


def test_a_previous_agent_meets_the_generalist_in_every_row(tmp_path: Path) -> None:
    generalist = str(tiny_checkpoint(tmp_path / "dc.pt", "dealers_choice"))
    common: dict[str, Any] = {"deals": 3, "seed": 5, "modes": ["greedy"], "show": False, "games": ["razz", "cowpie"]}
    mirror = generalist_table(generalist, opponents=["heuristic"], previous=generalist, **common)
    assert mirror["previous"] == generalist and list(mirror["games"]) == ["razz", "cowpie", WHOLE_TABLE]
    for row in mirror["games"].values():  # itself, greedy, on duplicate deals: exactly level
        assert row["previous/greedy"] == {"mean": 0.0, "ci95": 0.0}
        assert row["heuristic/greedy"] != row["previous/greedy"]
    layout = Layout.build("dealers_choice", 2, {})
    torch.manual_seed(1)
    other = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    rival = str(save_checkpoint(tmp_path / "rival.pt", net=other, layout=layout, step={}, config={}))
    alone = generalist_table(generalist, opponents=[], previous=rival, **common)
    assert all(list(row) == ["previous/greedy"] for row in alone["games"].values())
    assert any(row["previous/greedy"]["mean"] != 0 for row in alone["games"].values())
    assert "vs previous (greedy)" in markdown(alone)


def test_a_previous_agent_of_another_table_is_refused(tmp_path: Path) -> None:
    generalist = str(tiny_checkpoint(tmp_path / "dc.pt", "dealers_choice"))
    layout = Layout.build("dealers_choice", 2, {"games": ["razz", "stud"]})
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    other = str(save_checkpoint(tmp_path / "two_games.pt", net=net, layout=layout, step={}, config={}))
    with pytest.raises(ValueError, match="trained at another table"):
        generalist_table(generalist, deals=2, seed=5, previous=other, show=False)
    with pytest.raises(ValueError, match="not a dealer's choice agent"):
        generalist_table(generalist, deals=2, seed=5, previous="heuristic", show=False)
