"""Environment throughput: random-policy hands (or games) per second through the AEC API.

Every variant is played by a uniform random policy through PettingZoo's AEC loop
(``agent_iter`` / ``last`` / ``step``, with the observation vector and action mask
built at every step), on one core. In the same run, when installed, the same loop on
PettingZoo's ``texas_holdem_v4`` (RLCard underneath) and PokerKit's bare seven-card
stud engine (no observations) give the ratios printed at the end.

Usage: ``python benchmarks/bench_envs.py [--seconds 2] [--only stud cowpie]``
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

import envs

# (label, env name, player counts, options)
CASES: list[tuple[str, str, tuple[int, ...], dict[str, Any]]] = [
    ("stud", "stud", (2, 6), {}),
    ("razz", "razz", (2, 6), {}),
    ("stud_hilo", "stud_hilo", (2, 6), {}),
    ("stud_hilo_declare", "stud_hilo_declare", (2, 6), {}),
    ("cowpie", "cowpie", (2, 6), {}),
    ("cowboy (games)", "cowboy", (3, 7), {"match_cap": 20}),
    ("cowgirl (games)", "cowgirl", (3, 7), {"match_cap": 20}),
    ("cowpattie (games)", "cowpattie", (3, 7), {"match_cap": 20}),
    ("chowaha limit", "chowaha", (2, 6), {}),
    ("chowaha pot limit", "chowaha", (2, 6), {"betting": "pot_limit"}),
    ("chowaha no limit", "chowaha", (2, 6), {"betting": "no_limit"}),
    ("five_card_stud", "five_card_stud", (2, 6, 10), {}),
    ("toy_stud", "toy_stud", (2,), {}),
    ("dealers_choice (dealer)", "dealers_choice", (2, 6), {}),
    ("dealers_choice (rotate)", "dealers_choice", (2, 6), {"choice": "rotate"}),
]


def aec_loop(env: Any, rng: np.random.Generator) -> Callable[[], int]:
    """One episode of random play through the AEC API; returns the decisions made."""

    def episode() -> int:
        env.reset()
        decisions = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            decisions += 1
        return decisions

    return episode


def pokerkit_stud(n: int, rng: np.random.Generator) -> Callable[[], int] | None:
    """PokerKit's bare fixed-limit stud engine with random legal actions."""
    try:
        import pokerkit as pk
    except ImportError:
        return None
    automations = tuple(a for a in pk.Automation if a is not pk.Automation.RUNOUT_COUNT_SELECTION)

    def episode() -> int:
        state = pk.FixedLimitSevenCardStud.create_state(automations, True, 0, 1, 2, 4, 400, n)
        decisions = 0
        while state.status:
            moves = [
                m
                for m, ok in (
                    ("fold", state.can_fold()),
                    ("call", state.can_check_or_call()),
                    ("bring", state.can_post_bring_in()),
                    ("raise", state.can_complete_bet_or_raise_to()),
                )
                if ok
            ]
            move = moves[rng.integers(len(moves))]
            if move == "fold":
                state.fold()
            elif move == "call":
                state.check_or_call()
            elif move == "bring":
                state.post_bring_in()
            else:
                state.complete_bet_or_raise_to()
            decisions += 1
        return decisions

    return episode


def pettingzoo_holdem(rng: np.random.Generator) -> Callable[[], int] | None:
    """PettingZoo's texas_holdem_v4 through the same AEC loop."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pettingzoo.classic import texas_holdem_v4
    except Exception:  # rlcard or pygame missing
        return None
    env = texas_holdem_v4.env()
    env.reset(seed=0)
    return aec_loop(env, rng)


def measure(episode: Callable[[], int], seconds: float, repeats: int) -> tuple[float, float]:
    """Median episodes/s and decisions/s over repeats of about ``seconds`` each."""
    for _ in range(20):
        episode()
    rates = []
    for _ in range(repeats):
        start, episodes, decisions = time.perf_counter(), 0, 0
        while time.perf_counter() - start < seconds:
            decisions += episode()
            episodes += 1
        elapsed = time.perf_counter() - start
        rates.append((episodes / elapsed, decisions / elapsed))
    return statistics.median(r[0] for r in rates), statistics.median(r[1] for r in rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per timed repeat (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed repeats per figure; the median is shown")
    parser.add_argument("--only", nargs="*", help="labels or env names to run (default: all)")
    parser.add_argument("--raw", action="store_true", help="also time the unwrapped env (no order checks)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = np.random.default_rng(0)
    rows: list[tuple[str, int, float, float]] = []
    for label, name, counts, options in CASES:
        if args.only and label not in args.only and name not in args.only:
            continue
        for n in counts:
            makers = [("", envs.make)] + ([(" (raw)", envs.make_raw)] if args.raw else [])
            for suffix, make in makers:
                env = make(name, n, **options)
                env.reset(seed=0)
                hands, decisions = measure(aec_loop(env, rng), args.seconds, args.repeats)
                rows.append((label + suffix, n, hands, decisions))
                print(f"{label + suffix:28s} {n} players {hands:10,.0f} /s {decisions:12,.0f} decisions/s", flush=True)
    peers = [("PokerKit stud (bare engine)", n, pokerkit_stud(n, rng)) for n in (2, 6)]
    peers.append(("PettingZoo texas_holdem_v4", 2, pettingzoo_holdem(rng)))
    for label, n, episode in peers:
        if episode is None:
            print(f"{label}: not installed, skipped")
            continue
        hands, decisions = measure(episode, args.seconds, args.repeats)
        rows.append((label, n, hands, decisions))
        print(f"{label:28s} {n} players {hands:10,.0f} /s {decisions:12,.0f} decisions/s", flush=True)
    _report(rows)


def _report(rows: list[tuple[str, int, float, float]]) -> None:
    """Markdown table; ratios against the peers at the same number of players."""
    print("\n| environment | players | hands (games) / s | decisions / s | vs PokerKit stud | vs PettingZoo hold'em |")
    print("|---|---:|---:|---:|---:|---:|")
    pokerkit = {n: h for label, n, h, _ in rows if label.startswith("PokerKit")}
    holdem = {n: h for label, n, h, _ in rows if label.startswith("PettingZoo")}
    for label, n, hands, decisions in rows:
        ratio_pk = f"{hands / pokerkit[n]:.1f}x" if n in pokerkit else "-"
        ratio_pz = f"{hands / holdem[n]:.1f}x" if n in holdem else "-"
        print(f"| {label} | {n} | {hands:,.0f} | {decisions:,.0f} | {ratio_pk} | {ratio_pz} |")


if __name__ == "__main__":
    main()
