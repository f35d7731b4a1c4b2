"""Toy stud sizes and solver speed on one core: the table in docs/exploitability.md.

For each option set (ranks x suits x streets) it prints the information sets per seat
(by formula, for every set), and for the sets whose estimated memory fits ``--max-gb``:
the time of an exact NashConv of the uniform policy (two best-response passes over the
full tree, CPU seconds), the peak resident memory of that process, the time to build
the descriptors of every information set (what a callable policy is fed), and DCFR's
CPU seconds per iteration on the suit-canonical tree. Each set runs in a fresh process
so peak memory is its own. Usage: ``python benchmarks/bench_solvers.py [--max-gb 8]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.toy import ToyParams, info_set_counts, perm_count

RANKS = ("JQKA", "TJQKA", "9TJQKA")
SUITS = ("cdh", "cdhs")
STREETS = (2, 3)
BYTES_PER_CELL = 8 * 40  # float64 arrays alive at once per (last-layer state, card), from measurements


def estimated_gb(params: ToyParams) -> float:
    """Rough peak memory of a full-tree best response: the last layer's arrays dominate."""
    n_last = perm_count(params.num_cards, 2 * params.streets)
    return n_last * params.num_cards * BYTES_PER_CELL / 1e9


def measure(params: ToyParams, cfr_iterations: int) -> dict[str, float]:
    """Run in a child process: NashConv(uniform), descriptors, DCFR iterations."""
    from solvers.cfr import CFRSolver
    from solvers.exploit import exploitability
    from solvers.infosets import InfoSets
    from solvers.tree import PublicTree

    start = time.process_time()
    tree = PublicTree(params)
    built = time.process_time()
    result = exploitability("uniform", tree, with_values=False)
    walked = time.process_time()
    infosets = InfoSets(tree)
    for lo in range(0, infosets.count, 1 << 18):
        infosets.batch(lo, min(lo + (1 << 18), infosets.count))
    described = time.process_time()
    out = {
        "tree_s": built - start,
        "nash_conv_uniform": result.nash_conv,
        "br_s": walked - built,
        "descriptors_s": described - walked,
    }
    del tree, infosets
    if cfr_iterations:
        solver = CFRSolver(params)
        solver.iterate(1)
        t = time.process_time()
        solver.iterate(cfr_iterations)
        out["cfr_s_per_iteration"] = (time.process_time() - t) / cfr_iterations
    out["peak_gb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    return out


def row(params: ToyParams, max_gb: float, cfr_iterations: int) -> dict[str, object]:
    counts = info_set_counts(params)
    entry: dict[str, object] = {
        "ranks": params.ranks,
        "suits": params.suits,
        "streets": params.streets,
        "cards": params.num_cards,
        "per_seat": counts["per_seat"],
        "estimated_gb": estimated_gb(params),
    }
    if entry["estimated_gb"] > max_gb:  # type: ignore[operator]
        return entry
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import bench_solvers as b; "
        "from solvers.toy import ToyParams; "
        f"print(json.dumps(b.measure(ToyParams(**{params.to_dict()!r}), {cfr_iterations})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ROOT / "benchmarks")], capture_output=True, text=True, cwd=ROOT, check=False
    )
    if done.returncode != 0:
        entry["error"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        return entry
    entry.update(json.loads(done.stdout.strip().splitlines()[-1]))
    return entry


def markdown(rows: list[dict[str, object]]) -> str:
    lines = [
        "| ranks | suits | streets | cards | info sets per seat | NashConv (2 BR) CPU s | peak GB "
        "| descriptors CPU s | DCFR CPU s / iteration |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        if "br_s" in r:
            measured = f"{r['br_s']:.2f} | {r['peak_gb']:.2f} | {r['descriptors_s']:.1f}" + (
                f" | {r['cfr_s_per_iteration']:.3f}" if "cfr_s_per_iteration" in r else " | -"
            )
        else:
            why = r.get("error", f"not run (about {r['estimated_gb']:.0f} GB)")
            measured = f"{why} | | |"
        lines.append(
            f"| {r['ranks']} | {r['suits']} | {r['streets']} | {r['cards']} | {r['per_seat']:,} | {measured} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, object]]:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-gb", type=float, default=8.0, help="skip sets estimated above this (default 8)")
    parser.add_argument("--cfr-iterations", type=int, default=3, help="DCFR iterations timed per set (0: skip)")
    parser.add_argument("--json", default=None, help="also write the rows here")
    args = parser.parse_args(argv)
    rows = []
    for ranks, suits, streets in itertools.product(RANKS, SUITS, STREETS):
        try:
            params = ToyParams(ranks=ranks, suits=suits, streets=streets)
        except ValueError:
            continue
        rows.append(row(params, args.max_gb, args.cfr_iterations if streets == 2 else 0))
        print(json.dumps(rows[-1]), flush=True)
    print(markdown(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return rows


if __name__ == "__main__":
    main()
