"""Train RLlib's PPO on a Dealer's Choice variant, save a checkpoint, evaluate it.

The whole RLlib recipe (docs/rllib.md explains each step and the pitfalls it avoids):

1. ``envs.rllib.ppo_config({"variant": "stud"})``: the adapter env (RLlib's observation
   keys, turn-based steps, every seat's result at the end), RLlib's action-masking
   module, one module shared by every seat (``--policies per_seat``: one each), every
   seat's return logged, RLlib's unmasked env pre-check off;
2. ``algo.train()`` a few times on a private Ray instance on this machine (loopback
   only; ``--ray auto`` or ``--ray ray://HOST:10001`` joins a cluster, and
   ``--env-runners N`` samples on N Ray actors), printing each seat's mean return (the
   sum over seats, RLlib's ``episode_return_mean``, is 0 in a zero-sum game);
3. ``algo.save(out)``, then ``python evaluate.py stud <out> random`` plays the checkpoint
   (``agents.load`` takes the directory) against a random bot on duplicate deals.

``python -m examples.rllib_ppo --help`` (from the repository root, with
``pip install -e ".[ray]"``); importable as ``main(Config(...))`` (the test suite runs
two small iterations).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import torch

import evaluation.head_to_head as evaluate
from agents.rllib_agent import MODULES
from envs.rllib import SEAT_RETURNS, SHARED_MODULE, EnvConfig, ppo_config
from evaluation.ray_cluster import LOCAL, ray_session


@dataclass(frozen=True)
class Config:
    """What to train, where, and how to evaluate it (each field's ``help`` is its ``--flag`` help)."""

    variant: str = field(default="stud", metadata={"help": "variant or env id"})
    num_players: int = field(default=2, metadata={"help": "seats at the table"})
    iterations: int = field(default=5, metadata={"help": "PPO iterations (algo.train() calls)"})
    batch: int = field(default=4000, metadata={"help": "env steps (decisions) per iteration"})
    minibatch: int = field(default=500, metadata={"help": "PPO minibatch size"})
    epochs: int = field(default=4, metadata={"help": "PPO epochs per iteration"})
    lr: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    entropy: float = field(default=0.01, metadata={"help": "entropy bonus"})
    hidden: int = field(default=256, metadata={"help": "width of the two hidden layers"})
    policies: str = field(default="shared", metadata={"help": "shared: one module for every seat; per_seat"})
    env_runners: int = field(default=0, metadata={"help": "Ray actors sampling (0: sample in this process)"})
    envs_per_runner: int = field(default=8, metadata={"help": "tables each sampler steps at once"})
    ray: str = field(default=LOCAL, metadata={"help": "local (a private instance here), auto, ray://HOST:10001"})
    seed: int = field(default=0, metadata={"help": "seeds RLlib, the envs and the evaluation deals"})
    out: str = field(default="", metadata={"help": "checkpoint directory (default runs/rllib/<variant>-<time>)"})
    eval_deals: int = field(default=200, metadata={"help": "duplicate deals against random (0: skip)"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads (small nets gain nothing)"})


@dataclass
class Summary:
    """What a run produced."""

    checkpoint: Path
    bot: Path  # what agents.load / evaluate.py take: the checkpoint, or player_0's module
    iterations: list[dict[str, Any]]  # per iteration: steps, seconds, returns per seat
    evaluation: dict[str, Any] | None  # evaluate.py's report against random
    command: str  # the evaluate.py command line for this checkpoint


def build(config: Config) -> Any:
    """The RLlib algorithm for this config (Ray must be connected)."""
    env_config = {"variant": config.variant, "num_players": config.num_players}
    return (
        ppo_config(env_config, policies=config.policies, hidden=(config.hidden, config.hidden), seed=config.seed)
        .env_runners(num_env_runners=config.env_runners, num_envs_per_env_runner=config.envs_per_runner)
        .training(
            train_batch_size_per_learner=config.batch,
            minibatch_size=config.minibatch,
            num_epochs=config.epochs,
            lr=config.lr,
            entropy_coeff=config.entropy,
            gamma=1.0,  # one hand is one episode, paid at its end: nothing to discount
            lambda_=0.95,
        )
        .build_algo()
    )


def iteration_line(i: int, result: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The numbers worth printing from one ``algo.train()`` result."""
    runners = result["env_runners"]
    return {
        "iteration": i,
        "seconds": round(seconds, 2),
        "env_steps": int(runners.get("num_env_steps_sampled", 0)),
        "episodes": int(runners.get("num_episodes", 0)),
        "episode_return_mean": float(runners.get("episode_return_mean", float("nan"))),
        "seat_returns": {seat: float(v) for seat, v in sorted(runners.get(SEAT_RETURNS, {}).items())},
        "agent_returns": {a: float(v) for a, v in sorted(runners.get("agent_episode_returns_mean", {}).items())},
    }


def main(config: Config) -> Summary:
    """Train, save, evaluate; prints one line per iteration and the evaluation table."""
    torch.set_num_threads(config.torch_threads)
    variant = EnvConfig.of({"variant": config.variant}).variant
    out = Path(config.out or f"runs/rllib/{variant}-{time.strftime('%Y%m%d-%H%M%S')}").resolve()
    lines = []
    with ray_session(config.ray):
        algo = build(config)
        try:
            for i in range(1, config.iterations + 1):
                start = time.perf_counter()
                line = iteration_line(i, algo.train(), time.perf_counter() - start)
                lines.append(line)
                seats = ", ".join(f"{seat} {v:+.3f}" for seat, v in line["seat_returns"].items())
                print(
                    f"iteration {i}: {line['env_steps']} decisions, {line['episodes']} hands, {line['seconds']:.1f} s; "
                    f"mean return per seat (big bets per hand): {seats}; "
                    f"episode_return_mean {line['episode_return_mean']:+.3f} (zero-sum: the sum over seats)"
                )
            algo.save(str(out))
        finally:
            algo.stop()
    module = SHARED_MODULE if config.policies == "shared" else "player_0"
    bot = out if config.policies == "shared" else out / MODULES / module
    argv = [variant, str(bot), "random", "--deals", str(config.eval_deals), "--seed", str(config.seed)]
    argv += ["--players", str(config.num_players)]
    command = "python evaluate.py " + " ".join(argv)
    print(f"checkpoint: {out}\nevaluate it: {command}")
    report = evaluate.main([*argv, "--no-files"]) if config.eval_deals > 0 else None
    return Summary(checkpoint=out, bot=bot, iterations=lines, evaluation=report, command=command)


def parse_args(argv: list[str] | None = None) -> Config:
    """Command-line flags for every :class:`Config` field."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Config()
    for f in fields(Config):
        default, flag = getattr(defaults, f.name), f"--{f.name.replace('_', '-')}"
        help_text = f"{f.metadata['help']} (default: %(default)s)"
        if f.name == "policies":
            parser.add_argument(flag, choices=("shared", "per_seat"), default=default, help=help_text)
        else:
            parser.add_argument(flag, type=type(default), default=default, help=help_text)
    return Config(**vars(parser.parse_args(argv)))


if __name__ == "__main__":
    main(parse_args())
