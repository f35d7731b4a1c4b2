"""Calibrating the learned best response (training/approx_curve.py): budgets, exact values, the stop rule."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

import training.approx_curve as curve
from agents.checkpoint import read_checkpoint
from solvers.exploit import policy_values
from training.lbr import LocalBestResponse

TOY = ["--option", "ranks=QKA", "--option", "suits=cd", "--option", "streets=1"]  # 720 information sets
SMALL = ["--set", "model.hidden=[8]", "--set", "rollout.decisions=64", "--set", "rollout.tables=4"]
SMALL += ["--set", "ppo.minibatch_size=32", "--set", "ppo.epochs=1", "--set", "train.threads=1"]
OPTIONS = {"ranks": "QKA", "suits": "cd", "streets": 1}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict]]:
    """One tiny calibration: budgets 128, 256, 512 decisions (2, 4, 8 updates of 64), two seeds."""
    out = tmp_path_factory.mktemp("calib")
    argv = ["toy_stud", "random", *TOY, "--start", "128", "--doublings", "2", "--seeds", "1,2", "--deals", "4"]
    rows = curve.main([*argv, *SMALL, "--eval-seed", "7", "--out", str(out), "--no-progress", "--json"])
    return out, rows


def test_checkpoints_land_at_the_budgets(run: tuple[Path, list[dict]]) -> None:
    _, rows = run
    assert [(r["seed"], r["budget"], r["updates"]) for r in rows] == [
        (seed, b, b // 64) for seed in (1, 2) for b in (128, 256, 512)
    ]
    for r in rows:
        step = read_checkpoint(r["checkpoint"])["step"]
        assert step["update"] == r["updates"] and Path(r["checkpoint"]).name == f"update_{r['updates']:06d}.pt"
        assert r["budget"] <= r["learner_decisions"] == step["decisions"] < r["budget"] + 64 * r["updates"]


def test_each_measurement_has_its_own_recorded_deals(run: tuple[Path, list[dict]]) -> None:
    _, rows = run
    assert len({r["eval_seed"] for r in rows}) == len(rows)
    for r in rows:
        assert r["deals"] == 4 and r["hands"] == 8 and r["ci95"] >= 0
        assert r["mean_per_hand"] == pytest.approx(r["mean"] / r["per"])
        assert r["mean_antes"] == pytest.approx(2 * r["mean_per_hand"])  # toy stud's big bet is 2 antes


def test_exact_values_never_exceed_the_best_response(run: tuple[Path, list[dict]]) -> None:
    _, rows = run
    for r in rows:
        for mode in ("greedy", "sampled"):
            for seat in (0, 1):
                assert r[f"exact_{mode}_seats"][seat] <= r["exact_br_seats"][seat] + 1e-9
            assert r[f"exact_{mode}"] == pytest.approx(sum(r[f"exact_{mode}_seats"]) / 2)
            assert r[f"recovered_{mode}"] == pytest.approx(r[f"exact_{mode}"] / r["exact_br"])
        assert r["exact_br"] == pytest.approx(sum(r["exact_br_seats"]) / 2)


def test_the_files_are_written(run: tuple[Path, list[dict]]) -> None:
    out, rows = run
    assert curve.read_rows(out / "results.jsonl") == json.loads(json.dumps(rows))
    text = (out / "curve.md").read_text(encoding="utf-8")
    assert text.count("\n| 1 |") == 3 and text.count("\n| 2 |") == 3 and "Stop rule" in text
    for seed in (1, 2):  # each seed's answer is one sentence: "stops at N" or "has not stopped by N"
        assert re.search(rf"\n- seed {seed}: (stops at|has not stopped by) [0-9,]+ decisions \(measured", text)
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"


def test_a_second_call_reuses_the_rows(run: tuple[Path, list[dict]]) -> None:
    out, rows = run
    argv = ["toy_stud", "random", *TOY, "--start", "128", "--doublings", "2", "--seeds", "1,2", "--deals", "4"]
    again = curve.main([*argv, *SMALL, "--out", str(out), "--no-progress", "--json"])
    assert again == json.loads(json.dumps(rows))
    assert len(curve.read_rows(out / "results.jsonl")) == len(rows)


@pytest.fixture(scope="module")
def reference() -> curve.ExactReference:
    ref = curve.exact_reference("toy_stud", 2, OPTIONS, "random")
    assert ref is not None
    return ref


def test_the_policy_against_itself_is_worth_nothing(reference: curve.ExactReference) -> None:
    seats = curve.exact_responder_value(reference, reference.policy)
    assert (seats[0] + seats[1]) / 2 == pytest.approx(0.0, abs=1e-12)


def test_the_exact_value_is_seat_by_seat(reference: curve.ExactReference) -> None:
    """LBR in each seat (training/lbr.py, its own profile) as the responder: the same values."""
    from solvers.policy import TabularPolicy

    opponent = TabularPolicy(reference.params, reference.policy, infosets=reference.cache.infosets)
    lbr = LocalBestResponse(opponent)
    tree = reference.cache.infosets.tree
    profiles = [lbr.strategy(seat) for seat in (0, 1)]
    expected = [policy_values(tree, profiles[seat].source())[seat] for seat in (0, 1)]
    responder = np.where((reference.seats == 0)[:, None], profiles[0].table, profiles[1].table)
    got = curve.exact_responder_value(reference, responder)
    assert got == pytest.approx(expected, abs=1e-12)
    assert min(got) > 0  # LBR beats random in both seats: a swapped profile would lose
    assert all(g <= b + 1e-12 for g, b in zip(got, reference.br_seats, strict=True))


def test_no_exact_reference_off_heads_up_toy_stud() -> None:
    assert curve.exact_reference("toy_stud", 3, OPTIONS, "random") is None
    assert curve.exact_reference("stud", 2, {}, "random") is None


def test_greedy_and_combined_tables() -> None:
    table = np.array([[0.0, 0.3, 0.0, 0.7], [0.5, 0.5, 0.0, 0.0]])
    assert curve.greedy_table(table).tolist() == [[0, 0, 0, 1], [1, 0, 0, 0]]
    other = np.full((2, 4), 0.25)
    assert curve.combined_table(table, other, np.array([0, 1]), 1).tolist() == [[0.25] * 4, [0.5, 0.5, 0, 0]]


@pytest.mark.parametrize(
    ("means", "gain", "stop"),
    [
        ([1.0, 2.0, 2.05, 3.0], 0.10, 2),  # +100%, then +2.5%: stops at the third budget
        ([1.0, 2.0, 4.0], 0.10, None),  # every doubling gains: not stopped
        ([1.0, 0.9], 0.10, 1),  # a loss stops it
        ([-1.0, -0.5, -0.48], 0.10, 2),  # relative to the size of a negative mean
        ([0.0, 0.5, 0.52], 0.10, 2),  # from zero any rise is a gain
        ([0.0, 0.0], 0.10, 1),
        ([2.0], 0.10, None),
    ],
)
def test_stop_rule(means: list[float], gain: float, stop: int | None) -> None:
    assert curve.stop_index(means, gain) == stop


@pytest.mark.parametrize(
    ("means", "patience", "stop"),
    [
        ([29.87, 30.01, 35.71], 1, 1),  # five-card stud, seed 2: +0.5% then +19%: stops on the flat one
        ([29.87, 30.01, 35.71], 2, None),  # two small gains in a row needed: not stopped
        ([1.0, 2.0, 2.05, 2.06], 2, 3),  # +2.5%, +0.5% in a row: stops at the fourth budget
        ([1.0, 1.01, 2.0, 2.02, 2.03], 2, 4),  # the run of small gains restarts after a large one
    ],
)
def test_stop_rule_with_patience(means: list[float], patience: int, stop: int | None) -> None:
    assert curve.stop_index(means, 0.10, patience) == stop


def test_stop_rule_refuses_no_patience() -> None:
    with pytest.raises(ValueError, match="patience 0 is not allowed"):
        curve.stop_index([1.0, 2.0], 0.10, 0)


def test_summary_records_the_patience() -> None:
    rows = [{"seed": 1, "budget": b, "mean": m} for b, m in ((100, 10.0), (200, 10.5), (400, 15.0))]
    assert curve.summarise(rows, 0.10, 1)["seeds"][1]["stop_budget"] == 200
    summary = curve.summarise(rows, 0.10, 2)
    assert summary["patience"] == 2 and summary["seeds"][1] == {"stop_budget": 400, "stop_mean": 15.0, "stopped": False}


def test_summary_reports_the_stop_and_the_80_percent_budgets() -> None:
    rows = [
        {"seed": 1, "budget": b, "mean": m, "exact_br": 1.0, "exact_greedy": e, "mean_antes": a}
        for b, m, e, a in ((100, 10.0, 0.5, 0.6), (200, 20.0, 0.85, 0.79), (400, 20.5, 0.9, 0.81))
    ]
    seeds = curve.summarise(rows, 0.10)["seeds"]
    assert seeds[1] == {"stop_budget": 400, "stop_mean": 20.5, "stopped": True, "exact_80_budget": 200,
                        "measured_80_budget": 400, "stop_exact_greedy": 0.9}  # fmt: skip


def test_budgets_double() -> None:
    assert curve.budgets(25000, 3) == [25000, 50000, 100000, 200000]
    assert curve.updates_at([100, 200, 400], 64) == [2, 4, 8]
    assert curve.relative_gain(2.0, 2.1) == pytest.approx(0.05) and math.isinf(curve.relative_gain(0.0, 1.0))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nope", "random"], "unknown variant 'nope'"),
        (["toy_stud", "no_such_bot"], "policy 'no_such_bot' cannot be loaded"),
        (["toy_stud", "random", "--start", "0"], "--start 0 is not allowed"),
        (["toy_stud", "random", "--start", "-5"], "--start -5 is not allowed"),
        (["toy_stud", "random", "--doublings", "-1"], "--doublings -1 is not allowed"),
        (["toy_stud", "random", "--deals", "1"], "--deals 1 is not allowed"),
        (["toy_stud", "random", "--seeds", "1,x"], "--seeds '1,x' is not allowed"),
        (["toy_stud", "random", "--seeds", "1,1"], "expected distinct seeds"),
        (["toy_stud", "random", "--stop-gain", "-0.1"], "--stop-gain -0.1 is not allowed"),
        (["toy_stud", "random", "--stop-patience", "0"], "--stop-patience 0 is not allowed"),
        (["toy_stud", "random", "--jobs", "0"], "--jobs 0 is not allowed"),
        (["toy_stud", "heuristic", "--warm-start"], "a bot such as the heuristic has no weights to start from"),
    ],
)
def test_bad_input_is_refused(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        curve.main([*argv, "--out", str(tmp_path / "out")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing trained, nothing written


def test_exact_values_are_skipped_off_toy_stud(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["five_card_stud", "random", "--start", "100", "--doublings", "0", "--deals", "2"]
    rows = curve.main([*argv, *SMALL, "--out", str(tmp_path), "--no-progress", "--json"])
    err = capsys.readouterr().err
    assert "no exact values for 2-player five_card_stud" in err
    assert "--start 100 is not a multiple of rollout.decisions = 64: the budgets round up to 2 updates" in err
    assert len(rows) == 1 and rows[0]["updates"] == 2 and "exact_br" not in rows[0] and "mean_antes" not in rows[0]
    assert (tmp_path / "curve.png").is_file()


def test_the_measured_mean_estimates_the_exact_greedy_value(
    run: tuple[Path, list[dict]], reference: curve.ExactReference
) -> None:
    """The two halves agree: on many deals the measured mean (converted to antes) lands
    near the exact value of the same greedy responder (units, seats and greedy play)."""
    _, rows = run
    row = rows[-1]
    measured = curve.approx_measurement(Path(row["checkpoint"]), "random", deals=1000, seed=5, workers=1)
    measured |= curve.measured_in_antes(measured, reference.params)
    assert abs(measured["mean_antes"] - row["exact_greedy"]) < 3 * measured["ci95_antes"]


def test_a_longer_curve_continues_the_runs(tmp_path: Path) -> None:
    argv = ["toy_stud", "random", *TOY, "--start", "64", "--deals", "2", *SMALL, "--out", str(tmp_path)]
    first = curve.main([*argv, "--doublings", "1", "--no-progress", "--json"])
    longer = curve.main([*argv, "--doublings", "2", "--no-progress", "--json"])
    assert longer[:2] == json.loads(json.dumps(first))  # kept, not measured again
    assert [r["updates"] for r in longer] == [1, 2, 4]
    assert len(list((tmp_path / "runs" / "seed_1").iterdir())) == 1  # the same run, continued


def test_parallel_jobs_train_the_same_runs(
    run: tuple[Path, list[dict]], tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """``--jobs 2`` trains both seeds at once in spawned processes: the same runs as one
    after another (same decisions, same exact values of every checkpoint), each showing
    its own progress bar labelled with its seed."""
    _, sequential = run
    argv = ["toy_stud", "random", *TOY, "--start", "128", "--doublings", "2", "--seeds", "1,2", "--deals", "4"]
    rows = curve.main([*argv, *SMALL, "--eval-seed", "7", "--jobs", "2", "--out", str(tmp_path), "--json"])
    err = capfd.readouterr().err
    for seed in (1, 2):  # the final state of each run's bar: all 8 updates
        assert re.search(rf"seed {seed}: 100%.*\b8/8\b", err), err[-2000:]
    assert len(rows) == len(sequential) == 6
    for parallel, alone in zip(rows, sequential, strict=True):
        for key in ("seed", "budget", "updates", "learner_decisions", "eval_seed", "mean", "exact_greedy"):
            assert parallel[key] == alone[key], key
        assert parallel["exact_sampled"] == pytest.approx(alone["exact_sampled"], abs=1e-12)
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["seed_1", "seed_2"]


def test_warm_start_rows_say_where_the_responder_started(tmp_path: Path) -> None:
    argv = ["toy_stud", "pretrained:toy_stud", "--start", "64", "--doublings", "0", "--deals", "2", "--no-exact"]
    argv += [*SMALL, "--set", "model.hidden=[64,64]", "--warm-start", "--out", str(tmp_path)]
    (row,) = curve.main([*argv, "--no-progress", "--json"])
    assert row["init_from"] == "pretrained:toy_stud"
    assert read_checkpoint(row["checkpoint"])["config"]["train"]["init_from"] == "pretrained:toy_stud"
