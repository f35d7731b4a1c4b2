"""Solve toy stud (docs/rules.md section 10) with tabular CFR and save a reference equilibrium.

Runs discounted CFR (``--scheme dcfr``, default: alpha 1.5, beta 0, gamma 2) or CFR+
(``--scheme cfr+``, linear averaging) with alternating updates on the vectorised
public tree, on the suit-canonical tree unless ``--full-tree``. Every ``--every``
iterations it measures the average strategy's exact NashConv on the full game (in
antes: the sum over both players of their best-response gain, each player's value
averaged over both seatings) and prints a row: iteration, wall-clock and CPU seconds
since the start (tree building and evaluations included), NashConv and each seat's
best-response value. It stops after
``--iterations``, after ``--seconds``, or once NashConv is below ``--target``,
whichever comes first.

Files, under ``--log-dir`` (default ``runs/solve/toy_stud-<time>``): TensorBoard events
(``eval/nash_conv``, ``eval/exploitability``, ``eval/br_value_seat0``/``1``,
``charts/seconds``, ``charts/cpu_seconds``, and the configuration as text), ``curve.csv`` and ``curve.png``
(NashConv against iterations and CPU seconds), and the average policy ``policy.npz``
(``--out``): one row of action probabilities per information set with the game's
options and a format tag, read back by ``exploitability.py`` and
``solvers.policy.TabularPolicy.load``, which refuses a file saved for other options.
For the single-core figures in docs/exploitability.md set ``OMP_NUM_THREADS=1
OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1``.

Examples::

    dealers-choice solve toy_stud --seconds 60
    dealers-choice solve toy_stud --iterations 300 --every 25 --out runs/solve/toy.npz
    dealers-choice solve toy_stud --option ranks=KA --option suits=cdh --scheme cfr+ --target 1e-4
    dealers-choice solve toy_stud --option streets=1 --iterations 50 --no-files

``main(argv)`` is importable and returns the report (rows, final row, files written).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evaluation.cli import prog_name, script_parser
from solvers.cfr import SCHEMES, CFRConfig, CFRSolver
from solvers.cli import GAMES, OPTION_HELP, check_game, describe, parse_toy_options
from solvers.toy import ToyParams, info_set_counts


@dataclass
class SolveConfig:
    """What to solve, how long, and where the results go."""

    params: ToyParams = field(default_factory=ToyParams)
    """The toy_stud options."""
    cfr: CFRConfig = field(default_factory=CFRConfig)
    """Update scheme and tree."""
    iterations: int = 1000
    """Stop after this many iterations."""
    seconds: float | None = None
    """Stop once this much wall time has passed (checked after every iteration)."""
    target: float | None = None
    """Stop once NashConv (antes) is below this (checked at every evaluation)."""
    every: int = 25
    """Measure NashConv every this many iterations (and after the last)."""
    log_dir: str | None = None
    """TensorBoard events, curve.csv and curve.png go here; None writes no files."""
    out: str | None = None
    """The policy file (default: log_dir/policy.npz)."""
    progress: bool = True
    """Show a tqdm progress bar."""

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError(f"--iterations {self.iterations} is not allowed: expected at least 1")
        if self.every < 1:
            raise ValueError(f"--every {self.every} is not allowed: expected at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"--seconds {self.seconds} is not allowed: expected a positive number")
        if self.target is not None and self.target <= 0:
            raise ValueError(f"--target {self.target} is not allowed: expected a positive number")


COLUMNS = ("iteration", "seconds", "cpu_seconds", "nash_conv", "br_seat0", "br_seat1")


def solve(config: SolveConfig) -> dict[str, Any]:
    """Run CFR, logging NashConv; save the policy; return the report."""
    writer = _writer(config)  # before the clocks start: importing TensorBoard is not solving
    start = (time.perf_counter(), time.process_time())
    solver = CFRSolver(config.params, config.cfr)
    rows: list[dict[str, float]] = []
    bar = _progress(config)
    _print_header(config, bar)
    while solver.iteration < config.iterations:
        solver.iterate()
        bar.update(1)
        out_of_time = config.seconds is not None and time.perf_counter() - start[0] >= config.seconds
        last = out_of_time or solver.iteration >= config.iterations
        if solver.iteration % config.every == 0 or last:
            row = _evaluate(solver, start, writer)
            rows.append(row)
            bar.write(_format_row(row))
            if config.target is not None and row["nash_conv"] < config.target:
                break
        if out_of_time:
            break
    bar.close()
    files = _write_files(config, solver, rows, writer)
    return {"config": _config_dict(config), "rows": rows, "final": rows[-1], "files": files}


def _evaluate(solver: CFRSolver, start: tuple[float, float], writer: Any) -> dict[str, float]:
    result = solver.exploitability()
    row = {
        "iteration": solver.iteration,
        "seconds": time.perf_counter() - start[0],
        "cpu_seconds": time.process_time() - start[1],
        "nash_conv": result.nash_conv,
        "br_seat0": result.br_values[0],
        "br_seat1": result.br_values[1],
    }
    if writer is not None:
        step = solver.iteration
        writer.add_scalar("eval/nash_conv", result.nash_conv, step)
        writer.add_scalar("eval/exploitability", result.exploitability, step)
        writer.add_scalar("eval/br_value_seat0", result.br_values[0], step)
        writer.add_scalar("eval/br_value_seat1", result.br_values[1], step)
        writer.add_scalar("charts/seconds", row["seconds"], step)
        writer.add_scalar("charts/cpu_seconds", row["cpu_seconds"], step)
    return row


def _writer(config: SolveConfig) -> Any:
    if config.log_dir is None:
        return None
    from torch.utils.tensorboard import SummaryWriter  # lazy: the solver itself needs only numpy

    writer = SummaryWriter(config.log_dir)
    text = "\n".join(f"|{k}|{v}|" for k, v in _config_dict(config).items())
    writer.add_text("config", "|option|value|\n|-|-|\n" + text)
    return writer


def _progress(config: SolveConfig) -> Any:
    from tqdm import tqdm

    return tqdm(total=config.iterations, desc="cfr", unit="it", disable=not config.progress, file=sys.stderr)


def _print_header(config: SolveConfig, bar: Any) -> None:
    counts = info_set_counts(config.params)
    bar.write(f"toy_stud {describe(config.params)}: {counts['per_seat']:,} information sets per seat")
    bar.write(f"{config.cfr.scheme} on the {'canonical' if config.cfr.canonical else 'full'} tree; NashConv in antes")
    bar.write(f"{'iteration':>9}  {'seconds':>8}  {'cpu_s':>8}  {'nash_conv':>11}  {'br_seat0':>9}  {'br_seat1':>9}")


def _format_row(row: dict[str, float]) -> str:
    return (
        f"{int(row['iteration']):>9}  {row['seconds']:>8.1f}  {row['cpu_seconds']:>8.1f}  {row['nash_conv']:>11.6f}  "
        f"{row['br_seat0']:>9.5f}  {row['br_seat1']:>9.5f}"
    )


def _write_files(config: SolveConfig, solver: CFRSolver, rows: list[dict[str, float]], writer: Any) -> list[str]:
    if writer is not None:
        writer.close()
    if config.log_dir is None and config.out is None:
        return []
    written = []
    if config.log_dir is not None:
        log_dir = Path(config.log_dir)
        write_curve_csv(rows, log_dir / "curve.csv")
        write_curve_plot(rows, log_dir / "curve.png", title=f"toy_stud {describe(config.params)}, {config.cfr.scheme}")
        written += [str(log_dir / "curve.csv"), str(log_dir / "curve.png")]
    out = config.out or str(Path(str(config.log_dir)) / "policy.npz")
    final = rows[-1]
    solver.average_policy().save(out, iterations=solver.iteration, nash_conv=final["nash_conv"], cfr=asdict(config.cfr))
    written.append(out)
    return written


def write_curve_csv(rows: list[dict[str, float]], path: Path) -> None:
    """The NashConv curve as CSV (one row per evaluation)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(COLUMNS))
        writer.writeheader()
        writer.writerows(rows)


