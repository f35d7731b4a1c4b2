"""``agents.load`` on zip files that are not checkpoints: a Stable-Baselines3 model is
named as such, with how to wrap it (and that recipe works); any other zip says what
it is. Nothing in them is unpickled."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import gymnasium
import pytest
import torch

pytest.importorskip("sb3_contrib", reason="sb3-contrib is in the dev extra")

from sb3_contrib import MaskablePPO

import agents
import envs  # noqa: F401 (registers the ids)
import evaluation
from agents.checkpoint import CheckpointError


@pytest.fixture(scope="module")
def sb3_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real (untrained) MaskablePPO model saved by Stable-Baselines3."""
    env = gymnasium.make("DealersChoice/Stud-v0")
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=16, seed=0, device="cpu")
    path = tmp_path_factory.mktemp("sb3") / "model.zip"
    model.save(path)
    return path


def test_an_sb3_model_is_named_with_how_to_wrap_it(sb3_model: Path) -> None:
    with pytest.raises(CheckpointError) as caught:
        agents.load(str(sb3_model))
    message = str(caught.value)
    assert "is a Stable-Baselines3 model archive (sb3_contrib.MaskablePPO, stable-baselines3 " in message
    assert f"agents.sb3.SB3Agent(MaskablePPO.load({str(sb3_model)!r}))" in message
    assert "'your_module:YourModel'" in message and "truncated or corrupt" not in message


def test_the_advice_works(sb3_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The docs' recipe: a class that loads the model, named by a spec string."""
    (tmp_path / "my_sb3_bots.py").write_text(
        "from sb3_contrib import MaskablePPO\n"
        "from agents.sb3 import SB3Agent\n\n\n"
        "class StudModel(SB3Agent):\n"
        "    def __init__(self) -> None:\n"
        f"        super().__init__(MaskablePPO.load({str(sb3_model)!r}, device='cpu'), name='stud_model')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        result = evaluation.run_match("stud", ["my_sb3_bots:StudModel", "random"], deals=3, seed=0)
    finally:
        torch.set_num_threads(threads)
        sys.modules.pop("my_sb3_bots", None)
    assert len(result.hands) == 6


def test_another_zip_says_what_it_is(tmp_path: Path) -> None:
    path = tmp_path / "notes.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
        archive.writestr("weights/x.bin", b"\x00" * 10)
    with pytest.raises(CheckpointError, match=r"is a zip archive \(readme.txt, weights/x.bin\), not a Dealer's"):
        agents.load(str(path))
    empty = tmp_path / "empty.zip"
    zipfile.ZipFile(empty, "w").close()
    with pytest.raises(CheckpointError, match=r"is a zip archive \(empty\)"):
        agents.load(str(empty))


def test_a_missing_zip_is_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CheckpointError, match="no checkpoint file at"):
        agents.load(str(tmp_path / "model.zip"))
