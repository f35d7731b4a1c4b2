"""``dealers-choice serve``: its command line (the server itself: test_api.py)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from dealers_choice.commands import serve


def test_help_names_the_default_address(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        serve.main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "127.0.0.1:8765" in out and "--root" in out and "dealers-choice serve --root runs" in out
    assert serve.build_parser().parse_args([]).port == 8765 and serve.DESCRIPTION


def test_a_missing_root_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve.main(["--root", str(tmp_path / "nothing"), "--port", "0"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_another_host_is_warned_about(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve.main(["--host", "0.0.0.0", "--root", str(tmp_path / "nothing")]) == 2
    assert "warning: listening on 0.0.0.0" in capsys.readouterr().err


def test_a_busy_port_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert serve.main(["--root", str(tmp_path), "--port", str(port)]) == 2
    assert "error" in capsys.readouterr().err


def test_bad_upload_limit(tmp_path: Path) -> None:
    assert serve.main(["--root", str(tmp_path), "--max-upload-mb", "0"]) == 2
