"""Training throughput: data collection and PPO updates, measured separately.

Prints, for one table setup (default: two-player stud, the default network):

* collection: decisions per second at every seat (and the learner's share, which
  becomes training data) of ``training.rollout.Collector`` with batched inference on one
  thread, for pure self-play and for the default mix with pool tables;
* with ``--bot-fraction F --bots SPEC ...``: the same collection with a fraction ``F``
  of the episodes played against fixed bots (``agents.load`` specs, such as
  ``heuristic`` or ``heuristic:tight``) and the other episodes self-play; the bots'
  own share of the time is reported, and ``--profile N`` prints the N functions that
  take the most time in that mode (cProfile, one rollout);
* the same tables driven by uniformly random actions through the same env calls (the
  ceiling that the env sets);
* the PPO update: training decisions processed per second (decisions x epochs / time)
  with 1 and 2 torch threads;
* the engines side by side (``--only-engines`` for these rows alone): the scalar
  collector (``training.rollout``, ``--tables`` tables) and the batched one
  (``training.batched_rollout``, ``--batched-tables`` tables) with the same network,
  the same default table mix (``training.config.DEFAULT_MIX``; without the heuristic
  tables while ``agents.heuristic.batched`` is not installed, which the table says) and
  the same pool: learner decisions per second of collection and end to end
  (collection plus the default PPO update of that rollout, one thread), and the time
  split (env, opponents, policy forward, update).

Each figure is the median of ``--repeats`` rollouts (or updates) after a warm-up.
Rates are per second of wall-clock time, and also per second of this process's CPU
time (``time.process_time``), which stays meaningful on a machine shared with other
jobs. Threads are capped at one (OMP/MKL/OpenBLAS and torch).

Usage: ``python benchmarks/bench_train.py [--variant stud --players 2 --tables 64]``;
the engines: ``python benchmarks/bench_train.py --only-engines --repeats 3``;
the heuristic-opponent target of issue 16:
``python benchmarks/bench_train.py --bot-fraction 0.5 --bots heuristic --only-bots``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as train.py: sleeping idle OpenMP workers
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core: the figures are per core

import argparse
import cProfile
import pstats
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from agents.loading import load
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.registry import make_raw
from training.batched_rollout import BatchedCollector, batched_collector_for
from training.config import DEFAULT_MIX, Config, load_config
from training.pool import OpponentPool
from training.ppo import PPOSettings, ppo_update
from training.rollout import Batch, Collector, collector_for
from training.trainer import learner_device


def random_play(variant: str, n: int, tables: int, decisions: int) -> float:
    """Decisions per second with random legal actions through the collector's env calls."""
    envs = [make_raw(variant, n) for _ in range(tables)]
    rng = np.random.default_rng(0)
    for env in envs:
        env.reset(seed=int(rng.integers(2**62)))
    done = 0
    start = time.perf_counter()
    while done < decisions:
        for env in envs:
            if env.state is None or env.state.is_over:
                env.reset(seed=int(rng.integers(2**62)), options={"button": int(rng.integers(n))})
            assert env.state is not None and env.state.current_seat is not None
            obs = env.observe(env.possible_agents[env.state.current_seat])
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.perf_counter() - start)


