"""Head-to-head evaluation of bots with duplicate deals and honest statistics.

Any bots that ``agents.load`` understands (``random``, ``call``, ``heuristic``, a
checkpoint path, ``module:Class``) play any variant, player count and options.
Every deal is replayed with the bots rotated through every seat (duplicate play), and
each bot's result comes with a 95% confidence interval over those duplicate sets, its
win rate and its decision mix. ``--tournament`` plays every pair of bots and adds a
matrix of pairwise results and Bradley-Terry (Elo-scale) ratings with bootstrap
intervals. Files: ``report.json``, ``bots.csv`` (+ ``pairs.csv``), ``report.png`` and,
with ``--histories``, every hand (``hands.txt``, ``hands.jsonl`` replay records). They
replace the previous run's files in ``--out`` only when the run completes: a run that
fails or is interrupted (Ctrl-C: exit status 130, SIGTERM: 143) leaves them unchanged.

A network (``pretrained:<variant>``, a checkpoint) plays only the table it was trained
for: named with no ``--option``, it is seated at that table and a line names the
options used (``evaluate cowboy pretrained:cowboy heuristic heuristic`` plays with
``match_cap=8 max_deals=20``); ``--option`` flags that conflict are refused with the
flags that fix them.

``--isolate`` runs every bot in its own process, handed only its observation and view,
with ``--decision-timeout`` seconds per decision: for bots people submit. A bot that
crashes, hangs, quits or answers anything but a legal action (as an int) forfeits its
match: a tournament records the forfeit (``forfeits`` in report.json; the pair counts
as lost in the ratings) and plays on; a single match stops with the reason and exit
status 1. Without ``--isolate`` such a bot stops the run with an error naming it.

Examples::

    dealers-choice evaluate stud call random --deals 2000
    dealers-choice evaluate razz random call heuristic --tournament --deals 1000 --workers 2
    dealers-choice evaluate cowboy call random --option match_cap=8 --players 3
    dealers-choice evaluate chowaha runs/ppo/agent.pt heuristic --option betting=no_limit --histories both
    dealers-choice evaluate stud heuristic submitted.bot:MyBot --tournament --isolate --decision-timeout 2
    dealers-choice evaluate stud heuristic random --deals 100000 --ray auto

``main(argv)`` is importable and returns the report dict.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from agents.loading import load
from envs.policy import BotActionError, BotError
from envs.registry import ENV_SPECS, get_spec, make_raw
from envs.variants import get_variant
from evaluation.arena import SEATINGS, MatchResult, lineups, per_hands, rate_label, unit_name
from evaluation.cli import parse_options, prog_name, script_parser
from evaluation.external import MATCH_TIMEOUT, check_external, is_external
from evaluation.histories import HistoryWriter
from evaluation.isolate import DECISION_TIMEOUT, IsolatedBot
from evaluation.matchlog import MatchLog
from evaluation.ratings import rate
from evaluation.report import StagedOutputs, clean, format_table, write_csv, write_json, write_plot
from evaluation.runner import HISTORY_FORMATS, MatchSpec, auto_workers, available_cores, play_matches
from evaluation.seating import trained_table
from evaluation.stats import (
    BotSummary,
    PairSummary,
    bot_mix,
    pair_matrix,
    seat_hands,
    summarize_match,
    summarize_pair,
    unique_names,
    win_rate,
)

OUTPUT_FILES = ("report.json", "bots.csv", "pairs.csv", "report.png", "hands.txt", "hands.jsonl")
HISTORY_FILES = ("hands.txt", "hands.jsonl")


@dataclass
class EvalConfig:
    """What to evaluate and how."""

    variant: str
    """Variant name or env id (``stud``, ``cowpie_v0``...)."""
    bots: tuple[str, ...]
    """``agents.load`` specs; the same spec twice plays two copies."""
    deals: int = 1000
    """Deals (duplicate sets); each is played once per seating (``hands = deals x seatings``)."""
    num_players: int | None = None
    """Seats at the table; default: the number of bots (a tournament: the fewest the variant allows)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Variant options (``envs.make(..., **options)``)."""
    seed: int = 0
    """Seeds the deals and the bots' randomness: equal seeds give equal results."""
    duplicate: bool = True
    """Replay each deal in every seating (off: each deal once, seatings taking turns)."""
    seating: str = "rotate"
    """``rotate``: every rotation of the lineup; ``permute``: every ordering (3+ players)."""
    tournament: bool = False
    """Round robin: every pair of bots plays its own match; adds ratings and a matrix."""
    workers: int = 0
    """Processes; 0 picks all available cores (at most one per 500 deals); more than the
    available cores is capped with a warning. Results do not depend on it."""
    bootstrap: int = 1000
    """Bootstrap resamples for the ratings' intervals (tournament)."""
    out: str | None = None
    """Directory for report.json, CSV, PNG and histories; None: print only."""
    plot: bool = True
    """Write report.png."""
    histories: str | None = None
    """Write every hand: ``text``, ``json`` or ``both``; None: none."""
    progress: bool = True
    """Show a progress bar (on stderr)."""
    isolate: bool = False
    """Run every bot in its own process (it gets only its observation and view); a bot
    that fails forfeits its match instead of stopping the run."""
    decision_timeout: float = DECISION_TIMEOUT
    """Seconds a bot may take per decision (with ``isolate``, and always for bot programs)."""
    match_timeout: float = MATCH_TIMEOUT
    """Seconds a bot program (``cmd:``, ``tcp://``) may spend answering in one match."""
    ray: str | None = None
    """Play on Ray instead of local processes: ``"local"`` (a private loopback instance),
    ``"auto"``, ``"ray://HOST:10001"`` or ``"HOST:PORT"`` (see ``evaluation.ray_cluster``).
    Results do not depend on it."""

    def __post_init__(self) -> None:
        self.variant = get_spec(self.variant).variant  # accepts stud_v0; names what exists on error
        low, high = get_variant(self.variant).seats
        if not self.bots or (self.tournament and len(self.bots) < 2):
            raise ValueError(f"give {'at least two bots for a tournament' if self.tournament else 'at least one bot'}")
        if self.num_players is None:
            self.num_players = low if self.tournament else max(len(self.bots), low)
        if not low <= self.num_players <= high:
            raise ValueError(f"{self.variant} seats {low}..{high} players, not {self.num_players}")
        if not self.tournament and len(self.bots) > self.num_players:
            raise ValueError(
                f"{len(self.bots)} bots do not fit {self.num_players} seats: "
                "use --players, or --tournament to play every pair"
            )
        checks = [
            (self.deals >= 1, f"deals={self.deals}: expected at least 1"),
            (self.workers >= 0, f"workers={self.workers}: expected 0 (auto) or more"),
            (self.bootstrap >= 1, f"bootstrap={self.bootstrap}: expected at least 1"),
            (self.seating in SEATINGS, f"seating={self.seating!r}: expected one of {', '.join(SEATINGS)}"),
            (self.histories in (None, *HISTORY_FORMATS), f"histories={self.histories!r}: expected {HISTORY_FORMATS}"),
            (self.histories is None or self.out is not None, "histories need an output directory (--out)"),
            (
                isinstance(self.decision_timeout, (int, float)) and 0 < self.decision_timeout < float("inf"),
                f"decision_timeout={self.decision_timeout!r}: expected seconds > 0",
            ),
            (
                self.ray is None or self.workers == 0,
                "--workers does not apply with --ray (Ray uses the cluster's CPUs)",
            ),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)


