"""Throughput of the single-agent Gymnasium envs against the raw AEC env, on one core.

For every registered id (``DealersChoice/<Variant>-v0``) at ``--players`` seats,
prints learner steps per second and episodes per second through ``gymnasium.make``
(the learner picks a random legal action from the observation's mask; the opponents
are the default random bots, which also build the structured public view each move),
and the raw AEC env's decisions per second with the same random play and no bots
(``envs.make_raw``: ``observe`` + ``step`` only). Each figure is the median of
``--repeats`` runs of about ``--seconds`` seconds.

Usage: ``python -m benchmarks.bench_gym`` (from the repository root).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import time
from typing import Any

import gymnasium
import numpy as np
from tqdm import tqdm

import envs
from envs.gym_registry import variant_of
from envs.variants import get_variant

COWBOY_OPTIONS: dict[str, Any] = {"match_cap": 8}  # bounded pots keep games (and figures) comparable


def options_for(variant: str) -> dict[str, Any]:
    """Options of the measured games: the Cowboy family's match payments capped."""
    return COWBOY_OPTIONS if get_variant(variant).family == "cowboy" else {}


def gym_rate(env_id: str, players: int, seconds: float) -> tuple[float, float]:
    """(learner steps per second, episodes per second) through gymnasium.make."""
    env = gymnasium.make(env_id, num_players=players, **options_for(variant_of(env_id)))
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated or truncated:
            episodes += 1
            obs, _ = env.reset()
    elapsed = time.perf_counter() - start
    return steps / elapsed, episodes / elapsed


def aec_rate(variant: str, players: int, seconds: float) -> float:
    """Decisions per second of every seat through the raw AEC env."""
    env = envs.make_raw(variant, players, **options_for(variant))
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        decisions += 1
    return decisions / (time.perf_counter() - start)


def main(players: int = 3, seconds: float = 1.0, repeats: int = 3) -> list[tuple[str, float, float, float]]:
    """Measure every id; prints a markdown table and returns its rows."""
    rows = []
    for env_id in tqdm(envs.gym_ids(), desc="variants"):
        gym = [gym_rate(env_id, players, seconds) for _ in range(repeats)]
        aec = [aec_rate(variant_of(env_id), players, seconds) for _ in range(repeats)]
        rows.append(
            (
                env_id,
                statistics.median(g[0] for g in gym),
                statistics.median(g[1] for g in gym),
                statistics.median(aec),
            )
        )
    print(f"\n{players} players, median of {repeats} x {seconds:g} s, one core\n")
    print("| id | learner steps/s (gym) | episodes/s (gym) | decisions/s (raw AEC, all seats) |")
    print("|---|---:|---:|---:|")
    for env_id, steps, episodes, decisions in rows:
        print(f"| {env_id} | {steps:,.0f} | {episodes:,.0f} | {decisions:,.0f} |")
    return rows


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=3, help="seats at the table (default: %(default)s)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run (default: %(default)s)")
    parser.add_argument(
        "--repeats", type=int, default=3, help="runs per figure; the median is shown (default: %(default)s)"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    args = parse_args()
    main(args.players, args.seconds, args.repeats)
