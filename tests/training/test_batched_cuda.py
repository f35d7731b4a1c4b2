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
from training.config import load_config
from training.evaluation import duplicate_match
from training.ppo import ppo_update

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


def test_a_cuda_update_equals_the_cpu_update_on_the_same_batch() -> None:
    """The PPO update on the GPU (where the learner lives with train.device = "cuda")
    gives the CPU's weights within float tolerance: same batch, same minibatch order."""
    layout = Layout.build("stud", 2, {})
    net = tiny_net(layout, privileged=True)
    batch, _ = batched(net, 2, {"self": 0.5, "random": 0.5}, tables=32).collect(400)
    results = []
    for device in ("cpu", "cuda"):
        copy = tiny_net(layout, privileged=True).to(device)
        copy.load_state_dict(net.state_dict())
        optimizer = torch.optim.Adam(copy.parameters(), lr=3e-4, eps=1e-5)
        ppo_update(copy, optimizer, batch, load_config(None, []).ppo, np.random.default_rng(3))
        results.append({k: v.cpu() for k, v in copy.state_dict().items()})
    for name, weight in results[0].items():
        assert torch.allclose(weight, results[1][name], rtol=1e-4, atol=1e-5), name
