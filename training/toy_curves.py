"""Plot exact NashConv curves on toy stud: PPO, PPO with the magnet, and CFR+.

Usage::

    dealers-choice toy-curves --run "PPO self-play=RUN_DIR" --run "PPO + magnet=RUN_DIR" \\
        --cfr "CFR+=SOLVE_LOG_DIR" --title "toy stud QKA x cdh" --out docs/toy_curves.png

Each ``--run`` is a ``train.py`` run folder (its TensorBoard ``eval/nash_conv`` against
the learner decisions and against wall-clock seconds); each ``--cfr`` a ``solve.py``
log folder (its ``curve.csv``). Left panel: NashConv against learner decisions, with
the final CFR+ level as a dashed line (CFR has no decisions). Right panel: NashConv
against wall-clock seconds for all of them. Log y axes. The figures behind the plot
are printed, so a report can quote them.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from evaluation.cli import prog_name

Curve = list[tuple[float, float, float]]  # (learner decisions or iteration, seconds, NashConv)


def run_curve(run_dir: Path) -> Curve:
    """``eval/nash_conv`` of a training run: (decisions, seconds since the first event, value)."""
    events = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    events.Reload()
    if "eval/nash_conv" not in events.Tags()["scalars"]:
        raise SystemExit(f"{run_dir} has no eval/nash_conv (is it a heads-up toy_stud run?)")
    start = min(e.wall_time for tag in events.Tags()["scalars"] for e in events.Scalars(tag))
    return [(float(e.step), e.wall_time - start, e.value) for e in events.Scalars("eval/nash_conv")]


def cfr_curve(log_dir: Path) -> Curve:
    """``curve.csv`` of a solve.py run: (iteration, seconds, NashConv)."""
    with (log_dir / "curve.csv").open() as f:
        return [(float(r["iteration"]), float(r["seconds"]), float(r["nash_conv"])) for r in csv.DictReader(f)]


def labelled(items: list[str]) -> list[tuple[str, Path]]:
    out = []
    for item in items:
        label, sep, path = item.partition("=")
        if not sep:
            raise SystemExit(f"expected LABEL=PATH, got {item!r}")
        out.append((label, Path(path)))
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(
        prog=prog_name("toy-curves"), description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--run", action="append", default=[], metavar="LABEL=RUN_DIR")
    p.add_argument("--cfr", action="append", default=[], metavar="LABEL=SOLVE_LOG_DIR")
    p.add_argument("--title", default="toy stud: exact NashConv")
    p.add_argument("--out", default="docs/toy_curves.png")
    args = p.parse_args(argv)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_decisions, by_seconds) = plt.subplots(1, 2, figsize=(11, 4.2))
    for label, path in labelled(args.run):
        curve = run_curve(path)
        by_decisions.plot([c[0] for c in curve], [c[2] for c in curve], marker="o", ms=3, label=label)
        by_seconds.plot([c[1] for c in curve], [c[2] for c in curve], marker="o", ms=3, label=label)
        print(f"{label}: " + ", ".join(f"{int(d):,} dec {s:.0f}s {v:.4f}" for d, s, v in curve))
    for label, path in labelled(args.cfr):
        curve = cfr_curve(path)
        it, seconds, final = curve[-1]
        by_decisions.axhline(
            final, ls="--", color="k", lw=1, label=f"{label} after {int(it)} iterations ({seconds:.0f}s)"
        )
        by_seconds.plot([c[1] for c in curve], [c[2] for c in curve], "k--", label=label)
        print(f"{label}: " + ", ".join(f"it {int(i)} {s:.1f}s {v:.5f}" for i, s, v in curve))
    for ax, xlabel in ((by_decisions, "learner decisions"), (by_seconds, "wall-clock seconds (shared CPU)")):
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("NashConv (antes per hand)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(args.title)
    fig.tight_layout()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.out, dpi=110)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
