"""Evaluation reports: one JSON-ready dict, and its views (terminal table, CSV, PNG).

The dict built by ``evaluate.py`` is the source of truth; everything here only
formats it, so the files and the table always agree. Plots use matplotlib's Agg
backend (no display needed).
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# (mix key, column header, format) in display order; columns appear when some bot has the key
MIX_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("vpip", "VPIP%", "pct"),
    ("aggression", "AF", "f2"),
    ("aggression_freq", "AFq%", "pct"),
    ("fold", "fold%", "pct"),
    ("showdown", "SD/hand", "f2"),
    ("declare_low", "low%", "pct"),
    ("declare_high", "high%", "pct"),
    ("declare_both", "both%", "pct"),
    ("split_pair", "2c pair%", "pct"),
    ("split_top", "2c top", "f1"),
    ("split_illegal", "illegal%", "pct"),
    ("stay", "stay%", "pct"),
    ("draw_mean", "draw", "f2"),
)
FORMATS: dict[str, Callable[[float], str]] = {
    "pct": lambda v: f"{100 * v:.1f}",
    "f2": lambda v: f"{v:.2f}",
    "f1": lambda v: f"{v:.1f}",
}


def clean(value: Any) -> Any:
    """JSON-safe copy: NaN and infinities become None (strict JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean(v) for v in value]
    return value


# ------------------------------------------------------------------ terminal
def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    first = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    lines = [first, "-" * len(first)]
    for row in rows:
        cells = zip(row, widths, strict=True)
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(cells)))
    return lines


def _pm(mean: float | None, half: float | None, digits: int = 2) -> str:
    if mean is None:
        return "-"
    return f"{mean:+.{digits}f} ± {half:.{digits}f}" if half is not None else f"{mean:+.{digits}f} ± inf"


