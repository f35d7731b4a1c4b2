"""Distil a CFR equilibrium of toy stud into the policy network, and measure it exactly.

Can the network the learners train hold a near-equilibrium policy at all? Before a
learner's NashConv is blamed on the algorithm (issue 26), this answers it by supervised
learning: a :class:`~agents.nets.PolicyNet` of the toy configs' architecture (MLP torso,
``hidden`` widths, card features; ``configs/toy_stud.toml`` uses ``[64, 64]``) is fitted
to the CFR average policy on *every* information set of the game (the observation the
env gives there, :class:`evaluation.toy_policy.ObservationCache`), minimising
``KL(cfr || net)`` over the legal actions, each information set weighted uniformly or by
its *reach*: the chance of its cards times the product of the CFR policy's
probabilities of the seat's own earlier actions (``--weighting reach``; an information
set the equilibrium never steers into cannot cost it much, the ones it reaches often
can). The network's exact NashConv (``training/exploitability.py``'s best responses) is
measured every ``--eval-every`` epochs and at the end.

The equilibrium is either solved here (DCFR, ``--cfr-iterations``) or read from a
``solve.py`` policy file (``--policy``). The network is saved as an acting-only
checkpoint (``--out``), which ``dealers-choice exploitability toy_stud <file>`` with the
same ``--option`` values measures again independently, and which ``agents.load`` plays.

Examples::

    dealers-choice distil --option ranks=QKA --option suits=cdh --hidden 64 64 --epochs 60
    dealers-choice distil --option ranks=QKA --option suits=cdh --hidden 256 256 --weighting reach
    dealers-choice distil --option ranks=QK --option suits=cd --epochs 5 --cfr-iterations 50 --json
    dealers-choice distil --hidden 256 256 --weighting reach --up-by-street   # the env option up_by_street

``main(argv)`` is importable and returns the report dict; :func:`distil` is the library
function.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.cli import prog_name, script_parser
from evaluation.toy_policy import ObservationCache, env_options, network_table
from solvers.cfr import CFRConfig, CFRSolver
from solvers.cli import OPTION_HELP, describe, parse_toy_options
from solvers.exploit import exploitability
from solvers.infosets import InfoSets
from solvers.policy import TabularPolicy
from solvers.toy import NUM_ACTIONS, ToyParams
from solvers.tree import PublicTree

WEIGHTINGS = ("uniform", "reach")


@dataclass
class DistilConfig:
    """What to distil, into which network, and how long."""

    params: ToyParams = field(default_factory=lambda: ToyParams(ranks="QKA", suits="cdh"))
    """The toy_stud options (default: the 9-card toy of issue 26)."""
    hidden: tuple[int, ...] = (64, 64)
    """Torso widths of the PolicyNet (``configs/toy_stud.toml``: 64, 64)."""
    card_features: bool = True
    """Rank and suit counts of the card groups as extra inputs (the trainer's default)."""
    epochs: int = 60
    """Passes over every information set."""
    batch_size: int = 4096
    """Information sets per gradient step."""
    lr: float = 3e-3
    """Adam's learning rate at the start; it decays to 1% along a cosine."""
    weighting: str = "uniform"
    """``uniform`` (every information set alike) or ``reach`` (see the module docstring)."""
    seed: int = 0
    """Seeds the initial weights and the minibatch order."""
    cfr_iterations: int = 1000
    """DCFR iterations for the target when no ``policy`` file is given."""
    policy: str | None = None
    """A ``solve.py`` policy file (``.npz``) for exactly these options: the target."""
    eval_every: int = 10
    """Measure the network's exact NashConv every this many epochs (and at the end)."""
    out: str | None = None
    """Save the network here as an acting-only checkpoint; None: do not save."""
    observation_check: bool = False
    """Also report how many distinct observations the information sets have, and the
    exact NashConv of the target averaged over each (:func:`observation_average`)."""
    up_by_street: bool = False
    """Fit the network to the observation of the toy_stud option ``up_by_street``: the
    env's observation plus the other seat's up cards in the order they were dealt
    (:class:`envs.variants.stud.pieces.UpByStreet`), which the default observation shows
    only as a set, so that no two information sets look alike. The saved network plays
    tables with that option, and the exploitability tools ask it with that observation."""
    threads: int = 1
    """torch CPU threads."""
    progress: bool = True
    """Show a tqdm progress bar."""

    def __post_init__(self) -> None:
        self.hidden = tuple(int(h) for h in self.hidden)
        checks = [
            (bool(self.hidden) and all(h >= 1 for h in self.hidden), f"hidden={list(self.hidden)}: widths >= 1"),
            (self.epochs >= 1, f"epochs={self.epochs}: expected at least 1"),
            (self.batch_size >= 1, f"batch_size={self.batch_size}: expected at least 1"),
            (self.lr > 0 and math.isfinite(self.lr), f"lr={self.lr}: expected a positive number"),
            (self.weighting in WEIGHTINGS, f"weighting={self.weighting!r}: expected one of {', '.join(WEIGHTINGS)}"),
            (self.cfr_iterations >= 1, f"cfr_iterations={self.cfr_iterations}: expected at least 1"),
            (self.eval_every >= 1, f"eval_every={self.eval_every}: expected at least 1"),
            (self.threads >= 1, f"threads={self.threads}: expected at least 1"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"distil: {message}")


def target_policy(config: DistilConfig, infosets: InfoSets) -> tuple[TabularPolicy, float]:
    """The equilibrium to imitate, and its exact NashConv (antes per hand)."""
    if config.policy is not None:
        loaded = TabularPolicy.load(config.policy, config.params)
        policy = TabularPolicy(config.params, loaded.table, infosets=infosets)
    else:
        solver = CFRSolver(config.params, CFRConfig())
        solver.iterate(config.cfr_iterations)
        policy = TabularPolicy(config.params, solver.average_policy().table, infosets=infosets)
    return policy, exploitability(policy, infosets.tree, with_values=False).nash_conv


def reach_weights(policy: TabularPolicy, infosets: InfoSets, *, batch_size: int = 65536) -> np.ndarray:
    """Each information set's chance of its cards times the policy's probabilities of the
    acting seat's own earlier actions: how often the seat arrives there playing
    ``policy``, whatever the other seat does (its actions are a common factor of the
    seat's choices there, so they do not change which mistakes matter most)."""
    index: dict[tuple[Any, ...], int] = {}
    own_actions: list[list[tuple[tuple[Any, ...], int]]] = []
    rounds = np.empty(infosets.count, dtype=np.int64)
    for start in range(0, infosets.count, batch_size):
        batch = infosets.batch(start, min(start + batch_size, infosets.count))
        rounds[start : start + len(batch)] = batch.betting_round
        for i in range(len(batch)):
            index[_key(batch, i, int(batch.num_actions[i]))] = int(batch.index[i])
            own_actions.append(_own_actions(batch, i))
    weights = np.ones(infosets.count)
    for row, own in enumerate(own_actions):
        for prefix, action in own:
            weights[row] *= policy.table[index[prefix], action]
    n = infosets.params.num_cards
    # the chance of the seat's cards in round k: its down card and 2(k+1) up cards, ordered
    chance = np.array([1.0 / math.perm(n, 1 + 2 * (k + 1)) for k in range(int(rounds.max()) + 1)])
    return weights * chance[rounds]


def _key(batch: Any, i: int, actions: int, betting_round: int | None = None) -> tuple[Any, ...]:
    """What the acting seat knows at row ``i`` after its first ``actions`` actions (the
    information set reached there: the up cards of rounds up to ``betting_round``)."""
    k = int(batch.betting_round[i]) if betting_round is None else betting_round
    return (
        int(batch.seat[i]),
        int(batch.down[i]),
        batch.own_up[i, : k + 1].tobytes(),
        batch.opp_up[i, : k + 1].tobytes(),
        batch.action_seat[i, :actions].tobytes(),
        batch.action[i, :actions].tobytes(),
    )


def _own_actions(batch: Any, i: int) -> list[tuple[tuple[Any, ...], int]]:
    """(information set key, action) of each earlier action of the acting seat."""
    seat = int(batch.seat[i])
    return [
        (_key(batch, i, p, int(batch.action_round[i, p])), int(batch.action[i, p]))
        for p in range(int(batch.num_actions[i]))
        if int(batch.action_seat[i, p]) == seat
    ]


def observation_average(cache: ObservationCache, table: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, int]:
    """``table`` averaged (``weights``-weighted) over information sets that share one
    observation, and the number of distinct observations: a policy any function of the
    observation can play. If it is more exploitable than ``table``, the observation
    hides something the policy needs (issue 26: the order of the other seat's up cards)."""
    import hashlib

    count = cache.infosets.count
    codes = np.empty(count, dtype=np.int64)
    seen: dict[bytes, int] = {}
    for lo in range(0, count, 65536):
        idx = np.arange(lo, min(lo + 65536, count))
        obs, _ = _rows(cache, idx)
        for i, row in zip(idx, obs, strict=True):
            codes[i] = seen.setdefault(hashlib.blake2b(row.tobytes(), digest_size=16).digest(), len(seen))
    sums = np.zeros((len(seen), table.shape[1]))
    np.add.at(sums, codes, table * weights[:, None])
    mass = np.zeros(len(seen))
    np.add.at(mass, codes, weights)
    average = np.where(mass[codes, None] > 0, sums[codes] / np.maximum(mass[codes, None], 1e-300), table)
    return average / average.sum(axis=1, keepdims=True), len(seen)


def build_net(config: DistilConfig, cache: ObservationCache) -> tuple[Any, Any]:
    """An acting-only PolicyNet of the toy configs' architecture for this game, and its Layout."""
    import torch

    from agents.nets import PolicyNet
    from agents.neural import Layout

    layout = Layout.of_env(cache.env, env_options(config.params, observed(config)))
    torch.manual_seed(config.seed)
    groups = layout.card_groups() if config.card_features else []
    net = PolicyNet(layout.obs_size, len(layout.action_names), config.hidden, card_groups=groups, value=False)
    return net, layout


def observed(config: DistilConfig) -> dict[str, Any]:
    """The env's observation options the network is fitted to."""
    return {"up_by_street": True} if config.up_by_street else {}


def distil(config: DistilConfig) -> dict[str, Any]:
    """Fit the network to the equilibrium; return the report (NashConv rows, figures)."""
    import torch

    torch.set_num_threads(config.threads)
    start = time.perf_counter()
    infosets = InfoSets(PublicTree(config.params))
    target, target_nash_conv = target_policy(config, infosets)
    cache = ObservationCache(config.params, infosets, observe=observed(config))
    weights = reach_weights(target, infosets) if config.weighting == "reach" else np.ones(infosets.count)
    weights = weights / weights.mean()
    check: dict[str, Any] = {}
    if config.observation_check:
        reach = reach_weights(target, infosets) if config.weighting != "reach" else weights
        average, distinct = observation_average(cache, target.table, reach)
        policy = TabularPolicy(config.params, average, infosets=infosets)
        check = {
            "distinct_observations": distinct,
            "observation_average_nash_conv": exploitability(policy, infosets.tree, with_values=False).nash_conv,
        }
    net, layout = build_net(config, cache)
    rows = _train(config, net, cache, target.table, weights)
    final = rows[-1]
    report = {
        "game": "toy_stud",
        "params": config.params.to_dict(),
        "config": {**asdict(config), "params": config.params.to_dict()},
        "information_sets": infosets.count,
        "parameters": sum(p.numel() for p in net.parameters()),
        "target_nash_conv": target_nash_conv,
        "uniform_nash_conv": exploitability("uniform", infosets.tree, with_values=False).nash_conv,
        **check,
        "rows": rows,
        "nash_conv": final["nash_conv"],
        "best_nash_conv": min(r["nash_conv"] for r in rows),
        "unit": "antes per hand",
        "seconds": time.perf_counter() - start,
    }
    if config.out is not None:
        report["checkpoint"] = str(_save(config, net, layout, report))
    return report


def _train(
    config: DistilConfig, net: Any, cache: ObservationCache, table: np.ndarray, weights: np.ndarray
) -> list[dict[str, float]]:
    """Adam on the weighted KL over minibatches of information sets; NashConv rows."""
    import torch
    from tqdm import tqdm

    count = cache.infosets.count
    steps_per_epoch = math.ceil(count / config.batch_size)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.lr)
    total = config.epochs * steps_per_epoch
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: 0.01 + 0.99 * 0.5 * (1 + math.cos(math.pi * min(step / total, 1.0)))
    )
    generator = np.random.default_rng(config.seed)
    target = torch.from_numpy(table.astype(np.float32))
    weight = torch.from_numpy(weights.astype(np.float32))
    rows: list[dict[str, float]] = []
    bar = tqdm(total=config.epochs, desc="distil", unit="epoch", disable=not config.progress, file=sys.stderr)
    for epoch in range(1, config.epochs + 1):
        net.train()
        order = generator.permutation(count)
        seen, loss_sum = 0, 0.0
        for lo in range(0, count, config.batch_size):
            idx = np.sort(order[lo : lo + config.batch_size])
            loss = _loss(net, cache, idx, target, weight)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            loss_sum += float(loss.detach()) * len(idx)
            seen += len(idx)
        net.eval()
        bar.update(1)
        if epoch % config.eval_every == 0 or epoch == config.epochs:
            nash_conv = exploitability(network_table(cache, net), cache.infosets.tree, with_values=False).nash_conv
            rows.append({"epoch": epoch, "kl": loss_sum / seen, "nash_conv": nash_conv})
            bar.write(
                f"epoch {epoch:>4}  weighted KL {loss_sum / seen:.5f}  NashConv {nash_conv:.5f} antes", file=sys.stderr
            )
    bar.close()
    return rows


