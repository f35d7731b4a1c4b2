"""What the line protocol costs: decisions per second of the skeleton bots through the
dealer, over pipes (``cmd:``) and over loopback TCP (``tcp://``), against the same rule
as an in-process bot in the same run, and the cost per decision in microseconds.

Each case plays one duplicate match of the skeleton against ``call`` (``--deals``
deals, two seatings each) through :func:`evaluation.arena.run_match`; the cost per
decision is ``(time - in-process time) / the skeleton's decisions``: everything the
protocol adds (the view as JSON, the bot's parse and answer, the pipe or socket, the
check of the answer), the program's start included. The C skeleton is built with
``cc -O2``. The best of ``--repeats`` runs (the least disturbed by other work on the
machine, as ``timeit`` advises); the dealer and a bot each keep one core busy at most.

Usage: ``python benchmarks/bench_protocol.py [--variant stud] [--deals 300] [--repeats 3]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.arena import run_match

BOTS = ROOT / "examples" / "bots"


class InProcessSkeleton:
    """The skeletons' rule as an in-process bot (the baseline: no protocol at all)."""

    name = "in-process skeleton"

    def act(self, observation: Any, view: Any) -> int:
        names, actions = view.legal_names, view.legal_actions
        ranks = [c // 4 for c in (*view.own_cards, *view.community)]
        strong = len(ranks) != len(set(ranks))
        for wanted, ok in (("check_call", strong or view.to_call == 0), ("stay", strong),
                           ("discard_none", True), ("fold", True)):  # fmt: skip
            if ok and wanted in names:
                return actions[names.index(wanted)]
        return actions[0]


def timed(variant: str, bot: Any, deals: int) -> tuple[float, int]:
    """Seconds for the match and the bot's decisions in it."""
    start = time.perf_counter()
    result = run_match(variant, [bot, "call"], deals=deals, seed=1, record_decisions=True)
    seconds = time.perf_counter() - start
    assert result.forfeit is None, result.forfeit
    decisions = sum(1 for h in result.hands for seat, _, _ in h.decisions if h.lineup[seat] == 0)
    return seconds, decisions


@contextmanager
def serving(argv: list[str]) -> Iterator[str]:
    """A skeleton serving on a free loopback port, as a ``tcp://`` spec."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        yield "tcp://" + proc.stdout.readline().split()[1]
    finally:
        proc.kill()
        proc.wait()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="stud", help="variant to play (default stud)")
    parser.add_argument("--deals", type=int, default=300, help="deals per match (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case; the best counts (default 5)")
    args = parser.parse_args(argv)
    if shutil.which("cc") is None:
        parser.error("needs a C compiler (cc) to build the C skeleton")
    folder = Path(tempfile.mkdtemp())
    c_bot = folder / "skeleton"
    subprocess.run(["cc", "-O2", "-o", str(c_bot), str(BOTS / "skeleton.c")], check=True)
    py = [sys.executable, str(BOTS / "skeleton.py")]

    def median(bot: Any) -> tuple[float, int]:
        runs = [timed(args.variant, bot, args.deals) for _ in range(args.repeats)]
        return min(r[0] for r in runs), runs[0][1]

    base, decisions = median(InProcessSkeleton())
    print(f"{args.variant}: {args.deals} deals x 2 seatings against call; best of {args.repeats} runs\n")
    print(f"{'bot':34} {'decisions/s':>12} {'us/decision':>12} {'protocol us':>12}")
    print(f"{'in-process skeleton (no protocol)':34} {decisions / base:12.0f} {base / decisions * 1e6:12.1f} {'-':>12}")
    with serving([*py, "--serve", "127.0.0.1:0"]) as py_tcp, serving([str(c_bot), "--port", "0"]) as c_tcp:
        cases = [
            ("Python skeleton, pipes", "cmd:" + " ".join(py)),
            ("C skeleton, pipes", f"cmd:{c_bot}"),
            ("Python skeleton, TCP", py_tcp),
            ("C skeleton, TCP", c_tcp),
        ]
        for label, spec in cases:
            seconds, n = median(spec)
            assert n == decisions, "the same rule must make the same decisions"
            extra = (seconds - base) / n * 1e6
            print(f"{label:34} {n / seconds:12.0f} {seconds / n * 1e6:12.1f} {extra:12.1f}")
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