# ------------------------------------------------------------------- running
def evaluate(config: EvalConfig, *, directory: Path | None = None, match_log: MatchLog | None = None) -> dict[str, Any]:
    """Play the match (or round robin) and return the report dict.

    Hand histories (``config.histories``) are written to ``directory``; by default
    they replace those in ``config.out`` when the run completes (see
    :class:`evaluation.report.StagedOutputs`). ``match_log``: log every chunk and play
    only the deals not logged yet (``dealers-choice dealer --log``, ``--resume``)."""
    if config.histories and directory is None:
        assert config.out is not None  # EvalConfig checks it
        with StagedOutputs(Path(config.out), owned=HISTORY_FILES) as stage:
            report = evaluate(config, directory=stage.directory, match_log=match_log)
            stage.commit()
        return report
    start = time.perf_counter()
    n = config.num_players
    assert n is not None
    env = make_raw(config.variant, n, **config.options)  # bad options fail here, before any work
    _check_bots(config, env)  # and bad bot specs
    k = len(config.bots)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)] if config.tournament else []
    groups = [list(p) for p in pairs] or [list(range(k))]
    specs = [
        MatchSpec(
            variant=config.variant,
            bots=tuple(config.bots[b] for b in group),
            num_players=n,
            options=dict(config.options),
            seed=config.seed,
            duplicate=config.duplicate,
            seating=config.seating,
            histories=config.histories,
            isolate=config.isolate,
            decision_timeout=config.decision_timeout,
            match_timeout=config.match_timeout,
        )
        for group in groups
    ]
    names = unique_names(config.bots)
    writer = HistoryWriter(directory, config.histories, names) if directory is not None and config.histories else None
    try:
        sink = None if writer is None else writer.sink(groups)
        with _ray_or_processes(config, config.deals * len(specs)) as workers:
            backend = _ray_backend() if config.ray else None
            results = play_matches(
                specs, config.deals, workers=workers, progress=config.progress, on_histories=sink, backend=backend,
                match_log=match_log,
            )  # fmt: skip
    finally:
        if writer is not None:
            writer.close()
    report = _header(config, env, names, specs)
    matches = enumerate(zip(groups, results, strict=True))
    forfeits = [_forfeit_row(i, group, r, names) for i, (group, r) in matches if r.forfeit is not None]
    if forfeits:
        report["forfeits"] = forfeits
    if config.tournament:
        report.update(_tournament(config, results, pairs, names))
    elif not forfeits:  # a forfeited match has no result
        report["bots_summary"] = [_bot_row(s) for s in summarize_match(results[0], list(config.bots))]
    seconds = time.perf_counter() - start
    report["run"] = {"workers": workers, "seconds": round(seconds, 3), "hands_per_second": report["hands"] / seconds}
    if config.ray:
        report["run"]["ray"] = config.ray  # workers: the CPUs Ray offered
    return clean(report)


