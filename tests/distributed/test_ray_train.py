"""train.py with rollout.backend = "ray" on a real local Ray instance: two actors train,
the run is reproducible from its seed, and a resumed run replays the uninterrupted one
exactly (the actors' generators travel in the checkpoint)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
import torch

import training.run as train
from agents.checkpoint import read_checkpoint
from tests.distributed.conftest import NEEDS_RAY
from tests.train.test_train import only_run, scalars, tiny, training_state
from training.ray_collector import RayCollector

pytest.importorskip("ray", reason=NEEDS_RAY)

ON_RAY = ('rollout.backend="ray"', "rollout.workers=2", "rollout.decisions=40", "rollout.tables=3")
MIX = "rollout.mix={self = 0.3, pool = 0.4, random = 0.3}"  # pool tables: results flow back to the learner


def ray_run(tmp_path: Path, *extra: str) -> Any:
    return train.main(tiny(tmp_path, None, *ON_RAY, MIX, *extra))


def same_weights(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def same_workers(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The actors' generators (deal generator state and torch generator) are equal."""
    wa, wb = a["collector"]["workers"], b["collector"]["workers"]
    return len(wa) == len(wb) and all(
        x["rng"] == y["rng"] and torch.equal(x["generator"], y["generator"]) for x, y in zip(wa, wb, strict=True)
    )


@pytest.fixture(scope="module")
def first_run(local_ray: int, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return ray_run(tmp_path_factory.mktemp("first"))


def test_two_updates_on_two_actors_write_finite_checkpoints_and_logs(first_run: Any) -> None:
    assert first_run.updates == 2 and first_run.decisions >= 2 * 40
    data = read_checkpoint(first_run.checkpoint)
    state = data["training"]
    assert all(torch.isfinite(w).all() for w in state["weights"].values())
    assert data["config"]["rollout"]["backend"] == "ray" and data["config"]["rollout"]["workers"] == 2
    workers = state["collector"]["workers"]
    assert len(workers) == 2 and workers[0]["rng"] != workers[1]["rng"]  # each actor its own deals
    assert (first_run.run_dir / "checkpoints" / "update_000002.pt").exists()
    # the actors' results against pool snapshots reached the learner's pool (its scores)
    assert sum(s["hands"] for s in state["pool"]["snapshots"]) > 0
    logged = scalars(first_run.run_dir)
    assert [v for _, v in logged["charts/updates"]] == [1.0, 2.0]
    assert logged["charts/return_vs_pool"] and logged["losses/value_loss"]  # pool tables were played
    assert all(math.isfinite(v) for values in logged.values() for _, v in values)
    assert [step for step, _ in logged["charts/updates"]][-1] == first_run.decisions


@pytest.mark.slow  # two more Ray runs; exact resume on Ray (default run) already replays the same updates
def test_the_same_seed_trains_the_same_weights(first_run: Any, tmp_path: Path) -> None:
    again = ray_run(tmp_path)
    a, b = training_state(first_run.checkpoint), training_state(again.checkpoint)
    assert (again.decisions, again.hands) == (first_run.decisions, first_run.hands)
    assert same_weights(a["weights"], b["weights"]) and same_workers(a, b)
    assert [s["score"] for s in a["pool"]["snapshots"]] == [s["score"] for s in b["pool"]["snapshots"]]
    other = ray_run(tmp_path / "other", "train.seed=2")
    assert not same_weights(a["weights"], training_state(other.checkpoint)["weights"])


def test_an_interrupted_ray_run_resumes_exactly(
    local_ray: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = ("train.updates=3", "train.checkpoint_every=10")
    straight = ray_run(tmp_path / "a", *settings)

    original = RayCollector.collect
    calls = {"n": 0}

    def collect(self: RayCollector, min_decisions: int) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:  # during the third update's rollout
            raise KeyboardInterrupt
        return original(self, min_decisions)

    monkeypatch.setattr(RayCollector, "collect", collect)
    with pytest.raises(KeyboardInterrupt):
        ray_run(tmp_path / "b", *settings)
    monkeypatch.undo()
    run_dir = only_run(tmp_path / "b" / "runs")
    assert read_checkpoint(run_dir / "checkpoints" / "latest.pt")["step"]["update"] == 2

    resumed = train.main(resume=run_dir)  # new actors, generators from the checkpoint
    assert (resumed.updates, resumed.decisions, resumed.hands) == (straight.updates, straight.decisions, straight.hands)
    a, b = training_state(straight.checkpoint), training_state(resumed.checkpoint)
    assert same_weights(a["weights"], b["weights"]) and same_workers(a, b)
    assert [s["score"] for s in a["pool"]["snapshots"]] == [s["score"] for s in b["pool"]["snapshots"]]
    assert [v for _, v in scalars(run_dir)["charts/updates"]] == [1.0, 2.0, 3.0]


@pytest.mark.slow  # another Ray resume; the default run keeps the exact one
def test_resuming_with_another_worker_count_continues_with_a_note(
    first_run: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    run_dir = tmp_path / first_run.run_dir.name
    shutil.copytree(first_run.run_dir, run_dir)
    more = train.main(resume=run_dir, overrides=["train.updates=3", "rollout.workers=1"])
    assert more.updates == 3
    err = capsys.readouterr().err
    assert "holds the generators of 2 Ray workers and this run has 1 workers" in err and "does not replay" in err
    workers = training_state(more.checkpoint)["collector"]["workers"]
    assert len(workers) == 1


def test_more_workers_than_the_cluster_has_cpus_is_refused(local_ray: int, tmp_path: Path) -> None:
    """An actor that can never be placed would hang the run: refused at start instead."""
    from training.config import ConfigError

    workers = local_ray + 1
    with pytest.raises(ConfigError, match=f"rollout.workers = {workers} needs {workers} CPUs .* offers {local_ray}"):
        ray_run(tmp_path, f"rollout.workers={workers}")
    assert not (tmp_path / "runs").exists()


@pytest.mark.slow  # another Ray resume; the default run keeps the exact one
def test_a_local_run_resumes_on_ray_with_a_note(
    local_ray: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    local = train.main(tiny(tmp_path, None, MIX))
    more = train.main(resume=local.run_dir, overrides=["train.updates=3", 'rollout.backend="ray"', "rollout.workers=2"])
    assert more.updates == 3 and more.decisions > local.decisions
    assert "holds no Ray worker's generators (a local run) and this run has 2 workers" in capsys.readouterr().err
    assert len(training_state(more.checkpoint)["collector"]["workers"]) == 2
