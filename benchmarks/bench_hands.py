"""Hand-evaluation throughput on one core, against eval7, phevaluator and treys.

Prints, for batch sizes 1, 64, 4,096 and 100,000, evaluations per second (median of
several repeats of about 0.2 s each) for:

* seven-card high (``evaluate_high``), and the same hands through eval7, phevaluator
  and treys when they are installed (one Python call per hand: their native API);
* eight-or-better low of seven cards (``evaluate_low(..., qualifier=8)``);
* Cowpie: all 21 five/two splits of a seven-card hand, with legality (``cowpie_splits``);
* Chowaha: two hole cards, high and eight-or-better low over four boards
  (``best_board_hands``), counted in players per second;

plus the table build time, the cached load time and the tables' resident size.
Every figure uses the default (validating) API. Usage: ``python benchmarks/bench_hands.py``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable

import numpy as np

from envs.engine.cards import format_card
from envs.engine.hands import best_board_hands, cowpie_splits, evaluate_high, evaluate_low, tables
from envs.engine.hands.wild import WildRules, wild_high, wild_low
from envs.engine.hands.wild_split import wild_splits

BATCHES = (1, 64, 4096, 100_000)
LAYOUT_BOARDS = [[0, 1, 2, 9, 11], [3, 4, 5, 9, 11], [3, 4, 5, 10, 11], [6, 7, 8, 10, 11]]


def rate(fn: Callable[[], object], items: int, repeats: int, seconds: float = 0.2) -> float:
    """Items per second: median over repeats of a loop calibrated to ``seconds``."""
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-7)
    loops = max(1, int(seconds / once))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        times.append((time.perf_counter() - start) / loops)
    return items / statistics.median(times)


def peers(hands: np.ndarray) -> dict[str, Callable[[], object]]:
    """Per-hand loops through the peer libraries that are installed."""
    out: dict[str, Callable[[], object]] = {}
    try:
        import phevaluator

        rows = [tuple(int(c) for c in h) for h in hands]  # phevaluator uses our card numbering
        out["phevaluator"] = lambda: [phevaluator.evaluate_cards(*r) for r in rows]
    except ImportError:
        pass
    try:
        import eval7

        ecards = [[eval7.Card(format_card(int(c))) for c in h] for h in hands]
        out["eval7"] = lambda: [eval7.evaluate(h) for h in ecards]
    except ImportError:
        pass
    try:
        import treys

        evaluator = treys.Evaluator()
        tcards = [[treys.Card.new(format_card(int(c))) for c in h] for h in hands]
        out["treys"] = lambda: [evaluator.evaluate(h[:2], h[2:]) for h in tcards]
    except ImportError:
        pass
    return out


def table_costs() -> tuple[float, float, float]:
    """First build seconds (no cache), cached load seconds, resident MB."""
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DEALERS_CHOICE_CACHE_DIR"] = tmp
        start = time.perf_counter()
        built = tables.load_tables()
        build = time.perf_counter() - start
        start = time.perf_counter()
        tables.load_tables()
        load = time.perf_counter() - start
        del os.environ["DEALERS_CHOICE_CACHE_DIR"]
    return build, load, built.nbytes() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats per figure (median reported)")
    parser.add_argument("--no-peers", action="store_true", help="skip eval7, phevaluator and treys")
    parser.add_argument("--peer-max", type=int, default=4096, help="largest batch timed for the peers")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core

    build, load, megabytes = table_costs()
    print(f"tables: first build {build:.2f} s, cached load {load:.3f} s, resident {megabytes:.1f} MB\n")
    rng = np.random.default_rng(0)
    rows: dict[str, dict[int, float]] = {}
    for n in BATCHES:
        deal = np.argsort(rng.random((n, 52)), axis=1)[:, :14]
        seven = np.ascontiguousarray(deal[:, :7])
        down = np.zeros((n, 7), bool)
        down[:, [0, 1, 6]] = True
        hole, boards = deal[:, :2].copy(), deal[:, 2:][:, LAYOUT_BOARDS]
        joker_seven = np.ascontiguousarray(np.argsort(rng.random((n, 53)), axis=1)[:, :7])
        jobs: dict[str, Callable[[], object]] = {
            "7-card high": lambda s=seven: evaluate_high(s),
            "7-card 8-or-better low": lambda s=seven: evaluate_low(s, qualifier=8),
            "Cowpie 21 splits + legality": lambda s=seven, d=down: cowpie_splits(s, d),
            "Chowaha hi+lo, 4 boards (players)": lambda h=hole, b=boards: best_board_hands(h, b),
            # wild cards (docs/rules.md section 11): a 53-card deck, about one hand in
            # eight holds the joker; deuces: every hand as dealt from 52
            "7-card high, joker wild": lambda s=joker_seven: wild_high(s, "joker"),
            "7-card high, the bug": lambda s=joker_seven: wild_high(s, "bug"),
            "7-card high, deuces wild": lambda s=seven: wild_high(s, "deuces"),
            "7-card 8-or-better low, joker wild": lambda s=joker_seven: wild_low(s, "joker", 8),
            "Cowpie 21 splits, joker wild": lambda s=joker_seven, d=down: wild_splits(s, d, WildRules("joker")),
        }
        figures = {name: rate(fn, n, args.repeats) for name, fn in jobs.items()}
        if not args.no_peers and n <= args.peer_max:
            for name, fn in peers(seven).items():
                figures[f"7-card high: {name}"] = rate(fn, n, max(3, args.repeats // 2))
        for name, value in figures.items():
            rows.setdefault(name, {})[n] = value

    header = f"{'evaluations per second (one core)':40s}" + "".join(f"{n:>14,}" for n in BATCHES)
    print(header)
    print("-" * len(header))
    for name, by_batch in rows.items():
        cells = "".join(f"{by_batch[n] / 1e6:>13.2f}M" if n in by_batch else f"{'-':>14s}" for n in BATCHES)
        print(f"{name:40s}{cells}")
    ours = rows["7-card high"]
    print("\nslowdown of each wild-card evaluator against its natural one (same batch):")
    natural = {"high": "7-card high", "low": "7-card 8-or-better low", "Cowpie": "Cowpie 21 splits + legality"}
    for name, by_batch in rows.items():
        if "wild" in name or "bug" in name:
            base = rows[next(v for k, v in natural.items() if k in name)]
            print(f"{name:40s}" + "".join(f"{base[n] / by_batch[n]:>13.1f}x" for n in BATCHES))
    print("\nratio of evaluate_high to each peer (same hands, same batch):")
    for name, by_batch in rows.items():
        if name.startswith("7-card high: "):
            ratios = "".join(f"{ours[n] / by_batch[n]:>13.1f}x" if n in by_batch else f"{'-':>14s}" for n in BATCHES)
            print(f"{name[13:]:40s}{ratios}")


if __name__ == "__main__":
    main()