def _ray_backend() -> Any:
    """Chunks as Ray tasks (Ray and this module's Ray code are imported only when asked for)."""
    from evaluation.ray_runner import ray_results

    return ray_results


def _ray_or_processes(config: EvalConfig, deals: int) -> AbstractContextManager[int]:
    """The workers to size chunks for: Ray's CPUs while connected (``--ray``), else local processes."""
    if config.ray:
        from evaluation.ray_cluster import ray_session  # Ray is imported only with --ray

        return ray_session(config.ray)
    return nullcontext(_workers(config.workers, deals))


def _workers(asked: int, deals: int) -> int:
    """Processes to use: ``asked``, but no more than the available cores (more only add
    start-up time and contention); 0: :func:`evaluation.runner.auto_workers`."""
    if asked == 0:
        return auto_workers(deals)
    cores = available_cores()
    if asked > cores:
        note = f"--workers {asked} is more than the {cores} available cores; using {cores}"
        print(f"{prog_name('evaluate.py')}: warning: {note}", file=sys.stderr)
        return cores
    return asked


def _check_bots(config: EvalConfig, env: Any) -> None:
    """Load every bot once, so that a bad spec fails before any work; isolated bots
    are loaded in their own processes (this one never imports them), bot programs
    started and greeted."""
    for i, spec in enumerate(config.bots):
        if is_external(spec):
            check_external(spec, env, timeout=config.decision_timeout, match_timeout=config.match_timeout)
        elif config.isolate:
            IsolatedBot(spec, seed=config.seed + i, timeout=config.decision_timeout).close()
        else:
            load(spec, seed=config.seed + i)


