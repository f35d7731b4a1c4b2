"""The toy-stud sweep: runs, exact scoring of the last iterate and the average,
continuing an interrupted sweep, and fresh seeds for the final stage."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from training.sweep import _shard, main, parse_space, sample_configs

TINY = [
    '--set=env.options={ranks="QKA", suits="cd", streets=2}',
    "--set=model.hidden=[16]",
    "--set=rollout.decisions=256",
    "--set=rollout.tables=16",
    "--set=eval.deals=10",
    "--set=eval.modes=['greedy']",
]


def test_spaces() -> None:
    assert parse_space("ppo.lr=1e-4:1e-3:log").log
    assert parse_space("model.hidden=[64,64],[128,128]").choices == ([64, 64], [128, 128])
    for bad in ("ppo.lr", "lr=1:2", "ppo.lr=2:1", "ppo.lr=0:1:log", "ppo.lr=[1"):
        with pytest.raises(ValueError, match=r"--space|TOML"):
            parse_space(bad)
    spaces = [parse_space("ppo.lr=1e-4:1e-3:log"), parse_space("ppo.epochs=2,4")]
    drawn = sample_configs(spaces, 50, seed=3)
    assert drawn == sample_configs(spaces, 50, seed=3)
    lrs = [c["ppo.lr"] for c in drawn]
    assert min(lrs) >= 1e-4 and max(lrs) <= 1e-3 and np.median(lrs) < 5.5e-4  # log-uniform leans low
    assert {c["ppo.epochs"] for c in drawn} == {2, 4}
    assert _shard("1/2") == (1, 2)
    for bad in ("2/2", "1", "a/b", "-1/2"):
        with pytest.raises(ValueError, match="--shard"):
            _shard(bad)


def test_sweep_scores_runs_exactly_and_continues(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sweep"
    argv = [*TINY, "--space=ppo.ent_coef=0.05:0.2:log", "--space=rollout.decisions=128,256", "--configs=2"]
    argv += ["--seeds=5", "--decisions=512"]
    argv += ["--checkpoints=2", f"--out={out}", "--no-progress"]
    table = main(argv)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and len(table) == 2
    for row in rows:
        assert row["iterates"] == 2 and row["decisions"] >= 512
        # the budget in updates follows each configuration's own rollout size
        assert row["decisions"] < 512 + 2 * row["settings"]["rollout.decisions"] + 200
        # the last iterate's score is the trainer's own eval/nash_conv at its last update
        events = EventAccumulator(row["run_dir"], size_guidance={"scalars": 0})
        events.Reload()
        logged = events.Scalars("eval/nash_conv")[-1].value
        assert row["last_nash_conv"] == pytest.approx(logged, rel=1e-5)
        assert row["average_nash_conv"] > 0 and row["last_nash_conv"] > 0
    assert table[0]["last"] <= table[1]["last"]
    assert "| config |" in capsys.readouterr().out
    main([*argv, "--shard=1/2"])  # every run is already there: nothing is trained again
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    with pytest.raises(SystemExit, match="fresh seeds"):
        main([*TINY, f"--from={out}", "--top=1", "--seeds=5", f"--out={tmp_path / 'final'}"])
