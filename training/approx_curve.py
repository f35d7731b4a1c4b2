"""How loose is the learned best response? Its value against budget, beside the exact answer.

``dealers-choice exploitability <variant> <spec> --approx`` reports what a PPO best
responder wins against a frozen policy as a lower bound on exploitability
(training/approx.py). This command measures how that bound grows with training, and on
heads-up toy stud how far it stays below the exact best response:

1. one best-responder run per ``--seeds`` seed, with ``--approx``'s own config
   (:func:`training.approx.best_response_config`: the policy in every other seat,
   constant learning rate), for the largest of the budgets ``D, 2D, ..., 2^K D``
   learner decisions (``--start D --doublings K``), saving ``update_<k>.pt`` at every
   budget. The learning rate is constant, so the checkpoint at budget ``b`` *is* what
   a run of budget ``b`` would have produced. ``--jobs N`` trains N seeds' runs at once,
   each in its own process (one core each) with a progress bar of its own: the same
   runs, in less wall time;

2. every checkpoint is measured as ``--approx`` measures it: greedy, on ``--deals``
   fresh duplicate deals against the policy (:func:`training.verdict.verdict`, a new
   seed per measurement, written to the rows), the mean and its 95% interval in the
   variant's unit and per hand. On heads-up toy stud also *exactly*: the responder's
   table (greedy and sampled) takes its seat's information sets, the policy's table
   the other seat's, and the solvers' value walk values that profile for each seat
   (:func:`exact_responder_value`), beside the exact best response (NashConv / 2) and
   the fraction of it recovered. Exact figures are in antes per hand, averaged over
   the two seats (``dealers-choice exploitability`` prints the same unit);

3. the stop rule for games without an exact answer (:func:`stop_index`): stop doubling
   once the last doubling raised the measured mean by less than ``--stop-gain``
   (relative), or, with ``--stop-patience P``, once ``P`` doublings in a row did (one
   small gain between two 1,000-deal measurements is often noise); with exact values,
   also the smallest budget recovering 80% of the exact best response, by its exact
   value and by its measured mean.

Output in ``--out DIR``: ``results.jsonl`` (one row per seed and budget; rows already
there are kept and not measured again, and a run cut short continues from its latest
checkpoint), ``curve.md`` (the table and the stop rule), ``curve.png``.

Examples::

    dealers-choice approx-curve toy_stud pretrained:toy_stud --start 32768 --doublings 5 \\
        --seeds 1,2 --deals 2000 --out runs/calib_toy
    dealers-choice approx-curve toy_stud heuristic --option ranks=QKA --option suits=cdh \\
        --start 10000 --doublings 4 --out runs/calib_toy9
    dealers-choice approx-curve razz heuristic --start 98304 --doublings 3 --out runs/calib_razz
    dealers-choice approx-curve chowaha pretrained:chowaha --start 1703936 --doublings 0 \
        --seeds 1,2 --jobs 2 --deals 2000 --set train.threads=1 --out runs/calib/chowaha

``main(argv)`` is importable and returns the rows.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.cli import prog_name, script_parser
from solvers.toy import quote
from training.approx import best_response_config, env_options, warm_start_overrides
from training.approx import check_inputs as approx_inputs
from training.jsonl import append_row, read_rows

TARGET_SHARE = 0.8  # "recovers most of it": the smallest budget reaching this share is reported


# ------------------------------------------------------------------ pure pieces
def budgets(start: int, doublings: int) -> list[int]:
    """``start, 2 start, ..., 2**doublings start`` learner decisions."""
    if start <= 0:
        raise ValueError(f"--start {start} is not allowed: expected learner decisions > 0")
    if doublings < 0:
        raise ValueError(f"--doublings {doublings} is not allowed: expected 0 or more")
    return [start << k for k in range(doublings + 1)]


def updates_at(budget_list: Sequence[int], decisions_per_update: int) -> list[int]:
    """The update count of each budget: the smallest budget rounded up to whole updates,
    then doubled with the budgets, so every budget is a multiple of the first (the
    trainer saves ``update_<k>.pt`` every that many updates)."""
    first = max(1, math.ceil(budget_list[0] / decisions_per_update))
    return [first * (b // budget_list[0]) for b in budget_list]


def relative_gain(before: float, after: float) -> float:
    """How much ``after`` raised ``before``, relative to its size (``inf`` from 0 up)."""
    if before == 0:
        return math.inf if after > 0 else (0.0 if after == 0 else -math.inf)
    return (after - before) / abs(before)


def stop_index(means: Sequence[float], gain: float, patience: int = 1) -> int | None:
    """The budget (index) where the stop rule stops doubling: the first that ends
    ``patience`` doublings in a row each raising the measured mean by less than
    ``gain`` relative. None: the rule would double again past the largest budget
    measured. Patience exists because one measured gain is noisy: a flat doubling is
    often followed by a large one (five-card stud, docs/exploitability.md)."""
    if patience < 1:
        raise ValueError(f"patience {patience} is not allowed: expected a count of doublings >= 1")
    run = 0
    for k in range(1, len(means)):
        run = run + 1 if relative_gain(means[k - 1], means[k]) < gain else 0
        if run >= patience:
            return k
    return None


def first_reaching(values: Sequence[float | None], target: float) -> int | None:
    """The index of the first value at or above ``target`` (None: never)."""
    return next((k for k, v in enumerate(values) if v is not None and v >= target), None)


def combined_table(responder: np.ndarray, policy: np.ndarray, seats: np.ndarray, seat: int) -> np.ndarray:
    """The profile where ``seat`` plays the responder and the other seat the policy: the
    responder's rows at ``seat``'s information sets, the policy's elsewhere."""
    return np.where((seats == seat)[:, None], responder, policy)