def _forfeit_row(index: int, group: list[int], result: MatchResult, names: list[str]) -> dict[str, Any]:
    """A forfeited match in report.json: who lost it, where and why."""
    f = result.forfeit
    assert f is not None
    return {
        "match": index,
        "bots": [names[b] for b in group],
        "forfeited_by": names[group[f.bot]],
        "winners": [names[b] for i, b in enumerate(group) if i != f.bot],
        "deal": f.deal,
        "seating": f.rotation,
        "seat": f.seat,
        "hands_played": len(result.hands),
        "reason": f.reason,
    }


def _header(config: EvalConfig, env: Any, names: list[str], specs: list[MatchSpec]) -> dict[str, Any]:
    hands = sum(s.hands_per_deal() for s in specs) * config.deals
    per = per_hands(env)
    unit = unit_name(env)
    return {
        "mode": "tournament" if config.tournament else "match",
        "variant": config.variant,
        "title": env.variant.title,
        "num_players": config.num_players,
        "options": dict(config.options),
        "bots": list(config.bots),
        "names": names,
        "deals": config.deals,
        "hands": hands,
        "seatings": lineups(len(specs[0].bots), specs[0].num_players, True, config.seating),
        "seed": config.seed,
        "duplicate": config.duplicate,
        "seating": config.seating,
        "unit": unit,
        "per": per,
        "rate_label": rate_label(unit, per),
    }


def _bot_row(s: BotSummary) -> dict[str, Any]:
    return {
        "name": s.name,
        "spec": s.spec,
        "mean": s.result.mean,
        "half_width": s.result.half_width,
        "ci_low": s.result.low,
        "ci_high": s.result.high,
        "sets": s.result.n,
        "win_rate": s.win_rate,
        "seat_hands": s.seat_hands,
        "mix": s.mix,
    }


def _tournament(
    config: EvalConfig, results: list[MatchResult], pairs: list[tuple[int, int]], names: list[str]
) -> dict[str, Any]:
    """Ratings per bot, both directions of every pair, and the matrix. A forfeited pair
    has no result (no row, NaN in the matrix) and counts as lost in the ratings."""
    played_pairs = [(r, pair) for r, pair in zip(results, pairs, strict=True) if r.forfeit is None]
    forfeits = {pair: pair[1 - r.forfeit.bot] for r, pair in zip(results, pairs, strict=True) if r.forfeit is not None}
    summaries = [summarize_pair(r, a, b) for r, (a, b) in played_pairs]
    k, per = len(config.bots), results[0].per
    pair_sets = {(p.a, p.b): p.sets for p in summaries}
    ratings = rate(
        pair_sets, k, scale=per, bootstrap=config.bootstrap, seed=config.seed, forfeits=forfeits, deals=config.deals
    )
    rows = []
    for b, g in enumerate(ratings):
        played = [(r, pair.index(b)) for r, pair in played_pairs if b in pair]
        rows.append(
            {
                "name": names[b],
                "spec": config.bots[b],
                **{"elo": g.elo, "elo_low": g.elo_low, "elo_high": g.elo_high},
                **{"mean": g.field, "ci_low": g.field_low, "ci_high": g.field_high, "sets": config.deals},
                "win_rate": win_rate(played),
                "seat_hands": sum(seat_hands(r, i) for r, i in played),
                "mix": bot_mix(played),
            }
        )
    mean, half = pair_matrix(summaries, k)
    return {
        "bots_summary": rows,
        "pairs": [row for p in summaries for row in _pair_rows(p, names)],
        "matrix": {"mean": mean.tolist(), "half_width": half.tolist()},  # NaN diagonal: null in JSON
        "bootstrap": config.bootstrap,
    }


def _pair_rows(p: PairSummary, names: list[str]) -> list[dict[str, Any]]:
    """A pair's result from each side (b's result is a's negated)."""
    rows = []
    for bot, opp, sign, wins in ((p.a, p.b, 1, p.set_win_rate), (p.b, p.a, -1, 1 - p.set_win_rate)):
        mean, half = sign * p.result.mean, p.result.half_width
        rows.append(
            {
                "bot": names[bot],
                "opponent": names[opp],
                **{"mean": mean, "half_width": half, "ci_low": mean - half, "ci_high": mean + half},
                **{"sets": p.result.n, "set_win_rate": wins},
            }
        )
    return rows


