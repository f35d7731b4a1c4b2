"""Guarding a run: one process per run folder, resumes that cannot change what the
saved network depends on, opponents checked for the table at start, leftovers of a
killed save removed, and a diverged update stopped before it is saved."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import torch

import training.run as train
from agents.checkpoint import read_checkpoint, save_checkpoint
from agents.nets import PolicyNet
from agents.neural import Layout
from tests.train.test_train import only_run, scalars, tiny
from training.config import ConfigError
from training.runlock import LOCK_NAME, RunLock, RunLockedError
from training.trainer import DivergedError

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A stud run of two updates (refused resumes leave it as it is)."""
    return train.main(tiny(tmp_path_factory.mktemp("finished"))).run_dir


def latest_update(run_dir: Path) -> int:
    return int(read_checkpoint(run_dir / "checkpoints" / "latest.pt")["step"]["update"])


# ------------------------------------------------------------------ the lock
def test_second_train_process_is_refused_and_a_killed_ones_lock_is_taken_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real train.py in a child process holds the run; a --resume here is refused
    naming it; after a SIGKILL (no clean-up at all) the resume takes the lock over."""
    runs = tmp_path / "runs"
    child = subprocess.Popen(
        [sys.executable, "train.py", *tiny_args(runs), "--set", "train.updates=100000"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        run_dir = _wait_for_checkpoint(runs, child)
        # (a small budget: were the lock missing, this would end at once with another message)
        assert train.cli(["--resume", str(run_dir), "--set", "train.updates=1"]) == 2
        err = capsys.readouterr().err
        assert f"train.py: error: run folder {run_dir} is in use by pid {child.pid} on " in err
        assert "(started " in err
        assert train.cli(["--resume", str(run_dir), "--print-config"]) == 0  # reading needs no lock
        capsys.readouterr()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    assert (run_dir / LOCK_NAME).exists()  # SIGKILL left the lock file behind
    done = latest_update(run_dir)
    assert train.cli(["--resume", str(run_dir), "--set", f"train.updates={done + 1}"]) == 0
    err = capsys.readouterr().err
    assert f"was locked by pid {child.pid} on " in err and "no longer running" in err
    assert latest_update(run_dir) == done + 1
    assert not (run_dir / LOCK_NAME).exists()  # a finished run leaves no lock


def tiny_args(runs: Path) -> list[str]:
    """``tiny``'s settings as train.py arguments (two updates of a few dozen decisions)."""
    settings = [
        "train.updates=2",
        "train.checkpoint_every=1",
        "train.threads=1",
        "train.progress=false",
        f"train.runs_dir={runs}",
        "rollout.tables=4",
        "rollout.decisions=48",
        "model.hidden=[16]",
        "ppo.minibatch_size=32",
        "ppo.epochs=2",
        'eval.opponents=["random"]',
        "eval.every=0",
        "eval.deals=2",
    ]
    return [arg for setting in settings for arg in ("--set", setting)]


def _wait_for_checkpoint(runs: Path, child: subprocess.Popen[bytes]) -> Path:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        found = list(runs.glob("*/checkpoints/latest.pt"))
        if found:
            return found[0].parents[1]
        if child.poll() is not None:
            raise AssertionError(f"train.py exited early: {child.stderr.read().decode() if child.stderr else ''}")
        time.sleep(0.2)
    raise AssertionError("train.py wrote no checkpoint in 180 s")


def test_lock_is_exclusive_within_a_process_too_and_released(tmp_path: Path) -> None:
    with RunLock(tmp_path):
        owner = json.loads((tmp_path / LOCK_NAME).read_text())
        assert owner["pid"] == os.getpid() and owner["host"] and owner["started"]
        with pytest.raises(RunLockedError, match=rf"in use by pid {os.getpid()} on "):
            RunLock(tmp_path).acquire()
    assert not (tmp_path / LOCK_NAME).exists()
    notes: list[str] = []
    with RunLock(tmp_path, warn=notes.append):  # a cleanly released lock is no stale lock
        pass
    assert notes == []


