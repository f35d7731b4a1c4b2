"""Evaluation throughput: hands per second through the arena, per variant and worker count.

Plays ``call`` against ``random`` (duplicate deals, decision mix recorded, as
``evaluate.py`` does) for a fixed number of deals and prints hands per second with 1
worker and with every available core, plus the speed-up. Worker processes start with
``spawn`` (about a second each), so short runs gain little; the results themselves
are identical for any worker count (a test checks it).

Usage: ``python benchmarks/bench_evaluate.py [--deals 2000] [--variants stud cowpie]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evaluation.runner import MatchSpec, available_cores, play_matches

CASES = {
    "stud": (2, {}),
    "razz": (2, {}),
    "stud_hilo_declare": (2, {}),
    "cowpie": (2, {}),
    "chowaha": (2, {}),
    "cowboy": (3, {"match_cap": 8}),
}


def hands_per_second(variant: str, deals: int, workers: int) -> float:
    """Throughput of one call-vs-random match."""
    players, options = CASES[variant]
    spec = MatchSpec(variant, ("call", "random"), players, options=options, seed=1)
    start = time.perf_counter()
    (result,) = play_matches([spec], deals, workers=workers, progress=False)
    return len(result.hands) / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per measurement (default 2000)")
    parser.add_argument("--variants", nargs="+", default=list(CASES), choices=list(CASES))
    args = parser.parse_args(argv)
    cores = available_cores()
    print(f"call vs random, {args.deals} deals, duplicate; {cores} cores available")
    print(f"| variant | players | hands/s, 1 worker | hands/s, {cores} workers | speed-up |")
    print("|---|---:|---:|---:|---:|")
    for variant in args.variants:
        one = hands_per_second(variant, args.deals, 1)
        many = hands_per_second(variant, args.deals, cores) if cores > 1 else one
        print(f"| {variant} | {CASES[variant][0]} | {one:,.0f} | {many:,.0f} | {many / one:.2f}x |")


if __name__ == "__main__":
    main()
