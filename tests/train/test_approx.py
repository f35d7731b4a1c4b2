"""A time budget for training (train.minutes) and approximate exploitability (a learned best response)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import training.exploitability as exploitability
import training.run as train
from agents.checkpoint import read_checkpoint
from tests.train.test_train import scalars, tiny

SMALL = ["--set", "rollout.tables=4", "--set", "rollout.decisions=48", "--set", "model.hidden=[16]"]
SMALL += ["--set", "ppo.minibatch_size=32", "--set", "ppo.epochs=1", "--set", "train.threads=1"]
TOY = ["--option", "ranks=QKA", "--option", "suits=cd", "--option", "streets=1"]


def test_train_minutes_ends_the_run_after_the_update_that_passes_it(tmp_path: Path) -> None:
    result = train.main(tiny(tmp_path, None, "train.updates=1000", "train.minutes=1e-9", "eval.every=0"))
    assert result.updates == 1
    assert read_checkpoint(result.checkpoint)["step"]["update"] == 1
    logged = scalars(result.run_dir)
    assert [step for step, _ in logged["charts/updates"]] == [step for step, _ in logged["eval/random/greedy"]]


def test_approx_trains_a_best_responder_and_reports_an_interval(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["toy_stud", "random", *TOY, "--approx", "--minutes", "0.01", "--deals", "6", *SMALL]
    report = exploitability.main([*argv, "--runs-dir", str(tmp_path), "--json"])
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{\n") :]) == report
    assert report["deals"] == 6 and report["hands"] == 12 and report["policy"] == "random"
    assert math.isfinite(report["mean"]) and report["ci95"] >= 0
    assert report["low"] == pytest.approx(report["mean"] - report["ci95"])
    assert report["options"] == {"ranks": "QKA", "suits": "cd", "streets": 1}
    assert report["updates"] >= 1 and Path(report["best_responder"]).is_file()
    run = Path(report["best_responder"]).parents[1]
    assert "eval/nash_conv" not in scalars(run)  # the best responder's own NashConv is not wanted


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope", "random", "--approx", "--minutes", "1"], "unknown variant 'nope'; known: stud"),
        (["toy_stud", "random", "--approx", "--minutes", "0"], "--minutes 0.0 is not allowed"),
        (["toy_stud", "random", "--approx", "--minutes", "-2"], "--minutes -2.0 is not allowed"),
        (["toy_stud", "random", "--approx"], "--approx needs --minutes"),
        (["toy_stud", "random", "--approx", "--minutes", "1", "--deals", "1"], "--deals 1 is not allowed"),
        (["toy_stud", "no_such_bot", "--approx", "--minutes", "1"], "unknown bot spec 'no_such_bot'"),
    ],
)
def test_approx_refuses_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        exploitability.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
