"""evaluate.py end to end: table, JSON, CSV, PNG, histories, errors and --help."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import evaluate
from envs.engine.history import HandRecord

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
        state = record.replay()
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


def test_results_do_not_depend_on_the_number_of_workers() -> None:
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
