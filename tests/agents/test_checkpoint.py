"""Checkpoints: round trip, refusing the wrong table, corrupt files and crafted pickles."""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

import numpy as np
import pytest
import torch

import agents
import evaluation
from agents.checkpoint import (
    CheckpointError,
    load_agent,
    net_from_checkpoint,
    read_checkpoint,
    remove_temporaries,
    save_checkpoint,
)
from agents.nets import PolicyNet
from agents.neural import Layout, LayoutError, NeuralAgent
from envs.policy import BotError
from envs.registry import make_raw


def small_net(layout: Layout, seed: int = 0) -> PolicyNet:
    torch.manual_seed(seed)
    return PolicyNet(layout.obs_size, len(layout.action_names), [16], card_groups=layout.card_groups())


@pytest.fixture
def stud_checkpoint(tmp_path: Path) -> tuple[Path, PolicyNet, Layout]:
    layout = Layout.build("stud", 2, {})
    net = small_net(layout)
    path = save_checkpoint(
        tmp_path / "agent.pt", net=net, layout=layout, step={"update": 7, "decisions": 900}, config={"seed": 3}
    )
    return path, net, layout


def test_round_trip_keeps_weights_metadata_and_play(stud_checkpoint: tuple[Path, PolicyNet, Layout]) -> None:
    path, net, layout = stud_checkpoint
    data = read_checkpoint(path)
    assert data["step"] == {"update": 7, "decisions": 900} and data["config"] == {"seed": 3}
    assert Layout.from_dict(data["layout"]) == layout
    loaded = load_agent(path, seed=5)
    for key, value in net.state_dict().items():
        assert torch.equal(loaded.net.state_dict()[key], value), key
    original = NeuralAgent(net, layout, seed=5)
    env = make_raw("stud", 2)
    for seed in range(30):
        env.reset(seed=seed)
        agent = env.agent_selection
        obs, view = env.observe(agent), env.public_view(agent)
        original.seed(seed)
        loaded.seed(seed)
        assert original.act(obs, view) == loaded.act(obs, view)


def test_agents_load_routes_paths_to_checkpoints(stud_checkpoint: tuple[Path, PolicyNet, Layout]) -> None:
    path, _, _ = stud_checkpoint
    bot = agents.load(str(path), seed=1)
    assert isinstance(bot, NeuralAgent)
    result = evaluation.run_match("stud", [bot, "random"], deals=10, seed=2)
    assert len(result.hands) == 20


def test_wrong_variant_players_or_options_are_refused(stud_checkpoint: tuple[Path, PolicyNet, Layout]) -> None:
    path, _, _ = stud_checkpoint
    with pytest.raises(CheckpointError, match=r"trained for stud_v0, 2 players, not razz_v0"):
        load_agent(path, variant="razz")  # same vector size as stud: only the check stops it
    with pytest.raises(CheckpointError, match="not stud_v0, 3 players"):
        load_agent(path, num_players=3)
    with pytest.raises(CheckpointError, match=r"options differ.*raise_cap.*strict_options=False"):
        load_agent(path, options={"raise_cap": 3})  # only the options differ: the API's way out is named
    with pytest.raises(CheckpointError) as refused:
        load_agent(path, variant="razz")
    assert "strict_options" not in str(refused.value)  # no option would let it play razz
    assert load_agent(path, options={"raise_cap": 3}, strict_options=False).layout.variant == "stud"
    with pytest.raises(CheckpointError, match="cannot play this table"):
        load_agent(path, variant="chowaha")  # stud's options are not Chowaha's


def test_agent_refuses_to_act_at_another_table(stud_checkpoint: tuple[Path, PolicyNet, Layout]) -> None:
    path, _, _ = stud_checkpoint
    bot = load_agent(path, seed=0)
    for variant, n, options in (("razz", 2, {}), ("stud", 3, {}), ("stud", 2, {"stack": 50})):
        env = make_raw(variant, n, **options)
        env.reset(seed=0)
        agent = env.agent_selection
        with pytest.raises(LayoutError):
            bot.act(env.observe(agent), env.public_view(agent))
    with pytest.raises(
        BotError, match=r"bot 'ppo@agent' \(player_\d\) raised LayoutError: .*trained for stud_v0"
    ) as info:
        evaluation.run_match("razz", [bot, "random"], deals=2)  # the arena names the bot that refused
    assert isinstance(info.value.__cause__, LayoutError)


def test_changed_env_layout_is_refused(tmp_path: Path) -> None:
    layout = Layout.build("stud", 2, {})
    stale = Layout(**{**layout.__dict__, "pieces": (("own_cards", 371), ("something_old", 508))})
    path = save_checkpoint(tmp_path / "old.pt", net=small_net(layout), layout=stale, step={}, config={})
    with pytest.raises(CheckpointError, match="observation layout differs"):
        load_agent(path)