class TimedBot:
    """A fixed bot whose ``act_batch`` time (CPU seconds) and decisions are counted."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0
        self.calls = 0

    def act_batch(self, observations: Sequence[Any], views: Sequence[Any]) -> list[int]:
        start = time.process_time()
        actions = self.bot.act_batch(observations, views)
        self.seconds += time.process_time() - start
        self.decisions += len(views)
        self.calls += 1
        return actions

    def seed(self, seed: int | None) -> None:
        self.bot.seed(seed)


@dataclass(frozen=True)
class Rates:
    """Median rates over the repeats (decisions per second)."""

    every: float  # all seats, wall clock
    learner: float  # the learner's decisions (training data), wall clock
    learner_cpu: float  # the learner's decisions per CPU second of this process
    bot_share: float  # fraction of the CPU time spent inside the bots' act_batch
    bot_batch: float  # mean views per act_batch call


def collection(
    layout: Layout,
    net: PolicyNet,
    tables: int,
    decisions: int,
    self_play: float,
    repeats: int,
    bots: Sequence[tuple[str, Any]] = (),
    bot_fraction: float = 0.0,
) -> tuple[Rates, Batch, Collector]:
    """Rates of the collector (medians of the repeats), a batch and the collector."""
    pool = OpponentPool(lambda: PolicyNet.from_arch(net.arch()), capacity=4)
    for update in range(3):
        pool.add(net, update)
    timed = [(name, TimedBot(bot)) for name, bot in bots]
    collector = Collector(
        layout.variant,
        layout.num_players,
        {},
        num_tables=tables,
        net=net,
        pool=pool,
        self_play=self_play,
        gamma=1.0,
        lam=0.95,
        bots=timed,
        bot_fraction=bot_fraction,
        rng=np.random.default_rng(0),
        generator=torch.Generator().manual_seed(0),
    )
    collector.collect(decisions // 4)  # warm-up
    every, learner, learner_cpu, share, per_call = [], [], [], [], []
    batch = None
    label = f"collect self_play={self_play}" + (f" bots={bot_fraction}" if bots else "")
    for _ in tqdm(range(repeats), desc=label, leave=False):
        for _, bot in timed:
            bot.seconds, bot.decisions, bot.calls = 0.0, 0, 0
        cpu = time.process_time()
        batch, stats = collector.collect(decisions)
        cpu = time.process_time() - cpu
        every.append(stats.decisions / stats.seconds)
        learner.append(stats.learner_decisions / stats.seconds)
        learner_cpu.append(stats.learner_decisions / cpu)
        share.append(sum(b.seconds for _, b in timed) / cpu)
        calls = sum(b.calls for _, b in timed)
        per_call.append(sum(b.decisions for _, b in timed) / calls if calls else 0.0)
    assert batch is not None
    med = statistics.median
    return Rates(med(every), med(learner), med(learner_cpu), med(share), med(per_call)), batch, collector


def profile(collector: Collector, decisions: int, top: int) -> None:
    """Print the ``top`` functions by own CPU time over one rollout."""
    profiler = cProfile.Profile(time.process_time)
    profiler.runcall(collector.collect, decisions)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def update_rate(net: PolicyNet, batch: Batch, threads: int, repeats: int) -> tuple[float, float]:
    """(training decisions per second, seconds per update) of the default PPO update."""
    torch.set_num_threads(threads)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-5, eps=1e-5)
    settings = PPOSettings()
    rng = np.random.default_rng(0)
    ppo_update(net, optimizer, batch, PPOSettings(epochs=1), rng)  # warm-up
    times = []
    for _ in tqdm(range(repeats), desc=f"update threads={threads}", leave=False):
        start = time.perf_counter()
        ppo_update(net, optimizer, batch, settings, rng)
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    return len(batch) * settings.epochs / seconds, seconds


def print_rates(label: str, rates: Rates, bots: bool) -> None:
    """Table rows of one collection mode."""
    print(f"| collection, {label}: all seats | {rates.every:,.0f} |")
    print(f"| collection, {label}: learner (training data) | {rates.learner:,.0f} |")
    print(f"| collection, {label}: learner per CPU second | {rates.learner_cpu:,.0f} |")
    if bots:
        print(f"| collection, {label}: bots' share of the CPU time | {rates.bot_share:.0%} |")
        print(f"| collection, {label}: views per bot act_batch call | {rates.bot_batch:.1f} |")


# ------------------------------------------------------------------ engines
def engine_mix() -> tuple[dict[str, float], str]:
    """The default mix, without the heuristic tables where their batched form is missing."""
    try:
        import agents.heuristic.batched  # noqa: F401
    except ImportError:
        mix = {k: w for k, w in DEFAULT_MIX.items() if not k.startswith("heuristic")}
        return mix, "default mix without the heuristic tables (agents.heuristic.batched is not installed)"
    return dict(DEFAULT_MIX), "default mix (heuristic tables included)"


class TimedForward:
    """Counts the seconds spent in a network's ``logits`` and ``values`` (the scalar
    collector's forward passes: acting, and the values after the rollout)."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, net: PolicyNet) -> PolicyNet:
        if getattr(net, "_timed", False):
            return net
        for name in ("logits", "values"):
            setattr(net, name, self._timed(getattr(net, name)))
        net._timed = True  # type: ignore[attr-defined]
        return net

    def _timed(self, inner: Any) -> Any:
        def call(*args: Any) -> torch.Tensor:
            start = time.perf_counter()
            try:
                return inner(*args)  # type: ignore[no-any-return]
            finally:
                self.seconds += time.perf_counter() - start

        return call


