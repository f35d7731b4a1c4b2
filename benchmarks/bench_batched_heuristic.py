"""The heuristic bot's decisions per CPU second: ``BatchedHeuristic`` on B tables at once
against the scalar ``HeuristicAgent.act_batch``, measured in the same run.

Scalar: views of the seat to act collected along the scalar env played by the heuristic
at every seat, decided by ``act_batch`` in groups of ``--group`` views (64: the collector
calls it once per tick for the tables a bot plays). Batched: B tables of the batched
engine played by the bot itself (every table's seat to act decides; only the ``act``
calls are timed), so the streets mix as in play. Both draw 256 Monte Carlo samples per
decision and count CPU seconds of this process (the machine may be shared), one torch
thread unless ``--threads`` says otherwise.

Usage: ``python benchmarks/bench_batched_heuristic.py [--seconds 2] [--sizes 64 1024 4096]
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
from agents.heuristic import HeuristicAgent
from agents.heuristic.batched import BatchedHeuristic

# (label, variant, players, options)
CASES: list[tuple[str, str, int, dict[str, Any]]] = [
    ("stud heads-up", "stud", 2, {}),
    ("stud 6-max", "stud", 6, {}),
    ("razz heads-up", "razz", 2, {}),
    ("cowpie heads-up", "cowpie", 2, {}),
]
SIZES = (64, 1024, 4096)


def scalar_views(name: str, players: int, options: dict[str, Any], count: int) -> list[Any]:
    """Views of the seat to act along play by the heuristic itself at every seat (the
    batched side plays so too: both decide the same kind of situations)."""
    env = envs.make_raw(name, players, **options)
    bot = HeuristicAgent(seed=1)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    views: list[Any] = []
    while len(views) < count:
        state = env.state
        assert state is not None
        if state.is_over:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        view = env.public_view(env.possible_agents[state.current_seat])
        views.append(view)
        env.step(bot.act(None, view))
    return views


def scalar_rate(views: list[Any], group: int, seconds: float) -> float:
    """Decisions per CPU second of ``act_batch`` over groups of ``group`` views."""
    bot = HeuristicAgent(seed=0)
    decided, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for i in range(0, len(views), group):
            part = views[i : i + group]
            bot.act_batch([None] * len(part), part)
            decided += len(part)
    return decided / (time.process_time() - start)


def batched_rate(name: str, players: int, options: dict[str, Any], size: int, seconds: float, device: str) -> float:
    """Decisions per CPU second (per second on a GPU) of ``BatchedHeuristic.act``
    (every table decides)."""
    batch = eb.make(name, size, players, device=device, **options)
    out = batch.reset(seed=0)
    bot = BatchedHeuristic(batch, seed=0)
    rows = out.seat >= 0
    out = batch.step(bot.act(batch, rows))  # warm up
    clock = time.process_time if device == "cpu" else time.perf_counter  # a GPU's time is wall time
    decided, spent = 0, 0.0
    while spent < seconds:
        rows = out.seat >= 0
        start = clock()
        actions = bot.act(batch, rows)
        if device != "cpu":
            torch.cuda.synchronize()
        spent += clock() - start
        decided += int(rows.sum())
        out = batch.step(actions)
    return decided / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU time per row (default 2)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="batch sizes")
    parser.add_argument("--group", type=int, default=64, help="views per scalar act_batch call (default 64)")
    parser.add_argument("--only", nargs="+", default=None, help="case labels or variant names to run")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    print(f"heuristic decisions per CPU second, 256 samples, torch threads {args.threads}, device {args.device}")
    print("| case | bot | B | decisions/s | x scalar |")
    print("|---|---|---:|---:|---:|")
    for label, name, players, options in CASES:
        if args.only and label not in args.only and name not in args.only:
            continue
        views = scalar_views(name, players, options, 8 * args.group)
        scalar = scalar_rate(views, args.group, args.seconds)
        print(f"| {label} | HeuristicAgent.act_batch | {args.group} | {scalar:,.0f} | 1.0 |", flush=True)
        for size in args.sizes:
            rate = batched_rate(name, players, options, size, args.seconds, args.device)
            print(f"| {label} | BatchedHeuristic | {size} | {rate:,.0f} | {rate / scalar:.1f} |", flush=True)


if __name__ == "__main__":
    main()
