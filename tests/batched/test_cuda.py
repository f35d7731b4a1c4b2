"""On a CUDA device (skipped without one; ``benchmarks/gpu_check.sh`` runs it): the
batched engine on cuda agrees with the scalar env in lockstep, and its integer state
equals the CPU batch's, step for step."""

from __future__ import annotations

import pytest
import torch

import envs.batched as eb
from tests.batched.test_api import pick

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")


class _OnCpu:
    """The cuda batch seen through CPU tensors (the lockstep harness compares numpy)."""

    def __init__(self, batch: eb.TableBatch) -> None:
        self.batch = batch

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        return getattr(self.batch, name)

    @staticmethod
    def _cpu(out: eb.BatchStep) -> eb.BatchStep:
        return eb.BatchStep(*(t.cpu() for t in (out.observation, out.action_mask, out.seat, out.rewards, out.done)))

    def reset(self, **kwargs):  # type: ignore[no-untyped-def]
        return self._cpu(self.batch.reset(**kwargs))

    def step(self, actions: torch.Tensor):  # type: ignore[no-untyped-def]
        return self._cpu(self.batch.step(actions.to("cuda")))

    def observe(self, seat: int) -> torch.Tensor:
        return self.batch.observe(seat).cpu()

    @property
    def state(self):  # type: ignore[no-untyped-def]
        return type(self.batch.state)(**{k: v.cpu() for k, v in self.batch.state.tensors().items()})


@pytest.mark.parametrize(("name", "players"), [("stud", 2), ("stud", 8), ("stud_hilo_declare", 3), ("cowpie", 4)])
def test_lockstep_on_cuda(name: str, players: int) -> None:
    from tests.batched.lockstep import run_lockstep

    batch = _OnCpu(eb.make(name, 8, players, device="cuda", ante=1))
    tally = run_lockstep(name, players, 8, 120, 3, batch=batch, ante=1)  # type: ignore[arg-type]
    assert tally.hands > 0


@pytest.mark.parametrize("name", ["stud", "razz", "cowpie", "toy_stud"])
def test_cuda_integer_state_equals_cpu(name: str) -> None:
    cpu, gpu = eb.make(name, 512, 2), eb.make(name, 512, 2, device="cuda")
    a, b = cpu.reset(seed=11), gpu.reset(seed=11)
    for t in range(60):
        for key, mine in cpu.state.tensors().items():
            theirs = gpu.state.tensors()[key].cpu()
            assert torch.equal(mine, theirs), f"step {t}: {key}"
        assert torch.equal(a.observation, b.observation.cpu())
        act = pick(a, t, cpu.tables)
        a, b = cpu.step(act), gpu.step(act.cuda())
