"""A hyperparameter sweep on heads-up toy stud, scored by exact NashConv.

Toy stud is solved exactly (:mod:`solvers`), so a sweep there needs no evaluation
noise: each run's checkpoints are measured by exact NashConv, both the *last iterate*
(the final network) and the *average of the iterates* (the reach-weighted mixture of
the checkpoints, :mod:`solvers.average`, which is what regret-minimisation results
are stated for).

Usage (random search: each configuration draws every ``--space`` value once, then runs
once per seed)::

    dealers-choice sweep --config toy_stud --set 'env.options={ranks="QKA", suits="cdh"}' \\
        --space ppo.ent_coef=0.05:0.2:log --space ppo.clip_coef=0.025:0.1 \\
        --space ppo.lr=6e-5:2e-3:log --space 'model.hidden=[64,64],[128,128]' \\
        --configs 12 --seeds 1,2 --decisions 1000000 --out runs/sweep_toy9

    # the best 3 on fresh seeds (never the seeds they were picked on), 10x the budget
    dealers-choice sweep --from runs/sweep_toy9 --top 3 --seeds 11,12 --decisions 10000000 \\
        --out runs/sweep_toy9_final

A space is ``key=lo:hi`` (uniform), ``key=lo:hi:log`` (log-uniform) or
``key=a,b,c`` (a choice; TOML values, so ``[64,64],[128,128]`` is two lists). Results
go to ``OUT/results.jsonl``, one line per run, and a run already there is skipped, so
an interrupted sweep continues where it stopped. The table printed at the end ranks
the configurations by their mean last-iterate NashConv.
"""

from __future__ import annotations

import argparse
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.cli import prog_name
from training.jsonl import append_row, read_rows

__all__ = ["Space", "main", "measure_run", "parse_space", "sample_configs"]


@dataclass(frozen=True)
class Space:
    """One swept setting: a range (``log`` or not) or a list of choices."""

    key: str
    low: float | None = None
    high: float | None = None
    log: bool = False
    choices: tuple[Any, ...] = ()

    def draw(self, rng: np.random.Generator) -> Any:
        if self.choices:
            return self.choices[int(rng.integers(len(self.choices)))]
        assert self.low is not None and self.high is not None
        if self.log:
            return float(math.exp(rng.uniform(math.log(self.low), math.log(self.high))))
        return float(rng.uniform(self.low, self.high))


def _toml_value(text: str) -> Any:
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{text!r} is not a TOML value ({err})") from None


def parse_space(text: str) -> Space:
    """``key=lo:hi[:log]`` or ``key=a,b,...`` (see the module docstring)."""
    key, sep, spec = text.partition("=")
    if not sep or "." not in key or not spec:
        raise ValueError(f"--space {text!r} must look like section.key=lo:hi, section.key=lo:hi:log or section.key=a,b")
    parts = spec.split(":")
    if len(parts) in (2, 3) and all(p.strip() for p in parts[:2]) and (len(parts) == 2 or parts[2] == "log"):
        low, high = float(_toml_value(parts[0])), float(_toml_value(parts[1]))
        if not low < high or (len(parts) == 3 and low <= 0):
            raise ValueError(f"--space {text!r}: need low < high (and low > 0 for :log)")
        return Space(key.strip(), low, high, log=len(parts) == 3)
    choices = _toml_value(f"[{spec}]")
    if not choices:
        raise ValueError(f"--space {text!r} lists no choices")
    return Space(key.strip(), choices=tuple(choices))


