"""Fixtures of the protocol tests: the skeleton bots as bot specs (the C one built
with the system compiler, once per session)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"
BAD_BOT = Path(__file__).resolve().parent / "bad_bot.py"


def python_bot(script: Path, *args: str) -> str:
    """A ``cmd:`` spec running ``script`` with this Python."""
    return "cmd:" + " ".join([sys.executable, str(script), *args])


@pytest.fixture(scope="session")
def c_skeleton(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C skeleton, built with ``cc`` (warnings are errors: it must stay clean)."""
    if shutil.which("cc") is None:
        pytest.skip("no C compiler (cc) on this machine")
    binary = tmp_path_factory.mktemp("c") / "skeleton"
    subprocess.run(["cc", "-O2", "-Wall", "-Wextra", "-Werror", "-o", str(binary), str(BOTS / "skeleton.c")],
                   check=True)  # fmt: skip
    return binary


@pytest.fixture(scope="session")
def node() -> str:
    """Node, for the JavaScript skeleton."""
    path = shutil.which("node")
    if path is None:
        pytest.skip("no node on this machine")
    return path


@pytest.fixture(scope="session")
def skeletons(c_skeleton: Path, node: str) -> dict[str, str]:
    """The three skeletons as bot specs."""
    return {
        "python": python_bot(BOTS / "skeleton.py"),
        "c": f"cmd:{c_skeleton}",
        "javascript": f"cmd:{node} {BOTS / 'skeleton.js'}",
    }
