"""Time and decision budgets for training (train.minutes, train.decisions) and approximate
exploitability (a learned best response)."""

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


def test_train_decisions_ends_the_run_at_the_update_that_reaches_it(tmp_path: Path) -> None:
    # rollout.decisions=48: each update holds at least 48, so a budget of 100 takes 2 or 3
    result = train.main(tiny(tmp_path, None, "train.updates=50", "train.decisions=100", "eval.every=0"))
    logged = scalars(result.run_dir)
    steps = [step for step, _ in logged["charts/updates"]]
    assert result.decisions >= 100 and steps[-1] == result.decisions
    assert len(steps) == result.updates and all(step < 100 for step in steps[:-1])
    assert read_checkpoint(result.checkpoint)["step"]["decisions"] == result.decisions


def test_train_decisions_anneals_the_learning_rate_over_decisions(tmp_path: Path) -> None:
    cfg = tiny(tmp_path, None, "train.updates=50", "train.decisions=200", "eval.every=0", "ppo.lr_floor=0.2")
    result = train.main(cfg)
    rates = [rate for _, rate in scalars(result.run_dir)["charts/learning_rate"]]
    steps = [0, *[step for step, _ in scalars(result.run_dir)["charts/updates"]][:-1]]
    expected = [cfg.ppo.lr * (0.2 + 0.8 * (1 - min(1.0, done / 200))) for done in steps]
    assert rates == pytest.approx(expected, rel=1e-6)
    assert rates[0] == pytest.approx(cfg.ppo.lr) and rates[-1] < cfg.ppo.lr


def test_resume_past_the_decision_budget_is_refused(tmp_path: Path) -> None:
    result = train.main(tiny(tmp_path, None, "train.updates=50", "train.decisions=60", "eval.every=0"))
    with pytest.raises(train.ConfigError, match=r"already collected .* learner decisions; set train\.decisions above"):
        train.main(resume=result.run_dir)
    more = train.main(resume=result.run_dir, overrides=["train.decisions=150"])
    assert more.decisions >= 150 and more.updates > result.updates


def test_train_decisions_must_not_be_negative(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"train\.decisions"):
        tiny(tmp_path, None, "train.decisions=-1")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope", "random", "--approx", "--minutes", "1"], "unknown variant 'nope'; known: stud"),
        (["toy_stud", "random", "--approx", "--minutes", "0"], "--minutes 0.0 is not allowed"),
        (["toy_stud", "random", "--approx", "--minutes", "-2"], "--minutes -2.0 is not allowed"),
        (["toy_stud", "random", "--approx"], "--approx needs --minutes"),
        (["toy_stud", "random", "--approx", "--minutes", "1", "--deals", "1"], "--deals 1 is not allowed"),
        (["toy_stud", "no_such_bot", "--approx", "--minutes", "1"], "unknown bot spec 'no_such_bot'"),
        (
            ["toy_stud", "heuristic", "--approx", "--minutes", "1", "--warm-start"],
            "a bot such as the heuristic has no weights to start from",
        ),
    ],
)
def test_approx_refuses_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        exploitability.main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


def test_a_warm_started_best_responder_starts_as_the_policy(tmp_path: Path) -> None:
    """--warm-start: the responder's run starts from the policy's weights (its saved config
    says so; tests/train/test_warm_start.py checks the weights themselves)."""
    argv = ["toy_stud", "pretrained:toy_stud", "--approx", "--minutes", "0.01", "--deals", "2", *SMALL]
    argv += ["--set", "model.hidden=[64,64]", "--warm-start", "--runs-dir", str(tmp_path)]
    report = exploitability.main(argv)
    config = read_checkpoint(report["best_responder"])["config"]
    assert config["train"]["init_from"] == "pretrained:toy_stud"
    assert report["updates"] >= 1
