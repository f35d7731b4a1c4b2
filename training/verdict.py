"""The final verdict on a trained agent: thousands of fresh duplicate deals against the
heuristic, random and call bots (and optionally a previous agent), greedy and sampled,
summarised in a JSON file next to the run.

    dealers-choice verdict runs/stud__ppo__1__20261201-120000
    dealers-choice verdict runs/<run> --previous pretrained:stud --workers 2
    dealers-choice verdict agents/pretrained/stud.pt --deals 2000 --out /tmp/stud.json

``--engine batched`` plays the matches the batched engine covers (the stud family and
Cowpie against random, call and the heuristic) on it: the same deals, the same results
for deterministic play (docs/batched_training.md).

Deals: 5,000 duplicate deals per opponent and mode by default (1,000 whole games in
the Cowboy family, where one deal is a game of many deals), each replayed for every
seat lineup. The seed is fresh unless ``--seed`` is given (it is written to the JSON,
so the verdict can be replayed exactly): a verdict never reuses the deals a config was
tuned on. Cross-play against random and call shows an agent that learned to exploit
one bot and forgot the rest; ``--previous`` pits it against the agent it replaces.
At three or more seats the lineups seat the target alone and in company (two targets
against one opponent at three seats); ``--one-seat`` keeps only the lineups where it
holds one seat, what a best response is measured in (a unilateral deviation).
"Greedy" and "sampled" are the agent's mode; an opponent that is a network (the
previous agent, a checkpoint in ``--opponents``) always samples. Between two dealer's
choice generalists that decides which games are dealt (each button names its own), so
``dealers-choice generalist AGENT --previous PREVIOUS --opponents`` compares them game by
game, both in the same mode.

The JSON (``verdict.json`` in the run folder, or ``<checkpoint>.verdict.json`` next to a
checkpoint elsewhere) holds, per opponent and mode, the mean in the variant's unit (per
100 hands; per game in the Cowboy family), the 95% interval's half-width and ends, the
number of duplicate sets and hands.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import secrets
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.cli import prog_name

CHUNK = 250  # deals per job: the unit of parallel work and of seeding
DEFAULT_DEALS = 5000
DEFAULT_GAMES = 1000  # Cowboy family: whole games
DEFAULT_OPPONENTS = ("heuristic", "random", "call")
MODES = ("greedy", "sampled")
ENGINES = ("scalar", "batched")  # batched: training.batched_evaluation where it covers the match

_CACHE: dict[str, Any] = {}  # per process: the checkpoint and bots, loaded once


def checkpoint_of(target: Path) -> Path:
    """The checkpoint of a run folder (``checkpoints/latest.pt``), or the file itself."""
    if target.is_dir():
        return target / "checkpoints" / "latest.pt"
    return target


def output_of(checkpoint: Path) -> Path:
    """Where the JSON goes: the run folder, or next to a checkpoint outside one."""
    if checkpoint.parent.name == "checkpoints":
        return checkpoint.parent.parent / "verdict.json"
    return checkpoint.with_suffix(".verdict.json")


def _learner(path: str) -> tuple[Any, Any]:
    from agents.checkpoint import net_from_checkpoint, read_checkpoint

    key = f"net:{path}"
    if key not in _CACHE:
        _CACHE[key] = net_from_checkpoint(read_checkpoint(path), path)
    return _CACHE[key]  # type: ignore[no-any-return]


def _opponent(spec: str, layout: Any) -> Any:
    """The bot ``spec`` loaded for the learner's table: a checkpoint trained for another
    table (variant, seats or options) is refused here, before any match, by name, with
    the command line's way out rather than the API's ``strict_options``."""
    from agents.checkpoint import CheckpointError
    from agents.loading import load, trained_layout
    from evaluation.seating import option_flags

    key = f"bot:{spec}"
    if key not in _CACHE:
        table = {"variant": layout.variant, "num_players": layout.num_players, "options": layout.env_kwargs}
        try:
            trained = trained_layout(spec)
            problem = trained.mismatch(layout) if trained is not None else None
            if problem is None:
                _CACHE[key] = load(spec, seed=0, **table)
        except CheckpointError as err:
            problem = str(err)
        if problem is not None:
            raise ValueError(
                f"{spec} cannot play in this verdict: {problem}. The verdict plays every "
                f"match at the run's table ({layout.variant}, {layout.num_players} players, options "
                f"{option_flags(layout.env_kwargs)}): name an agent trained for that table"
            ) from None
    return _CACHE[key]


def play_chunk(job: tuple[str, str, str, int, int, int, int, str, bool]) -> tuple[str, str, int, list[float], int]:
    """One chunk of deals of one (opponent, mode): the learner's per-set means (on the
    batched engine with ``engine = "batched"`` where it covers the match: the same deals)."""
    from training.evaluation import duplicate_match

    path, spec, mode, start, stop, seed, tables, engine, lone = job
    net, layout = _learner(path)
    deals, greedy = range(start, stop), mode == "greedy"
    if engine == "batched":
        from training.batched_evaluation import BATCHED_EVAL_TABLES, batched_match, covered

        if covered(net, layout, spec):
            tables = max(tables, BATCHED_EVAL_TABLES)
            match = batched_match(net, layout, spec, deals=deals, seed=seed, greedy=greedy, tables=tables, lone=lone)
            return spec, mode, start, match.per_set.tolist(), match.hands
    opponent = _opponent(spec, layout)
    match = duplicate_match(net, layout, opponent, deals=deals, seed=seed, greedy=greedy, tables=tables, lone=lone)
    return spec, mode, start, match.per_set.tolist(), match.hands


def _init_worker() -> None:
    import signal

    import torch

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    torch.set_num_threads(1)


def verdict(
    checkpoint: str | Path,
    *,
    deals: int | None = None,
    opponents: Sequence[str] = DEFAULT_OPPONENTS,
    previous: str | None = None,
    modes: Sequence[str] = MODES,
    seed: int | None = None,
    workers: int = 1,
    tables: int = 64,
    engine: str = "scalar",
    lone: bool = False,
) -> dict[str, Any]:
    """Play the verdict matches and return the summary (see the module docstring);
    ``engine = "batched"`` plays the matches the batched engine covers on it; ``lone``
    plays only the lineups where the target holds one seat
    (:func:`training.evaluation.match_lineups`: what a best responder is measured in)."""
    from agents.checkpoint import read_checkpoint
    from envs.registry import make_raw
    from evaluation.arena import mean_ci, per_hands, rate_label, unit_name

    path = str(checkpoint)
    data = read_checkpoint(path)
    net, layout = _learner(path)
    del net
    env = make_raw(layout.variant, layout.num_players, **layout.env_kwargs)
    per = per_hands(env)
    deals = deals if deals is not None else (DEFAULT_GAMES if per == 1 else DEFAULT_DEALS)
    if deals < 2:
        raise ValueError(f"deals={deals}: a confidence interval needs at least 2 deals")
    bad = [m for m in modes if m not in MODES]
    if bad or not modes:
        raise ValueError(f"modes {list(modes)} are not allowed: use {', '.join(MODES)}")
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not allowed: use {', '.join(ENGINES)}")
    specs = [*opponents, *([previous] if previous else [])]
    for spec in specs:
        _opponent(spec, layout)  # a bad spec, or an agent of another table, fails here, before any match
    seed = secrets.randbits(31) if seed is None else seed
    jobs = [
        (path, spec, mode, start, min(start + CHUNK, deals), seed, tables, engine, lone)
        for spec in specs
        for mode in modes
        for start in range(0, deals, CHUNK)
    ]
    began = time.perf_counter()
    parts: dict[tuple[str, str], dict[int, list[float]]] = {}
    hands: dict[tuple[str, str], int] = {}
    for spec, mode, start, per_set, count in _run(jobs, workers):
        parts.setdefault((spec, mode), {})[start] = per_set
        hands[(spec, mode)] = hands.get((spec, mode), 0) + count
    results: dict[str, dict[str, Any]] = {}
    for (spec, mode), chunks in parts.items():
        sets = [x for start in sorted(chunks) for x in chunks[start]]
        stat = mean_ci(sets)
        mean, half = stat.mean * per, stat.half_width * per
        results.setdefault(spec, {})[mode] = {
            "mean": mean,
            "ci95": half,
            "low": mean - half,
            "high": mean + half,
            "sets": stat.n,
            "hands": hands[(spec, mode)],
        }
    return {
        "checkpoint": path,
        "variant": layout.variant,
        "num_players": layout.num_players,
        "options": layout.env_kwargs,
        "step": data.get("step", {}),
        "unit": rate_label(unit_name(env), per),
        "per": per,
        "deals": deals,
        "seed": seed,
        "modes": list(modes),
        "previous": previous,
        "results": results,
        "seconds": round(time.perf_counter() - began, 1),
        "workers": workers,
        "engine": engine,
        "lone": lone,
    }


def _run(jobs: list[Any], workers: int) -> Any:
    if workers <= 1:
        for job in jobs:
            yield play_chunk(job)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker) as pool:
        yield from pool.imap_unordered(play_chunk, jobs)


def describe(summary: dict[str, Any]) -> str:
    """A few lines: each opponent's greedy and sampled result with its interval."""
    seats = ", the target in one seat" if summary["lone"] else ""
    lines = [f"{summary['variant']}, {summary['num_players']} players{seats}, {summary['deals']:,} duplicate deals, "
             f"seed {summary['seed']} ({summary['unit']})"]  # fmt: skip
    for spec, modes in summary["results"].items():
        cells = [f"{mode} {r['mean']:+.2f} ± {r['ci95']:.2f}" for mode, r in modes.items()]
        verdict_word = "beats" if all(r["low"] > 0 for r in modes.values()) else "does not clearly beat"
        lines.append(f"  vs {spec}: {', '.join(cells)}  -> {verdict_word} it")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog_name("dealers-choice verdict"),
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("target", type=Path, help="a run folder (uses checkpoints/latest.pt) or a checkpoint file")
    parser.add_argument("--deals", type=int, help="duplicate deals per opponent and mode (default 5000; 1000 games)")
    parser.add_argument("--opponents", nargs="+", default=list(DEFAULT_OPPONENTS), help="agents.load specs")
    parser.add_argument(
        "--previous", help="also play this agent (a checkpoint path or pretrained:<variant>; it samples)"
    )
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument("--seed", type=int, help="seed of the deals (default: fresh, written to the JSON)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one core each)")
    parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="scalar",
        help="batched: play the matches the batched engine covers on it (the same deals; docs/batched_training.md)",
    )
    parser.add_argument(
        "--one-seat",
        action="store_true",
        help="at three or more seats, play only the lineups where the target holds one seat and the opponent "
        "every other (a unilateral deviation: what bounds exploitability); heads-up it changes nothing",
    )
    parser.add_argument("--out", type=Path, help="the JSON file (default: verdict.json in the run folder)")
    args = parser.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    checkpoint = checkpoint_of(args.target)
    try:
        summary = verdict(
            checkpoint,
            deals=args.deals,
            opponents=args.opponents,
            previous=args.previous,
            modes=args.modes,
            seed=args.seed,
            workers=max(1, args.workers),
            engine=args.engine,
            lone=args.one_seat,
        )
    except (ValueError, ImportError) as err:  # CheckpointError is a ValueError
        print(f"verdict: error: {err}", file=sys.stderr)
        return 2
    out = args.out or output_of(checkpoint)
    out.write_text(json.dumps(summary, indent=2, default=_plain) + "\n", encoding="utf-8")
    print(describe(summary))
    print(f"wrote {out}")
    return 0


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


if __name__ == "__main__":
    raise SystemExit(main())