def sample_configs(spaces: Sequence[Space], count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` configurations, each drawing every space once (reproducible from ``seed``)."""
    rng = np.random.default_rng(seed)
    return [{s.key: s.draw(rng) for s in spaces} for _ in range(count)]


def _override(key: str, value: Any) -> str:
    from training.config import to_toml_value

    return f"{key}={to_toml_value(value)}"


def measure_run(run_dir: Path) -> dict[str, Any]:
    """Exact NashConv of a toy-stud run's last checkpoint and of the reach-weighted
    average of all its ``update_<k>.pt`` checkpoints."""
    from agents.checkpoint import net_from_checkpoint, read_checkpoint
    from evaluation.toy_policy import ObservationCache, network_table, toy_game
    from solvers import InfoSets, PublicTree, exploitability
    from solvers.average import ReachAverage
    from training.config import from_dict

    paths = sorted((run_dir / "checkpoints").glob("update_*.pt"), key=lambda p: int(p.stem.split("_")[1]))
    if not paths:
        raise ValueError(f"{run_dir} holds no checkpoints/update_<k>.pt")
    config = from_dict(read_checkpoint(paths[-1])["config"])
    if config.env.variant != "toy_stud" or config.env.num_players != 2:
        raise ValueError(
            f"{run_dir} is a {config.env.num_players}-player {config.env.variant} run, not heads-up toy stud"
        )
    params, observe = toy_game(config.env.options)
    cache = ObservationCache(params, InfoSets(PublicTree(params)), observe=observe)
    average = ReachAverage(cache.infosets)
    last = None
    for path in paths:
        net, _ = net_from_checkpoint(read_checkpoint(path), path)
        last = network_table(cache, net)
        average.add(last)
    assert last is not None
    tree = cache.infosets.tree
    return {
        "last_nash_conv": exploitability(last, tree, with_values=False).nash_conv,
        "average_nash_conv": exploitability(average.policy(), tree, with_values=False).nash_conv,
        "iterates": len(paths),
    }


def _done(results: Path) -> dict[tuple[int, int], dict[str, Any]]:
    return {(r["config"], r["seed"]): r for r in read_rows(results)}


def run_sweep(args: argparse.Namespace, configs: list[dict[str, Any]], out: Path) -> list[dict[str, Any]]:
    """Train and measure every configuration for every seed (skipping finished ones)."""
    from tqdm import tqdm

    from training.config import load_config
    from training.run import main as train

    out.mkdir(parents=True, exist_ok=True)
    results = out / "results.jsonl"
    done = _done(results)
    jobs = [(i, seed) for i in range(len(configs)) for seed in args.seeds]
    shard, shards = args.shard
    for j, (i, seed) in enumerate(tqdm(jobs, desc="sweep", unit="run", disable=not args.progress)):
        if (i, seed) in done or j % shards != shard:
            continue
        overrides = [*args.set, *(_override(k, v) for k, v in configs[i].items())]
        # the budget in learner decisions (train.decisions); the updates it can take at
        # most (each collects at least rollout.decisions) cap it and space the checkpoints
        updates = max(1, math.ceil(args.decisions / load_config(args.config, overrides).rollout.decisions))
        every = max(1, updates // args.checkpoints)
        overrides += [
            f"train.seed={seed}",
            f"train.updates={updates}",
            f"train.decisions={args.decisions}",
            f"train.checkpoint_every={every}",
            f"train.name=sweep{i}",
            _override("train.runs_dir", str(out / "runs")),
            "train.progress=false",
            f"eval.every={every}",
        ]
        result = train(args.config, overrides=overrides)
        row = {"config": i, "seed": seed, "settings": configs[i], "run_dir": str(result.run_dir)}
        row |= {"decisions": result.decisions, "seconds": result.seconds, **measure_run(result.run_dir)}
        append_row(results, row)
        done[(i, seed)] = row
    done = _done(results)  # with the other shards' rows
    return [done[job] for job in jobs if job in done]


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per configuration: mean last-iterate and average NashConv over its seeds, ranked."""
    by_config: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_config.setdefault(row["config"], []).append(row)
    table = []
    for i, group in by_config.items():
        table.append(
            {
                "config": i,
                "settings": group[0]["settings"],
                "seeds": [r["seed"] for r in group],
                "last": float(np.mean([r["last_nash_conv"] for r in group])),
                "average": float(np.mean([r["average_nash_conv"] for r in group])),
                "decisions": float(np.mean([r["decisions"] for r in group])),
                "seconds": float(np.mean([r["seconds"] for r in group])),
            }
        )
    return sorted(table, key=lambda r: r["last"])


def format_table(table: list[dict[str, Any]]) -> str:
    lines = [
        "| config | seeds | last iterate | average | decisions | seconds | settings |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in table:
        settings = ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}" for k, v in r["settings"].items())
        seeds = ",".join(map(str, r["seeds"]))
        lines.append(
            f"| {r['config']} | {seeds} | {r['last']:.3f} | {r['average']:.3f} | {r['decisions']:,.0f} "
            f"| {r['seconds']:.0f} | {settings} |"
        )
    return "\n".join(lines)


def _from_previous(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The ``--top`` configurations of a previous sweep, refusing its seeds."""
    previous = list(_done(Path(args.from_dir) / "results.jsonl").values())
    if not previous:
        raise SystemExit(f"{prog_name('sweep')}: {args.from_dir} has no results.jsonl rows")
    reused = sorted(set(args.seeds) & {r["seed"] for r in previous})
    if reused:
        raise SystemExit(f"{prog_name('sweep')}: seeds {reused} were used to pick the configurations; give fresh seeds")
    return [r["settings"] for r in summarise(previous)[: args.top]]


def _shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    if not sep or not k.isdigit() or not n.isdigit() or not 0 <= int(k) < int(n):
        raise ValueError(f"--shard {text!r} must be K/N with 0 <= K < N (for example 1/2)")
    return int(k), int(n)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog_name("sweep"), description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="toy_stud", help="base config (a shipped name or a TOML path)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override for every run")
    parser.add_argument("--space", action="append", default=[], metavar="KEY=SPEC", help="a swept setting")
    parser.add_argument("--configs", type=int, default=12, help="configurations drawn (random search)")
    parser.add_argument("--from", dest="from_dir", help="take the configurations from a previous sweep folder")
    parser.add_argument("--top", type=int, default=3, help="with --from: how many of its best configurations")
    parser.add_argument("--seeds", default="1,2", help="training seeds, comma-separated")
    parser.add_argument("--decisions", type=int, default=1_000_000, help="learner decisions per run")
    parser.add_argument("--checkpoints", type=int, default=10, help="checkpoints per run (the averaged iterates)")
    parser.add_argument("--sweep-seed", type=int, default=0, help="seeds the draws of the configurations")
    parser.add_argument("--out", required=True, help="folder for results.jsonl and the runs")
    parser.add_argument(
        "--shard",
        default="0/1",
        metavar="K/N",
        help="run only every N-th run, starting at the K-th (N processes share one --out; each skips the rows there)",
    )
    parser.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar")
    return parser


def main(argv: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Run the sweep; returns the ranked table."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        args.shard = _shard(args.shard)
        if args.from_dir:
            configs = _from_previous(args)
        else:
            configs = sample_configs([parse_space(s) for s in args.space], args.configs, args.sweep_seed)
    except ValueError as err:
        parser.error(str(err))
    table = summarise(run_sweep(args, configs, Path(args.out)))
    print(format_table(table))
    return table


if __name__ == "__main__":
    main()