def greedy_table(table: np.ndarray) -> np.ndarray:
    """The most likely action of every row with probability 1 (the first on ties, as
    ``argmax`` breaks them in greedy play); illegal actions have probability 0 already."""
    out = np.zeros_like(table)
    out[np.arange(len(table)), table.argmax(axis=1)] = 1.0
    return out


# ------------------------------------------------------------------ exact reference
@dataclass
class ExactReference:
    """Heads-up toy stud: the policy's table, the exact best response against it, and
    what it takes to tabulate a responder network (built once per command)."""

    params: Any  # solvers.toy.ToyParams
    cache: Any  # evaluation.toy_policy.ObservationCache
    policy: np.ndarray
    seats: np.ndarray
    br_seats: tuple[float, float]

    @property
    def br(self) -> float:
        """Exploitability (NashConv / 2): the best response's value per hand, both seats."""
        return (self.br_seats[0] + self.br_seats[1]) / 2


def exact_reference(variant: str, num_players: int, options: dict[str, Any], spec: str) -> ExactReference | None:
    """The exact reference where one exists (heads-up toy stud), else None."""
    if variant != "toy_stud" or num_players != 2:
        return None
    from evaluation.toy_policy import ObservationCache, toy_game
    from solvers import InfoSets, PublicTree
    from solvers.exploit import best_response_values
    from solvers.policy import TabularPolicy
    from training.exploitability import load_policy

    params, observe = toy_game(options)
    infosets = InfoSets(PublicTree(params))
    loaded = load_policy(params, spec, tree=infosets.tree)
    policy = TabularPolicy.uniform(params, infosets=infosets) if isinstance(loaded, str) else loaded
    br = best_response_values(infosets.tree, policy.source())
    cache = ObservationCache(params, infosets, observe=observe)
    return ExactReference(params, cache, policy.table, infosets.seats(), (float(br[0]), float(br[1])))


