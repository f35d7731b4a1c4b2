"""Evaluation reports: one JSON-ready dict, and its views (terminal table, CSV, PNG).

The dict built by ``evaluate.py`` is the source of truth; everything here only
formats it, so the files and the table always agree. Plots use matplotlib's Agg
backend (no display needed). :class:`StagedOutputs` writes a run's files beside the
previous run's and swaps them in only when the run completes.
"""

from __future__ import annotations

import csv
import json
import math
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
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


SCIENTIFIC = 1e6  # figures this large print as +1.35e+73: Cowboy games without a match_cap reach them


def number(value: float, digits: int = 2, sign: str = "+") -> str:
    """A figure for the table: fixed point, or three significant digits in scientific
    notation from a million up (a 74-digit fixed-point number reads as nothing).

    >>> number(-3.14159), number(1.35e73), number(2.5e7, sign="")
    ('-3.14', '+1.35e+73', '2.5e+07')
    """
    if abs(value) >= SCIENTIFIC:
        return f"{value:{sign}.3g}"
    return f"{value:{sign}.{digits}f}"


def _pm(mean: float | None, half: float | None, digits: int = 2) -> str:
    if mean is None:
        return "-"
    return f"{number(mean, digits)} ± {number(half, digits, '') if half is not None else 'inf'}"


def _interval(low: float | None, high: float | None, digits: int = 2) -> str:
    return f"[{number(low, digits)}, {number(high, digits)}]" if low is not None and high is not None else "-"


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
                number(b["mean"]) if b["mean"] is not None else "-",  # None: every match forfeited
                _interval(b["ci_low"], b["ci_high"]),
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
                _interval(b["ci_low"], b["ci_high"]),
                FORMATS["pct"](b["win_rate"]),
                f"{b['seat_hands']:,}",
                *_mix_cells(b, columns),
            ]
            for b in bots
        ]
        lines += _table(header, rows)
    return "\n".join(lines + _choice_lines(bots))


def _choice_lines(bots: Sequence[dict[str, Any]]) -> list[str]:
    """Dealer's choice: which games each bot named on the button (share of its choices)."""
    lines = []
    for b in bots:
        chosen = sorted((k.removeprefix("choose_"), v) for k, v in b["mix"].items() if k.startswith("choose_"))
        if chosen:
            lines.append(f"  {b['name']}: " + ", ".join(f"{game} {FORMATS['pct'](v)}%" for game, v in chosen))
    return ["", "Games named on the button (dealer's choice):", *lines] if lines else []


def _matrix_lines(report: dict[str, Any]) -> list[str]:
    names = report["names"]
    mean, half = report["matrix"]["mean"], report["matrix"]["half_width"]
    rows = [
        [names[i], *("." if i == j else _pm(mean[i][j], half[i][j], 1) for j in range(len(names)))]
        for i in range(len(names))
    ]
    return _table(["", *names], rows)


# --------------------------------------------------------------------- files
STAGING_PREFIX = ".partial-"  # hidden folder of a run in progress, inside its output folder


class StagedOutputs:
    """One run's files, written in a hidden folder inside ``target`` and moved into
    place together by :meth:`commit`.

    Until the commit, ``target`` keeps the previous run's files exactly as they were, so
    a run that fails or is interrupted never truncates them or leaves a mixed set.
    Leaving the ``with`` block without a commit deletes the hidden folder (and
    ``target`` itself if this created it and it is empty). ``owned`` names every file a
    run may write: the commit replaces all of them, so a previous tournament's
    ``pairs.csv`` is not left beside a new match's report. Other files are not touched.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> with StagedOutputs(folder, owned=("a.txt", "b.txt")) as stage:
    ...     _ = (stage.directory / "a.txt").write_text("new")
    ...     [p.name for p in stage.commit()]
    ['a.txt']
    >>> sorted(p.name for p in folder.iterdir())
    ['a.txt']
    """

    def __init__(self, target: Path, owned: Sequence[str]) -> None:
        self.target = target
        self.owned = tuple(owned)
        self.previous: list[str] = []  # owned files already in target: what a failure must keep
        self.created = False
        self.committed = False
        self.keep: Path | None = None  # previous files a failed swap could not put back
        self._directory: Path | None = None

    @property
    def directory(self) -> Path:
        """Where this run writes its files (inside ``target``, so a rename moves them)."""
        if self._directory is None:
            raise RuntimeError("StagedOutputs is used as a context manager: `with StagedOutputs(...) as stage:`")
        return self._directory

    def __enter__(self) -> StagedOutputs:
        self.created = not self.target.exists()
        self.target.mkdir(parents=True, exist_ok=True)
        self.previous = [n for n in self.owned if os.path.lexists(self.target / n)]
        self._directory = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=self.target))
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if not self.committed:
            self.discard()

    def commit(self) -> list[Path]:
        """Replace the owned files in ``target`` with the ones written; their new paths.

        The previous files are moved aside first and restored if any move fails; SIGINT
        and SIGTERM wait until the swap is done, so it is never cut in half."""
        names = sorted(p.name for p in self.directory.iterdir() if p.is_file())
        strays = [n for n in names if n not in self.owned]
        if strays:
            raise ValueError(f"files {strays} are not among the outputs {list(self.owned)}")
        aside = Path(tempfile.mkdtemp(prefix="previous-", dir=self.directory))
        moved_out: list[str] = []
        moved_in: list[str] = []
        with _signals_deferred():
            try:
                for name in self.previous:
                    os.replace(self.target / name, aside / name)
                    moved_out.append(name)
                for name in names:
                    os.replace(self.directory / name, self.target / name)
                    moved_in.append(name)
            except BaseException as error:
                self._undo(moved_in, moved_out, aside, error)
                raise
            self.committed = True
        shutil.rmtree(self.directory, ignore_errors=True)  # with the previous run's files
        return [self.target / n for n in names]

    def _undo(self, moved_in: list[str], moved_out: list[str], aside: Path, error: BaseException) -> None:
        """Put the previous files back after a failed swap. Whatever cannot be put back
        stays in ``aside`` (which :meth:`discard` then keeps) and the error says so."""
        stuck = []
        for source, target in [(self.target / n, self.directory / n) for n in moved_in] + [
            (aside / n, self.target / n) for n in moved_out
        ]:
            try:
                os.replace(source, target)
            except OSError:
                stuck.append(source)
        if any(p.parent == aside for p in stuck):
            self.keep = aside
            error.add_note(f"the previous files not put back are in {aside}")

    def discard(self) -> None:
        """Delete what this run wrote; ``target`` keeps what it had (if a failed swap
        left previous files aside, their folder is kept)."""
        if self.keep is not None:
            return
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
        if self.created:
            with suppress(OSError):  # not empty: someone else's files arrived meanwhile
                self.target.rmdir()


@contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT and SIGTERM until the block ends (POSIX; elsewhere a no-op): they
    are delivered, and act, right after it."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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


def bot_order(report: dict[str, Any]) -> list[int]:
    """The bots' indices best first, the one order of every panel of the plot: by Elo
    in a tournament, by mean result in a match (ties, and missing values last, in the
    order the bots were given)."""
    key = "elo" if report["mode"] == "tournament" else "mean"
    bots = report["bots_summary"]

    def rank(i: int) -> tuple[float, int]:
        value = bots[i][key]
        return (-value if value is not None and math.isfinite(value) else math.inf, i)

    return sorted(range(len(bots)), key=rank)


def write_plot(report: dict[str, Any], path: Path) -> None:
    """PNG: each bot's result with its interval; for a tournament, the ratings with
    intervals and the pairwise matrix as a heat map. Every panel lists the bots in
    the same order, best first (:func:`bot_order`)."""
    fig = plot_figure(report)  # selects the Agg backend before pyplot is imported here
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_figure(report: dict[str, Any]) -> Any:
    """The report's matplotlib figure (Agg backend), for :func:`write_plot`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = bot_order(report)
    if report["mode"] == "tournament":
        k = len(report["names"])
        fig, (elo, field, heat) = plt.subplots(
            1, 3, figsize=(11 + 0.8 * k, 2 + 0.7 * max(k, 3)), width_ratios=[1, 1, 1.2]
        )
        _interval_plot(elo, report, order, "elo", "Elo (Bradley-Terry on set wins)\n95% bootstrap CI")
        _interval_plot(field, report, order, "mean", f"vs field: {report['rate_label']}\n95% bootstrap CI")
        _heat_map(fig, heat, report, order)
    else:
        fig, left = plt.subplots(figsize=(7, 1.5 + 0.6 * len(report["names"])))
        _interval_plot(left, report, order, "mean", f"{report['rate_label']} (95% CI)")
    fig.suptitle(headline(report)[0], fontsize=8, wrap=True)
    fig.tight_layout()
    return fig


def _interval_plot(ax: Any, report: dict[str, Any], order: Sequence[int], key: str, label: str) -> None:
    """One row per bot, the first of ``order`` at the top."""
    bots = [report["bots_summary"][i] for i in order]
    rows = list(range(len(bots)))[::-1]  # y grows upwards: the best bot on the top row
    low_key, high_key = ("elo_low", "elo_high") if key == "elo" else ("ci_low", "ci_high")
    values = [b[key] for b in bots]
    lows = [b[key] - b[low_key] if b[low_key] is not None else 0 for b in bots]
    highs = [b[high_key] - b[key] if b[high_key] is not None else 0 for b in bots]
    ax.errorbar(values, rows, xerr=[lows, highs], fmt="o", capsize=4, color="tab:blue")
    ax.axvline(0, color="grey", linewidth=0.8, linestyle="--")
    ax.set_yticks(rows, [b["name"] for b in bots])
    ax.set_ylim(-0.6, len(bots) - 0.4)
    ax.set_xlabel(label)
    ax.grid(axis="x", alpha=0.3)


def _heat_map(fig: Any, ax: Any, report: dict[str, Any], order: Sequence[int]) -> None:
    """Rows top to bottom and columns left to right in ``order``."""
    import numpy as np

    names = [report["names"][i] for i in order]
    full = np.array([[np.nan if v is None else v for v in row] for row in report["matrix"]["mean"]], dtype=float)
    full_half = np.array([[np.nan if v is None else v for v in row] for row in report["matrix"]["half_width"]])
    mean, half = full[np.ix_(order, order)], full_half[np.ix_(order, order)]
    limit = float(np.nanmax(np.abs(mean))) if np.isfinite(mean).any() else 1.0
    image = ax.imshow(mean, cmap="RdBu", vmin=-limit or -1, vmax=limit or 1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    for i in range(len(names)):
        for j in range(len(names)):
            if i != j and math.isfinite(mean[i, j]):
                color = "white" if abs(mean[i, j]) > 0.6 * limit else "black"
                text = f"{number(mean[i, j], 1)}\n±{number(half[i, j], 1, '')}"
                ax.text(j, i, text, ha="center", va="center", fontsize=7, color=color)
    ax.set_title("row bot's result against column bot (± 95% CI)", fontsize=9)
    fig.colorbar(image, ax=ax, label=report["rate_label"], shrink=0.8)
