"""What the line protocol costs: decisions per second of the skeleton bots through the
dealer, over pipes (``cmd:``) and over loopback TCP (``tcp://``), against the same rule
as an in-process bot in the same run, and the cost per decision in microseconds.

Two measures, for each of the Python and C skeletons over pipes and TCP:

* **match**: one duplicate match of the skeleton against ``call`` (``--deals`` deals, two
  seatings each) through :func:`evaluation.arena.run_match`, the program's start
  included; decisions/s are the skeleton's decisions over the match's time, and the
  protocol's cost ``(time - in-process time) / decisions``;
* **round trip**: the skeleton's decisions of that match recorded (observation and view)
  and replayed to it through :class:`evaluation.external.ExternalBot` in batches of
  ``--batch``: the cost of one decision on the wire alone (the view as JSON, the write,
  the bot's parse and answer, the read, the check), against the in-process bot's
  ``act`` on the same views. This measure needs no engine, so it is the steadier one
  on a busy machine.

The C skeleton is built with ``cc -O2``. Each figure is the best of ``--repeats`` runs
(batches), the least disturbed by other work on the machine, as ``timeit`` advises.

Usage: ``python benchmarks/bench_protocol.py [--variant stud] [--deals 300] [--repeats 5]``
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

import envs
from evaluation.arena import run_match
from evaluation.external import ExternalBot

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


class Recorder(InProcessSkeleton):
    """The in-process skeleton, keeping every (observation, view) it was asked about."""

    def __init__(self) -> None:
        self.asked: list[tuple[Any, Any]] = []

    def act(self, observation: Any, view: Any) -> int:
        self.asked.append((observation, view))
        return super().act(observation, view)


def round_trip(variant: str, spec: str | None, asked: list[tuple[Any, Any]], batch: int, repeats: int) -> float:
    """Microseconds per decision, the best batch: replayed to the bot program ``spec``
    (None: the in-process bot)."""
    bot: Any = InProcessSkeleton()
    if spec is not None:
        bot = ExternalBot(spec)
        bot.start(envs.make_raw(variant, 2))
    best = float("inf")
    try:
        for r in range(repeats):
            chunk = [asked[(r * batch + i) % len(asked)] for i in range(batch)]
            start = time.perf_counter()
            for observation, view in chunk:
                bot.act(observation, view)
            best = min(best, (time.perf_counter() - start) / batch)
    finally:
        if spec is not None:
            bot.close()
    return best * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--variant", default="stud", help="variant to play (default stud)")
    parser.add_argument("--deals", type=int, default=300, help="deals per match (default 300)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case; the best counts (default 5)")
    parser.add_argument("--batch", type=int, default=500, help="decisions per timed round-trip batch (default 500)")
    args = parser.parse_args(argv)
    if shutil.which("cc") is None:
        parser.error("needs a C compiler (cc) to build the C skeleton")
    folder = Path(tempfile.mkdtemp())
    c_bot = folder / "skeleton"
    subprocess.run(["cc", "-O2", "-o", str(c_bot), str(BOTS / "skeleton.c")], check=True)
    py = [sys.executable, str(BOTS / "skeleton.py")]

    def best(bot: Any) -> tuple[float, int]:
        runs = [timed(args.variant, bot, args.deals) for _ in range(args.repeats)]
        return min(r[0] for r in runs), runs[0][1]

    recorder = Recorder()
    run_match(args.variant, [recorder, "call"], deals=args.deals, seed=1)
    base, decisions = best(InProcessSkeleton())
    base_trip = round_trip(args.variant, None, recorder.asked, args.batch, args.repeats)
    print(f"{args.variant}: {args.deals} deals x 2 seatings against call ({decisions} skeleton decisions); "
          f"best of {args.repeats}; round trips in batches of {args.batch}\n")  # fmt: skip
    print(f"{'bot':26} {'match: decisions/s':>19} {'protocol us':>12} {'round trip: us':>15} {'protocol us':>12}")
    print(f"{'in-process skeleton':26} {decisions / base:19.0f} {'-':>12} {base_trip:15.1f} {'-':>12}")
    with serving([*py, "--serve", "127.0.0.1:0"]) as py_tcp, serving([str(c_bot), "--port", "0"]) as c_tcp:
        cases = [
            ("Python skeleton, pipes", "cmd:" + " ".join(py)),
            ("C skeleton, pipes", f"cmd:{c_bot}"),
            ("Python skeleton, TCP", py_tcp),
            ("C skeleton, TCP", c_tcp),
        ]
        for label, spec in cases:
            seconds, n = best(spec)
            assert n == decisions, "the same rule must make the same decisions"
            trip = round_trip(args.variant, spec, recorder.asked, args.batch, args.repeats)
            print(f"{label:26} {n / seconds:19.0f} {(seconds - base) / n * 1e6:12.1f} {trip:15.1f} "
                  f"{trip - base_trip:12.1f}")  # fmt: skip
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
