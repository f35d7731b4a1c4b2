"""Collection on Ray actors: learner decisions per second with 1, 2, 4... workers.

For each worker count, a :class:`training.ray_collector.RayCollector` is built exactly
as ``train.py --set rollout.backend="ray" --set rollout.workers=N`` builds it (the
default config unless ``--set`` changes it: two-player stud, 64 tables per actor, the
default table mix with the heuristic) and times whole rollouts of
``rollout.decisions`` learner decisions, after a warm-up rollout. Printed per count:

* learner decisions per second of wall-clock time (the training data rate) and the
  speed-up over one worker;
* per actor: learner decisions per second of the actor's own CPU time (what one free
  core gives; on a machine shared with other jobs the wall-clock figures understate it);
* the overhead of each rollout that is not playing: wall time of the whole collect minus
  the slowest actor's own collection time (broadcast, batches back, merge);
* the broadcast: bytes of the weights (and of a new pool snapshot, sent once per
  ``pool.snapshot_every``) and seconds until every actor has loaded them.

For reference the same config is timed with the local collector in this process.

Usage: ``python benchmarks/bench_ray_collect.py --workers 1 2 4 [--ray ADDRESS]
[--repeats 3] [--set rollout.decisions=8192 ...]``. Needs the ``ray`` extra.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evaluation.ray_cluster import LOCAL, import_ray, ray_session
from training.config import Config, load_config
from training.trainer import Trainer


def build(overrides: Sequence[str], backend: str, workers: int, address: str) -> Trainer:
    """A trainer (learner, pool, collector) for the config; nothing is written."""
    extra = [f'rollout.backend="{backend}"', f"rollout.workers={workers}", f'rollout.ray_address="{address}"']
    config: Config = load_config(None, [*overrides, *extra, 'eval.opponents=["random"]', "train.progress=false"])
    return Trainer(config, Path(tempfile.mkdtemp(prefix="bench_ray_")))


def time_rollouts(trainer: Trainer, repeats: int) -> dict[str, float]:
    """Median wall rate, per-actor CPU rate and overhead over ``repeats`` rollouts."""
    decisions = trainer.config.rollout.decisions
    collector: Any = trainer.collector
    torch.set_num_threads(1)
    collector.collect(decisions)  # warm-up: imports, first inference, snapshot nets
    ray = import_ray() if hasattr(collector, "actors") else None
    wall, per_actor, overhead = [], [], []
    for _ in range(repeats):
        cpu_before = ray.get([a.cpu_seconds.remote() for a in collector.actors]) if ray else [time.process_time()]
        began = time.perf_counter()
        _, stats = collector.collect(decisions)
        seconds = time.perf_counter() - began
        cpu_after = ray.get([a.cpu_seconds.remote() for a in collector.actors]) if ray else [time.process_time()]
        cpu = [b - a for a, b in zip(cpu_before, cpu_after, strict=True)]
        wall.append(stats.learner_decisions / seconds)
        per_actor.append(stats.learner_decisions / len(cpu) / statistics.mean(cpu))
        if ray:
            overhead.append(seconds - collector.last_actor_seconds)
    med = statistics.median
    return {"wall": med(wall), "per_actor_cpu": med(per_actor), "overhead": med(overhead) if overhead else 0.0}


def time_broadcast(trainer: Trainer, repeats: int) -> dict[str, float]:
    """Seconds until every actor holds the weights: steady state, and with a new snapshot."""
    ray = import_ray()
    collector: Any = trainer.collector
    out: dict[str, float] = {}
    for label, new_snapshot in (("weights", False), ("weights_and_snapshot", True)):
        times, sizes = [], []
        for k in range(repeats):
            if new_snapshot:
                trainer.pool.add(trainer.net, 1000 + k)
            began = time.perf_counter()
            ray.get(collector.broadcast())
            times.append(time.perf_counter() - began)
            sizes.append(collector.broadcast_bytes)
        out[f"{label}_seconds"] = statistics.median(times)
        out[f"{label}_bytes"] = statistics.median(sizes)
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4], help="Ray actor counts to time")
    parser.add_argument("--ray", default=LOCAL, metavar="ADDRESS", help="local (default), auto, ray://HOST:10001")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-local", action="store_true", help="skip the local collector's row")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="SECTION.KEY=VALUE")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Print the throughput table and the broadcast figures."""
    args = parse_args(argv)
    print(f"cores visible here: {os.cpu_count()}; settings: {' '.join(args.overrides) or 'defaults'}")
    print("| collector | learner decisions/s (wall) | speed-up | per actor, per CPU second | overhead per rollout |")
    print("|---|---:|---:|---:|---:|")
    base = None
    if not args.no_local:
        trainer = build(args.overrides, "local", 1, LOCAL)
        rates = time_rollouts(trainer, args.repeats)
        print(f"| local (this process) | {rates['wall']:,.0f} | | {rates['per_actor_cpu']:,.0f} | |")
    broadcast: dict[str, float] = {}
    with ray_session(args.ray, num_cpus=max(max(args.workers), os.cpu_count() or 1)):
        for workers in args.workers:
            trainer = build(args.overrides, "ray", workers, args.ray)
            rates = time_rollouts(trainer, args.repeats)
            base = base or rates["wall"]
            print(
                f"| Ray, {workers} worker(s) | {rates['wall']:,.0f} | {rates['wall'] / base:.2f}x | "
                f"{rates['per_actor_cpu']:,.0f} | {rates['overhead']:.2f} s |"
            )
            if workers == max(args.workers):
                broadcast = time_broadcast(trainer, args.repeats)
            trainer.collector.close()
    for label, what in (("weights", "the weights"), ("weights_and_snapshot", "the weights and a new snapshot")):
        size, seconds = broadcast[f"{label}_bytes"], broadcast[f"{label}_seconds"]
        print(f"broadcast of {what} to {max(args.workers)} actors: {size / 1e6:.2f} MB in {seconds * 1000:.0f} ms")


if __name__ == "__main__":
    main()