def test_stale_lock_file_of_a_dead_process_is_taken_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = {"pid": dead.pid, "host": "elsewhere", "started": "2026-01-01 00:00:00"}
    notes: list[str] = []
    (tmp_path / LOCK_NAME).write_text(json.dumps(stale))
    with RunLock(tmp_path, warn=notes.append):
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    assert len(notes) == 1 and f"locked by pid {dead.pid} on elsewhere (started 2026-01-01 00:00:00)" in notes[0]
    # and through train.py: a resume of a run whose lock file a dead process left
    run_dir = train.main(tiny(tmp_path)).run_dir
    (run_dir / LOCK_NAME).write_text(json.dumps(stale))
    capsys.readouterr()
    assert train.cli(["--resume", str(run_dir), "--set", "train.updates=3"]) == 0
    assert f"warning: run folder {run_dir} was locked by pid {dead.pid}" in capsys.readouterr().err
    assert latest_update(run_dir) == 3 and not (run_dir / LOCK_NAME).exists()


# --------------------------------------------------------- what resume keeps
@pytest.mark.parametrize(
    ("setting", "shown"),
    [
        ("env.variant=razz", 'env.variant (run: "stud", now: "razz"): the network learned this variant'),
        ("env.num_players=3", "env.num_players (run: 2, now: 3)"),
        ("env.options={raise_cap = 2}", "env.options (run: {}, now: {raise_cap = 2}): the checkpoint records"),
        ("model.hidden=[32]", "model.hidden (run: [16], now: [32]): the saved weights have these widths"),
        ("model.shared=true", "model.shared (run: false, now: true)"),
        ("model.card_features=false", "model.card_features (run: true, now: false)"),
        ("train.seed=7", "train.seed (run: 1, now: 7)"),
        ("train.name=other", 'train.name (run: "ppo", now: "other")'),
    ],
)
def test_resume_refuses_to_change_what_the_network_depends_on(finished_run: Path, setting: str, shown: str) -> None:
    extra = ["model.privileged_critic=false"] if setting == "model.shared=true" else []  # shared excludes it
    with pytest.raises(ConfigError) as refused:
        train.main(resume=finished_run, overrides=["train.updates=3", setting, *extra])
    assert f"--resume {finished_run} cannot change {shown}" in str(refused.value)
    assert "Start a new run" in str(refused.value)
    assert latest_update(finished_run) == 2 and not (finished_run / LOCK_NAME).exists()


