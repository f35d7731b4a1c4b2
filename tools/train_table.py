"""Summarise finished training runs as the README's results table (markdown).

For each variant the newest run folder ``runs/<variant>__*`` with a final checkpoint is
read: the counters from ``checkpoints/latest.pt`` (updates, learner decisions, hands,
training seconds without the periodic evaluations) and the last evaluation logged to
TensorBoard (``eval/<bot>_per100`` and ``_ci95``: duplicate deals, 95% interval).
Nothing is re-measured here; the figures are the run's own.

``--plot FILE`` also draws every run's evaluation curves (result against each bot with
its 95% band, over learner decisions) into one PNG.

Usage: ``python tools/train_table.py [--runs runs] [--plot docs/training.png] [variant ...]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

VARIANTS = ["stud", "razz", "stud_hilo", "stud_hilo_declare", "cowpie", "cowboy", "cowgirl", "cowpattie", "chowaha"]
UNITS = {"cowboy": "antes per game", "cowgirl": "antes per game", "cowpattie": "antes per game"}
UNITS["chowaha"] = "big blinds per 100 hands"


def newest_run(runs: Path, variant: str) -> Path | None:
    """The most recent finished run of ``variant`` (folder names end in a timestamp)."""
    done = [d for d in runs.glob(f"{variant}__*") if (d / "checkpoints" / "latest.pt").is_file()]
    return max(done, key=lambda d: d.name.rsplit("__", 1)[-1], default=None)


def eval_curves(run: Path) -> dict[str, list[tuple[int, float, float]]]:
    """``{bot: [(learner decisions, mean, ci95), ...]}`` from the run's ``eval/`` scalars."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    out: dict[str, list[tuple[int, float, float]]] = {}
    for tag in events.Tags()["scalars"]:
        if tag.startswith("eval/") and tag.endswith("_per100"):
            bot = tag[len("eval/") : -len("_per100")]
            halves = events.Scalars(f"eval/{bot}_ci95")
            out[bot] = [(e.step, e.value, h.value) for e, h in zip(events.Scalars(tag), halves, strict=True)]
    return out


def last_eval(run: Path) -> dict[str, tuple[float, float]]:
    """``{bot: (mean, ci95)}`` of the run's last evaluation."""
    return {bot: (curve[-1][1], curve[-1][2]) for bot, curve in eval_curves(run).items()}


def plot(runs: dict[str, Path], path: Path) -> None:
    """One panel per variant: the result against each evaluation bot, with its 95% band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, len(runs))
    rows = -(-len(runs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, (variant, run) in zip(axes.flat, runs.items(), strict=False):
        for bot, curve in eval_curves(run).items():
            x = [c[0] / 1e6 for c in curve]
            y = [c[1] for c in curve]
            ax.plot(x, y, marker="o", label=f"vs {bot}")
            ax.fill_between(x, [c[1] - c[2] for c in curve], [c[1] + c[2] for c in curve], alpha=0.2)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title(variant)
        ax.set_xlabel("learner decisions (millions)")
        ax.set_ylabel(UNITS.get(variant, "big bets per 100 hands"), fontsize=8)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(runs) :]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def row(variant: str, run: Path) -> dict[str, Any]:
    """One table row: the run's counters and last evaluation."""
    from agents.checkpoint import read_checkpoint

    data = read_checkpoint(run / "checkpoints" / "latest.pt")
    counters = data.get("training", {}).get("counters", {})
    return {
        "variant": variant,
        "players": data["layout"]["num_players"],
        "updates": int(data["step"]["update"]),
        "decisions": int(data["step"]["decisions"]),
        "hands": int(data["step"]["hands"]),
        "minutes": float(counters.get("seconds", float("nan"))) / 60,
        "eval": last_eval(run),
        "deals": int(data["config"]["eval"]["deals"]),
        "run": run.name,
    }


def fmt(stat: tuple[float, float] | None) -> str:
    return "not run" if stat is None else f"{stat[0]:+.1f} ± {stat[1]:.1f}"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| variant | players | updates | learner decisions | training time | vs random | vs heuristic | unit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        unit = UNITS.get(r["variant"], "big bets per 100 hands")
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['updates']} | {r['decisions']:,} | "
            f"{r['minutes']:.1f} min | {fmt(r['eval'].get('random'))} | {fmt(r['eval'].get('heuristic'))} | {unit} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=VARIANTS, help="variants to list (default: all)")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs", help="folder holding the run folders")
    parser.add_argument("--plot", type=Path, help="also write the evaluation curves to this PNG")
    args = parser.parse_args(argv)
    found: dict[str, Path] = {}
    for variant in args.variants:
        run = newest_run(args.runs, variant)
        if run is None:
            print(f"{variant}: no finished run under {args.runs}", file=sys.stderr)
            continue
        found[variant] = run
    rows = [row(variant, run) for variant, run in found.items()]
    print(table(rows))
    if args.plot and found:
        plot(found, args.plot)
        print(f"wrote {args.plot}")
    for r in rows:
        print(f"{r['variant']}: {r['run']} ({r['hands']:,} hands, eval over {r['deals']} duplicate deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
