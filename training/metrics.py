"""What the trainer logs: action frequencies per decision type, rollout and loss
figures, and evaluations against fixed bots on fresh duplicate deals (TensorBoard tags
``charts/``, ``losses/``, ``actions/``, ``perf/`` and ``eval/<bot>/<greedy|sampled>``).

Decision types are read from the action mask, so they work for every variant: a
decision whose mask offers ``stay`` is a stay-or-fold decision (Cowboy), one that
offers discards is a draw, one that offers splits a Cowpie split, one that offers
declarations a declaration, and everything else a betting decision. A betting
decision that offers ``fold`` faces a bet, so its ``check_call`` is a call.

TensorBoard stores ``float32``: a figure beyond its range (the mean return of Cowboy
games without a ``match_cap``, which can reach 1e78 antes) is logged at the largest
``float32`` of its sign (3.4e38) rather than as infinity (:func:`loggable`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from agents.loading import load
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.engine.actions import (
    BRING_IN,
    CHECK_CALL,
    DECLARE_BOTH,
    DECLARE_LOW,
    DRAW_BASE,
    FOLD,
    RAISE,
    SIZED_BASE,
    SPLIT_BASE,
    STAY,
)
from evaluation.arena import Stat
from evaluation.mix import choice_frequencies
from training.config import ConfigError
from training.episodes import Batch
from training.evaluation import duplicate_match
from training.rollout import RolloutStats


def decision_kinds(masks: np.ndarray) -> dict[str, np.ndarray]:
    """Boolean row selectors: ``stay``, ``draw``, ``split``, ``declare``, ``betting``."""
    width = masks.shape[1]
    none = np.zeros(len(masks), bool)
    stay: np.ndarray = masks[:, STAY].astype(bool) if width > STAY else none
    draw: np.ndarray = masks[:, DRAW_BASE:STAY].any(1) & ~stay if width > DRAW_BASE else none
    split: np.ndarray = np.asarray(masks[:, SPLIT_BASE:DRAW_BASE].any(1)) if width > SPLIT_BASE else none
    declare: np.ndarray = np.asarray(masks[:, DECLARE_LOW : DECLARE_BOTH + 1].any(1)) if width > DECLARE_LOW else none
    betting = ~(stay | draw | split | declare)
    return {"stay": stay, "draw": draw, "split": split, "declare": declare, "betting": betting}


def action_frequencies(masks: np.ndarray, actions: np.ndarray) -> dict[str, float]:
    """Fractions of the learner's choices per decision type (absent types are left out).

    ``bet_fold`` ... ``bet_raise`` share the betting decisions (``bet_raise`` counts
    completes, bets, raises and sized bets); ``fold_facing_bet`` is the fold rate when
    facing a bet; ``declare_*`` share the declarations; ``draw_size_mean`` and
    ``draw_<k>`` describe the number of cards discarded; ``stay`` is the stay rate.
    """
    out: dict[str, float] = {}
    kinds = decision_kinds(masks)
    bet = kinds["betting"]
    if bet.any():
        a = actions[bet]
        facing = masks[bet, FOLD]
        out["bet_fold"] = float(np.mean(a == FOLD))
        out["bet_check"] = float(np.mean((a == CHECK_CALL) & ~facing))
        out["bet_call"] = float(np.mean((a == CHECK_CALL) & facing))
        out["bet_bring_in"] = float(np.mean(a == BRING_IN))
        out["bet_raise"] = float(np.mean((a == RAISE) | (a >= SIZED_BASE)))
        if facing.any():
            out["fold_facing_bet"] = float(np.mean(a[facing] == FOLD))
    if kinds["declare"].any():
        a = actions[kinds["declare"]]
        for name, index in (("low", DECLARE_LOW), ("high", DECLARE_LOW + 1), ("both", DECLARE_BOTH)):
            out[f"declare_{name}"] = float(np.mean(a == index))
    if kinds["draw"].any():
        sizes = np.array([bin(int(m)).count("1") for m in actions[kinds["draw"]] - DRAW_BASE])
        out["draw_size_mean"] = float(sizes.mean())
        for k in range(6):
            out[f"draw_{k}"] = float(np.mean(sizes == k))
    if kinds["stay"].any():
        out["stay"] = float(np.mean(actions[kinds["stay"]] == STAY))
    return out


def rollout_scalars(batch: Batch, stats: RolloutStats, action_names: Sequence[str] = ()) -> dict[str, float]:
    """Everything about one rollout worth a TensorBoard scalar (tag -> value); with the
    layout's ``action_names``, a dealer's choice table also logs which game the learner
    named at the button (``actions/choose_<game>``: shares of its choices)."""
    out = {
        "charts/episodic_return": _mean(stats.returns),
        "charts/return_vs_pool": _mean(stats.returns_vs_pool),
        "charts/return_vs_self": _mean(stats.returns_vs_self),
        **{f"charts/return_vs_{_tag(name)}": _mean(r) for name, r in stats.returns_vs_bots.items()},
        "charts/episode_length": _mean(stats.lengths),
        "charts/hands_per_second": stats.hands / max(stats.seconds, 1e-9),
        "charts/decisions_per_second": stats.decisions / max(stats.seconds, 1e-9),
        "charts/learner_decisions": float(stats.learner_decisions),
        "charts/value_mean": float(batch.values.mean()),
    }
    for name, value in action_frequencies(batch.masks, batch.actions).items():
        out[f"actions/{name}"] = value
    for name, value in choice_frequencies(batch.masks, batch.actions, action_names).items():
        out[f"actions/{name}"] = value
    if stats.split_regret:
        regret = np.array(stats.split_regret)
        out["actions/split_regret"] = float(regret.mean())
        out["actions/split_best"] = float(np.mean(regret <= 1e-12))
    return {k: loggable(v) for k, v in out.items() if not np.isnan(v)}


FLOAT32_MAX = float(np.finfo(np.float32).max)


def loggable(value: float) -> float:
    """``value``, saturated to the ``float32`` range that TensorBoard stores.

    >>> loggable(2.5), loggable(-1e78)
    (2.5, -3.4028234663852886e+38)
    """
    return max(-FLOAT32_MAX, min(FLOAT32_MAX, value))


def _tag(spec: str) -> str:
    """A bot spec as a TensorBoard tag part (``runs/x.pt`` -> ``runs_x_pt``)."""
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in spec)


def _mean(values: Sequence[float]) -> float:
    return float(np.mean(values)) if len(values) else float("nan")


def check_opponents(
    specs: Sequence[str],
    setting: str = "eval.opponents",
    *,
    variant: str | None = None,
    num_players: int | None = None,
    options: dict[str, Any] | None = None,
) -> None:
    """Load every bot once for the run's table (``variant``, ``num_players``, ``options``),
    so that a bad spec, or a checkpoint trained for another table, fails at the start of
    a run rather than at its first evaluation, hours later."""
    for spec in specs:
        try:
            load(spec, seed=0, variant=variant, num_players=num_players, options=options)
        except (ValueError, ImportError) as err:
            raise ConfigError(f"bot {spec[:200]!r} in {setting} cannot be loaded ({err}); fix {setting}") from None


def eval_seed(base: int, train_seed: int, update: int) -> int:
    """The seed of the deals of the evaluation after ``update``: fresh deals at every
    evaluation of every run (a config is never judged on the deals it was tuned on)."""
    return int(np.random.SeedSequence([base, train_seed, update]).generate_state(1)[0])


def evaluate(
    net: PolicyNet,
    layout: Layout,
    opponents: dict[str, Any],
    *,
    deals: int,
    seed: int,
    modes: Sequence[str],
    tables: int = 64,
) -> dict[str, Stat]:
    """``{"<opponent>/<mode>": Stat}``: the learner's result per 100 hands (per game in
    the Cowboy family; in the variant's unit) against each loaded opponent over the same
    fresh duplicate deals, greedy and/or sampled, with 95% confidence intervals."""
    results: dict[str, Stat] = {}
    for spec, bot in opponents.items():
        for mode in modes:
            match = duplicate_match(net, layout, bot, deals=deals, seed=seed, greedy=mode == "greedy", tables=tables)
            results[f"{spec}/{mode}"] = match.stat
    return results


def eval_scalars(results: dict[str, Stat]) -> dict[str, float]:
    """``eval/<opponent>/<mode>`` (mean per 100 hands, per game in the Cowboy family),
    ``..._ci95`` (half-width), ``..._low`` and ``..._high``."""
    out: dict[str, float] = {}
    for key, stat in results.items():
        spec, _, mode = key.rpartition("/")
        tag = f"eval/{_tag(spec)}/{mode}"
        out[tag] = stat.mean
        out[f"{tag}_ci95"] = stat.half_width
        out[f"{tag}_low"] = stat.low
        out[f"{tag}_high"] = stat.high
    return {k: v if np.isnan(v) else loggable(v) for k, v in out.items()}


def describe_eval(results: dict[str, Any], rate: str) -> str:
    """One line: ``random +120.3 ± 20.1, heuristic -5.0 ± 9.9 (big bets per 100 hands)``;
    ``rate`` is the arena's label (antes per game in the Cowboy family)."""
    parts = [f"{key} {stat.mean:+.1f} ± {stat.half_width:.1f}" for key, stat in results.items()]
    return ", ".join(parts) + f" ({rate})"
