"""Train sb3-contrib's MaskablePPO on Dealer's Choice Gymnasium envs, then evaluate it
against random bots in the duplicate-deal arena.

The whole PettingZoo-to-trainer recipe, top to bottom:

1. ``gymnasium.make("DealersChoice/<Variant>-v0", num_players=n, opponents="random")``:
   one learner seat (rotating) against bots, the learner's reward only;
2. ``MaskablePPO("MultiInputPolicy", env)``: the env's ``action_masks()`` keeps every
   sampled action legal (an illegal one would raise, not be remapped);
3. ``evaluation.run_match(variant, [SB3Agent(model), "random", ...])``: duplicate deals
   with a 95% confidence interval, next to a random bot in the same seat on the same
   deals (the baseline any real learning must beat).

``python -m examples.maskable_ppo --help`` (from the repository root); importable as ``main(Config(...))``
(the test suite runs it with a few thousand steps).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

import gymnasium
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

import envs  # noqa: F401 (registers the DealersChoice/* Gymnasium ids)
import evaluation
from agents.sb3 import SB3Agent
from envs.gym_registry import gym_id
from evaluation.arena import MatchResult, Stat


@dataclass(frozen=True)
class Config:
    """What to train and how to evaluate it (each field's ``help`` is its ``--flag`` help)."""

    variants: tuple[str, ...] = field(default=("stud", "cowpie"), metadata={"help": "variants, one model each"})
    num_players: int = field(default=2, metadata={"help": "the learner plus num_players - 1 random bots"})
    timesteps: int = field(default=20_000, metadata={"help": "learner decisions per variant"})
    eval_deals: int = field(default=500, metadata={"help": "duplicate deals in the evaluation"})
    seed: int = field(default=0, metadata={"help": "seeds the env, the opponents, PPO and the deals"})
    n_steps: int = field(default=512, metadata={"help": "PPO rollout length"})
    batch_size: int = field(default=128, metadata={"help": "PPO minibatch size"})
    n_epochs: int = field(default=4, metadata={"help": "PPO epochs per rollout"})
    learning_rate: float = field(default=3e-4, metadata={"help": "Adam learning rate"})
    torch_threads: int = field(default=1, metadata={"help": "torch CPU threads (small nets gain nothing)"})
    options: dict[str, Any] = field(default_factory=dict, metadata={"help": "variant options for every variant"})
    progress: bool = field(default=True, metadata={"help": "show tqdm progress bars"})


@dataclass
class VariantReport:
    """One variant's training and evaluation."""

    variant: str
    env_id: str
    timesteps: int
    train_seconds: float
    episodes: int
    train_reward: float  # mean learner reward over the last 100 training episodes
    ppo: Stat  # per 100 seat-hands against random bots, 95% CI
    random_baseline: Stat  # a random bot in the learner's place, same deals
    unit: str
    decisions: Counter[str]  # the trained policy's actions in the evaluation
    match: MatchResult
    model: MaskablePPO


class TqdmCallback(BaseCallback):
    """A tqdm bar over PPO's timesteps (SB3's own bar needs ``rich``)."""

    def __init__(self, total: int, description: str, enabled: bool) -> None:
        super().__init__()
        self.bar = tqdm(total=total, desc=description, unit="step", disable=not enabled)

    def _on_step(self) -> bool:
        self.bar.update(self.training_env.num_envs)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()


def train(variant: str, config: Config) -> tuple[MaskablePPO, float]:
    """Train MaskablePPO on one variant; returns the model and the seconds taken."""
    env = gymnasium.make(gym_id(variant), num_players=config.num_players, opponents="random", **config.options)
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        learning_rate=config.learning_rate,
        seed=config.seed,
        device="cpu",
        verbose=0,
    )
    start = time.perf_counter()
    model.learn(config.timesteps, callback=TqdmCallback(config.timesteps, f"train {variant}", config.progress))
    return model, time.perf_counter() - start


def evaluate(variant: str, model: MaskablePPO, config: Config) -> tuple[MatchResult, MatchResult]:
    """The trained policy, then a random bot, in seat-rotated duplicate matches
    against random bots on the same deals."""
    opponents = ["random"] * (config.num_players - 1)
    common: dict[str, Any] = {
        "deals": config.eval_deals,
        "num_players": config.num_players,
        "seed": config.seed + 1,
        "options": config.options,
    }
    trained = evaluation.run_match(
        variant, [SB3Agent(model, name="maskable_ppo"), *opponents], **common, record_decisions=True
    )
    baseline = evaluation.run_match(variant, ["random", *opponents], **common)
    return trained, baseline


def run_variant(variant: str, config: Config) -> VariantReport:
    """Train and evaluate one variant."""
    model, seconds = train(variant, config)
    trained, baseline = evaluate(variant, model, config)
    vec_env = model.get_env()
    assert vec_env is not None
    returns = vec_env.env_method("get_episode_rewards")[0]  # SB3's Monitor: every training episode
    last = returns[-100:]
    return VariantReport(
        variant=variant,
        env_id=gym_id(variant),
        timesteps=int(model.num_timesteps),
        train_seconds=seconds,
        episodes=len(returns),
        train_reward=sum(last) / len(last) if last else float("nan"),
        ppo=trained.result(0),
        random_baseline=baseline.result(0),
        unit=trained.unit_name,
        decisions=Counter(name for h in trained.hands for seat, name, _ in h.decisions if h.lineup[seat] == 0),
        match=trained,
        model=model,
    )


def main(config: Config) -> list[VariantReport]:
    """Train and evaluate every variant of the config; prints one line each."""
    torch.set_num_threads(config.torch_threads)
    reports = []
    for variant in config.variants:
        report = run_variant(variant, config)
        reports.append(report)
        print(
            f"{report.env_id}: {report.timesteps} steps in {report.train_seconds:.1f} s "
            f"({report.episodes} episodes); vs random per 100 hands ({report.unit}): "
            f"MaskablePPO {report.ppo}, random in its seat {report.random_baseline} "
            f"({report.ppo.n} duplicate deals)"
        )
        total = sum(report.decisions.values()) or 1
        shares = ", ".join(f"{name} {count / total:.0%}" for name, count in report.decisions.most_common(6))
        print(f"  its actions in the evaluation: {shares}")
    return reports


def parse_args(argv: list[str] | None = None) -> Config:
    """Command-line flags for every :class:`Config` field but ``options``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    defaults = Config()
    for f in fields(Config):
        default, flag, help_text = getattr(defaults, f.name), f"--{f.name.replace('_', '-')}", f.metadata["help"]
        if f.name == "variants":
            parser.add_argument(flag, nargs="+", default=list(default), help=f"{help_text} (default: %(default)s)")
        elif f.name == "progress":
            parser.add_argument("--no-progress", dest="progress", action="store_false", help="hide the progress bars")
        elif f.name != "options":
            parser.add_argument(flag, type=type(default), default=default, help=f"{help_text} (default: %(default)s)")
    args = vars(parser.parse_args(argv))
    return Config(**{**args, "variants": tuple(args["variants"])})


if __name__ == "__main__":
    main(parse_args())
