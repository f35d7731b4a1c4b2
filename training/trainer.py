"""The training loop: collect, update, log, snapshot, evaluate, checkpoint, repeat.

One update (1-based index ``k``):

1. the collector plays the tables of ``rollout.mix`` (fixed bots such as the heuristic,
   self-play, pool snapshots) until ``rollout.decisions`` learner decisions are in
   finished episodes (``training.rollout``);
2. PPO runs its epochs over them at the learning rate of update ``k`` (``training.ppo``;
   with ``ppo.magnet_coef > 0`` pulled toward a magnet, ``training.magnet``; with
   ``ppo.teacher_coef > 0`` toward teacher networks, ``training.teacher``);
3. every ``pool.snapshot_every`` updates a frozen copy joins the opponent pool;
4. every ``eval.every`` updates (and at the end) the learner plays duplicate matches
   against ``eval.opponents`` on fresh deals, greedy and sampled
   (``training.evaluation``; the final verdict is ``python -m training.verdict``);
   on heads-up toy stud it also logs the policy's exact NashConv (``eval/nash_conv``,
   :class:`evaluation.toy_policy.NashConvProbe`);
5. every ``train.checkpoint_every`` updates (and at the end) checkpoints are written.

The run ends after ``train.updates`` updates, or (``train.minutes``) after the update
that ends past its wall-clock budget, or (``train.decisions``) after the update that
brings the learner decisions to that budget; with a decision budget the learning rate
anneals over decisions, not updates.

After each update the trainer keeps a *boundary* state in memory: weights, optimizer,
pool, counters and every random generator as they stand between two updates. The
periodic checkpoints save it, and so does an interrupted run (Ctrl-C or SIGTERM):
whatever the interruption cut short is simply redone after ``--resume``, which
reloads the boundary and continues exactly as an uninterrupted run would have.
An update that leaves NaN or infinite weights (a diverged run) stops training the
same way, with :class:`DivergedError`: the checkpoint keeps the last finite state.
"""

from __future__ import annotations

import copy
import math
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.utils.tensorboard import SummaryWriter
from tqdm import tqdm

from agents.candidates import candidate_slots
from agents.checkpoint import VERSION as CHECKPOINT_VERSION
from agents.checkpoint import net_from_checkpoint, non_finite, read_checkpoint, save_checkpoint
from agents.features import piece_card_groups
from agents.loading import load
from agents.nets import PolicyNet
from agents.neural import Layout
from envs.registry import make_raw
from evaluation.arena import Stat, per_hands, rate_label, unit_name
from evaluation.toy_policy import TOY_OPTIONS, NashConvProbe, env_options, toy_game
from training.batched_evaluation import BATCHED_EVAL_TABLES
from training.batched_evaluation import evaluate as batched_evaluate
from training.batched_rollout import batched_collector_for, check_batched, resolve_device
from training.collectors import RolloutBackend, make_collector
from training.config import TABLE_KINDS, Config, ConfigError, from_dict, resume_changes, to_dict, to_toml
from training.episodes import CARDS
from training.magnet import Magnet
from training.metrics import check_opponents, describe_eval, eval_scalars, eval_seed, evaluate, rollout_scalars
from training.pool import OpponentPool
from training.ppo import decision_schedule, linear_schedule, ppo_update
from training.teacher import Teachers
from training.warm_start import warm_start

LATEST = "latest.pt"


class DivergedError(RuntimeError):
    """An update made the weights or the optimizer state NaN or infinite; training stopped
    and the run's checkpoint holds the last finite state."""


@dataclass
class TrainResult:
    """What a finished (or resumed and finished) run produced."""

    run_dir: Path
    checkpoint: Path
    updates: int
    decisions: int
    hands: int
    seconds: float
    evaluation: dict[str, Stat] = field(default_factory=dict)