# ----------------------------------------------------------------------- CLI
def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice evaluate --help``)."""
    p = script_parser("evaluate.py", __doc__ or "")
    add = p.add_argument
    add("variant", help="variant or env id: " + ", ".join(ENV_SPECS))
    add("bots", nargs="+", help="bot specs: random, call, heuristic, pretrained:<variant>, path/to/checkpoint.pt, "
        "module:Class, or a bot program: 'cmd:<command line>', tcp://host:port (docs/protocol.md)")  # fmt: skip
    add("-n", "--deals", "--hands", "--games", dest="deals", type=int, default=1000,
        help="deals (duplicate sets) to play; each is played once per seating (default 1000)")  # fmt: skip
    add("-p", "--players", dest="num_players", type=int, default=None,
        help="seats (default: the number of bots; tournament: the variant's minimum)")  # fmt: skip
    add("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="variant option, repeatable: ante=1, betting=no_limit, bet_sizes=0.5,1, match_cap=none")  # fmt: skip
    add("--seed", type=int, default=0, help="seed of the deals and the bots (default 0)")
    add("--no-duplicate", dest="duplicate", action="store_false",
        help="play each deal once (seatings take turns) instead of in every seating")  # fmt: skip
    add("--seating", choices=SEATINGS, default="rotate",
        help="rotate: every rotation of the lineup; permute: every ordering of it (default rotate)")  # fmt: skip
    add("-t", "--tournament", action="store_true", help="round robin: every pair, ratings and a matrix")
    add("-w", "--workers", type=int, default=0,
        help="processes (default 0: all cores, at most one per 500 deals; capped at the cores); "
        "results do not change")  # fmt: skip
    add("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
        help="play on Ray: a private instance on this machine (no ADDRESS), 'auto' (the cluster started "
        "here by `ray start --head`), ray://HOST:10001 or HOST:PORT; results do not change (ray extra)")  # fmt: skip
    add("--bootstrap", type=int, default=1000, help="bootstrap resamples for rating intervals (default 1000)")
    add("--out", default=None,
        help="output directory (default runs/evaluate/<variant>-<time>); its files are replaced "
        "when the run completes")  # fmt: skip
    add("--no-files", action="store_true", help="print the table only; write no files")
    add("--no-plot", dest="plot", action="store_false", help="skip report.png")
    add("--histories", nargs="?", const="both", choices=HISTORY_FORMATS, default=None,
        help="write every hand: text (hands.txt), json (hands.jsonl replay records) or both (default)")  # fmt: skip
    add("-q", "--no-progress", dest="progress", action="store_false", help="no progress bar")
    add("--isolate", action="store_true",
        help="run every bot in its own process, handed only its observation and view; a bot that fails "
        "(crash, hang, quit, illegal or non-int answer) forfeits its match")  # fmt: skip
    add("--decision-timeout", type=float, default=None, metavar="SECONDS",
        help=f"seconds per decision with --isolate (default {DECISION_TIMEOUT:g})")  # fmt: skip
    return p


def config_from_args(argv: list[str] | None = None) -> EvalConfig:
    """Parse the command line into a validated config."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.decision_timeout is not None and not (args.isolate or any(is_external(b) for b in args.bots)):
        parser.error("--decision-timeout needs --isolate or a bot program: only a bot apart can be stopped")
    out = None if args.no_files else (args.out or f"runs/evaluate/{args.variant}-{time.strftime('%Y%m%d-%H%M%S')}")
    timeout = DECISION_TIMEOUT if args.decision_timeout is None else args.decision_timeout
    return eval_config(args, bots=args.bots, out=out, decision_timeout=timeout, ray=args.ray)


