"""Cost of a ``render_mode="rgb_array"`` frame (:mod:`envs.render`), per variant.

For every registered env at ``--players`` seats (the Cowboy family at its fewest if
fewer), plays random legal actions and renders the acting seat's picture before each
decision; prints the median milliseconds per frame over ``--frames`` frames (wall
clock, and the process's CPU time, which a busy shared machine disturbs less), the
first frame (fonts and card faces drawn and cached) apart.

Usage: ``python -m benchmarks.bench_render`` (from the repository root).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import envs
from envs.registry import ENV_SPECS
from envs.variants import get_variant


def frame_times(name: str, players: int, frames: int, seed: int = 0) -> tuple[float, list[float], list[float]]:
    """Seconds of the first frame, and of each later one (wall clock, CPU time)."""
    n = max(players, get_variant(name).seats[0])
    options = {"match_cap": 8} if get_variant(name).family == "cowboy" else {}
    env = envs.make_raw(name, n, render_mode="rgb_array", **options)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    times: list[float] = []
    cpu: list[float] = []
    first = 0.0
    while len(times) < frames:
        if env.state.is_over:
            env.reset()
        start, start_cpu = time.perf_counter(), time.process_time()
        env.render()
        elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
        if first == 0.0:
            first = elapsed
        else:
            times.append(elapsed)
            cpu.append(elapsed_cpu)
        legal = env.state.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])
    return first, times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args()
    print("| env | first frame (ms) | median ms/frame | median CPU ms/frame | frames/s |")
    print("|---|---:|---:|---:|---:|")
    for name in ENV_SPECS:
        first, times, cpu = frame_times(name, args.players, args.frames)
        median, median_cpu = statistics.median(times), statistics.median(cpu)
        print(f"| {name}_v0 | {1000 * first:.1f} | {1000 * median:.2f} | {1000 * median_cpu:.2f} | {1 / median:,.0f} |")


if __name__ == "__main__":
    main()