def exact_responder_value(reference: ExactReference, responder: np.ndarray) -> tuple[float, float]:
    """The responder's exact value (antes per hand) in seat 0 and in seat 1 against the
    policy in the other seat."""
    from solvers.exploit import policy_values
    from solvers.policy import TabularPolicy

    tree = reference.cache.infosets.tree
    values = []
    for seat in (0, 1):
        table = combined_table(responder, reference.policy, reference.seats, seat)
        profile = TabularPolicy(reference.params, table, infosets=reference.cache.infosets)
        values.append(float(policy_values(tree, profile.source())[seat]))
    return values[0], values[1]


def exact_measurement(reference: ExactReference, checkpoint: Path) -> dict[str, Any]:
    """The checkpoint's exact values, greedy and sampled, and the share of the best response."""
    from agents.checkpoint import net_from_checkpoint, read_checkpoint
    from evaluation.toy_policy import network_table

    net, _ = net_from_checkpoint(read_checkpoint(checkpoint), checkpoint)
    sampled = network_table(reference.cache, net).table
    row: dict[str, Any] = {"exact_br": reference.br, "exact_br_seats": list(reference.br_seats)}
    for mode, table in (("greedy", greedy_table(sampled)), ("sampled", sampled)):
        seats = exact_responder_value(reference, table)
        row[f"exact_{mode}"] = (seats[0] + seats[1]) / 2
        row[f"exact_{mode}_seats"] = list(seats)
        row[f"recovered_{mode}"] = row[f"exact_{mode}"] / reference.br if reference.br > 0 else None
    return row


# ------------------------------------------------------------------ one checkpoint
def approx_measurement(checkpoint: Path, spec: str, *, deals: int, seed: int | None, workers: int) -> dict[str, Any]:
    """What ``--approx`` reports for this checkpoint (:func:`training.approx.measure_responder`),
    per hand too; the deals' seed as ``eval_seed`` (``seed`` is the training seed here)."""
    from training.approx import measure_responder

    row = measure_responder(checkpoint, spec, deals=deals, seed=seed, workers=workers)
    row["eval_seed"] = row.pop("seed")
    del row["options"]
    return row | {"mean_per_hand": row["mean"] / row["per"], "ci95_per_hand": row["ci95"] / row["per"]}


def eval_seed_of(base: int | None, seed: int, k: int) -> int | None:
    """A distinct, reproducible deal seed per (training seed, budget) from ``--eval-seed``
    (None: fresh, drawn by the verdict and written to the row)."""
    if base is None:
        return None
    return int(np.random.SeedSequence([base, seed, k]).generate_state(1)[0] >> 1)


# ------------------------------------------------------------------ the command
def check_inputs(
    variant: str,
    spec: str,
    seeds: Sequence[int],
    deals: int,
    stop_gain: float,
    num_players: int = 2,
    patience: int = 1,
    warm_start: bool = False,
) -> None:
    """Clear errors before anything is trained or valued exactly (budgets: :func:`budgets`);
    a ``--warm-start`` from a bot with no weights is one (the heuristic's exact values
    alone take minutes)."""
    approx_inputs(variant, None, deals, num_players)
    if not seeds or len(set(seeds)) != len(seeds):
        raise ValueError(f"--seeds {list(seeds)} is not allowed: expected distinct seeds, e.g. 1,2")
    if not (stop_gain >= 0 and math.isfinite(stop_gain)):
        raise ValueError(f"--stop-gain {stop_gain} is not allowed: expected a relative gain >= 0, e.g. 0.1")
    if patience < 1:
        raise ValueError(f"--stop-patience {patience} is not allowed: expected a count of doublings >= 1, e.g. 2")
    import agents  # torch and the env load only now

    try:
        agents.load(spec, seed=0)
    except ValueError as err:
        raise ValueError(f"policy {quote(spec)} cannot be loaded: {err}") from None
    if warm_start:
        from training.warm_start import checkpoint_path

        checkpoint_path(spec)


