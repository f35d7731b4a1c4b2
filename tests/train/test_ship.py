"""Shipped agents: ``training.ship`` writes a small acting-only checkpoint with its
config and provenance; ``pretrained:<variant>`` loads it in agents.load, evaluate.py,
play's bots and the Gymnasium opponents."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

import agents
import evaluation
import training.run as train
from agents import loading
from agents.candidates import candidate_slots
from agents.checkpoint import save_checkpoint
from agents.nets import PolicyNet
from agents.neural import Layout, NeuralAgent
from training import ship
from training.config import load_config
from training.episodes import CARDS

from .test_train import tiny


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny stud run, shipped into a temporary pretrained folder that agents.load reads."""
    result = train.main(tiny(tmp_path))
    dest = tmp_path / "pretrained"
    monkeypatch.setattr(loading, "PRETRAINED_DIR", dest)
    assert ship.main([str(result.run_dir), "--dest", str(dest)]) == 0
    return dest


def test_a_shipped_agent_loads_by_name_and_plays(shipped: Path) -> None:
    assert loading.pretrained_names() == ["stud"]
    info = json.loads((shipped / "stud.json").read_text())
    assert info["command"] == "dealers-choice train --config agents/pretrained/stud.toml"
    assert info["step"]["update"] == 2 and info["bytes"] == (shipped / "stud.pt").stat().st_size
    config = load_config(shipped / "stud.toml")  # the config reproduces the run
    assert config.env.variant == "stud" and config.train.updates == 2
    bot = agents.load("pretrained:stud", seed=1)
    assert isinstance(bot, NeuralAgent) and bot.net.value is None  # acting only
    match = evaluation.run_match("stud", [bot, "random"], deals=4, seed=2)
    assert len(match.hands) == 8
    with pytest.raises(ValueError, match=r"no shipped agent 'pretrained:razz'; shipped agents: pretrained:stud"):
        agents.load("pretrained:razz")
    with pytest.raises(ValueError, match="no shipped agent"):
        agents.load("pretrained:../stud")


def test_evaluate_py_and_gymnasium_take_the_pretrained_spec(shipped: Path) -> None:
    import evaluate
    from envs.gym_env import DealersChoiceGymEnv

    report = evaluate.main(["stud", "pretrained:stud", "call", "--deals", "3", "--workers", "1", "--no-files", "-q"])
    assert report["hands"] == 6
    env = DealersChoiceGymEnv("stud", opponents="pretrained:stud")
    obs, _ = env.reset(seed=3)
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(legal[0]))


def test_default_networks_of_every_variant_ship_under_three_megabytes(tmp_path: Path) -> None:
    """The largest observation layouts with the default network (two 256-wide layers,
    candidates, privileged critic) stay under the repository's 3 MB per agent."""
    config = load_config(None)
    for variant, n in (("cowboy", 3), ("cowpie", 2), ("chowaha", 2)):
        layout = Layout.build(variant, n, {})
        net = PolicyNet(
            layout.obs_size,
            len(layout.action_names),
            config.model.hidden,
            card_groups=layout.card_groups(),
            candidates=candidate_slots(len(layout.action_names)),
            privileged=CARDS * (n - 1),
        )
        path = save_checkpoint(
            tmp_path / f"{variant}.pt", net=net, layout=layout, step={}, config={}, acting_only=True, half=True
        )
        assert path.stat().st_size < ship.MAX_BYTES, (variant, path.stat().st_size)
        obs = torch.zeros(1, layout.obs_size)
        assert torch.isfinite(agents.load(str(path)).net.logits(obs)).all()


def test_a_second_agent_of_a_variant_ships_under_its_own_name(shipped: Path, tmp_path: Path) -> None:
    run_dir = next(p.parent.parent for p in tmp_path.rglob("checkpoints/latest.pt"))  # the fixture's run
    assert ship.main([str(run_dir), "--dest", str(shipped), "--name", "stud_second"]) == 0
    assert loading.pretrained_names() == ["stud", "stud_second"]
    info = json.loads((shipped / "stud_second.json").read_text())
    assert info["variant"] == "stud" and info["command"].endswith("agents/pretrained/stud_second.toml")
    assert isinstance(agents.load("pretrained:stud_second", seed=1), NeuralAgent)
    assert ship.main([str(run_dir), "--dest", str(shipped), "--name", "../evil"]) == 2
