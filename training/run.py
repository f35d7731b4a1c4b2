"""PPO training of an agent for one Dealer's Choice variant against a population of opponents.

Reads top to bottom (CleanRL style): a config (``training.config``: TOML files in
``configs/``, each setting documented), a trainer (``training.trainer``) that
collects data on many tables at once against the table mix of ``rollout.mix`` (the
heuristic bot, past snapshots, self-play, random and call), runs masked PPO, keeps an
opponent pool of past snapshots, evaluates against fixed bots on fresh deals, and
writes TensorBoard logs and checkpoints to ``runs/<variant>__<name>__<seed>__<time>/``::

    dealers-choice train                                   # two-player stud, about ten minutes
    dealers-choice train --config configs/razz.toml --set ppo.lr=1e-4 --set train.seed=3
    dealers-choice train --resume runs/stud__ppo__1__20250101-120000
    tensorboard --logdir runs

The checkpoint ``runs/<run>/checkpoints/latest.pt`` plays with
``agents.load("runs/<run>/checkpoints/latest.pt")`` (or ``evaluate.py``);
``dealers-choice verdict runs/<run>`` gives the final verdict (5,000 fresh
duplicate deals) and ``dealers-choice ship runs/<run>`` ships it as
``pretrained:<variant>``.

A run holds its folder's lock (``training.runlock``) from start to end: a second
``train.py`` on the same folder stops with a message naming the process that owns it.
"""

from __future__ import annotations

import os

# idle OpenMP workers sleep instead of spinning: on a busy 2-core machine spinning
# workers steal the core that steps the tables (set before torch is imported)
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.checkpoint import CheckpointError, remove_temporaries
from evaluation.cli import prog_name
from training.config import FIXED_ON_RESUME, Config, ConfigError, from_dict, help_text, load_config, to_toml
from training.runlock import RunLock, RunLockedError
from training.trainer import DivergedError, Trainer, TrainResult, load_resume, run_name

RESUME_HELP = (
    "continue a run from RUN_DIR/checkpoints/latest.pt with its own config; --set may change the budget and "
    f"the training settings, but not {', '.join(FIXED_ON_RESUME)} (the saved network depends on them; "
    "env.options may change its button only). A run folder serves one train.py at a time (RUN_DIR/run.lock)"
)


def main(
    config: Config | str | Path | dict[str, Any] | None = None,
    *,
    resume: str | Path | None = None,
    overrides: Sequence[str] = (),
    bar: Mapping[str, Any] | None = None,
) -> TrainResult:
    """Train (or, with ``resume``, continue a run) and return where everything went.

    Args:
        config: a :class:`~training.config.Config`, a TOML path, a dict of sections,
            or None for the defaults (``configs/default.toml``).
        resume: a run folder to continue from its latest checkpoint, with the config
            stored there (``config`` must then be None).
        overrides: ``section.key=value`` settings applied last.
        bar: extra arguments of the progress bar (tqdm's ``desc``, ``position``): a
            label and a line of the terminal of its own when several runs train at
            once in processes that share it (``approx-curve --jobs``).

    Raises:
        ConfigError: a bad setting (nothing is created), or a resume that changes a setting
            the saved network depends on.
        CheckpointError: the run's checkpoint cannot be read.
        RunLockedError: another live process is training in the run folder.
        DivergedError: an update produced NaN or infinite weights (the checkpoint keeps the
            last finite state).
    """
    if resume is not None:
        if config is not None:
            raise ConfigError("resume continues with the run's own config: pass overrides, not a config")
        return _resume(Path(resume), overrides, bar)
    cfg = _resolve(config, overrides)
    trainer = Trainer(cfg, _new_run_dir(cfg), bar=bar)  # checks everything before anything is created
    trainer.run_dir = _create_run_dir(trainer.run_dir)
    with RunLock(trainer.run_dir):
        (trainer.run_dir / "config.toml").write_text(to_toml(cfg), encoding="utf-8")
        return trainer.run()