def train_seed(args: argparse.Namespace, seed: int, updates: list[int], line: int | None = None) -> tuple[Path, float]:
    """The seed's best-responder run until the largest budget (continued if cut short);
    returns its folder and training seconds. ``line``: the terminal line of its progress
    bar, labelled with the seed, when runs train at once (:func:`train_in_parallel`)."""
    from training import run as train_run

    bar = None if line is None else {"desc": f"seed {seed}", "position": line}
    runs = Path(args.out) / "runs" / f"seed_{seed}"
    existing = sorted(runs.glob("*/checkpoints/latest.pt"))
    began = time.perf_counter()
    if existing:
        run_dir = existing[-1].parents[1]
        if not (run_dir / "checkpoints" / f"update_{updates[-1]:06d}.pt").is_file():
            settings = [f"train.updates={updates[-1]}", f"train.progress={str(args.progress).lower()}"]
            train_run.main(resume=run_dir, overrides=settings, bar=bar)
        return run_dir, time.perf_counter() - began
    config = best_response_config(
        args.game,
        args.policy,
        seed=seed,
        num_players=args.num_players,
        options=args.options,
        runs_dir=str(runs),
        updates=updates[-1],
        checkpoint_every=updates[0],
        name="approx_curve",
        progress=args.progress,
    )
    result = train_run.main(config, overrides=warm_start_overrides(args.policy, args.warm_start, args.set), bar=bar)
    return result.run_dir, time.perf_counter() - began


def train_in_parallel(
    args: argparse.Namespace, seeds: Sequence[int], updates: list[int]
) -> dict[int, tuple[Path, float]]:
    """:func:`train_seed` for ``seeds``, ``--jobs`` runs at once, each in its own spawned
    process (one core each: ``train.threads``). A seed's run is the same run as in
    sequence, since each seeds everything from its own training seed; only the
    measurements wait until every run is trained. Returns ``{seed: (folder, seconds)}``.

    Each run's progress bar has a line of its own, labelled with its seed, and the
    processes write them under one lock (tqdm's way for several processes), so the bars
    stay readable on a shared terminal."""
    from tqdm import tqdm

    context = multiprocessing.get_context("spawn")  # no fork: safe with torch and threads
    lock = context.RLock()
    trained: dict[int, tuple[Path, float]] = {}
    workers = min(args.jobs, len(seeds))
    with ProcessPoolExecutor(workers, mp_context=context, initializer=tqdm.set_lock, initargs=(lock,)) as pool:
        futures = {pool.submit(train_seed, args, seed, updates, line): seed for line, seed in enumerate(seeds)}
        for future in as_completed(futures):
            seed = futures[future]
            trained[seed] = future.result()
            print(f"{prog_name('approx-curve')}: seed {seed} trained in {trained[seed][1] / 60:.1f} min "
                  f"({trained[seed][0]})", file=sys.stderr)  # fmt: skip
    return trained


def decisions_per_update(args: argparse.Namespace) -> int:
    """``rollout.decisions`` of the run these arguments make (after every ``--set``)."""
    from training.config import from_dict, load_config

    config = best_response_config(args.game, args.policy, seed=1, num_players=args.num_players, options=args.options)
    return load_config(None, args.set, base=from_dict(config, "config dict")).rollout.decisions


