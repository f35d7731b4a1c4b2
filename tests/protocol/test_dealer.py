"""``dealers-choice dealer``: manifests, reports, and ``--log`` / ``--resume``: an
interrupted run resumed from its log gives the same final result as an uninterrupted
one (cut short by hand, and stopped for real with SIGINT)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dealers_choice.commands import dealer
from evaluation.manifest import load_manifest
from tests.protocol.conftest import BOTS, ROOT

RESULT_KEYS = ("bots_summary", "pairs", "matrix", "forfeits", "hands", "names")


def _report(out: Path) -> dict[str, Any]:
    report = json.loads((out / "report.json").read_text())
    return {key: report.get(key) for key in RESULT_KEYS}


def _manifest(folder: Path, c_skeleton: Path) -> Path:
    path = folder / "bots.toml"
    path.write_text(
        f"""
[[bots]]
name = "c-skeleton"
command = "./{c_skeleton.name}"
cwd = "{c_skeleton.parent}"
language = "c"

[[bots]]
name = "py-skeleton"
command = ["{sys.executable}", "skeleton.py"]
cwd = "{BOTS}"
language = "python"

[[bots]]
spec = "call"
"""
    )
    return path


def test_a_manifest_tournament_is_one_command(tmp_path: Path, c_skeleton: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    manifest = _manifest(tmp_path, c_skeleton)
    out = tmp_path / "out"
    status = dealer.main(["cowpie", "--manifest", str(manifest), "-t", "-n", "6", "--out", str(out), "-q",
                          "--no-plot", "--bootstrap", "20"])  # fmt: skip
    assert status == 0
    report = _report(out)
    assert report["names"] == ["c-skeleton", "py-skeleton", "call"]
    assert not report["forfeits"]
    assert len(report["pairs"]) == 6  # three pairs, both directions
    assert "c-skeleton" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "x", "command": "./a", "address": "tcp://127.0.0.1:1"}, "give exactly one of command, address"),
        ({"command": "./a"}, "a program needs a name"),
        ({"name": "a,b", "command": "./a"}, "a program needs a name without"),
        ({"name": "x", "command": "./a", "colour": "red"}, "unknown keys colour"),
        ({"name": "x", "command": "./a", "cwd": "no/such/folder"}, "does not exist"),
        ({"name": "x", "address": "udp://127.0.0.1:1"}, "is not tcp://host:port"),
        ({"spec": "call", "name": "house"}, "a spec entry takes no other keys"),
        ({"name": "x", "command": 7}, "command must be a command line"),
        ({"name": "x", "address": "tcp://10.0.0.1:7000"}, "is not a loopback address"),
        ({"name": "x", "command": "./a", "remote": True}, "remote is true or false, and only for an address"),
    ],
)
def test_a_bad_manifest_entry_is_named(tmp_path: Path, entry: dict[str, Any], message: str) -> None:
    path = tmp_path / "bots.json"
    path.write_text(json.dumps({"bots": [entry]}))
    with pytest.raises(ValueError, match="bot 1: .*" + re.escape(message)):
        load_manifest(path)


def test_a_manifest_is_read_as_data(tmp_path: Path) -> None:
    path = tmp_path / "bots.toml"
    path.write_text("bots = \"__import__('os')\"")
    with pytest.raises(ValueError, match="has no bots"):
        load_manifest(path)
    path.write_text("[[bots]\nname = ")
    with pytest.raises(ValueError, match="is not valid TOML"):
        load_manifest(path)


def _args(c_skeleton: Path, out: Path, log: Path, deals: int) -> list[str]:
    py = f"cmd:{sys.executable} {BOTS / 'skeleton.py'}"
    return ["stud_hilo", f"cmd:{c_skeleton}", py, "random", "-t", "-n", str(deals), "--out", str(out), "-q",
            "--no-plot", "--bootstrap", "50", "--log", str(log)]  # fmt: skip


def test_a_resumed_run_gives_the_same_result(tmp_path: Path, c_skeleton: Path) -> None:
    """A log cut after two chunks and half a line, then resumed."""
    assert dealer.main(_args(c_skeleton, tmp_path / "whole", tmp_path / "whole.log", 25)) == 0
    lines = (tmp_path / "whole.log").read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 3 * 7  # the header, then three pairs of seven chunks (25 deals, 4 a chunk)
    cut = tmp_path / "cut.log"
    cut.write_text("".join(lines[:3]) + lines[3][: len(lines[3]) // 2])
    args = _args(c_skeleton, tmp_path / "resumed", cut, 25)
    assert dealer.main(args) == 2  # the log exists: no accidental overwrite
    assert dealer.main([*args, "--resume"]) == 0
    assert _report(tmp_path / "resumed") == _report(tmp_path / "whole")
    assert len(cut.read_text().splitlines()) == len(lines)


def test_a_resumed_log_must_be_of_the_same_run(tmp_path: Path, c_skeleton: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    log = tmp_path / "run.log"
    assert dealer.main(_args(c_skeleton, tmp_path / "a", log, 2)) == 0
    assert dealer.main([*_args(c_skeleton, tmp_path / "b", log, 3), "--resume"]) == 2
    assert "is of another run (deals: log 2, now 3)" in capsys.readouterr().err


def test_a_run_stopped_by_sigint_resumes_to_the_same_result(tmp_path: Path, c_skeleton: Path) -> None:
    deals = 60
    whole = tmp_path / "whole"
    assert dealer.main(_args(c_skeleton, whole, tmp_path / "whole.log", deals)) == 0
    log = tmp_path / "run.log"
    args = _args(c_skeleton, tmp_path / "resumed", log, deals)
    proc = subprocess.Popen([sys.executable, "-m", "dealers_choice.commands.dealer", *args], cwd=ROOT,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if log.is_file() and log.read_text().count("\n") >= 3:  # the header and two chunks
            proc.send_signal(signal.SIGINT)
            break
        time.sleep(0.02)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "resume with the same command and --resume" in err
    assert not (tmp_path / "resumed" / "report.json").exists()  # nothing half-written
    played = log.read_text().count("\n")
    assert 3 <= played < (tmp_path / "whole.log").read_text().count("\n")  # stopped part way
    assert dealer.main([*args, "--resume"]) == 0
    assert _report(tmp_path / "resumed") == _report(whole)


def test_programs_in_evaluate_with_histories_and_isolation(tmp_path: Path, c_skeleton: Path) -> None:
    """evaluate.py's modes take bot programs: hand histories name them, and with
    ``--isolate`` this project's bots run apart beside them."""
    import evaluate

    out = tmp_path / "out"
    report = evaluate.main(["cowgirl", f"cmd[name=cbot]:{c_skeleton}", "random", "-p", "3", "-n", "3", "--out",
                            str(out), "-q", "--no-plot", "--histories", "both", "--isolate",
                            "--decision-timeout", "3"])  # fmt: skip
    assert report["names"] == ["cbot", "random"]
    assert "forfeits" not in report
    rows = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    assert len(rows) == report["hands"] == 18
    assert all("cbot" in row["seats"] for row in rows)
    assert "cbot" in (out / "hands.txt").read_text()


@pytest.mark.slow
def test_programs_with_worker_processes_give_the_same_result(tmp_path: Path, c_skeleton: Path) -> None:
    """Chunks of a match in two worker processes, each with its own sessions: the
    same result as one process."""
    args = ["razz", f"cmd:{c_skeleton}", f"cmd:{sys.executable} {BOTS / 'skeleton.py'}", "random", "-t", "-n", "40",
            "-q", "--no-plot", "--bootstrap", "20"]  # fmt: skip
    assert dealer.main([*args, "--out", str(tmp_path / "one")]) == 0
    assert dealer.main([*args, "--out", str(tmp_path / "two"), "--workers", "2"]) == 0
    assert _report(tmp_path / "one") == _report(tmp_path / "two")


def test_a_manifest_may_name_a_remote_bot(tmp_path: Path) -> None:
    path = tmp_path / "bots.json"
    path.write_text(json.dumps({"bots": [{"name": "far", "address": "tcp://10.0.0.1:7000", "remote": True}]}))
    assert load_manifest(path) == ["tcp[name=far,remote=yes]://10.0.0.1:7000"]
