"""evaluate.py end to end: table, JSON, CSV, PNG, histories, errors and --help."""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import evaluation.head_to_head as evaluate
from agents.base import Agent, CallingStation
from envs.engine.history import HandRecord
from envs.variants import replay
from envs.view import PublicView
from evaluation.histories import HistoryWriter
from evaluation.report import STAGING_PREFIX

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
STRONG = "tests.evaluate.bots:PairRaiser"


def test_help_describes_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for text in ("usage: evaluate.py", "--tournament", "--workers", "--option KEY=VALUE", "--histories", "examples:"):
        assert text in out


def test_match_writes_table_json_csv_png_and_histories(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["stud", STRONG, "random", "-n", "40", "--seed", "3", "-w", "1", "-q", "--out", str(tmp_path)]
    report = evaluate.main([*argv, "--histories"])
    out = capsys.readouterr().out
    assert "big bets per 100 hands" in out and "PairRaiser" in out and "VPIP%" in out
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["mode"] == "match" and data["deals"] == 40 and data["hands"] == 80
    assert data["rate_label"] == "big bets per 100 hands"
    strong, weak = data["bots_summary"]
    assert strong["spec"] == STRONG and strong["sets"] == 40 and strong["seat_hands"] == 80
    assert strong["mean"] == pytest.approx(-weak["mean"])
    assert strong["ci_low"] == pytest.approx(strong["mean"] - strong["half_width"])
    assert set(strong["mix"]) >= {"vpip", "aggression_freq", "fold", "showdown"}
    assert data == json.loads(json.dumps(report))  # the returned report is what was written
    rows = list(csv.DictReader((tmp_path / "bots.csv").open()))
    assert [r["name"] for r in rows] == ["PairRaiser", "random"]
    assert float(rows[0]["mean"]) == pytest.approx(strong["mean"], rel=1e-5)
    assert (tmp_path / "report.png").read_bytes()[:8] == PNG_MAGIC
    _check_histories(tmp_path, hands=80)


def _check_histories(directory: Path, hands: int) -> None:
    text = (directory / "hands.txt").read_text()
    assert text.count("=== match 0, deal ") == hands and "*** THIRD STREET ***" in text
    lines = (directory / "hands.jsonl").read_text().splitlines()
    assert len(lines) == hands
    for line in lines[:5]:  # every record replays to the recorded payoffs
        row = json.loads(line)
        record = HandRecord.from_json(json.dumps(row["record"]))
        state = replay(record)
        assert [p / 4 for p in state.payoffs()] == row["rewards"]  # stud: 4 chips per big bet


def test_tournament_writes_matrix_ratings_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["razz", "call", "random", STRONG, "--tournament", "-n", "30", "-w", "1", "-q"]
    report = evaluate.main([*argv, "--bootstrap", "100", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert "Elo" in out and "Row bot's result against column bot" in out
    assert report["mode"] == "tournament" and report["hands"] == 3 * 30 * 2
    matrix = report["matrix"]["mean"]
    assert matrix[0][0] is None and matrix[0][1] == pytest.approx(-matrix[1][0])
    assert len(report["pairs"]) == 6  # both directions of three pairs
    for bot in report["bots_summary"]:
        assert bot["elo_low"] <= bot["elo"] <= bot["elo_high"]
        assert bot["ci_low"] <= bot["mean"] <= bot["ci_high"]
    assert sum(b["elo"] for b in report["bots_summary"]) == pytest.approx(0, abs=1e-6)
    pairs = list(csv.DictReader((tmp_path / "pairs.csv").open()))
    assert {(p["bot"], p["opponent"]) for p in pairs} == {
        (a, b) for a in ("call", "random", "PairRaiser") for b in ("call", "random", "PairRaiser") if a != b
    }
    assert (tmp_path / "report.png").read_bytes()[:8] == PNG_MAGIC


def test_results_do_not_depend_on_the_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluate, "available_cores", lambda: 2)  # two workers even on a one-core machine
    argv = ["cowpie", "random", "call", "-n", "16", "--seed", "4", "-q", "--no-files"]
    one = evaluate.main([*argv, "-w", "1"])
    two = evaluate.main([*argv, "-w", "2"])
    assert one["run"]["workers"] == 1 and two["run"]["workers"] == 2
    del one["run"], two["run"]
    assert one == two


def test_cowboy_family_reports_antes_per_game_with_balanced_seats() -> None:
    report = evaluate.main(["cowgirl", "call", "random", "-o", "match_cap=4", "-n", "6", "-q", "--no-files", "-w", "1"])
    assert report["num_players"] == 3 and report["rate_label"] == "antes per game"
    assert report["options"] == {"match_cap": 4}
    assert [b["seat_hands"] for b in report["bots_summary"]] == [6 * 9, 6 * 9]  # A-B-A and B-A-B, 3 rotations
    assert "stay" in report["bots_summary"][0]["mix"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["poker", "random"], "unknown environment 'poker'"),
        (["stud", "random", "-o", "ante"], "expected key=value"),
        (["stud", "random", "-o", "antes=1"], "unknown option 'antes' for stud"),
        (["stud", "random", "-o", "ante=-1"], "ante=-1 is not allowed"),
        (["stud", "nobody"], "unknown bot spec 'nobody'"),
        (["stud", "random", "call", "random", "-p", "2"], "3 bots do not fit 2 seats"),
        (["stud", "random", "--tournament"], "at least two bots"),
        (["cowboy", "random", "-p", "2"], "cowboy seats 3..7 players, not 2"),
        (["stud", "random", "-n", "0"], "deals=0"),
        (["stud", "random", "--histories", "--no-files"], "histories need an output directory"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_bad_input_is_a_clear_error(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main([*argv, "-q", "--no-files"] if "--no-files" not in argv else [*argv, "-q"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------- outputs that survive failures
BASE = ["stud", "call", "random", "--seed", "1", "-q"]


@pytest.fixture(scope="module")
def previous_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete earlier run, with histories (copied by each test that needs it)."""
    out = tmp_path_factory.mktemp("previous") / "out"
    evaluate.main([*BASE, "-n", "6", "-w", "1", "--histories", "--out", str(out)])
    return out


def _copy(previous: Path, tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path / "out"
    shutil.copytree(previous, out)
    (out / "notes.txt").write_text("mine")  # not an output: never touched
    return out, _files(out)


def _files(directory: Path) -> dict[str, bytes]:
    """Every entry in the folder (hidden ones too) with its bytes."""
    return {p.name: p.read_bytes() if p.is_file() else b"<folder>" for p in sorted(directory.iterdir())}


def _raise_after(calls: int, error: BaseException) -> Callable[..., int]:
    """An ``act`` that plays like a calling station, then raises ``error``."""
    count = itertools.count()

    def act(self: Agent, observation: Any, view: PublicView) -> int:
        if next(count) == calls:
            raise error
        return CallingStation.act(self, observation, view)  # type: ignore[arg-type]

    return act


def _write_fails_after(calls: int, error: BaseException, write: Any) -> Any:
    count = itertools.count()

    def failing(self: Any, *args: Any) -> None:
        if next(count) == calls:
            raise error
        write(self, *args)

    return failing


def _fail_plot(report: Any, path: Path) -> None:
    path.write_bytes(PNG_MAGIC)  # half a picture, then
    raise RuntimeError("plot failed")


@pytest.mark.parametrize(
    ("where", "error", "status"),
    [
        ("bot", RuntimeError("bot crashed"), 1),  # a BotError naming the bot (envs.policy)
        ("bot", KeyboardInterrupt(), 130),
        ("plot", None, None),
        ("disk", OSError(28, "No space left on device"), 2),
    ],
    ids=["bot-raises", "ctrl-c", "plot-fails", "disk-full"],
)
def test_a_failed_run_leaves_the_previous_files_as_they_were(
    where: str,
    error: BaseException | None,
    status: int | None,
    previous_run: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out, before = _copy(previous_run, tmp_path)
    if where == "bot":  # after some hands: the histories are half written
        assert error is not None
        monkeypatch.setattr(CallingStation, "act", _raise_after(300, error))
    elif where == "disk":  # writing the histories, after some chunks
        assert error is not None
        monkeypatch.setattr(HistoryWriter, "__call__", _write_fails_after(3, error, HistoryWriter.__call__))
    else:  # after report.json and the CSV files
        monkeypatch.setattr(evaluate, "write_plot", _fail_plot)
    argv = [*BASE, "-n", "400", "-w", "1", "--tournament", "--histories", "--out", str(out)]
    with pytest.raises((SystemExit, RuntimeError)) as raised:
        evaluate.main(argv)
    if status is None:
        assert isinstance(raised.value, RuntimeError)
    else:
        assert isinstance(raised.value, SystemExit) and raised.value.code == status
    assert _files(out) == before  # byte for byte, no temporaries, no mixed set
    err = capsys.readouterr().err
    assert f"no files written, the earlier files in {out} are unchanged" in err
    assert "Traceback" not in err


def test_a_failed_run_into_a_new_folder_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluate, "write_plot", _fail_plot)
    with pytest.raises(RuntimeError, match="plot failed"):
        evaluate.main([*BASE, "-n", "4", "-w", "1", "--histories", "--out", str(tmp_path / "new")])
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("put_back", [True, False], ids=["put-back", "cannot-put-back"])
def test_a_swap_that_fails_halfway_puts_the_previous_files_back(
    put_back: bool,
    previous_run: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The new hands.txt cannot be moved in (after report.json, bots.csv and hands.jsonl
    were): the previous files go back, or stay aside in a named folder if even that fails."""
    out, before = _copy(previous_run, tmp_path)
    real = os.replace
    failures = itertools.count()

    def replace(source: Any, target: Any) -> None:
        if Path(target) == out / "hands.txt" and (next(failures) == 0 or not put_back):
            raise OSError(13, "Permission denied")
        real(source, target)

    monkeypatch.setattr("evaluation.report.os.replace", replace)
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main([*BASE, "-n", "4", "-w", "1", "--histories", "--out", str(out)])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    if put_back:
        assert _files(out) == before
        assert "Permission denied; no files written, the earlier files" in err
    else:
        (aside,) = out.glob(f"{STAGING_PREFIX}*/previous-*")
        assert f"could not be put back: they are in {aside}" in err
        assert (aside / "hands.txt").read_bytes() == before["hands.txt"]
        assert {**_files(out), "hands.txt": before["hands.txt"]} == {**before, aside.parent.name: b"<folder>"}


def test_a_completed_run_replaces_the_whole_set(previous_run: Path, tmp_path: Path) -> None:
    """A match with histories, then a tournament without: no hands.* from the match are
    left beside the tournament's report (and other files stay)."""
    out, before = _copy(previous_run, tmp_path)
    evaluate.main([*BASE, "--tournament", "-n", "4", "-w", "1", "--bootstrap", "10", "--no-plot", "--out", str(out)])
    after = _files(out)
    assert sorted(after) == ["bots.csv", "notes.txt", "pairs.csv", "report.json"]
    assert after["notes.txt"] == b"mine" and after["report.json"] != before["report.json"]
    assert json.loads(after["report.json"])["mode"] == "tournament"


def _staged_hands(out: Path) -> bool:
    """A run in progress has written some hands into its hidden folder."""
    return any(p.stat().st_size > 0 for p in out.glob(f"{STAGING_PREFIX}*/hands.txt"))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
@pytest.mark.parametrize(
    ("sig", "workers", "status", "message"),
    [(signal.SIGINT, "2", 130, "interrupted (Ctrl-C)"), (signal.SIGTERM, "1", 143, "terminated (SIGTERM)")],
    ids=["ctrl-c-with-workers", "sigterm"],
)
def test_an_interrupted_evaluate_py_keeps_the_previous_files(
    sig: signal.Signals, workers: str, status: int, message: str, previous_run: Path, tmp_path: Path
) -> None:
    """Ctrl-C reaches the whole process group (the workers too), as in a terminal."""
    out, before = _copy(previous_run, tmp_path)
    argv = [*BASE, "-n", "1000000", "-w", workers, "--histories", "--out", str(out)]
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "evaluate.py", *argv], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while not _staged_hands(out):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no hands written in 120 s"
            time.sleep(0.05)
        os.killpg(proc.pid, sig)
        _, err = proc.communicate(timeout=60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    text = err.decode()
    assert proc.returncode == status, text
    assert f"evaluate.py: {message}; no files written, the earlier files in {out} are unchanged" in text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert _files(out) == before


def test_more_workers_than_cores_are_capped_with_a_warning(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(evaluate, "available_cores", lambda: 1)
    report = evaluate.main([*BASE, "-n", "4", "-w", "64", "--no-files"])
    assert report["run"]["workers"] == 1
    assert "warning: --workers 64 is more than the 1 available cores; using 1" in capsys.readouterr().err
    evaluate.main([*BASE, "-n", "4", "-w", "1", "--no-files"])
    assert "warning" not in capsys.readouterr().err


def test_evaluate_called_directly_stages_its_histories(
    previous_run: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``evaluate(config)`` without ``main``: a failure keeps the earlier hands files, a
    completed run replaces them (the report files are the caller's)."""
    out, before = _copy(previous_run, tmp_path)
    config = evaluate.EvalConfig(
        variant="stud", bots=("call", "random"), deals=300, workers=1, progress=False, out=str(out), histories="text"
    )
    with monkeypatch.context() as patch:
        patch.setattr(CallingStation, "act", _raise_after(200, RuntimeError("bot crashed")))
        with pytest.raises(RuntimeError, match="bot crashed"):
            evaluate.evaluate(config)
    assert _files(out) == before
    evaluate.evaluate(config)
    after = _files(out)
    assert sorted(after) == sorted(set(before) - {"hands.jsonl"})
    assert after["hands.txt"].count(b"=== match 0, deal ") == 600 and after["report.json"] == before["report.json"]