def run_name(config: Config) -> str:
    """``<variant>__<name>__<seed>__<time>``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return f"{config.env.variant}__{config.train.name}__{config.train.seed}__{stamp}"


class Trainer:
    """Owns the learner, its optimizer, the pool, the collector and the counters."""

    def __init__(
        self,
        config: Config,
        run_dir: Path,
        resume: dict[str, Any] | None = None,
        bar: Mapping[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.run_dir = run_dir
        self.bar_style = dict(bar or {})  # extra tqdm arguments: see training.run.main
        env_cfg = config.env
        try:
            self.layout = Layout.build(env_cfg.variant, env_cfg.num_players, env_cfg.options)
        except ValueError as err:
            raise ConfigError(f"[env] does not describe a table: {err}") from None
        table = make_raw(env_cfg.variant, env_cfg.num_players, **env_cfg.options)
        # read once from the table's pieces: every new network (snapshots, saves) reuses them
        self.card_groups = piece_card_groups(table.pieces)
        self.rate = rate_label(unit_name(table), per_hands(table))
        # every opponent is loaded for this table: a checkpoint of another one fails here, not hours later
        seat_at: dict[str, Any] = {
            "variant": env_cfg.variant,
            "num_players": env_cfg.num_players,
            "options": env_cfg.options,
        }
        check_opponents(config.eval.opponents, **seat_at)
        check_opponents([k for k in config.rollout.mix if k not in TABLE_KINDS], "rollout.mix", **seat_at)
        seed = config.train.seed
        self.device = learner_device(config)
        torch.manual_seed(seed)  # initial weights, drawn on the CPU: every device starts from the same ones
        self.net = self._new_net().to(self.device)
        self.started_from = ""  # train.init_from: what the learner's first weights came from
        if resume is None and config.train.init_from:
            self.started_from = warm_start(self.net, self.layout, config.train.init_from)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.ppo.lr, eps=1e-5)
        p = config.pool
        self.pool = OpponentPool(
            self._new_net, capacity=p.capacity, rule=p.rule, temperature=p.temperature, score_step=p.score_step
        )
        collect_seq, update_seq = np.random.SeedSequence(seed).spawn(2)
        self.rng = np.random.default_rng(collect_seq)
        self.update_rng = np.random.default_rng(update_seq)
        self.generator = torch.Generator().manual_seed(seed)
        # local: in this process, sharing self.net, self.pool, self.rng and self.generator;
        # ray: actors with copies, sent the weights and the pool before every rollout
        self.collector = self._collector()
        self.eval_bots = {spec: load(spec, seed=seed, **seat_at) for spec in config.eval.opponents}
        ppo = config.ppo
        self.magnet = Magnet(self.net, every=ppo.magnet_every, step=ppo.magnet_step) if ppo.magnet_coef > 0 else None
        self.teachers = (
            Teachers(env_cfg.variant, env_cfg.num_players, env_cfg.options, ppo.teachers, str(self.device))
            if ppo.teacher_coef > 0
            else None
        )
        self.nash_conv = (
            nash_conv_probe(env_cfg.variant, env_cfg.num_players, env_cfg.options) if config.eval.nash_conv else None
        )
        self.counters = {
            "update": 0,
            "decisions": 0,
            "all_decisions": 0,
            "hands": 0,
            "seconds": 0.0,
            "eval_seconds": 0.0,
        }
        if resume is not None:
            self.load_training_state(resume)
        else:
            self.pool.add(self.net, 0)
        self.boundary = self.training_state()
        self.last_eval: dict[str, Stat] = {}
        self.deadline: float | None = None  # time.monotonic() after which the running update is the last

    def _collector(self) -> RolloutBackend:
        """The collector of ``rollout.engine`` (the batched one checked for this config first)."""
        if self.config.rollout.engine == "batched":  # checked by learner_device
            return batched_collector_for(self.config, self.net, self.pool, rng=self.rng, generator=self.generator)
        return make_collector(self.config, self.net, self.pool, rng=self.rng, generator=self.generator)

    def _new_net(self) -> PolicyNet:
        model = self.config.model
        layout = self.layout
        groups = self.card_groups if model.card_features else []
        return PolicyNet(
            layout.obs_size,
            len(layout.action_names),
            model.hidden,
            shared=model.shared,
            card_groups=groups,
            candidates=candidate_slots(len(layout.action_names)) if model.candidates else None,
            privileged=CARDS * (layout.num_players - 1) if model.privileged_critic else 0,
        )

    # ----------------------------------------------------------------- state
    def training_state(self) -> dict[str, Any]:
        """Everything ``--resume`` needs, copied to the host (the live objects keep
        changing; a checkpoint written on a GPU resumes on the CPU and the other way)."""
        return {
            "weights": on_host(self.net.state_dict()),
            "optimizer": on_host(self.optimizer.state_dict()),
            "pool": self.pool.state_dict(),  # snapshots are never modified: no copy needed
            "counters": dict(self.counters),
            "rng": copy.deepcopy(self.rng.bit_generator.state),
            "update_rng": copy.deepcopy(self.update_rng.bit_generator.state),
            "generator": self.generator.get_state(),
            "collector": self.collector.state(),  # the Ray actors' generators (local: empty)
            **({"magnet": on_host(self.magnet.state_dict())} if self.magnet is not None else {}),
        }

    def load_training_state(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`training_state` (as read back from a checkpoint)."""
        self.net.load_state_dict(state["weights"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.pool.load_state_dict(state["pool"])
        self.counters = {"eval_seconds": 0.0, **state["counters"]}
        self.rng.bit_generator.state = state["rng"]
        self.update_rng.bit_generator.state = state["update_rng"]
        self.generator.set_state(state["generator"])
        self.collector.load_state(state.get("collector"), update=int(self.counters["update"]))
        if self.magnet is not None and "magnet" in state:  # a run that turns the magnet on starts from the policy
            self.magnet.load_state_dict(state["magnet"])

    def save(self, boundary: dict[str, Any]) -> Path:
        """Write ``checkpoints/latest.pt`` (resumable) and ``update_<k>.pt`` (agent only)."""
        folder = self.run_dir / "checkpoints"
        counters = boundary["counters"]
        net = self._new_net()
        net.load_state_dict(boundary["weights"])
        step = {k: int(counters[k]) for k in ("update", "decisions", "hands")}
        config = to_dict(self.config)
        save_checkpoint(
            folder / f"update_{step['update']:06d}.pt", net=net, layout=self.layout, step=step, config=config
        )
        return save_checkpoint(
            folder / LATEST, net=net, layout=self.layout, step=step, config=config, training=boundary
        )

    # ------------------------------------------------------------------ loop
    def run(self) -> TrainResult:
        """Train until ``train.updates``; on Ctrl-C / SIGTERM save the last boundary and re-raise."""
        cfg = self.config
        start_update = int(self.counters["update"])
        writer = SummaryWriter(str(self.run_dir), purge_step=int(self.counters["decisions"]) + 1)
        if start_update == 0:
            writer.add_text("config", "```toml\n" + to_toml(cfg) + "\n```", 0)
            if self.started_from:
                writer.add_text("init_from", self.started_from, 0)
            if self.teachers is not None:
                writer.add_text("teachers", self.teachers.describe(), 0)
        bar = tqdm(
            total=cfg.train.updates,
            initial=start_update,
            disable=not cfg.train.progress,
            unit="update",
            **self.bar_style,
        )
        saved_update = start_update
        self.deadline = time.monotonic() + 60.0 * cfg.train.minutes if cfg.train.minutes else None
        try:
            with _sigterm_as_interrupt():
                for update in range(start_update + 1, cfg.train.updates + 1):
                    postfix, last = self._one_update(update, writer)
                    if update % cfg.train.checkpoint_every == 0 or last:
                        self.save(self.boundary)
                        saved_update = update
                    bar.update(1)
                    bar.set_postfix_str(postfix)
                    if last:
                        break
        except (KeyboardInterrupt, DivergedError) as stop:
            if int(self.boundary["counters"]["update"]) > saved_update:
                self.save(self.boundary)
            if isinstance(stop, KeyboardInterrupt):
                bar.write(f"interrupted: resume with  python train.py --resume {self.run_dir}")
            raise
        finally:
            bar.close()
            writer.close()
            self.collector.close()
        if saved_update != int(self.boundary["counters"]["update"]):
            self.save(self.boundary)
        return TrainResult(
            run_dir=self.run_dir,
            checkpoint=self.run_dir / "checkpoints" / LATEST,
            updates=int(self.counters["update"]),
            decisions=int(self.counters["decisions"]),
            hands=int(self.counters["hands"]),
            seconds=float(self.counters["seconds"]),
            evaluation=self.last_eval,
        )

    def _one_update(self, update: int, writer: SummaryWriter) -> tuple[str, bool]:
        """Collect, update, snapshot, evaluate, log; returns the progress-bar text and
        whether this was the last update (``train.updates`` reached or ``train.minutes``
        spent)."""
        cfg = self.config
        began = time.perf_counter()
        # one thread for small-batch inference: idle OpenMP workers spin and steal the
        # core that steps the tables; the update's large matrix products use them all
        torch.set_num_threads(1)
        batch, stats = self.collector.collect(cfg.rollout.decisions)
        torch.set_num_threads(cfg.train.threads)
        lr = self._learning_rate(update)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        update_began = time.perf_counter()
        losses = ppo_update(
            self.net,
            self.optimizer,
            batch,
            cfg.ppo,
            self.update_rng,
            magnet=self.magnet,
            teachers=self.teachers,
            train_policy=update > cfg.ppo.value_warmup,
        )
        update_seconds = time.perf_counter() - update_began
        self._check_finite(update)
        if self.magnet is not None:
            self.magnet.after_update(self.net, update)
        if update % cfg.pool.snapshot_every == 0:
            self.pool.add(self.net, update)
        c = self.counters
        c["update"] = update
        c["decisions"] += stats.learner_decisions
        c["all_decisions"] += stats.decisions
        c["hands"] += stats.hands
        c["seconds"] += time.perf_counter() - began
        step = int(c["decisions"])
        scalars = rollout_scalars(batch, stats, self.layout.action_names)
        scalars.update({f"losses/{k}": v for k, v in losses.items()})
        scalars["charts/learning_rate"] = lr
        scalars["charts/pool_size"] = float(len(self.pool))
        scalars["charts/updates"] = float(update)
        scalars["perf/collect_seconds"] = stats.seconds
        scalars["perf/update_seconds"] = update_seconds
        scalars["perf/update_decisions_per_second"] = len(batch) * cfg.ppo.epochs / max(update_seconds, 1e-9)
        last = (
            update == cfg.train.updates
            or (self.deadline is not None and time.monotonic() >= self.deadline)
            or 0 < cfg.train.decisions <= c["decisions"]
        )
        if (cfg.eval.every and update % cfg.eval.every == 0) or last:
            torch.set_num_threads(1)
            eval_began = time.perf_counter()
            self.last_eval = self._evaluate(eval_seed(cfg.eval.seed, cfg.train.seed, update))
            if self.nash_conv is not None:
                scalars["eval/nash_conv"] = self.nash_conv(self.net).nash_conv
                tqdm.write(f"update {update}: exact NashConv {scalars['eval/nash_conv']:.4f} antes")
            c["eval_seconds"] += time.perf_counter() - eval_began
            scalars.update(eval_scalars(self.last_eval))
            scalars["perf/eval_seconds"] = float(c["eval_seconds"])
            tqdm.write(f"update {update}: " + describe_eval(self.last_eval, self.rate))
        self.boundary = self.training_state()  # after the evaluation: its time is counted
        for tag, value in scalars.items():
            writer.add_scalar(tag, value, step)
        writer.flush()
        return _postfix(scalars, self.last_eval), last

    def _learning_rate(self, update: int) -> float:
        """The rate of ``update``: over ``train.updates``, or over ``train.decisions``
        (from the decisions before this update's rollout) when that budget is set."""
        p, budget = self.config.ppo, self.config.train.decisions
        if budget:
            done = int(self.counters["decisions"])
            return decision_schedule(p.lr, done, budget, p.anneal_lr, p.lr_floor)
        return linear_schedule(p.lr, update, self.config.train.updates, p.anneal_lr, p.lr_floor)

    def _evaluate(self, seed: int) -> dict[str, Stat]:
        """Duplicate matches against ``eval.opponents``: on the batched engine where it
        covers them when ``rollout.engine = "batched"`` (the same deals either way)."""
        cfg = self.config
        settings: dict[str, Any] = {"deals": cfg.eval.deals, "seed": seed, "modes": cfg.eval.modes}
        if cfg.rollout.engine == "batched":
            tables = max(cfg.eval.tables, BATCHED_EVAL_TABLES)
            return batched_evaluate(
                self.net,
                self.layout,
                self.eval_bots,
                tables=tables,
                device=self.device,
                scalar_tables=cfg.eval.tables,
                **settings,
            )
        return evaluate(self.net, self.layout, self.eval_bots, tables=cfg.eval.tables, **settings)

    def _check_finite(self, update: int) -> None:
        """Stop before a NaN or infinity reaches the pool, the boundary or a checkpoint."""
        problem = non_finite({"weights": self.net.state_dict(), "optimizer": self.optimizer.state_dict()})
        if not problem:
            return
        last = int(self.boundary["counters"]["update"])
        kept = (
            f"{self.run_dir / 'checkpoints' / LATEST} holds update {last}, the last finite state. Resuming with the "
            "same settings repeats the same update exactly: resume with a smaller ppo.lr or ppo.max_grad_norm "
            f"(python train.py --resume {self.run_dir} --set ppo.lr=...)"
            if last
            else "no checkpoint was written: start again with a smaller ppo.lr or ppo.max_grad_norm"
        )
        raise DivergedError(f"update {update} diverged: {problem}. Training stopped; {kept}")


def learner_device(config: Config) -> torch.device:
    """Where the learner, its optimizer and the PPO update live: ``train.device`` with
    the batched engine (checked here, so a bad device is a ConfigError before any work);
    the CPU with the scalar engine, whose envs and bots run there."""
    if config.rollout.engine != "batched":
        return torch.device("cpu")
    check_batched(config)
    return resolve_device(config.train.device)


def on_host(tree: Any) -> Any:
    """A copy of a state (tensors, dicts, lists and plain values) with every tensor on the CPU."""
    if isinstance(tree, torch.Tensor):
        return tree.detach().to("cpu", copy=True)
    if isinstance(tree, dict):
        return {key: on_host(value) for key, value in tree.items()}
    if isinstance(tree, list):
        return [on_host(value) for value in tree]
    return copy.deepcopy(tree)


def nash_conv_probe(variant: str, num_players: int, options: dict[str, Any]) -> NashConvProbe | None:
    """Heads-up toy stud is solved exactly: its evaluations also log ``eval/nash_conv``."""
    if variant != "toy_stud" or num_players != 2:
        return None
    params, observe = toy_game(options)
    if Layout.build(variant, 2, options).options != Layout.build(variant, 2, env_options(params, observe)).options:
        tqdm.write(f"no eval/nash_conv: the solvers do not model the options {options} (only {TOY_OPTIONS})")
        return None
    return NashConvProbe(params, observe)


def _postfix(scalars: dict[str, float], last_eval: dict[str, Stat]) -> str:
    """The progress bar's figures: the return against the pool, or, in a run without pool
    tables (a best responder), against its first bot, so that the bar never shows nan."""
    prefix = "charts/return_vs_"
    returns = {k[len(prefix) :]: v for k, v in scalars.items() if k.startswith(prefix) and math.isfinite(v)}
    opponent = "pool" if "pool" in returns else next((k for k in returns if k != "self"), "pool")
    parts = [
        f"ret/{opponent} {returns.get(opponent, float('nan')):+.2f}",
        f"collect dec/s {scalars['charts/decisions_per_second']:,.0f}",
        f"ent {scalars['losses/entropy']:.2f}",
        f"kl {scalars['losses/approx_kl']:.4f}",
    ]
    parts += [f"{key} {stat.mean:+.0f}±{stat.half_width:.0f}" for key, stat in last_eval.items()]
    return " | ".join(parts)


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM (``kill``) into KeyboardInterrupt so that it saves like Ctrl-C
    (only possible in the main thread; elsewhere the handler stays as it was)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous: Callable[..., Any] | int | None = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def load_resume(run_dir: Path, overrides: list[str]) -> tuple[Config, dict[str, Any]]:
    """The config and training state stored in ``run_dir``'s latest checkpoint."""
    from training.config import load_config

    path = run_dir / "checkpoints" / LATEST
    data = read_checkpoint(path)
    if "training" not in data:
        raise ConfigError(f"{path} holds an agent but no training state: it cannot be resumed")
    if data["version"] != CHECKPOINT_VERSION:
        raise ConfigError(
            f"{path} was written by an older version (checkpoint format {data['version']}): it still plays as an "
            "agent, but its run cannot be resumed; start a new run"
        )
    _, layout = net_from_checkpoint(data, path)  # the env layout must still match
    saved = from_dict(data["config"], str(path))
    config = load_config(None, overrides, base=saved)
    env = config.env
    try:
        rules: tuple[dict[str, Any], dict[str, Any]] | None = (
            layout.options,
            Layout.build(env.variant, env.num_players, env.options).options,
        )
    except ValueError:  # not a table: it differs from the run's, which was one
        rules = None
    problems = resume_changes(saved, config, rules=rules)
    if problems:
        raise ConfigError(
            f"--resume {run_dir} cannot change " + "; ".join(problems) + ". Start a new run for another table "
            "or network (settings such as train.updates, ppo.*, rollout.*, pool.* and eval.* may change)"
        )
    return config, data["training"]
