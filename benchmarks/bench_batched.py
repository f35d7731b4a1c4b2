"""Batched-engine throughput: decisions per second with the observation and mask built.

Every row plays uniform random legal actions (``torch.multinomial`` over the mask, on
the batch's device) through ``envs.batched`` for B tables at once; the scalar AEC env
(``envs.make_raw``, ``observe`` then ``step``, the observation vector and mask built at
every decision) runs the same variant in the same process right before, so the
ratio holds on a noisy machine. One CPU thread unless ``--threads`` says otherwise.
Memory per table counts the batch's state tensors and one observation row.

Two rates per row: decisions per second of wall time, and decisions per second of
this process's CPU time (``time.process_time``). On a quiet core they agree; on a
shared machine the wall rate falls with whatever else runs, while the CPU-time rate
estimates what one dedicated thread does. ``x scalar`` compares CPU-time rates.

Usage: ``python benchmarks/bench_batched.py [--seconds 1] [--sizes 1 64 1024 4096 16384]
[--only stud cowpie] [--device cpu]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import time
from typing import Any

import numpy as np
import torch

import envs
import envs.batched as eb

# (label, variant, players, options)
CASES: list[tuple[str, str, int, dict[str, Any]]] = [
    ("stud heads-up", "stud", 2, {}),
    ("stud 6-max", "stud", 6, {}),
    ("razz heads-up", "razz", 2, {}),
    ("cowpie heads-up", "cowpie", 2, {}),
    ("toy_stud", "toy_stud", 2, {}),
]
SIZES = (1, 64, 1024, 4096, 16384)


def scalar_rate(name: str, players: int, options: dict[str, Any], seconds: float) -> tuple[float, float]:
    """(decisions per wall second, per CPU second) of the scalar AEC env with random legal play."""
    env = envs.make_raw(name, players, **options)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    decisions, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            agent = env.agent_selection
            if env.terminations[agent]:
                env.reset()
                continue
            obs = env.observe(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            decisions += 1
    return decisions / (time.perf_counter() - start), decisions / (time.process_time() - cpu)


def batched_rate(
    name: str, players: int, options: dict[str, Any], b: int, seconds: float, device: str
) -> tuple[float, float, float]:
    """(decisions per wall second, per CPU second, bytes per table) of a batch of ``b`` tables."""
    batch = eb.make(name, b, players, device=device, **options)
    out = batch.reset(seed=0)
    gen = torch.Generator(device=device).manual_seed(0)

    def one() -> eb.BatchStep:
        actions = torch.multinomial(out.action_mask.float(), 1, generator=gen).squeeze(1)
        return batch.step(actions)

    for _ in range(3):
        out = one()
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    sync()
    steps, start, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds or steps < 2:
        out = one()
        steps += 1
        if device.startswith("cuda") and steps % 10 == 0:
            sync()
    sync()
    rate, cpu_rate = steps * b / (time.perf_counter() - start), steps * b / (time.process_time() - cpu)
    state = sum(t.element_size() * t.numel() for t in batch.state.tensors().values())
    last = sum(t.element_size() * t.numel() for t in batch.last.tensors().values())
    return rate, cpu_rate, (state + last) / b + 4 * (batch.observation_size + batch.num_actions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row (default 1)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="batch sizes")
    parser.add_argument("--only", nargs="+", default=None, help="case labels or variant names to run")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args(argv)
    torch.set_num_threads(args.threads)
    cases = [c for c in CASES if args.only is None or c[0] in args.only or c[1] in args.only]
    print(f"device {args.device}, {args.threads} thread(s), {args.seconds:g} s per row, random legal play")
    print("| case | B | decisions/s (wall) | decisions per CPU s | x scalar | bytes/table |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, name, players, options in cases:
        scalar, scalar_cpu = scalar_rate(name, players, options, args.seconds)
        print(f"| {label} | scalar AEC | {scalar:,.0f} | {scalar_cpu:,.0f} | 1.0 | |", flush=True)
        for b in args.sizes:
            rate, cpu_rate, per_table = batched_rate(name, players, options, b, args.seconds, args.device)
            ratio = cpu_rate / scalar_cpu
            print(f"| {label} | {b} | {rate:,.0f} | {cpu_rate:,.0f} | {ratio:.1f} | {per_table:,.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