def _resume(run_dir: Path, overrides: Sequence[str], bar: Mapping[str, Any] | None = None) -> TrainResult:
    """Continue ``run_dir`` while holding its lock (read, clean up and train as its only writer)."""
    if not run_dir.is_dir():
        raise CheckpointError(f"no checkpoint file at {str(run_dir / 'checkpoints' / 'latest.pt')!r}: no such run")
    with RunLock(run_dir):
        cfg, state = load_resume(run_dir, list(overrides))
        done = int(state["counters"]["update"])
        if done > cfg.train.updates:
            raise ConfigError(f"{run_dir} already ran {done} updates; set train.updates above that to continue")
        decided = int(state["counters"]["decisions"])
        if 0 < cfg.train.decisions <= decided:
            raise ConfigError(
                f"{run_dir} already collected {decided:,} learner decisions; set train.decisions above that to continue"
            )
        trainer = Trainer(cfg, run_dir, resume=state, bar=bar)
        for tmp in remove_temporaries(run_dir / "checkpoints"):
            print(
                f"{prog_name('train.py')}: note: removed {tmp.name}, left by a save that was cut short", file=sys.stderr
            )
        return trainer.run()


def _resolve(config: Config | str | Path | dict[str, Any] | None, overrides: Sequence[str]) -> Config:
    if config is None or isinstance(config, str | Path):
        return load_config(config, overrides)
    base = from_dict(config, "config dict") if isinstance(config, dict) else config
    return load_config(None, overrides, base=base)


def _new_run_dir(cfg: Config) -> Path:
    """The run's folder name under ``train.runs_dir`` (not created yet)."""
    return Path(cfg.train.runs_dir) / run_name(cfg)


def _create_run_dir(base: Path) -> Path:
    """Create ``base``, or ``base-2``, ``base-3``... if taken: each attempt is one ``mkdir``,
    so two runs started in the same second never share a folder."""
    try:
        base.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(f"cannot create train.runs_dir {str(base.parent)[:200]!r}: {err.strerror or err}") from None
    for k in range(1, 1000):
        path = base if k == 1 else base.with_name(f"{base.name}-{k}")
        try:
            path.mkdir()
        except FileExistsError:
            continue
        except OSError as err:
            raise ConfigError(f"cannot create run folder {str(path)[:200]!r}: {err.strerror or err}") from None
        return path
    raise ConfigError(f"{base}-2 to -999 are all taken: set train.name to tell the runs apart")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (``--help`` lists every setting with its documentation)."""
    parser = argparse.ArgumentParser(
        prog=prog_name("train.py"),
        description="PPO training for a Dealer's Choice variant against a population of opponents; logs to "
        "TensorBoard under runs/.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="settings (TOML sections; set any of them with --set section.key=value):" + help_text(),
    )
    parser.add_argument(
        "--config", metavar="PATH", help="TOML config (default: built-in defaults = configs/default.toml)"
    )
    parser.add_argument(
        "--set",
        metavar="SECTION.KEY=VALUE",
        action="append",
        default=[],
        dest="overrides",
        help="override one setting, as a TOML value (a bare word is a string); repeatable",
    )
    parser.add_argument("--resume", metavar="RUN_DIR", help=RESUME_HELP)
    parser.add_argument("--print-config", action="store_true", help="print the resolved config as TOML and exit")
    return parser.parse_args(argv)


def cli(argv: Sequence[str] | None = None) -> int:
    """Run from the command line; returns the exit status."""
    args = parse_args(argv)
    try:
        if args.print_config:
            if args.resume:
                config, _ = load_resume(Path(args.resume), args.overrides)
            else:
                config = load_config(args.config, args.overrides)
            print(to_toml(config))
            return 0
        if args.resume and args.config:
            raise ConfigError("--resume uses the run's own config; combine it with --set, not --config")
        result = (
            main(args.config, overrides=args.overrides)
            if not args.resume
            else main(resume=args.resume, overrides=args.overrides)
        )
    except (ConfigError, CheckpointError, RunLockedError) as err:
        print(f"{prog_name('train.py')}: error: {err}", file=sys.stderr)
        return 2
    except DivergedError as err:
        print(f"{prog_name('train.py')}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"run: {result.run_dir}\ncheckpoint: {result.checkpoint}")
    print(
        f"{result.updates} updates, {result.decisions:,} learner decisions, {result.hands:,} hands, "
        f"{result.seconds / 60:.1f} min"
    )
    return 0


if __name__ == "__main__":
    sys.exit(cli())
