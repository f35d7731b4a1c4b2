"""Summarise finished training runs as the README's results table (markdown).

For each variant the newest run folder ``runs/<variant>__*`` with a final checkpoint is
read: the counters from ``checkpoints/latest.pt`` (updates, learner decisions, hands,
training seconds without the periodic evaluations) and the results of the run's final
verdict (``verdict.json``, written by ``python -m training.verdict``: thousands of
fresh duplicate deals, greedy and sampled, 95% intervals). A run without a verdict
shows its last in-training evaluation instead (``eval/<bot>/<mode>`` and ``_ci95``,
fewer deals), marked with an asterisk. Nothing is re-measured here; the figures are
the run's own.

``--plot FILE`` also draws every run's evaluation curves (result against each bot,
greedy and sampled, with its 95% band, over learner decisions) into one PNG.

Usage: ``dealers-choice train-table [--runs runs] [--plot docs/training.png] [variant ...]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from envs.variants import VARIANTS as REGISTRY
from envs.variants import get_variant
from evaluation.cli import prog_name

VARIANTS = list(REGISTRY)
UNITS = {
    name: f"{v.unit_name} per game" if v.episode == "game" else f"{v.unit_name} per 100 hands"
    for name, v in ((name, get_variant(name)) for name in VARIANTS)
}
MODES = ("/greedy", "/sampled")


def newest_run(runs: Path, variant: str) -> Path | None:
    """The most recent finished run of ``variant`` (folder names end in a timestamp)."""
    done = [d for d in runs.glob(f"{variant}__*") if (d / "checkpoints" / "latest.pt").is_file()]
    return max(done, key=lambda d: d.name.rsplit("__", 1)[-1], default=None)


def eval_curves(run: Path) -> dict[str, list[tuple[int, float, float]]]:
    """``{"<bot>/<mode>": [(learner decisions, mean, ci95), ...]}`` from the run's ``eval/`` scalars."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    tags = set(events.Tags()["scalars"])
    out: dict[str, list[tuple[int, float, float]]] = {}
    for tag in sorted(tags):
        if tag.startswith("eval/") and tag.endswith(MODES) and f"{tag}_ci95" in tags:
            key = tag[len("eval/") :]
            halves = events.Scalars(f"{tag}_ci95")
            out[key] = [(e.step, e.value, h.value) for e, h in zip(events.Scalars(tag), halves, strict=True)]
    return out


def results(run: Path) -> tuple[dict[str, tuple[float, float]], bool, int | None]:
    """``({"<bot>/<mode>": (mean, ci95)}, from the final verdict?, deals)``."""
    verdict = run / "verdict.json"
    if verdict.is_file():
        data = json.loads(verdict.read_text(encoding="utf-8"))
        found = {
            f"{bot}/{mode}": (r["mean"], r["ci95"])
            for bot, modes in data["results"].items()
            for mode, r in modes.items()
        }
        return found, True, int(data["deals"])
    return {key: (curve[-1][1], curve[-1][2]) for key, curve in eval_curves(run).items()}, False, None


def plot(runs: dict[str, Path], path: Path) -> None:
    """One panel per variant: the result against each evaluation bot, greedy (solid)
    and sampled (dashed), with its 95% band."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = min(3, len(runs))
    rows = -(-len(runs) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    for ax, (variant, run) in zip(axes.flat, runs.items(), strict=False):
        colors: dict[str, str] = {}
        for key, curve in eval_curves(run).items():
            bot, _, mode = key.rpartition("/")
            x = [c[0] / 1e6 for c in curve]
            y = [c[1] for c in curve]
            style = "-" if mode == "greedy" else "--"
            line = ax.plot(x, y, style, marker="o", markersize=3, label=f"vs {bot} ({mode})", color=colors.get(bot))
            colors[bot] = line[0].get_color()
            ax.fill_between(
                x, [c[1] - c[2] for c in curve], [c[1] + c[2] for c in curve], alpha=0.12, color=colors[bot]
            )
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_title(variant)
        ax.set_xlabel("learner decisions (millions)")
        ax.set_ylabel(UNITS.get(variant, "big bets per 100 hands"), fontsize=8)
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(runs) :]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def row(variant: str, run: Path) -> dict[str, Any]:
    """One table row: the run's counters and results."""
    from agents.checkpoint import read_checkpoint

    data = read_checkpoint(run / "checkpoints" / "latest.pt")
    counters = data.get("training", {}).get("counters", {})
    found, final, deals = results(run)
    return {
        "variant": variant,
        "players": data["layout"]["num_players"],
        "updates": int(data["step"]["update"]),
        "decisions": int(data["step"]["decisions"]),
        "hands": int(data["step"]["hands"]),
        "minutes": float(counters.get("seconds", float("nan"))) / 60,
        "results": found,
        "final": final,
        "deals": deals if deals is not None else int(data["config"]["eval"]["deals"]),
        "run": run.name,
    }


def fmt(stat: tuple[float, float] | None, final: bool) -> str:
    if stat is None:
        return "not run"
    mark = "" if final else "*"
    bold = "**" if final and stat[0] - stat[1] > 0 else ""
    return f"{bold}{stat[0]:+.1f} ± {stat[1]:.1f}{bold}{mark}"


COLUMNS = ("heuristic/greedy", "heuristic/sampled", "random/greedy", "random/sampled", "call/greedy")


def table(rows: list[dict[str, Any]]) -> str:
    heads = " | ".join(f"vs {c.replace('/', ' ')}" for c in COLUMNS)
    lines = [
        f"| variant | players | updates | learner decisions | training time | {heads} | deals | unit |",
        "|---|---|---|---|---|" + "---|" * len(COLUMNS) + "---|---|",
    ]
    for r in rows:
        unit = UNITS.get(r["variant"], "big bets per 100 hands")
        cells = " | ".join(fmt(r["results"].get(c), r["final"]) for c in COLUMNS)
        lines.append(
            f"| {r['variant']} | {r['players']} | {r['updates']} | {r['decisions']:,} | "
            f"{r['minutes']:.1f} min | {cells} | {r['deals']:,} | {unit} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog_name("train-table"), description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", default=VARIANTS, help="variants to list (default: all)")
    parser.add_argument("--runs", type=Path, default=Path("runs"), help="folder holding the run folders")
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
    print("\nbold: the 95% interval is above zero; *: last in-training evaluation (no verdict.json yet)")
    if args.plot and found:
        plot(found, args.plot)
        print(f"wrote {args.plot}")
    for r in rows:
        source = "verdict" if r["final"] else "in-training evaluation"
        print(f"{r['variant']}: {r['run']} ({r['hands']:,} hands; {source} over {r['deals']:,} duplicate deals)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
