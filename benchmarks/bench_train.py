"""Training throughput: data collection and PPO updates, measured separately.

Prints, for one table setup (default: two-player stud, the default network):

* collection: decisions per second at every seat (and the learner's share, which
  becomes training data) of ``agents.rollout.Collector`` with batched inference on one
  thread, for pure self-play and for the default mix with pool tables;
* the same tables driven by uniformly random actions through the same env calls (the
  ceiling that the env sets);
* the PPO update: training decisions processed per second (decisions x epochs / time)
  with 1 and 2 torch threads.

Each figure is the median of ``--repeats`` rollouts (or updates) after a warm-up.
Usage: ``python benchmarks/bench_train.py [--variant stud --players 2 --tables 64]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as train.py: sleeping idle OpenMP workers

import argparse
import statistics
import time

import numpy as np
import torch
from tqdm import tqdm

from agents.features import card_groups
from agents.nets import PolicyNet
from agents.neural import Layout
from agents.pool import OpponentPool
from agents.ppo import PPOSettings, ppo_update
from agents.rollout import Batch, Collector
from envs.registry import make_raw


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


def collection(
    layout: Layout, net: PolicyNet, tables: int, decisions: int, self_play: float, repeats: int
) -> tuple[float, float, Batch]:
    """(all decisions/s, learner decisions/s, a batch) of the collector, median of repeats."""
    pool = OpponentPool(lambda: PolicyNet.from_arch(net.arch()), capacity=4)
    for update in range(3):
        pool.add(net, update)
    collector = Collector(
        layout.variant,
        layout.num_players,
        {},
        tables,
        net,
        pool,
        self_play=self_play,
        gamma=1.0,
        lam=0.95,
        rng=np.random.default_rng(0),
        generator=torch.Generator().manual_seed(0),
    )
    collector.collect(decisions // 4)  # warm-up
    rates, learner_rates = [], []
    batch = None
    for _ in tqdm(range(repeats), desc=f"collect self_play={self_play}", leave=False):
        batch, stats = collector.collect(decisions)
        rates.append(stats.decisions / stats.seconds)
        learner_rates.append(stats.learner_decisions / stats.seconds)
    assert batch is not None
    return statistics.median(rates), statistics.median(learner_rates), batch


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


def main(argv: list[str] | None = None) -> None:
    """Print the throughput table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="stud")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tables", type=int, default=64, help="tables stepped together (inference batch)")
    parser.add_argument("--decisions", type=int, default=8192, help="learner decisions per rollout")
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)

    layout = Layout.build(args.variant, args.players, {})
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), args.hidden, card_groups=card_groups(layout.pieces))
    torch.set_num_threads(1)
    print(f"{layout.describe()}; {args.tables} tables; network {args.hidden} x 2 torsos + card features")
    print("| what | decisions per second |\n|---|---:|")
    ceiling = random_play(args.variant, args.players, args.tables, 40_000)
    print(f"| env only, random actions (all seats) | {ceiling:,.0f} |")
    for self_play in (1.0, 0.5):
        every, learner, batch = collection(layout, net, args.tables, args.decisions, self_play, args.repeats)
        print(f"| collection, self_play={self_play}: all seats | {every:,.0f} |")
        print(f"| collection, self_play={self_play}: learner (training data) | {learner:,.0f} |")
    for threads in (1, 2):
        rate, seconds = update_rate(net, batch, threads, args.repeats)
        label = f"PPO update ({PPOSettings().epochs} epochs), {threads} thread(s): {seconds:.2f} s per update"
        print(f"| {label} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