def write_curve_plot(rows: list[dict[str, float]], path: Path, *, title: str) -> None:
    """NashConv against iterations (log-log) and against CPU seconds (CPU time, because
    wall time on a shared machine measures the neighbours)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (by_iteration, by_time) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    nash_conv = [r["nash_conv"] for r in rows]
    by_iteration.loglog([r["iteration"] for r in rows], nash_conv, marker=".")
    by_iteration.set_xlabel("iterations")
    by_time.semilogy([r["cpu_seconds"] for r in rows], nash_conv, marker=".")
    by_time.set_xlabel("CPU seconds (evaluations included)")
    for ax in (by_iteration, by_time):
        ax.axhline(1e-3, color="grey", linestyle="--", linewidth=0.8, label="0.001 antes")
        ax.set_ylabel("NashConv (antes)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(title, fontsize=9)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _config_dict(config: SolveConfig) -> dict[str, Any]:
    data = asdict(config)
    data["params"] = config.params.to_dict()
    return data


# ----------------------------------------------------------------------- CLI
def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice solve --help``)."""
    p = script_parser("solve.py", __doc__ or "")
    add = p.add_argument
    add("game", help="the game: " + ", ".join(GAMES))
    add("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help=f"toy_stud option, repeatable: {OPTION_HELP}")  # fmt: skip
    add("-n", "--iterations", type=int, default=1000, help="iterations at most (default 1000)")
    add("--seconds", type=float, default=None, help="wall-clock budget in seconds (default: none)")
    add("--target", type=float, default=None, help="stop once NashConv is below this, in antes (default: none)")
    add("--every", type=int, default=25, help="measure NashConv every K iterations (default 25)")
    add("--scheme", choices=SCHEMES, default="dcfr", help="dcfr (default) or cfr+")
    add("--alpha", type=float, default=1.5, help="dcfr: positive-regret discount exponent (default 1.5)")
    add("--beta", type=float, default=0.0, help="dcfr: negative-regret discount exponent (default 0)")
    add("--gamma", type=float, default=None, help="average weight exponent (default 2 for dcfr, 1 for cfr+)")
    add("--full-tree", action="store_true", help="solve the full tree instead of the suit-canonical one (slower)")
    add("--log-dir", default=None, help="TensorBoard, curve.csv, curve.png (default runs/solve/toy_stud-<time>)")
    add("--out", default=None, help="policy file (default LOG_DIR/policy.npz)")
    add("--no-files", action="store_true", help="print the table only; write nothing")
    add("-q", "--no-progress", dest="progress", action="store_false", help="no progress bar")
    return p


def config_from_args(argv: list[str] | None = None) -> SolveConfig:
    """Parse the command line into a validated config."""
    args = build_parser().parse_args(argv)
    check_game(args.game)
    log_dir = args.log_dir or f"runs/solve/{args.game}-{time.strftime('%Y%m%d-%H%M%S')}"
    cfr = CFRConfig(
        scheme=args.scheme, alpha=args.alpha, beta=args.beta, gamma=args.gamma, canonical=not args.full_tree
    )
    return SolveConfig(
        params=parse_toy_options(args.option),
        cfr=cfr,
        iterations=args.iterations,
        seconds=args.seconds,
        target=args.target,
        every=args.every,
        log_dir=None if args.no_files else log_dir,
        out=None if args.no_files else args.out,
        progress=args.progress,
    )


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run from a command line; print the table, write the files, return the report."""
    try:
        config = config_from_args(argv)
        report = solve(config)
    except (ValueError, OSError) as err:
        print(f"{prog_name('solve.py')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    final = report["final"]
    print(
        f"final: iteration {int(final['iteration'])}, NashConv {final['nash_conv']:.6f} antes, "
        f"{final['seconds']:.1f} s ({final['cpu_seconds']:.1f} s CPU)"
    )
    if report["files"]:
        print("wrote " + ", ".join(report["files"]))
    return report


if __name__ == "__main__":
    main()
