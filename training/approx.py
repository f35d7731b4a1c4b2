"""Approximate exploitability of any bot on any variant: a learned best response.

``dealers-choice exploitability <variant> <spec> --approx --minutes M`` lands here. On a
game too large for an exact best response, a lower bound on exploitability is what a
*learned* best responder wins against the frozen policy (Timbers et al. 2022,
"Approximate exploitability: learning a best response"):

1. this project's PPO trainer (``training.run.main``) learns against the policy alone:
   ``rollout.mix = {<spec> = 1.0}`` (the frozen bot fills every other seat; with three
   or more seats the learner holds one seat), for ``M`` minutes of wall time
   (``train.minutes``), constant learning rate;
2. the best responder then plays ``deals`` fresh duplicate deals greedily against the
   frozen policy (:func:`training.verdict.verdict`, a new seed: no deal it trained
   on), in one seat with the policy in every other, rotated through the seats (at three
   or more seats two responders against one policy would measure a coalition, not a
   best response: :func:`training.evaluation.match_lineups`), and the mean with its 95%
   interval is reported in the variant's unit per 100 hands (per game in the Cowboy
   family).

The mean is a lower bound on what a best response wins (an estimate, with its
interval): a longer run or a stronger learner can only find more. Everything else of
the training run keeps the defaults of ``configs/default.toml`` (a 256x256 network);
``--set section.key=value`` changes any of it.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from envs.variants import VARIANTS
from solvers.toy import quote
from training import run as train_run
from training.config import parse_override
from training.verdict import verdict

UPDATES_CAP = 1_000_000  # the run ends by time, long before this


def check_inputs(variant: str, minutes: float | None, deals: int, num_players: int) -> None:
    """Clear errors, before anything is built (``minutes`` None: a run bounded otherwise,
    as approx-curve's budgets in decisions)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {quote(variant)}; known: {', '.join(VARIANTS)}")
    if minutes is not None and not (minutes > 0 and math.isfinite(minutes)):
        raise ValueError(f"--minutes {minutes} is not allowed: expected a number of minutes > 0")
    if deals < 2:
        raise ValueError(f"--deals {deals} is not allowed: a 95% interval needs at least 2 deals")
    if num_players < 2:
        raise ValueError(f"--num-players {num_players} is not allowed: expected at least 2")


def env_options(items: list[str]) -> dict[str, Any]:
    """``["key=value", ...]`` as env options (values read as TOML, or as text)."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option {quote(item)}: expected key=value, e.g. --option ranks=TJQKA")
        options[key.strip()] = parse_override(f"env.x={value}")[2]
    return options


def warm_start_overrides(spec: str, warm: bool, overrides: tuple[str, ...] | list[str]) -> list[str]:
    """``--warm-start``: the responder starts from the policy's own weights
    (``train.init_from``, training/warm_start.py): it starts as the policy, worth 0
    against it, instead of below it; a ``--set`` of its own wins."""
    return [f"train.init_from={spec}", *overrides] if warm else list(overrides)


def best_response_config(
    variant: str,
    spec: str,
    *,
    seed: int,
    num_players: int = 2,
    options: dict[str, Any] | None = None,
    runs_dir: str = "runs",
    minutes: float = 0.0,
    updates: int = UPDATES_CAP,
    checkpoint_every: int | None = None,
    name: str = "best_response",
    progress: bool = False,
) -> dict[str, Any]:
    """The training config of a best responder to ``spec`` (module docstring, step 1):
    one recipe for ``--approx`` and for its calibration (training/approx_curve.py), so
    the curve measures the very runs ``--approx`` makes. ``checkpoint_every`` defaults
    to the end of the run only."""
    return {
        "train": {
            "name": name,
            "seed": seed,
            "updates": updates,
            "minutes": float(minutes),
            "runs_dir": runs_dir,
            "progress": progress,
            "checkpoint_every": updates if checkpoint_every is None else checkpoint_every,
        },
        "env": {"variant": variant, "num_players": num_players, "options": dict(options or {})},
        "rollout": {"mix": {spec: 1.0}, "many_learners": 0.0},
        "ppo": {"anneal_lr": False},
        "eval": {"every": 0, "opponents": [spec], "deals": 2, "modes": ["greedy"], "nash_conv": False},
    }


def approximate(
    variant: str,
    spec: str,
    *,
    minutes: float,
    deals: int = 1000,
    num_players: int = 2,
    options: dict[str, Any] | None = None,
    seed: int = 1,
    eval_seed: int | None = None,
    runs_dir: str = "runs",
    overrides: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Train a best responder to ``spec`` for ``minutes`` and measure it (module docstring)."""
    check_inputs(variant, minutes, deals, num_players)
    config = best_response_config(
        variant, spec, seed=seed, num_players=num_players, options=options, runs_dir=runs_dir, minutes=minutes
    )
    result = train_run.main(config, overrides=overrides)
    return {
        "variant": variant,
        "num_players": num_players,
        "policy": spec,
        "minutes": minutes,
        "updates": result.updates,
        "learner_decisions": result.decisions,
        "best_responder": str(result.checkpoint),
        **measure_responder(result.checkpoint, spec, deals=deals, seed=eval_seed),
    }


def measure_responder(
    checkpoint: str | Path, spec: str, *, deals: int, seed: int | None, workers: int = 1
) -> dict[str, Any]:
    """What ``--approx`` reports for a best responder (step 2 of the module docstring):
    greedy, on ``deals`` fresh duplicate deals against ``spec``, the responder in one
    seat of each lineup; ``seed`` is the deals' seed actually used (drawn fresh when None)."""
    summary = verdict(
        checkpoint, deals=deals, opponents=[spec], modes=["greedy"], seed=seed, workers=workers, lone=True
    )
    measured = summary["results"][spec]["greedy"]
    return {
        "options": summary["options"],
        "unit": summary["unit"],
        "per": summary["per"],  # hands the unit is quoted per (1: per game)
        "mean": measured["mean"],
        "ci95": measured["ci95"],
        "low": measured["low"],
        "high": measured["high"],
        "deals": deals,
        "hands": measured["hands"],
        "seed": summary["seed"],
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as text."""
    return "\n".join(
        [
            f"{report['variant']}, {report['num_players']} players: approximate exploitability of {report['policy']}",
            f"best responder: {report['updates']} updates ({report['learner_decisions']:,} decisions, "
            f"{report['minutes']} min) -> {report['best_responder']}",
            f"best responder's result (greedy, {report['deals']:,} fresh duplicate deals, seed {report['seed']}"
            f"{', in one seat, the policy in the others' if report['num_players'] > 2 else ''}):",
            f"  {report['mean']:+.2f} ± {report['ci95']:.2f} {report['unit']}  (a lower bound on exploitability)",
            f"  = {report['mean'] / report['per']:+.4f} ± {report['ci95'] / report['per']:.4f} "
            f"{report['unit'].split(' per ')[0]} per {'game' if report['per'] == 1 else 'hand'}",
        ]
    )


def run_from_args(args: Any) -> dict[str, Any]:
    """The ``--approx`` branch of ``exploitability.py`` (its parsed arguments)."""
    return approximate(
        args.game,
        args.policy,
        minutes=args.minutes,
        deals=args.deals,
        num_players=args.num_players,
        options=env_options(args.option),
        seed=args.seed,
        eval_seed=args.eval_seed,
        runs_dir=args.runs_dir,
        overrides=tuple(warm_start_overrides(args.policy, args.warm_start, args.set)),
    )