def eval_config(args: argparse.Namespace, *, bots: list[str], out: str | None, **extra: Any) -> EvalConfig:
    """The config from the arguments every evaluation command line shares (this one's and
    ``dealers-choice dealer``'s); ``extra``: the fields only one of them sets. Networks
    are seated at the table they were trained for when no ``--option`` is named
    (:func:`trained_table`; a line on stdout says so)."""
    config = EvalConfig(
        variant=args.variant,
        bots=tuple(bots),
        deals=args.deals,
        num_players=args.num_players,
        options=parse_options(args.option),
        seed=args.seed,
        duplicate=args.duplicate,
        seating=args.seating,
        tournament=args.tournament,
        workers=args.workers,
        bootstrap=args.bootstrap,
        out=out,
        plot=args.plot,
        histories=args.histories,
        progress=args.progress,
        isolate=args.isolate,
        **extra,
    )
    assert config.num_players is not None  # EvalConfig fills it in
    options, note = trained_table(config.variant, config.num_players, config.bots, config.options)
    if note is not None:
        print(note)
        config.options = options
    return config


class Terminated(BaseException):
    """SIGTERM, raised where the run stands so that its temporary files are removed."""


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run from a command line; print the table, write the files, return the report.

    Exits with status 2 on bad input, 130 on Ctrl-C and 143 on SIGTERM; the files of a
    previous run in ``--out`` are replaced only when this one completes."""
    try:
        config = config_from_args(argv)
    except (ValueError, OSError) as err:  # bad input, or a checkpoint file that cannot be read
        _exit(f"error: {err}", 2)
    stage = StagedOutputs(Path(config.out), owned=OUTPUT_FILES) if config.out is not None else None
    try:
        with sigterm_raises(), stage or nullcontext():
            report = evaluate(config, directory=None if stage is None else stage.directory)
            forfeited = "bots_summary" not in report  # a single match, lost by a bot that failed
            if not forfeited:
                print(format_table(report))
            if stage is not None:
                if forfeited:  # no results: the header, the forfeit and the hands played
                    write_json(report, stage.directory / "report.json")
                else:
                    write_files(report, config, stage.directory)
                written = stage.commit()
    except (BotError, BotActionError) as err:  # a bot failed (without --isolate): name it
        _exit(f"error: {err}{_files_note(stage, quiet=True)}", 1)
    except (ValueError, OSError) as err:
        _exit(f"error: {err}{_files_note(stage, quiet=True)}", 2)
    except KeyboardInterrupt:
        _exit(f"interrupted (Ctrl-C){_files_note(stage)}", 130)
    except Terminated:
        _exit(f"terminated (SIGTERM){_files_note(stage)}", 143)
    except Exception:
        print(f"{prog_name('evaluate.py')}: the run failed{_files_note(stage)}; the error follows", file=sys.stderr)
        raise
    if stage is not None:
        written.sort(key=lambda p: OUTPUT_FILES.index(p.name))
        print(("" if forfeited else "\n") + "wrote " + ", ".join(str(p) for p in written))
    if forfeited:
        f = report["forfeits"][0]
        _exit(f"error: {f['forfeited_by']} forfeited the match: {f['reason']}", 1)
    for f in report.get("forfeits", []):
        print(f"forfeit: {f['forfeited_by']} lost its match against {', '.join(f['winners'])}: {f['reason']}")
    return report


def write_files(report: dict[str, Any], config: EvalConfig, directory: Path) -> None:
    """report.json, the CSV files and (unless ``config.plot`` is off) report.png."""
    write_json(report, directory / "report.json")
    write_csv(report, directory)
    if config.plot:
        write_plot(report, directory / "report.png")


def _files_note(stage: StagedOutputs | None, *, quiet: bool = False) -> str:
    """What became of the output folder, for an error message (``quiet``: only when
    there were earlier files to keep)."""
    if stage is None:
        return ""
    if stage.committed:
        return f"; this run's files were already written to {stage.target}"
    if stage.keep is not None:
        return f"; some earlier files in {stage.target} could not be put back: they are in {stage.keep}"
    if stage.previous:
        return f"; no files written, the earlier files in {stage.target} are unchanged"
    return "" if quiet else "; no files written"


def _exit(message: str, status: int) -> None:
    print(f"{prog_name('evaluate.py')}: {message}", file=sys.stderr)
    raise SystemExit(status) from None


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """SIGTERM raises :class:`Terminated` (instead of ending the process at once), so
    the run's temporary files are cleaned up. Only the main thread can set handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminated(signum: int, frame: FrameType | None) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    main()