def test_help_says_what_resume_may_not_change(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        train.parse_args(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "not train.name, train.seed, env.variant, env.num_players, env.options, model.hidden, model.shared, " in text
    assert "one train.py at a time" in text


def test_resume_refusal_is_a_clear_cli_error(finished_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert train.cli(["--resume", str(finished_run), "--set", "env.variant=razz", "--set", "model.hidden=[8]"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"train.py: error: --resume {finished_run} cannot change env.variant (run: ")
    assert "; model.hidden (run: [16], now: [8])" in err and "Traceback" not in err


def test_resume_may_change_budget_training_settings_and_the_button(tmp_path: Path) -> None:
    first = train.main(tiny(tmp_path))
    changes = [
        "train.updates=3",
        "ppo.lr=1e-4",
        "rollout.tables=2",
        "pool.capacity=1",
        "eval.deals=4",
        "env.options={button = 1, raise_cap = 4}",  # the button's seat, and a default spelled out
    ]
    resumed = train.main(resume=first.run_dir, overrides=changes)
    config = read_checkpoint(resumed.checkpoint)["config"]
    assert resumed.updates == 3 and config["ppo"]["lr"] == 1e-4 and config["rollout"]["tables"] == 2
    assert config["env"]["options"] == {"button": 1, "raise_cap": 4}


# -------------------------------------------------------------- opponents
def checkpoint_for(tmp_path: Path, variant: str, num_players: int = 2) -> Path:
    layout = Layout.build(variant, num_players, {})
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8], card_groups=layout.card_groups())
    return save_checkpoint(tmp_path / f"{variant}{num_players}.pt", net=net, layout=layout, step={}, config={})


@pytest.mark.parametrize(
    ("setting", "table"),
    [("eval.opponents", ("razz", 2)), ("rollout.mix", ("razz", 2)), ("eval.opponents", ("stud", 3))],
    ids=["razz-in-eval", "razz-in-mix", "3-players-in-eval"],
)
def test_opponent_checkpoint_of_another_table_is_refused_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str, table: tuple[str, int]
) -> None:
    other = checkpoint_for(tmp_path, *table)
    runs = tmp_path / "runs"
    value = f'{{random = 0.5, "{other}" = 0.5}}' if setting == "rollout.mix" else f'["random", "{other}"]'
    argv = [*tiny_args(runs), "--set", f"{setting}={value}"]
    assert train.cli(argv) == 2
    err = capsys.readouterr().err
    assert f"train.py: error: bot '{other}' in {setting} cannot be loaded" in err
    assert "cannot play this table: it was trained for" in err and "not stud_v0, 2 players" in err
    assert not runs.exists()  # refused before anything was created or trained


def test_opponent_checkpoint_of_the_same_table_is_accepted(tmp_path: Path) -> None:
    same = checkpoint_for(tmp_path, "stud")
    config = tiny(tmp_path, None, f'eval.opponents=["{same}"]', f'rollout.mix={{"{same}" = 1.0}}', "train.updates=1")
    assert set(train.main(config).evaluation) == {f"{same}/greedy", f"{same}/sampled"}


def test_diverged_opponent_checkpoint_is_refused_at_start(tmp_path: Path) -> None:
    path = checkpoint_for(tmp_path, "stud")
    data = read_checkpoint(path)
    next(iter(data["weights"].values())).view(-1)[0] = float("inf")
    torch.save(data, path)
    with pytest.raises(ConfigError, match=r"eval\.opponents cannot be loaded \(refused to load .* 1 infinite"):
        train.main(tiny(tmp_path, None, f'eval.opponents=["{path}"]'))


# ------------------------------------------------- leftovers of a killed save
def test_resume_removes_temporaries_of_a_cut_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = train.main(tiny(tmp_path)).run_dir
    checkpoints = run_dir / "checkpoints"
    leftovers = [checkpoints / ".latest.pt.q1w2e3.tmp", checkpoints / ".update_000003.pt.zz9.tmp"]
    for path in leftovers:
        path.write_bytes(b"half a checkpoint")
    capsys.readouterr()
    assert train.cli(["--resume", str(run_dir), "--set", "train.updates=3"]) == 0
    err = capsys.readouterr().err
    assert not any(path.exists() for path in leftovers)
    for path in leftovers:
        assert f"train.py: note: removed {path.name}, left by a save that was cut short" in err
    assert latest_update(run_dir) == 3


# ----------------------------------------------------------- a diverged update
def poison_update(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """Make the ``at``-th PPO update of the process leave a NaN in the weights."""
    import training.trainer

    original = training.trainer.ppo_update
    calls = {"n": 0}

    def update(net: torch.nn.Module, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        out = original(net, *args, **kwargs)
        if calls["n"] == at:
            with torch.no_grad():
                next(net.parameters()).view(-1)[3] = float("nan")
        return out

    monkeypatch.setattr(training.trainer, "ppo_update", update)


def test_diverged_update_stops_and_keeps_the_last_finite_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    poison_update(monkeypatch, at=2)
    with pytest.raises(DivergedError) as stopped:
        train.main(tiny(tmp_path, None, "train.updates=3", "train.checkpoint_every=10"))
    run_dir = only_run(tmp_path / "runs")
    message = str(stopped.value)
    assert message.startswith("update 2 diverged: tensor weights.") and "holds 1 NaN" in message
    assert f"{run_dir / 'checkpoints' / 'latest.pt'} holds update 1, the last finite state" in message
    assert "smaller ppo.lr" in message
    saved = read_checkpoint(run_dir / "checkpoints" / "latest.pt")  # finite, or it would be refused
    assert saved["step"]["update"] == 1
    assert sorted(p.name for p in (run_dir / "checkpoints").iterdir()) == ["latest.pt", "update_000001.pt"]
    assert [v for _, v in scalars(run_dir)["charts/updates"]] == [1.0]  # nothing of the bad update logged
    assert not (run_dir / LOCK_NAME).exists()


def test_diverged_first_update_saves_nothing_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    poison_update(monkeypatch, at=1)
    assert train.cli([*tiny_args(tmp_path / "runs"), "--set", "train.updates=2"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("train.py: error: update 1 diverged: tensor weights.")
    assert "no checkpoint was written" in err
    assert not (only_run(tmp_path / "runs") / "checkpoints").exists()
