"""The Ray collector's settings and merging, checked without Ray: these run in every
install (the ``ray`` extra or not)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import training.run as train
from tests.train.test_train import tiny
from training.config import ConfigError, load_config
from training.episodes import Batch
from training.ray_collector import merge_batches, merge_stats, shares, worker_seed
from training.rollout import RolloutStats


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (['rollout.backend="spark"'], 'rollout.backend = "spark" is out of range: it must be one of local, ray'),
        (['rollout.backend="ray"', "rollout.workers=0"], "rollout.workers = 0 is out of range: it must be between 1"),
        (
            ["rollout.workers=2"],
            'rollout.workers = 2 is out of range: it must be 1 with rollout.backend = "local", which collects in '
            'this process (set rollout.backend = "ray"',
        ),
        (
            ['rollout.backend="ray"', "rollout.workers=9", "rollout.decisions=8"],
            "rollout.workers = 9 is out of range: it must be at most rollout.decisions",
        ),
        (['rollout.backend="ray"', 'rollout.ray_address=" "'], "rollout.ray_address"),
    ],
    ids=["unknown-backend", "no-workers", "workers-with-local", "more-workers-than-decisions", "blank-address"],
)
def test_bad_ray_settings_are_refused_by_name(settings: list[str], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(None, settings)
    assert message in str(info.value)


def test_the_defaults_collect_locally_on_one_worker() -> None:
    rollout = load_config(None, []).rollout
    assert (rollout.backend, rollout.workers, rollout.ray_address) == ("local", 1, "local")
    default_toml = (Path(__file__).resolve().parents[2] / "configs" / "default.toml").read_text()
    assert 'backend = "local"' in default_toml and "workers = 1" in default_toml  # regenerated


def test_ray_backend_without_ray_is_a_clear_error_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    with pytest.raises(ConfigError, match=r'rollout.backend = "ray" needs Ray\. Ray is not installed: pip install'):
        train.main(tiny(tmp_path, None, 'rollout.backend="ray"', "rollout.workers=2"))
    assert not (tmp_path / "runs").exists()


def test_shares_split_the_decisions_and_cover_them() -> None:
    assert shares(8192, 3) == [2731, 2731, 2730]
    assert shares(5, 5) == [1] * 5
    assert sum(shares(1001, 4)) == 1001


def test_worker_seeds_differ_by_index_and_do_not_collide_with_the_trainers() -> None:
    trainer_children = np.random.SeedSequence(7).spawn(2)
    states = [s.generate_state(4).tolist() for s in trainer_children]
    states += [worker_seed(7, i).generate_state(4).tolist() for i in range(3)]
    assert len({tuple(s) for s in states}) == 5
    # worker i's seed depends on the seed and i only, not on how many workers there are
    spawned = np.random.SeedSequence(7).spawn(4)[3]
    assert worker_seed(7, 1).generate_state(4).tolist() == spawned.generate_state(4).tolist()


def _batch(rows: int, start: float, *, priv: bool) -> Batch:
    values = np.arange(start, start + rows, dtype=np.float32)
    return Batch(
        obs=np.tile(values[:, None], (1, 3)),
        masks=np.ones((rows, 2), bool),
        actions=np.arange(rows, dtype=np.int64),
        logps=values,
        values=values,
        advantages=values,
        returns=values,
        priv=np.tile(values[:, None], (1, 4)) if priv else None,
    )


def test_batches_merge_in_worker_order() -> None:
    merged = merge_batches([_batch(2, 0.0, priv=True), _batch(3, 10.0, priv=True)])
    assert len(merged) == 5 and merged.values.tolist() == [0.0, 1.0, 10.0, 11.0, 12.0]
    assert merged.priv is not None and merged.priv[:, 0].tolist() == merged.values.tolist()
    assert merged.cands is None and merged.obs.shape == (5, 3)


def test_stats_merge_counts_and_lists_in_worker_order() -> None:
    a = RolloutStats(decisions=10, learner_decisions=6, hands=2, seconds=5.0, returns=[1.0], lengths=[4, 6])
    a.returns_vs_bots = {"random": [1.0]}
    b = RolloutStats(decisions=7, learner_decisions=4, hands=1, seconds=3.0, returns=[-2.0], lengths=[7])
    b.returns_vs_bots = {"random": [-3.0], "call": [0.5]}
    merged = merge_stats([a, b])
    assert (merged.decisions, merged.learner_decisions, merged.hands) == (17, 10, 3)
    assert merged.returns == [1.0, -2.0] and merged.lengths == [4, 6, 7]
    assert merged.returns_vs_bots == {"random": [1.0, -3.0], "call": [0.5]}
    assert merged.seconds == 0.0  # the caller's: the parallel rollout's wall time