@pytest.mark.parametrize(
    "damage",
    ["truncated", "empty", "garbage", "flipped"],
)
def test_corrupt_files_are_clear_errors(stud_checkpoint: tuple[Path, PolicyNet, Layout], damage: str) -> None:
    path, _, _ = stud_checkpoint
    raw = path.read_bytes()
    broken = {
        "truncated": raw[: len(raw) // 2],
        "empty": b"",
        "garbage": np.random.default_rng(0).bytes(4000),
        "flipped": raw[:200] + bytes(b ^ 0xFF for b in raw[200:400]) + raw[400:],
    }[damage]
    path.write_bytes(broken)
    with pytest.raises(CheckpointError, match=r"truncated or corrupt|not a Dealer's Choice|refused"):
        load_agent(path)


def test_missing_file_and_foreign_format(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no checkpoint file"):
        load_agent(tmp_path / "nothing.pt")
    torch.save({"state_dict": {}}, tmp_path / "other.pt")
    with pytest.raises(CheckpointError, match="not a Dealer's Choice checkpoint"):
        load_agent(tmp_path / "other.pt")


class Exploit:
    """Unpickling this would create the marker file (a stand-in for arbitrary code)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Path.touch, (self.marker,))


@pytest.mark.filterwarnings("ignore:Detected pickle protocol")
@pytest.mark.parametrize("writer", ["torch.save", "plain pickle"])
def test_crafted_pickle_is_refused_without_running(
    stud_checkpoint: tuple[Path, PolicyNet, Layout], tmp_path: Path, writer: str
) -> None:
    path, _, _ = stud_checkpoint
    marker = tmp_path / "pwned"
    data = read_checkpoint(path)
    data["config"] = {"payload": Exploit(marker)}
    evil = tmp_path / "evil.pt"
    if writer == "torch.save":
        torch.save(data, evil)
    else:
        evil.write_bytes(pickle.dumps(data))
    # the payload works when unpickled without protection (so the test means something)
    if writer == "plain pickle":
        pickle.loads(evil.read_bytes())
        assert marker.exists()
        marker.unlink()
    with pytest.raises(CheckpointError, match="refused to load") as refused:
        load_agent(evil)
    assert "weights_only" not in str(refused.value)  # no advice to switch the protection off
    with pytest.raises(CheckpointError):
        agents.load(str(evil))
    assert not marker.exists()


def test_atomic_save_keeps_the_previous_file(
    stud_checkpoint: tuple[Path, PolicyNet, Layout], monkeypatch: pytest.MonkeyPatch
) -> None:
    path, net, layout = stud_checkpoint
    before = path.read_bytes()

    def dies_halfway(obj: object, f: object) -> None:
        f.write(b"half a checkpoint")  # type: ignore[attr-defined]
        raise KeyboardInterrupt

    monkeypatch.setattr(torch, "save", dies_halfway)
    with pytest.raises(KeyboardInterrupt):
        save_checkpoint(path, net=net, layout=layout, step={"update": 8}, config={})
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == [path.name]  # no temporary file left behind


def test_another_architecture_is_refused(stud_checkpoint: tuple[Path, PolicyNet, Layout], tmp_path: Path) -> None:
    path, _, _ = stud_checkpoint
    for key, value, message in (
        ("card_features_version", 99, "card features version 99"),
        ("class", "Transformer", "unsupported network architecture"),
        ("hidden", [17], "size mismatch"),
    ):
        data = read_checkpoint(path)
        data["arch"][key] = value
        torch.save(data, tmp_path / "other.pt")
        with pytest.raises(CheckpointError, match=message):
            load_agent(tmp_path / "other.pt")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")], ids=["nan", "inf", "-inf"])
def test_non_finite_weights_are_refused_at_load(
    stud_checkpoint: tuple[Path, PolicyNet, Layout], tmp_path: Path, bad: float
) -> None:
    path, _, _ = stud_checkpoint
    data = read_checkpoint(path)
    name = sorted(data["weights"])[-1]
    data["weights"][name].view(-1)[1] = bad
    torch.save(data, tmp_path / "diverged.pt")
    with pytest.raises(CheckpointError, match=rf"refused to load .*tensor weights\.{re.escape(name)} holds"):
        load_agent(tmp_path / "diverged.pt")
    with pytest.raises(CheckpointError, match=rf"weights\.{re.escape(name)} holds"):
        net_from_checkpoint(data)  # data that did not come through read_checkpoint
    with pytest.raises(CheckpointError, match="refused"):
        agents.load(str(tmp_path / "diverged.pt"))


def test_non_finite_training_state_is_refused(stud_checkpoint: tuple[Path, PolicyNet, Layout], tmp_path: Path) -> None:
    """A resumable checkpoint whose optimizer moments went NaN would poison the resumed run."""
    path, _, _ = stud_checkpoint
    moments = {"state": {0: {"exp_avg": torch.tensor([0.0, float("nan")])}}}
    data = read_checkpoint(path)
    data["training"] = {"optimizer": moments, "generator": torch.zeros(4, dtype=torch.uint8)}
    torch.save(data, tmp_path / "resumable.pt")
    with pytest.raises(CheckpointError, match=r"training\.optimizer\.state\.0\.exp_avg holds 1 NaN and 0 infinite"):
        read_checkpoint(tmp_path / "resumable.pt")
    data["training"]["optimizer"]["state"][0]["exp_avg"][1] = 0.0
    torch.save(data, tmp_path / "resumable.pt")
    restored = read_checkpoint(tmp_path / "resumable.pt")["training"]["optimizer"]["state"][0]["exp_avg"]
    assert restored.tolist() == [0.0, 0.0]


def test_non_finite_weights_are_never_written(stud_checkpoint: tuple[Path, PolicyNet, Layout]) -> None:
    path, net, layout = stud_checkpoint
    before = path.read_bytes()
    with torch.no_grad():
        next(net.parameters()).view(-1)[0] = float("nan")
    with pytest.raises(CheckpointError, match=r"refused to write .* holds 1 NaN"):
        save_checkpoint(path, net=net, layout=layout, step={"update": 8}, config={})
    with pytest.raises(CheckpointError, match="refused to write"):
        save_checkpoint(path.with_name("new.pt"), net=net, layout=layout, step={}, config={})
    assert path.read_bytes() == before and sorted(os.listdir(path.parent)) == [path.name]


def test_remove_temporaries_deletes_only_what_a_cut_save_left(tmp_path: Path) -> None:
    leftovers = [".latest.pt.k2j4_x.tmp", ".update_000025.pt.a8b.tmp"]
    kept = ["latest.pt", "update_000025.pt", "notes.tmp", ".hidden.tmp", "x.pt"]
    for name in leftovers + kept:
        (tmp_path / name).write_bytes(b"x")
    removed = remove_temporaries(tmp_path)
    assert sorted(p.name for p in removed) == sorted(leftovers)
    assert sorted(os.listdir(tmp_path)) == sorted(kept)
    assert remove_temporaries(tmp_path / "missing") == []


def test_version_1_checkpoints_still_play(stud_checkpoint: tuple[Path, PolicyNet, Layout], tmp_path: Path) -> None:
    """A file of the first format (no value statistics in the weights) loads as an agent
    that plays exactly as the network it was saved from."""
    path, net, _ = stud_checkpoint
    data = read_checkpoint(path)
    data["version"] = 1
    for key in ("value_mean", "value_std"):
        del data["weights"][key]
    for key in ("candidates", "candidate_features", "privileged", "value"):
        del data["arch"][key]
    torch.save(data, tmp_path / "v1.pt")
    old = load_agent(tmp_path / "v1.pt")
    assert float(old.net.value_mean) == 0.0 and float(old.net.value_std) == 1.0
    obs = torch.rand(4, net.obs_size)
    assert torch.equal(old.net.logits(obs), net.logits(obs)) and torch.equal(old.net.values(obs), net.values(obs))
    data["version"] = 0
    torch.save(data, tmp_path / "v0.pt")
    with pytest.raises(CheckpointError, match="version 0; this code reads versions 1, 2"):
        load_agent(tmp_path / "v0.pt")


def test_half_precision_acting_only_checkpoints_are_small_and_play_the_same(tmp_path: Path) -> None:
    layout = Layout.build("cowpie", 2, {})
    torch.manual_seed(0)
    net = PolicyNet(
        layout.obs_size,
        len(layout.action_names),
        [256, 256],
        card_groups=layout.card_groups(),
        candidates=(4, 28),
        privileged=52,
    )
    full = save_checkpoint(tmp_path / "full.pt", net=net, layout=layout, step={}, config={})
    small = save_checkpoint(
        tmp_path / "small.pt", net=net, layout=layout, step={}, config={}, acting_only=True, half=True
    )
    assert small.stat().st_size < 0.3 * full.stat().st_size
    agent = load_agent(small, seed=0)
    assert agent.net.value is None and all(p.dtype == torch.float32 for p in agent.net.parameters())
    obs = torch.rand(64, net.obs_size)
    cands = torch.rand(64, 24, 11)
    assert torch.allclose(agent.net.logits(obs, cands), net.logits(obs, cands), atol=2e-2)
    with pytest.raises(ValueError, match="without its value head"):
        agent.net.values(obs)
    with pytest.raises(CheckpointError, match="cannot hold a training state"):
        save_checkpoint(tmp_path / "x.pt", net=net, layout=layout, step={}, config={}, acting_only=True, training={})