def run_curve(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Train, measure and write everything (module docstring); returns the rows."""
    from tqdm import tqdm

    from agents.checkpoint import read_checkpoint

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    budget_list = budgets(args.start, args.doublings)
    per_update = decisions_per_update(args)
    updates = updates_at(budget_list, per_update)
    if args.start % per_update:
        print(f"{prog_name('approx-curve')}: note: --start {args.start} is not a multiple of rollout.decisions = "
              f"{per_update}: the budgets round up to {updates[0]} updates ({updates[0] * per_update:,} decisions) "
              "and their doublings", file=sys.stderr)  # fmt: skip
    reference = None
    if args.exact:
        reference = exact_reference(args.game, args.num_players, args.options, args.policy)
        if reference is None:
            print(f"{prog_name('approx-curve')}: note: no exact values for {args.num_players}-player "
                  f"{args.game} (heads-up toy_stud only): skipped", file=sys.stderr)  # fmt: skip
    done = {(r["seed"], r["budget"]): r for r in read_rows(out / "results.jsonl")}
    pending = [seed for seed in args.seeds if not all((seed, b) in done for b in budget_list)]
    trained = train_in_parallel(args, pending, updates) if args.jobs > 1 and len(pending) > 1 else {}
    rows: list[dict[str, Any]] = []
    bar = tqdm(total=len(args.seeds) * len(budget_list), desc="approx-curve", unit="checkpoint",
               disable=not args.progress, file=sys.stderr)  # fmt: skip
    for seed in args.seeds:
        if all((seed, b) in done for b in budget_list):
            rows += [done[(seed, b)] for b in budget_list]
            bar.update(len(budget_list))
            continue
        run_dir, seconds = trained[seed] if seed in trained else train_seed(args, seed, updates)
        for k, (budget, update) in enumerate(zip(budget_list, updates, strict=True)):
            if (seed, budget) not in done:
                path = run_dir / "checkpoints" / f"update_{update:06d}.pt"
                saved = read_checkpoint(path)
                step = saved["step"]
                row = {"seed": seed, "budget": budget, "doubling": k, "updates": update,
                       "learner_decisions": int(step["decisions"]), "checkpoint": str(path),
                       "train_seconds": seconds, "policy": args.policy, "variant": args.game,
                       "init_from": saved["config"]["train"].get("init_from", "")}  # fmt: skip
                seed_k = eval_seed_of(args.eval_seed, seed, k)
                row |= approx_measurement(path, args.policy, deals=args.deals, seed=seed_k, workers=args.workers)
                if reference is not None:
                    row |= measured_in_antes(row, reference.params)
                    row |= exact_measurement(reference, path)
                done[(seed, budget)] = row
                append_row(out / "results.jsonl", row)
            rows.append(done[(seed, budget)])
            bar.update(1)
    bar.close()
    summary = summarise(rows, args.stop_gain, args.stop_patience)
    (out / "curve.md").write_text(format_markdown(rows, summary, args), encoding="utf-8")
    plot(rows, out / "curve.png", title=f"{args.game}: best response to {args.policy}")
    return rows


def measured_in_antes(row: dict[str, Any], params: Any) -> dict[str, float]:
    """The measured mean per hand in antes, the exact figures' unit (toy stud's reward
    unit is its big bet)."""
    scale = params.big_bet / params.ante
    return {"mean_antes": row["mean_per_hand"] * scale, "ci95_antes": row["ci95_per_hand"] * scale}


# ------------------------------------------------------------------ summary and output
def summarise(rows: list[dict[str, Any]], gain: float, patience: int = 1) -> dict[str, Any]:
    """Per seed: where the stop rule stops and, with exact values, the smallest budget
    recovering :data:`TARGET_SHARE` of the best response (exactly, and as measured)."""
    per_seed: dict[int, dict[str, Any]] = {}
    for seed in dict.fromkeys(r["seed"] for r in rows):
        curve = sorted((r for r in rows if r["seed"] == seed), key=lambda r: r["budget"])
        stop = stop_index([r["mean"] for r in curve], gain, patience)
        k = len(curve) - 1 if stop is None else stop
        entry: dict[str, Any] = {
            "stop_budget": curve[k]["budget"],
            "stop_mean": curve[k]["mean"],
            "stopped": stop is not None,
        }
        if "exact_br" in curve[0]:
            target = TARGET_SHARE * curve[0]["exact_br"]
            exact = first_reaching([r["exact_greedy"] for r in curve], target)
            measured = first_reaching([r["mean_antes"] for r in curve], target)
            entry["exact_80_budget"] = None if exact is None else curve[exact]["budget"]
            entry["measured_80_budget"] = None if measured is None else curve[measured]["budget"]
            entry["stop_exact_greedy"] = curve[k]["exact_greedy"]
        per_seed[seed] = entry
    return {"gain": gain, "patience": patience, "target_share": TARGET_SHARE, "seeds": per_seed}


def format_markdown(rows: list[dict[str, Any]], summary: dict[str, Any], args: argparse.Namespace) -> str:
    """``curve.md``: one line per seed and budget, then the stop rule's answers."""
    exact = any("exact_br" in r for r in rows)
    unit = rows[0]["unit"] if rows else ""
    head = f"| seed | budget | decisions | measured ({unit}) | per hand | deal seed |"
    rule = "|---:|---:|---:|---:|---:|---:|"
    if exact:
        head += " measured (antes/hand) | exact greedy | exact sampled | exact BR | recovered (greedy) |"
        rule += "---:|---:|---:|---:|---:|"
    lines = [f"# Best response to {args.policy} on {args.game}: value against budget", "", head, rule]
    for r in sorted(rows, key=lambda r: (r["seed"], r["budget"])):
        line = (f"| {r['seed']} | {r['budget']:,} | {r['learner_decisions']:,} | {r['mean']:+.2f} ± {r['ci95']:.2f} "
                f"| {r['mean_per_hand']:+.4f} ± {r['ci95_per_hand']:.4f} | {r['eval_seed']} |")  # fmt: skip
        if exact:
            share = r["recovered_greedy"]
            line += (f" {r['mean_antes']:+.4f} ± {r['ci95_antes']:.4f} | {r['exact_greedy']:+.4f} "
                     f"| {r['exact_sampled']:+.4f} | {r['exact_br']:.4f} | "
                     f"{'-' if share is None else f'{100 * share:.0f}%'} |")  # fmt: skip
        lines.append(line)
    which = "a doubling" if summary["patience"] == 1 else f"{summary['patience']} doublings in a row"
    lines += ["", f"Stop rule: stop doubling once {which} raised the measured mean by less than "
              f"{100 * summary['gain']:.0f}% (relative)."]  # fmt: skip
    for seed, s in summary["seeds"].items():
        where = "stops at" if s["stopped"] else "has not stopped by"
        text = f"- seed {seed}: {where} {s['stop_budget']:,} decisions"
        text += f" (measured {s['stop_mean']:+.2f})"
        if "exact_80_budget" in s:
            text += (f"; exact greedy value there {s['stop_exact_greedy']:+.4f} antes per hand; "
                     f"{100 * TARGET_SHARE:.0f}% of the exact best response first reached at "
                     f"{_budget_text(s['exact_80_budget'])} (exact value), {_budget_text(s['measured_80_budget'])}"
                     " (measured mean)")  # fmt: skip
        lines.append(text)
    return "\n".join(lines) + "\n"


