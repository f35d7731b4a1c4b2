"""solve.py and exploitability.py: --help, a tiny run of each, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import training.exploitability as exploitability
import training.solve as solve

TINY = ["--option", "ranks=QKA", "--option", "suits=cd", "--option", "streets=1"]


@pytest.mark.parametrize("module", [solve, exploitability], ids=["solve", "exploitability"])
def test_help_documents_the_command(module, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exit_:
        module.main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "NashConv" in text and "--option" in text and "examples:" in text


def test_solve_then_measure_the_saved_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log_dir = tmp_path / "run"
    report = solve.main(["toy_stud", *TINY, "--iterations", "40", "--every", "20", "--log-dir", str(log_dir), "-q"])
    out = capsys.readouterr().out
    assert [r["iteration"] for r in report["rows"]] == [20, 40]
    assert "nash_conv" in out and "final: iteration 40" in out
    assert {p.name for p in log_dir.iterdir()} >= {"curve.csv", "curve.png", "policy.npz"}
    assert any(p.name.startswith("events.out.tfevents") for p in log_dir.iterdir())
    measured = exploitability.main(["toy_stud", str(log_dir / "policy.npz"), *TINY, "--json"])
    printed = json.loads(capsys.readouterr().out)
    assert printed["nash_conv"] == pytest.approx(report["final"]["nash_conv"], abs=1e-5)
    assert list(measured["br_values"]) == printed["br_values"]


def test_solve_stops_at_the_target_and_writes_nothing_with_no_files(capsys: pytest.CaptureFixture[str]) -> None:
    report = solve.main(
        ["toy_stud", *TINY, "--iterations", "500", "--every", "10", "--target", "0.01", "--no-files", "-q"]
    )
    assert report["final"]["nash_conv"] < 0.01 and report["final"]["iteration"] < 500
    assert report["files"] == []


def test_exploitability_of_uniform_prints_the_parts(capsys: pytest.CaptureFixture[str]) -> None:
    report = exploitability.main(["toy_stud", "uniform", *TINY])
    text = capsys.readouterr().out
    assert report["nash_conv"] == pytest.approx(sum(report["br_values"]))
    assert "NashConv" in text and "seat 0 (button)" in text and "information sets per seat: 360" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["stud", "uniform"], "game 'stud' cannot be solved exactly"),
        (["toy_stud", "no_such_bot"], "unknown policy 'no_such_bot'"),
        (["toy_stud", "uniform", "--option", "streets=9"], "streets=9"),
        (["toy_stud", "uniform", "--option", "colour=red"], "unknown option 'colour'"),
        (["toy_stud", "missing.npz"], "does not exist"),
    ],
)
def test_exploitability_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        exploitability.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["toy_stud", "--every", "0"], "--every 0"), (["toy_stud", "--option", "ranks"], "expected key=value")],
)
def test_solve_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        solve.main([*argv, "--no-files", "-q"])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