def _mix_columns(bots: Sequence[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [c for c in MIX_COLUMNS if any(c[0] in b["mix"] for b in bots)]


def _mix_cells(bot: dict[str, Any], columns: Sequence[tuple[str, str, str]]) -> list[str]:
    return [FORMATS[fmt](bot["mix"][key]) if key in bot["mix"] else "-" for key, _, fmt in columns]


def headline(report: dict[str, Any]) -> list[str]:
    """What was played, in two lines."""
    play = "duplicate" if report["duplicate"] else "single seating per deal"
    opts = ", ".join(f"{k}={v!r}" for k, v in report["options"].items()) or "default options"
    first = (
        f"{report['title']} ({report['variant']}), {report['num_players']} players, {opts}: "
        f"{report['deals']:,} deals, {report['hands']:,} hands ({play}, seating {report['seating']}, "
        f"seed {report['seed']})"
    )
    return [first, f"Results in {report['rate_label']}, 95% CI over {report['deals']:,} duplicate sets"]


def format_table(report: dict[str, Any]) -> str:
    """The report as text for the terminal."""
    bots = report["bots_summary"]
    columns = _mix_columns(bots)
    lines = [*headline(report), ""]
    if report["mode"] == "tournament":
        header = ["bot", "Elo", "Elo 95% CI", "vs field", "field 95% CI", "win%", *(c[1] for c in columns)]
        rows = [
            [
                b["name"],
                f"{b['elo']:+.0f}",
                f"[{b['elo_low']:+.0f}, {b['elo_high']:+.0f}]",
                f"{b['mean']:+.2f}" if b["mean"] is not None else "-",  # None: every match forfeited
                f"[{b['ci_low']:+.2f}, {b['ci_high']:+.2f}]" if b["ci_low"] is not None else "-",
                FORMATS["pct"](b["win_rate"]) if b["win_rate"] is not None else "-",
                *_mix_cells(b, columns),
            ]
            for b in sorted(bots, key=lambda b: -b["elo"])
        ]
        lines += _table(header, rows)
        lines += ["", f"Row bot's result against column bot ({report['rate_label']}, ± 95% CI)"]
        lines += _matrix_lines(report)
        lines += [
            "",
            "Elo: Bradley-Terry on duplicate-set wins; vs field: mean result against the others; "
            f"intervals: {report['bootstrap']} bootstrap resamples of the deals.",
        ]
    else:
        header = ["bot", "result", "95% CI", "win%", "hands", *(c[1] for c in columns)]
        rows = [
            [
                b["name"],
                _pm(b["mean"], b["half_width"]),
                f"[{b['ci_low']:+.2f}, {b['ci_high']:+.2f}]" if b["ci_low"] is not None else "-",
                FORMATS["pct"](b["win_rate"]),
                f"{b['seat_hands']:,}",
                *_mix_cells(b, columns),
            ]
            for b in bots
        ]
        lines += _table(header, rows)
    return "\n".join(lines)


def _matrix_lines(report: dict[str, Any]) -> list[str]:
    names = report["names"]
    mean, half = report["matrix"]["mean"], report["matrix"]["half_width"]
    rows = [
        [names[i], *("." if i == j else _pm(mean[i][j], half[i][j], 1) for j in range(len(names)))]
        for i in range(len(names))
    ]
    return _table(["", *names], rows)


# --------------------------------------------------------------------- files
def write_json(report: dict[str, Any], path: Path) -> None:
    """The whole report as strict JSON."""
    path.write_text(json.dumps(clean(report), indent=2) + "\n")


def write_csv(report: dict[str, Any], directory: Path) -> list[Path]:
    """``bots.csv`` (one row per bot) and, for a tournament, ``pairs.csv``."""
    bots = report["bots_summary"]
    mix_keys = sorted({k for b in bots for k in b["mix"]})
    fixed = [k for k in bots[0] if k != "mix"]
    paths = [directory / "bots.csv"]
    with paths[0].open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([*fixed, *mix_keys])
        for b in bots:
            writer.writerow([_csv(b[k]) for k in fixed] + [_csv(b["mix"].get(k)) for k in mix_keys])
    if report["mode"] == "tournament":
        paths.append(directory / "pairs.csv")
        with paths[1].open("w", newline="") as f:
            writer = csv.writer(f)
            fields = ["bot", "opponent", "mean", "half_width", "ci_low", "ci_high", "sets", "set_win_rate"]
            writer.writerow(fields)
            for p in report["pairs"]:
                writer.writerow([_csv(p[k]) for k in fields])
    return paths


def _csv(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return ""
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def write_plot(report: dict[str, Any], path: Path) -> None:
    """PNG: each bot's result with its interval; for a tournament, the ratings with
    intervals and the pairwise matrix as a heat map."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if report["mode"] == "tournament":
        k = len(report["names"])
        fig, (elo, field, heat) = plt.subplots(
            1, 3, figsize=(11 + 0.8 * k, 2 + 0.7 * max(k, 3)), width_ratios=[1, 1, 1.2]
        )
        _interval_plot(elo, report, "elo", "Elo (Bradley-Terry on set wins)\n95% bootstrap CI")
        _interval_plot(field, report, "mean", f"vs field: {report['rate_label']}\n95% bootstrap CI")
        _heat_map(fig, heat, report)
    else:
        fig, left = plt.subplots(figsize=(7, 1.5 + 0.6 * len(report["names"])))
        _interval_plot(left, report, "mean", f"{report['rate_label']} (95% CI)")
    fig.suptitle(headline(report)[0], fontsize=8, wrap=True)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _interval_plot(ax: Any, report: dict[str, Any], key: str, label: str) -> None:
    bots = sorted(report["bots_summary"], key=lambda b: b[key])
    low_key, high_key = ("elo_low", "elo_high") if key == "elo" else ("ci_low", "ci_high")
    values = [b[key] for b in bots]
    lows = [b[key] - b[low_key] if b[low_key] is not None else 0 for b in bots]
    highs = [b[high_key] - b[key] if b[high_key] is not None else 0 for b in bots]
    ax.errorbar(values, range(len(bots)), xerr=[lows, highs], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(range(len(bots)), [b["name"] for b in bots])
    ax.set_ylim(-0.6, len(bots) - 0.4)
    ax.set_xlabel(label)
    ax.grid(axis="x", alpha=0.3)


def _heat_map(fig: Any, ax: Any, report: dict[str, Any]) -> None:
    import numpy as np

    names = report["names"]
    mean = np.array([[np.nan if v is None else v for v in row] for row in report["matrix"]["mean"]], dtype=float)
    half = report["matrix"]["half_width"]
    limit = float(np.nanmax(np.abs(mean))) if np.isfinite(mean).any() else 1.0
    image = ax.imshow(mean, cmap="RdBu", vmin=-limit or -1, vmax=limit or 1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j and math.isfinite(mean[i, j]):
                color = "white" if abs(mean[i, j]) > 0.6 * limit else "black"
                text = f"{mean[i, j]:+.1f}\n±{half[i][j]:.1f}"
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color=color)
    ax.set_title("row bot's result against column bot (± 95% CI)", fontsize=9)
    fig.colorbar(image, ax=ax, label=report["rate_label"], shrink=0.8)