def _budget_text(budget: int | None) -> str:
    return "no budget measured" if budget is None else f"{budget:,} decisions"


def plot(rows: list[dict[str, Any]], path: Path, *, title: str) -> None:
    """``curve.png``: the measured value per hand against budget (log x), one line per
    seed with its 95% bars; the exact responder values dashed; the best response flat."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    exact = any("exact_br" in r for r in rows)
    mean_key, ci_key = ("mean_antes", "ci95_antes") if exact else ("mean_per_hand", "ci95_per_hand")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, seed in enumerate(dict.fromkeys(r["seed"] for r in rows)):
        curve = sorted((r for r in rows if r["seed"] == seed), key=lambda r: r["budget"])
        x = [r["budget"] for r in curve]
        color = f"C{i}"
        ax.errorbar(x, [r[mean_key] for r in curve], yerr=[r[ci_key] for r in curve], color=color,
                    marker="o", capsize=3, label=f"seed {seed}: measured (greedy, 95%)")  # fmt: skip
        if exact:
            ax.plot(x, [r["exact_greedy"] for r in curve], "--", color=color, label=f"seed {seed}: exact, greedy")
    if exact:
        ax.axhline(rows[0]["exact_br"], color="k", label="exact best response (NashConv / 2)")
    ax.set_xscale("log")
    ax.set_xlabel("learner decisions")
    ax.set_ylabel("antes per hand" if exact else f"{rows[0]['unit'].split(' per ')[0]} per hand")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice approx-curve --help``)."""
    p = script_parser("approx-curve", __doc__ or "")
    add = p.add_argument
    add("game", help="the variant (any; exact values on heads-up toy_stud)")
    add("policy", help="the frozen policy: a bot spec (agents.load), e.g. heuristic or pretrained:toy_stud")
    add("--start", type=int, default=32768, help="the smallest budget, in learner decisions (default %(default)s)")
    add("--doublings", type=int, default=5, help="K: the budgets are D, 2D, ..., 2^K D (default %(default)s)")
    add("--seeds", default="1", help="training seeds, comma-separated: one run each (default %(default)s)")
    add("--deals", type=int, default=1000, help="fresh duplicate deals of each measurement (default %(default)s)")
    add("--eval-seed", type=int, default=None, help="base seed of the measurements' deals (default: fresh each)")
    add(
        "--stop-gain",
        type=float,
        default=0.10,
        help="stop rule: stop after a doubling that gains less than this, relative (default %(default)s)",
    )
    add(
        "--stop-patience",
        type=int,
        default=1,
        help="stop rule: this many doublings in a row must gain less than --stop-gain (default %(default)s)",
    )
    add(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="env option, repeatable (toy_stud: ranks, suits, streets, ante, ...)",
    )
    add(
        "--num-players", type=int, default=2, help="seats; the policy fills all but the learner's (default %(default)s)"
    )
    add("--no-exact", dest="exact", action="store_false", help="skip the exact values on toy_stud")
    add("--workers", type=int, default=1, help="processes of each measurement (one core each)")
    add(
        "--jobs",
        type=int,
        default=1,
        help="best-responder runs trained at once, one process (and core) each, each with a "
        "progress bar of its own labelled with its seed; the seeds' runs are the same as in "
        "sequence (default %(default)s: one seed after another)",
    )
    add(
        "--set",
        action="append",
        default=[],
        metavar="SECTION.KEY=VALUE",
        help="a training setting, repeatable (e.g. model.hidden=[64,64])",
    )
    add(
        "--warm-start",
        action="store_true",
        help="start each best responder from the policy's own weights (a network policy; train.init_from): it "
        "starts as the policy (worth 0 against it) instead of below it",
    )
    add("--out", required=True, help="folder for results.jsonl, curve.md, curve.png and the runs")
    add("--json", action="store_true", help="print the rows as JSON")
    add("--no-progress", dest="progress", action="store_false", help="no progress bars")
    return p


def parse_seeds(text: str) -> list[int]:
    """``1,2,3`` as seeds."""
    try:
        return [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"--seeds {quote(text)} is not allowed: expected comma-separated integers, e.g. 1,2") from None


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run from a command line; print the table (or the rows) and return the rows."""
    args = build_parser().parse_args(argv)
    try:
        args.seeds = parse_seeds(args.seeds)
        args.options = env_options(args.option)
        budgets(args.start, args.doublings)
        if args.jobs < 1:
            raise ValueError(f"--jobs {args.jobs} is not allowed: expected a count of processes >= 1, e.g. 2")
        check_inputs(
            args.game,
            args.policy,
            args.seeds,
            args.deals,
            args.stop_gain,
            args.num_players,
            args.stop_patience,
            warm_start=args.warm_start,
        )
        rows = run_curve(args)
    except (ValueError, OSError) as err:
        print(f"{prog_name('approx-curve')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(rows, indent=2) if args.json else (Path(args.out) / "curve.md").read_text(encoding="utf-8"))
    return rows


if __name__ == "__main__":
    main()