@dataclass(frozen=True)
class EngineRow:
    """Median figures of one engine: rates (learner decisions per second) and seconds per rollout."""

    collect_rate: float
    end_to_end_rate: float
    update_rate: float  # the update alone: the end-to-end bound
    rows: float  # learner decisions per rollout (episodes in play finish: more than asked)
    split: dict[str, float]  # env, opponents, policy, update: seconds per rollout


def engine_config(args: argparse.Namespace, engine: str, mix: dict[str, float], tables: int) -> Config:
    overrides = [
        f"env.variant={args.variant}",
        f"env.num_players={args.players}",
        f"model.hidden={args.hidden}",
        f"rollout.tables={tables}",
        f"rollout.decisions={args.decisions}",
        f"rollout.engine={engine}",
        f"train.device={args.device if engine == 'batched' else 'cpu'}",
        "rollout.mix={" + ", ".join(f'"{k}" = {w}' for k, w in mix.items()) + "}",
    ]
    return load_config(None, overrides)


def measure_engine(config: Config, layout: Layout, repeats: int) -> EngineRow:
    """Collect ``repeats`` rollouts (after a warm-up) and update on each; medians."""
    torch.manual_seed(0)
    net = PolicyNet(
        layout.obs_size, len(layout.action_names), config.model.hidden, card_groups=layout.card_groups(),
        privileged=52 * (layout.num_players - 1),
    )  # fmt: skip
    pool = OpponentPool(lambda: PolicyNet.from_arch(net.arch()), capacity=4)
    for update in range(3):
        pool.add(net, update)
    device = learner_device(config)  # the trainer's placement: train.device with the batched engine
    net.to(device)
    rng, generator = np.random.default_rng(0), torch.Generator().manual_seed(0)
    forward, snapshots = TimedForward(), TimedForward()
    if config.rollout.engine == "batched":
        collector: Any = batched_collector_for(config, net, pool, rng=rng, generator=generator)
    else:
        collector = collector_for(config, net, pool, rng=rng, generator=generator)
        collector.bots = [(name, TimedBot(bot)) for name, bot in collector.bots]
        forward.wrap(net)
        original = pool.net
        pool.net = lambda i: snapshots.wrap(original(i))  # type: ignore[method-assign]
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-5, eps=1e-5)
    update_rng = np.random.default_rng(0)
    collector.collect(config.rollout.decisions // 4)  # warm-up
    rows = []
    for _ in tqdm(range(repeats), desc=config.rollout.engine, leave=False):
        forward.seconds = snapshots.seconds = 0.0
        for _, bot in getattr(collector, "bots", []) if config.rollout.engine == "scalar" else []:
            bot.seconds = 0.0
        batch, stats = collector.collect(config.rollout.decisions)
        start = time.perf_counter()
        ppo_update(net, optimizer, batch, config.ppo, update_rng)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        update = time.perf_counter() - start
        rows.append((stats, update, _split(collector, stats.seconds, forward.seconds, snapshots.seconds)))
    med = statistics.median
    return EngineRow(
        collect_rate=med(s.learner_decisions / s.seconds for s, _, _ in rows),
        end_to_end_rate=med(s.learner_decisions / (s.seconds + u) for s, u, _ in rows),
        update_rate=med(s.learner_decisions / u for s, u, _ in rows),
        rows=med(s.learner_decisions for s, _, _ in rows),
        split={
            **{k: med(split[k] for _, _, split in rows) for k in ("env", "opponents", "policy")},
            "update": med(u for _, u, _ in rows),
        },
    )


def _split(collector: Any, seconds: float, forward: float, snapshots: float) -> dict[str, float]:
    """Seconds of one rollout in the env (with the collector's bookkeeping), the
    opponents (bots and pool snapshots) and the learner's forward passes (acting and values)."""
    if isinstance(collector, BatchedCollector):
        t = collector.timing
        policy = t["policy"] + t["values"]
        return {"env": seconds - t["opponents"] - policy, "opponents": t["opponents"], "policy": policy}
    opponents = snapshots + sum(bot.seconds for _, bot in collector.bots)  # bots: CPU seconds inside act_batch
    return {"env": seconds - opponents - forward, "opponents": opponents, "policy": forward}


def compare_engines(args: argparse.Namespace, layout: Layout) -> None:
    """The scalar and the batched collectors side by side (module docstring)."""
    mix, label = engine_mix()
    print(
        f"\nengines: {label}; {args.decisions} learner decisions per rollout; batched tables on {args.device}; "
        "the PPO update where the learner is (train.device; the scalar engine's on the CPU), one CPU thread"
    )
    print(
        "| engine | tables | decisions per rollout | collection | end to end | update alone | env s | opponents s "
        "| policy s | update s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    runs = [("scalar", args.tables)] + [("batched", t) for t in args.batched_tables]
    rows = []
    for engine, tables in runs:
        config = engine_config(args, engine, mix, tables)
        row = measure_engine(config, layout, args.repeats)
        rows.append(row)
        s = row.split
        print(
            f"| {engine} | {tables} | {row.rows:,.0f} | {row.collect_rate:,.0f} | {row.end_to_end_rate:,.0f} | "
            f"{row.update_rate:,.0f} | {s['env']:.2f} | {s['opponents']:.2f} | {s['policy']:.2f} | {s['update']:.2f} |"
        )
    scalar = rows[0]
    for (_, tables), row in zip(runs[1:], rows[1:], strict=True):
        print(
            f"| batched {tables} / scalar | | | {row.collect_rate / scalar.collect_rate:.1f}x | "
            f"{row.end_to_end_rate / scalar.end_to_end_rate:.1f}x | | | | | |"
        )
    print("(rates: learner decisions per second; update alone: the end-to-end bound with instant collection)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="stud")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=64, help="tables stepped together (inference batch)")
    parser.add_argument("--decisions", type=int, default=8192, help="learner decisions per rollout")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--bots", nargs="+", default=[], metavar="SPEC", help="fixed bots (agents.load specs)")
    parser.add_argument("--bot-fraction", type=float, default=0.0, help="share of episodes at bot tables (0..1)")
    parser.add_argument("--only-bots", action="store_true", help="only the bot mode: skip the other rows")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the N costliest functions")
    parser.add_argument(
        "--batched-tables", type=int, nargs="+", default=[1024, 4096], help="tables of the batched collector"
    )
    parser.add_argument("--only-engines", action="store_true", help="only the scalar vs batched rows")
    parser.add_argument("--device", default="cpu", help="train.device of the batched collector (cpu, cuda, auto)")
    args = parser.parse_args(argv)
    if not 0.0 <= args.bot_fraction <= 1.0:
        parser.error(f"--bot-fraction must be between 0 and 1, got {args.bot_fraction}")
    if (args.bot_fraction > 0) != bool(args.bots):
        parser.error("--bot-fraction above 0 and --bots go together")
    if args.only_bots and not args.bots:
        parser.error("--only-bots needs --bots and --bot-fraction")
    return args


def main(argv: list[str] | None = None) -> None:
    """Print the throughput table."""
    args = parse_args(argv)
    layout = Layout.build(args.variant, args.players, {})
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), args.hidden, card_groups=layout.card_groups())
    torch.set_num_threads(1)
    print(f"{layout.describe()}; {args.tables} tables; network {args.hidden} x 2 torsos + card features")
    if args.only_engines:
        compare_engines(args, layout)
        return
    print("| what | decisions per second |\n|---|---:|")
    batch = None
    if not args.only_bots:
        ceiling = random_play(args.variant, args.players, args.tables, 40_000)
        print(f"| env only, random actions (all seats) | {ceiling:,.0f} |")
        for self_play in (1.0, 0.5):
            rates, batch, _ = collection(layout, net, args.tables, args.decisions, self_play, args.repeats)
            print_rates(f"self_play={self_play}", rates, bots=False)
    if args.bots:
        bots = [(spec, load(spec, seed=0)) for spec in args.bots]
        rates, batch, collector = collection(
            layout, net, args.tables, args.decisions, 1.0, args.repeats, bots, args.bot_fraction
        )
        print_rates(f"{args.bot_fraction:.0%} of episodes vs {' '.join(args.bots)}, rest self-play", rates, bots=True)
        if args.profile:
            profile(collector, args.decisions, args.profile)
    if args.only_bots:
        return
    assert batch is not None
    for threads in (1, 2):
        rate, seconds = update_rate(net, batch, threads, args.repeats)
        label = f"PPO update ({PPOSettings().epochs} epochs), {threads} thread(s): {seconds:.2f} s per update"
        print(f"| {label} | {rate:,.0f} |")
    torch.set_num_threads(1)
    compare_engines(args, layout)


if __name__ == "__main__":
    main()