def _loss(net: Any, cache: ObservationCache, idx: np.ndarray, target: Any, weight: Any) -> Any:
    """Weighted mean of KL(target || net) over the legal actions of rows ``idx``."""
    import torch

    from agents.nets import log_probs

    obs, mask = _rows(cache, idx)
    logp = log_probs(net.logits(torch.from_numpy(obs)), torch.from_numpy(mask))[:, :NUM_ACTIONS]
    t = target[idx]
    kl = (t * (torch.log(t.clamp_min(1e-12)) - logp)).where(t > 0, torch.zeros(())).sum(dim=1)
    return (kl * weight[idx]).mean()


def _rows(cache: ObservationCache, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(observations, masks) of any information sets (``ObservationCache.rows`` takes a range)."""
    node = cache.row_node[idx]
    obs = cache.node_obs[node]
    row = np.arange(len(idx))
    obs[row, cache.down_offset + cache.node_down[node]] = 0.0
    obs[row, cache.down_offset + cache.row_down[idx]] = 1.0
    return obs, cache.node_mask[node]


def _save(config: DistilConfig, net: Any, layout: Any, report: dict[str, Any]) -> Path:
    from agents.checkpoint import save_checkpoint

    step = {"epochs": config.epochs}
    meta = {"distil": {k: report[k] for k in ("nash_conv", "target_nash_conv", "config")}}
    return save_checkpoint(Path(config.out or ""), net=net, layout=layout, step=step, config=meta)


# ----------------------------------------------------------------------- CLI
def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice distil --help``)."""
    p = script_parser("distil.py", __doc__ or "")
    add = p.add_argument
    add("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help=f"toy_stud option, repeatable (default ranks=QKA suits=cdh): {OPTION_HELP}")  # fmt: skip
    add("--hidden", type=int, nargs="+", default=[64, 64], help="torso widths (default 64 64)")
    add("--no-card-features", dest="card_features", action="store_false", help="no rank and suit count inputs")
    add("--epochs", type=int, default=60, help="passes over every information set (default 60)")
    add("--batch-size", type=int, default=4096, help="information sets per step (default 4096)")
    add("--lr", type=float, default=3e-3, help="Adam learning rate, cosine-decayed to 1%% (default 3e-3)")
    add("--weighting", choices=WEIGHTINGS, default="uniform", help="information set weights (default uniform)")
    add("--seed", type=int, default=0, help="initial weights and minibatch order (default 0)")
    add("--cfr-iterations", type=int, default=1000, help="DCFR iterations of the target (default 1000)")
    add("--policy", default=None, help="a solve.py policy file to imitate instead of solving here")
    add("--eval-every", type=int, default=10, help="exact NashConv every K epochs (default 10)")
    add("--out", default=None, help="save the network as a checkpoint here")
    add("--observation-check", action="store_true",
        help="report the distinct observations and the NashConv of CFR averaged over each one")  # fmt: skip
    add("--up-by-street", action="store_true",
        help="observe as the toy_stud option up_by_street does (the up cards by street)")  # fmt: skip
    add("--threads", type=int, default=1, help="torch CPU threads (default 1)")
    add("--json", action="store_true", help="print the report as JSON")
    add("-q", "--no-progress", dest="progress", action="store_false", help="no progress bar")
    return p


def config_from_args(args: argparse.Namespace) -> DistilConfig:
    """The validated config of a parsed command line."""
    params = parse_toy_options(args.option) if args.option else ToyParams(ranks="QKA", suits="cdh")
    keys = ("hidden", "card_features", "epochs", "batch_size", "lr", "weighting", "seed", "cfr_iterations")
    rest = ("policy", "eval_every", "out", "observation_check", "up_by_street", "threads", "progress")
    return DistilConfig(params=params, **{k: getattr(args, k) for k in (*keys, *rest)})


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run from a command line; print the report and return it."""
    args = build_parser().parse_args(argv)
    try:
        report = distil(config_from_args(args))
    except (ValueError, OSError) as err:
        print(f"{prog_name('distil.py')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return report


def format_report(report: dict[str, Any]) -> str:
    """The figures as a few lines."""
    c = report["config"]
    return "\n".join(
        [
            f"toy_stud {describe(ToyParams(**report['params']))}: {report['information_sets']:,} information sets",
            f"network: hidden {c['hidden']}, {report['parameters']:,} parameters, {c['weighting']} weighting, "
            f"{c['epochs']} epochs, seed {c['seed']}"
            + (", observing the up cards by street (option up_by_street)" if c.get("up_by_street") else ""),
            f"NashConv (antes per hand): network {report['nash_conv']:.5f} (best {report['best_nash_conv']:.5f}), "
            f"CFR target {report['target_nash_conv']:.5f}, uniform {report['uniform_nash_conv']:.5f}",
            *(
                [
                    f"observations: {report['distinct_observations']:,} distinct; CFR averaged over each: "
                    f"NashConv {report['observation_average_nash_conv']:.5f}"
                ]
                if "distinct_observations" in report
                else []
            ),
            f"seconds {report['seconds']:.1f}" + (f"; wrote {report['checkpoint']}" if "checkpoint" in report else ""),
        ]
    )


if __name__ == "__main__":
    main()
