"""The batched collector and evaluation on a GPU (skipped where torch sees none):
the same checks as on the CPU, with the tables, networks and buffers on cuda."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import training.run as train
from agents.loading import load
from agents.neural import Layout
from tests.train.test_train import tiny, training_state
from tests.training.test_batched_rollout import batched, tiny_net
from tests.training.test_batched_train import BATCHED, NO_HEURISTIC
from training.batched_evaluation import batched_match
from training.evaluation import duplicate_match

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


def test_cuda_collector_fills_a_valid_batch_on_a_clean_boundary() -> None:
    layout = Layout.build("stud", 3, {})
    c = batched(tiny_net(layout, privileged=True), 3, {"self": 0.5, "random": 0.5}, tables=64, device="cuda")
    batch, stats = c.collect(500)
    assert c.sync_free and stats.learner_decisions >= 500 and len(batch) == stats.learner_decisions
    assert batch.masks[np.arange(len(batch)), batch.actions].all()
    assert batch.priv is not None and np.isfinite(batch.advantages).all()


def test_cuda_evaluation_gives_the_scalar_results_for_deterministic_play() -> None:
    layout = Layout.build("stud", 2, {})
    net = tiny_net(layout)
    scalar = duplicate_match(net, layout, load("call", seed=0), deals=20, seed=5, greedy=True)
    cuda = batched_match(net, layout, "call", deals=20, seed=5, greedy=True, device="cuda")
    assert np.array_equal(scalar.per_set, cuda.per_set)


def test_cuda_training_runs_to_finite_weights(tmp_path: Path) -> None:
    result = train.main(tiny(tmp_path, None, *BATCHED, NO_HEURISTIC, "train.device=cuda"))
    weights = training_state(result.checkpoint)["weights"]
    assert result.updates == 2 and all(bool(torch.isfinite(w).all()) for w in weights.values())
