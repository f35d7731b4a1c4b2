"""Training configuration: dataclasses with a docstring per setting, read from TOML.

A config is a TOML file with the sections below (``configs/default.toml`` lists every
setting with its documentation); anything left out keeps its default, and
``--set section.key=value`` overrides one setting from the command line (the value is
read as a TOML value, and a bare word as a string: ``--set env.variant=razz``).
Files are parsed as data with :mod:`tomllib`, never evaluated. An unknown section or
key, a value of the wrong type, or a value out of range is a :class:`ConfigError`
naming the setting and what it accepts.

The field docstrings are the documentation: ``dealers-choice train --help`` prints them,
and ``dealers-choice train --print-config`` writes a complete, commented TOML file.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import json
import math
import tomllib
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from training.config_files import ConfigError, config_path, read_toml
from training.pool import SAMPLING_RULES
from training.ppo import VALUE_LOSSES, PPOSettings

# the heuristic at about half the tables (a tenth of them perturbed: tighter, looser,
# raise-happier), snapshots, self-play and a little random and call
DEFAULT_MIX = {
    "heuristic": 0.4,
    "heuristic:tight": 0.035,
    "heuristic:loose": 0.035,
    "heuristic:aggressive": 0.03,
    "pool": 0.25,
    "self": 0.15,
    "random": 0.05,
    "call": 0.05,
}
TABLE_KINDS = ("self", "pool")
ROLLOUT_BACKENDS = ("local", "ray")  # training.collectors
ROLLOUT_ENGINES = ("scalar", "batched")  # training.rollout, training.batched_rollout
DEVICES = ("cpu", "cuda", "auto")
EVAL_MODES = ("greedy", "sampled")
# settings that were replaced: what to write instead
REPLACED = {
    "rollout.self_play": "rollout.mix (for example mix = {self = 0.5, pool = 0.5})",
    "rollout.bots": "rollout.mix (for example mix = {heuristic = 0.5, self = 0.25, pool = 0.25})",
    "rollout.bot_fraction": "rollout.mix (each bot spec with its own weight)",
    "eval.greedy": 'eval.modes (["greedy"], ["sampled"] or both)',
}


MAX_SEED = 2**63 - 1  # the largest TOML integer; numpy's SeedSequence refuses negative seeds
MAX_TABLES = 4096
MAX_BATCHED_TABLES = 1 << 18  # batched tables are rows of tensors, not live envs
MAX_DECISIONS = 1 << 20
MAX_WORKERS = 1024  # Ray actors of rollout.backend = "ray"
MAX_WIDTH = 8192
MAX_HIDDEN_WEIGHTS = MAX_WIDTH * MAX_WIDTH  # weights between consecutive hidden layers, per torso
SHOWN_CHARS = 80  # error messages quote at most this much of a value the user gave

# Settings that --resume cannot change, and why: the saved weights, optimizer and pool
# only make sense for them (everything else may change; see docs/training.md).
FIXED_ON_RESUME: dict[str, str] = {
    "train.name": "it names the run folder",
    "train.seed": "the run's random generators continue from their saved state, so another seed would only mislabel it",
    "env.variant": "the network learned this variant",
    "env.num_players": "the network's input and output sizes depend on it",
    "env.options": "the checkpoint records the house rules it was trained under",
    "model.hidden": "the saved weights have these widths",
    "model.shared": "the saved weights have this torso layout",
    "model.card_features": "the network's input depends on it",
    "model.candidates": "the saved weights have (or lack) the candidate scoring head",
    "model.privileged_critic": "the saved value torso reads (or does not read) the privileged input",
    "train.init_from": "it only chose the starting weights; a resumed run continues from its own checkpoint",
}
RESUMABLE_OPTIONS = ("button",)  # env.options that may change on resume: they change nothing a seat sees


def shown(value: Any) -> str:
    """``value`` in TOML syntax, cut to :data:`SHOWN_CHARS` (a pasted megabyte stays out of the message)."""
    try:
        text = to_toml_value(value)
    except ConfigError:
        text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."


@dataclass
class TrainSection:
    """Budget, seed, output and checkpoints."""

    name: str = "ppo"
    """Run name, part of the run folder runs/<variant>__<name>__<seed>__<time>/."""
    seed: int = 1
    """Seeds everything: initial weights, deals, seats, opponents, action sampling, minibatch order (0 to 2**63-1)."""
    updates: int = 250
    """PPO updates to run: the training budget (each collects rollout.decisions decisions first)."""
    minutes: float = 0.0
    """Wall-clock budget of this process in minutes (0: none): the update that ends past it is the last one (it is
    evaluated and checkpointed like the end of train.updates). A resumed run gets the budget afresh."""
    decisions: int = 0
    """Learner-decision budget (0: none): the update that brings the run's learner decisions to it is the last, and
    the learning-rate schedule runs over decisions instead of updates (train.updates stays a cap). Batched rollouts
    overshoot rollout.decisions (every table finishes its hand), so this is the budget to compare runs by."""
    runs_dir: str = "runs"
    """Folder that holds the run folders (git-ignored)."""
    checkpoint_every: int = 25
    """Save checkpoints/latest.pt (resumable) and checkpoints/update_<k>.pt every this many updates (and at the end)."""
    threads: int = 2
    """torch CPU threads for the PPO update (collection and evaluation always use one)."""
    progress: bool = True
    """Show a tqdm progress bar with the key figures."""
    device: str = "cpu"
    """Where rollout.engine = "batched" plays its tables and runs the learner, its opponents and the PPO update: "cpu",
    "cuda" (or "cuda:<n>") or "auto" (cuda when torch sees one). The scalar engine runs on the CPU (cpu or auto)."""
    init_from: str = ""
    """Start the learner from this agent's weights instead of fresh ones ("": fresh): a checkpoint path or
    pretrained:<variant> trained for this [env] table with this [model] shape (training.warm_start). A best
    responder that starts as the policy it plays starts at the policy's own value against it (0), not below."""


@dataclass
class EnvSection:
    """The table the agent learns to play."""

    variant: str = "stud"
    """Variant: any registered name (envs.variants.VARIANTS; docs/variants.md describes each), e.g. stud, razz, cowpie,
    cowboy, chowaha or dealers_choice."""
    num_players: int = 2
    """Seats at the table (each seat is played by the learner, a pool snapshot or a fixed bot)."""
    options: dict[str, Any] = field(default_factory=dict)
    """House rules passed to envs.make_raw (for example {match_cap = 8} for Cowboy); the variant validates them."""


@dataclass
class ModelSection:
    """The policy network (agents.nets.PolicyNet)."""

    hidden: list[int] = field(default_factory=lambda: [256, 256])
    """Widths of the MLP torso's layers (each head's torso, or the one shared torso): each 1 to 8192, and at most
    8192 * 8192 weights between consecutive layers in all (every weight costs 16 bytes in training, per torso)."""
    card_features: bool = True
    """Add rank and suit counts of the card groups to the input (agents.features)."""
    shared: bool = False
    """One torso for the policy and value heads (cheaper; the value loss then shapes the policy's features)."""
    candidates: bool = True
    """Score declarations, Cowpie splits and Cowboy discard sets from each candidate's own features with one shared
    head (agents.candidates) instead of one logit per slot index (variants without such choices ignore it)."""
    privileged_critic: bool = True
    """The value head also sees the opponents' cards (training only: the acting policy never does); a less noisy
    baseline for the policy gradient."""


@dataclass
class RolloutSection:
    """Data collection (training.rollout.Collector): how many tables, and who sits at them."""

    tables: int = 64
    """Tables stepped together in one process; also the batch size of policy inference (at most 4096 with the scalar
    engine, where every table is a live env, and 262144 with the batched one)."""
    decisions: int = 8192
    """Learner decisions to collect before each update (episodes in play then finish, so a few more); at most
    1048576, since the rollout holds every decision's observation in memory (about 10 KB each at 8 players)."""
    mix: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_MIX))
    """Table kinds and their weights (normalised): "self" (self-play, the current policy in every seat), "pool"
    (snapshots from the opponent pool) or any agents.load spec (heuristic, heuristic:tight, random, call, a
    checkpoint path). Without the heuristic the learner turns into a never-folding maniac within ten updates."""
    many_learners: float = 0.5
    """With three or more seats: probability that a pool or bot table seats the learner in every seat but one (two
    learners against one bot, as the evaluation also plays) rather than in one seat against the opponent."""
    step_rewards: bool = False
    """Reward each decision with the seat's chip changes until its next decision (same total return): for the
    multi-deal Cowboy games, where a game's final result mixes many settled deals."""
    candidate_samples: int = 64
    """Monte Carlo deals behind each candidate decision's features (draw and declaration chances)."""
    engine: str = "scalar"
    """The engine that plays the rollout's tables: "scalar" (training.rollout: every variant, every bot) or "batched"
    (training.batched_rollout on envs.batched, on train.device: the stud family and Cowpie, bots random, call,
    heuristic[:style] and checkpoints, played as frozen networks; docs/batched_training.md). Evaluation during
    training uses the same engine where it covers the opponents."""
    backend: str = "local"
    """Where the tables are played: "local" (in this process) or "ray" (on rollout.workers Ray actors, each with its
    own rollout.tables tables and a copy of the current weights; needs the ray extra; docs/distributed.md)."""
    workers: int = 1
    """Ray actors collecting in parallel with backend = "ray" (one CPU each), each playing its share of
    rollout.decisions; must stay 1 with the local backend. Exact resume needs the same count."""
    ray_address: str = "local"
    """The Ray of backend = "ray": "local" (a private instance on this machine, loopback only), "auto" (the cluster
    started here with ray start --head), ray://HOST:10001 or HOST:PORT."""


@dataclass
class PoolSection:
    """The opponent pool of frozen snapshots (training.pool.OpponentPool)."""

    capacity: int = 10
    """Snapshots kept (the oldest is dropped first)."""
    snapshot_every: int = 10
    """Add a snapshot of the learner every this many updates (and one of the initial policy)."""
    rule: str = "weighted"
    """Which snapshot a pool table gets: latest, uniform, or weighted (those that beat the learner more often)."""
    temperature: float = 1.0
    """weighted only: softness, in reward units per hand (smaller favours the strongest snapshots more)."""
    score_step: float = 0.02
    """weighted only: step of each snapshot's running mean of the learner's reward against it."""


@dataclass
class EvalSection:
    """Periodic evaluation on fresh duplicate deals (training.evaluation), logged under eval/."""

    opponents: list[str] = field(default_factory=lambda: ["random", "heuristic"])
    """Bot specs to evaluate against (agents.load: random, call, heuristic, a checkpoint path, module:Class)."""
    every: int = 50
    """Evaluate every this many updates and at the end (0: only at the end)."""
    deals: int = 500
    """Duplicate deals per opponent and mode (each is played once per seat lineup); the final verdict
    (dealers-choice verdict) plays 5,000."""
    seed: int = 2024
    """Base seed of the evaluation deals: each evaluation plays fresh deals seeded from (eval.seed, train.seed,
    update), so no evaluation replays the deals of another."""
    modes: list[str] = field(default_factory=lambda: ["greedy", "sampled"])
    """How the learner plays in evaluations: greedy (the most likely legal action), sampled, or both."""
    tables: int = 64
    """Hands played together in an evaluation (the learner's batch size; at least 2048 with rollout.engine =
    "batched", whose evaluation runs on the batched engine where it covers the opponent)."""
    nash_conv: bool = True
    """Heads-up toy stud only: also log the policy's exact NashConv (eval/nash_conv, antes; evaluation.toy_policy).
    The first one replays every information set once (about 350k replays on the default toy: a few minutes)."""


@dataclass
class Config:
    """Everything ``train.py`` needs; see each section."""

    train: TrainSection = field(default_factory=TrainSection)
    env: EnvSection = field(default_factory=EnvSection)
    model: ModelSection = field(default_factory=ModelSection)
    rollout: RolloutSection = field(default_factory=RolloutSection)
    ppo: PPOSettings = field(default_factory=PPOSettings)
    pool: PoolSection = field(default_factory=PoolSection)
    eval: EvalSection = field(default_factory=EvalSection)


SECTIONS: dict[str, type] = {f.name: typing.get_type_hints(Config)[f.name] for f in dataclasses.fields(Config)}


# ------------------------------------------------------------------ docs
@functools.cache
def field_docs(cls: type) -> dict[str, str]:
    """The docstring under each field of a dataclass (read from its source)."""
    tree = ast.parse(inspect.getsource(cls))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for node, following in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def type_name(tp: Any) -> str:
    """``int``, ``list[str]``, ``table`` ... as the help shows them."""
    if typing.get_origin(tp) is dict:
        return "table"
    return str(tp).replace("typing.", "") if typing.get_origin(tp) else tp.__name__


def settings() -> list[tuple[str, str, Any, str]]:
    """(``section.key``, type name, default, doc) of every setting, in order."""
    out = []
    defaults = Config()
    for section, cls in SECTIONS.items():
        hints = typing.get_type_hints(cls)
        docs = field_docs(cls)
        for f in dataclasses.fields(cls):
            default = getattr(getattr(defaults, section), f.name)
            out.append((f"{section}.{f.name}", type_name(hints[f.name]), default, docs.get(f.name, "")))
    return out


def help_text() -> str:
    """Every setting with its type, default and documentation (for ``--help``)."""
    lines = []
    current = ""
    for key, tp, default, doc in settings():
        section = key.split(".")[0]
        if section != current:
            current = section
            lines.append(f"\n[{section}]  {inspect.getdoc(SECTIONS[section])}")
        lines.append(f"  {key} ({tp}, default {to_toml_value(default)})\n      {doc}")
    return "\n".join(lines)


# --------------------------------------------------------------- parsing
def check_value(key: str, tp: Any, value: Any) -> Any:
    """``value`` as a ``tp`` (an int is accepted for a float); else a ConfigError."""
    origin = typing.get_origin(tp)
    if origin is list:
        (item,) = typing.get_args(tp)
        if not isinstance(value, list):
            raise ConfigError(f"setting {key} must be a list of {item.__name__}, got {value!r}")
        return [check_value(f"{key}[{i}]", item, v) for i, v in enumerate(value)]
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"setting {key} must be a table (for example {{match_cap = 8}}), got {value!r}")
        _, item = typing.get_args(tp)
        if item is Any:
            return dict(value)
        return {str(k): check_value(f"{key}.{k}", item, v) for k, v in value.items()}
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if (tp is int and isinstance(value, bool)) or not isinstance(value, tp):
        raise ConfigError(f"setting {key} must be {tp.__name__}, got {value!r} ({type(value).__name__})")
    return value


def apply_dict(config: Config, data: dict[str, Any], source: str) -> Config:
    """A copy of ``config`` with the settings of a parsed TOML document applied."""
    config = dataclasses.replace(config, **{s: dataclasses.replace(getattr(config, s)) for s in SECTIONS})
    for section, values in data.items():
        if section not in SECTIONS:
            raise ConfigError(f"{source}: unknown section [{section}]; known: {', '.join(SECTIONS)}")
        if not isinstance(values, dict):
            raise ConfigError(f"{source}: [{section}] must be a table of settings, got {values!r}")
        for key, value in values.items():
            set_value(config, section, key, value, source)
    return config


def set_value(config: Config, section: str, key: str, value: Any, source: str) -> None:
    """Set one setting, checking that it exists and has the right type."""
    cls = SECTIONS[section]
    hints = typing.get_type_hints(cls)
    if f"{section}.{key}" in REPLACED:
        raise ConfigError(f"{source}: setting {section}.{key} was replaced by {REPLACED[f'{section}.{key}']}")
    if key not in hints:
        known = ", ".join(f.name for f in dataclasses.fields(cls))
        raise ConfigError(f"{source}: unknown setting {section}.{key}; [{section}] has: {known}")
    try:
        setattr(getattr(config, section), key, check_value(f"{section}.{key}", hints[key], value))
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None


def parse_override(text: str) -> tuple[str, str, Any]:
    """``"ppo.lr=3e-4"`` -> ``("ppo", "lr", 3e-4)``; the value is read as TOML, or
    taken as a string when it is not a TOML value (``env.variant=razz``)."""
    name, sep, raw = text.partition("=")
    section, dot, key = name.strip().partition(".")
    if not sep or not dot or not key:
        raise ConfigError(f"override {text!r} must look like section.key=value (for example ppo.lr=3e-4)")
    if section not in SECTIONS:
        raise ConfigError(f"override {text!r}: unknown section {section!r}; known: {', '.join(SECTIONS)}")
    raw = raw.strip()
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw
    return section, key, value


def load_config(
    path: str | Path | None = None, overrides: typing.Sequence[str] = (), base: Config | None = None
) -> Config:
    """Defaults (or ``base``), then the TOML file, then the ``--set`` overrides; validated."""
    config = base if base is not None else Config()
    if path is not None:
        path = config_path(path)
        config = apply_dict(config, read_toml(path), str(path))
    else:
        config = apply_dict(config, {}, "defaults")
    for text in overrides:
        section, key, value = parse_override(text)
        set_value(config, section, key, value, f"--set {text}")
    validate(config)
    return config


# ------------------------------------------------------------ validation
def validate(config: Config) -> None:
    """Range checks that types cannot express."""
    t, r, p, pool, ev = config.train, config.rollout, config.ppo, config.pool, config.eval
    hidden = config.model.hidden
    checks = [
        ("train.seed", 0 <= t.seed <= MAX_SEED, "between 0 and 2**63-1 (numpy seeds cannot be negative)"),
        ("train.updates", t.updates >= 1, ">= 1"),
        ("train.checkpoint_every", t.checkpoint_every >= 1, ">= 1"),
        ("train.threads", t.threads >= 1, ">= 1"),
        ("train.minutes", t.minutes >= 0 and math.isfinite(t.minutes), ">= 0 (0: no time limit)"),
        ("train.decisions", t.decisions >= 0, ">= 0 (0: no decision budget)"),
        ("train.name", bool(t.name) and "/" not in t.name and "__" not in t.name, "non-empty, no '/' or '__'"),
        ("env.num_players", config.env.num_players >= 2, ">= 2"),
        (
            "model.hidden",
            bool(hidden) and min(hidden) >= 1 and max(hidden) <= MAX_WIDTH,
            f"a non-empty list of widths from 1 to {MAX_WIDTH}",
        ),
        (
            "model.hidden",
            sum(a * b for a, b in itertools.pairwise(hidden)) <= MAX_HIDDEN_WEIGHTS,
            f"at most {MAX_HIDDEN_WEIGHTS:,} weights between consecutive layers (for example [8192, 8192]): "
            "each costs 16 bytes in training, per torso",
        ),
        (
            "rollout.tables",
            1 <= r.tables <= (MAX_TABLES if r.engine == "scalar" else MAX_BATCHED_TABLES),
            f"between 1 and {MAX_TABLES} (each table is a live env; up to {MAX_BATCHED_TABLES} with "
            'rollout.engine = "batched")',
        ),
        ("rollout.engine", r.engine in ROLLOUT_ENGINES, f"one of {', '.join(ROLLOUT_ENGINES)}"),
        (
            "train.device",
            t.device in DEVICES or (t.device.startswith("cuda:") and t.device[5:].isdigit()),
            "cpu, cuda, cuda:<n> or auto",
        ),
        (
            "train.device",
            r.engine == "batched" or t.device in ("cpu", "auto"),
            'cpu or auto with rollout.engine = "scalar" (its envs, bots and update run on the CPU); set '
            'rollout.engine = "batched" to train on a GPU',
        ),
        (
            "rollout.decisions",
            1 <= r.decisions <= MAX_DECISIONS,
            f"between 1 and {MAX_DECISIONS} (the rollout keeps every decision in memory)",
        ),
        (
            "rollout.mix",
            bool(r.mix) and all(w >= 0 and math.isfinite(w) for w in r.mix.values()) and sum(r.mix.values()) > 0,
            "a table of table kinds with weights >= 0 and a positive sum",
        ),
        ("rollout.many_learners", 0.0 <= r.many_learners <= 1.0, "between 0 and 1"),
        ("rollout.candidate_samples", r.candidate_samples >= 8, ">= 8"),
        ("rollout.backend", r.backend in ROLLOUT_BACKENDS, f"one of {', '.join(ROLLOUT_BACKENDS)}"),
        ("rollout.workers", 1 <= r.workers <= MAX_WORKERS, f"between 1 and {MAX_WORKERS}"),
        (
            "rollout.workers",
            r.workers == 1 or r.backend == "ray",
            '1 with rollout.backend = "local", which collects in this process (set rollout.backend = "ray" to '
            "collect on several Ray actors)",
        ),
        ("rollout.workers", r.workers <= r.decisions, "at most rollout.decisions (each worker collects its share)"),
        ("rollout.ray_address", bool(r.ray_address.strip()), "non-empty: local, auto, ray://HOST:10001 or HOST:PORT"),
        ("ppo.lr_floor", 0.0 <= p.lr_floor <= 1.0, "between 0 and 1"),
        ("ppo.max_value_grad_norm", p.max_value_grad_norm > 0, "> 0"),
        ("ppo.value_loss", p.value_loss in VALUE_LOSSES, f"one of {', '.join(VALUE_LOSSES)}"),
        (
            "model.privileged_critic",
            not (config.model.privileged_critic and config.model.shared),
            "false when model.shared is true (the privileged input needs the value head's own torso)",
        ),
        ("ppo.lr", p.lr > 0 and math.isfinite(p.lr), "> 0"),
        ("ppo.gamma", 0.0 <= p.gamma <= 1.0, "between 0 and 1"),
        ("ppo.gae_lambda", 0.0 <= p.gae_lambda <= 1.0, "between 0 and 1"),
        ("ppo.reward_scale", p.reward_scale > 0 and math.isfinite(p.reward_scale), "> 0"),
        ("ppo.epochs", p.epochs >= 1, ">= 1"),
        ("ppo.minibatch_size", p.minibatch_size >= 2, ">= 2"),
        ("ppo.clip_coef", p.clip_coef > 0, "> 0"),
        ("ppo.ent_coef", p.ent_coef >= 0, ">= 0"),
        ("ppo.vf_coef", p.vf_coef >= 0, ">= 0"),
        ("ppo.max_grad_norm", p.max_grad_norm > 0, "> 0"),
        ("ppo.target_kl", p.target_kl >= 0, ">= 0 (0: off)"),
        ("ppo.value_warmup", p.value_warmup >= 0, ">= 0 (0: none)"),
        ("ppo.magnet_coef", p.magnet_coef >= 0 and math.isfinite(p.magnet_coef), ">= 0 (0: off)"),
        ("ppo.magnet_every", p.magnet_every >= 1, ">= 1"),
        ("ppo.magnet_step", 0 < p.magnet_step <= 1, "in (0, 1]"),
        ("ppo.teacher_coef", p.teacher_coef >= 0 and math.isfinite(p.teacher_coef), ">= 0 (0: off)"),
        ("ppo.teacher_coef", (p.teacher_coef > 0) == bool(p.teachers), "> 0 with ppo.teachers set, 0 without"),
        ("pool.capacity", pool.capacity >= 1, ">= 1"),
        ("pool.snapshot_every", pool.snapshot_every >= 1, ">= 1"),
        ("pool.rule", pool.rule in SAMPLING_RULES, f"one of {', '.join(SAMPLING_RULES)}"),
        ("pool.temperature", pool.temperature > 0, "> 0"),
        ("pool.score_step", 0 < pool.score_step <= 1, "in (0, 1]"),
        ("eval.every", ev.every >= 0, ">= 0 (0: only at the end)"),
        ("eval.deals", ev.deals >= 2, ">= 2 (a confidence interval needs two deals)"),
        ("eval.seed", 0 <= ev.seed <= MAX_SEED, "between 0 and 2**63-1 (numpy seeds cannot be negative)"),
        ("eval.modes", bool(ev.modes) and set(ev.modes) <= set(EVAL_MODES), f"a non-empty list of {EVAL_MODES}"),
        ("eval.tables", ev.tables >= 1, ">= 1"),
    ]
    for key, ok, allowed in checks:
        if not ok:
            section, name = key.split(".")
            value = getattr(getattr(config, section), name)
            raise ConfigError(f"setting {key} = {shown(value)} is out of range: it must be {allowed}")


def resume_changes(saved: Config, new: Config, rules: tuple[dict[str, Any], dict[str, Any]] | None = None) -> list[str]:
    """Why ``new`` cannot continue a run saved with ``saved``: one line per setting of
    :data:`FIXED_ON_RESUME` that differs (empty: it can).

    ``rules``: the house rules both configs resolve to (every option, defaults
    included), compared instead of the ``env.options`` tables as written, so that
    spelling out a default is no change; :data:`RESUMABLE_OPTIONS` may always change.
    """
    problems = []
    for key, why in FIXED_ON_RESUME.items():
        section, name = key.split(".")
        old, now = getattr(getattr(saved, section), name), getattr(getattr(new, section), name)
        before, after = (old, now) if key != "env.options" else (_fixed_rules(o) for o in rules or (old, now))
        if before != after:
            problems.append(f"{key} (run: {shown(old)}, now: {shown(now)}): {why}")
    return problems


def _fixed_rules(options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in RESUMABLE_OPTIONS}


# --------------------------------------------------------------- output
def to_dict(config: Config) -> dict[str, dict[str, Any]]:
    """Plain nested dicts (for checkpoints and TOML)."""
    return dataclasses.asdict(config)


def from_dict(data: dict[str, Any], source: str = "checkpoint") -> Config:
    """A validated config from :func:`to_dict` output."""
    config = apply_dict(Config(), data, source)
    validate(config)
    return config


def to_toml_value(value: Any) -> str:
    """One value in TOML syntax (strings, numbers, booleans, lists, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(to_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {to_toml_value(v)}" for k, v in value.items()) + "}"
    raise ConfigError(f"cannot write {value!r} ({type(value).__name__}) as TOML")


def _key(key: str) -> str:
    """A TOML key: bare when it can be (``heuristic``), else quoted (``"heuristic:tight"``)."""
    return key if key and all(c.isalnum() or c in "_-" for c in key) else json.dumps(key)


HEADER = """\
# A complete training config: every setting under its documentation (dealers-choice train
# --help prints the same). configs/default.toml holds the defaults, which is what
# `dealers-choice train` runs: two-player seven-card stud (README: measured time).
# Written by  dealers-choice train --print-config  (add --config/--set to change it).
"""


def to_toml(config: Config, docs: bool = True) -> str:
    """The whole config as TOML, each setting under its documentation."""
    lines: list[str] = [HEADER] if docs else []
    data = to_dict(config)
    for section, cls in SECTIONS.items():
        field_doc = field_docs(cls)
        lines.append(f"[{section}]" + (f"  # {inspect.getdoc(cls)}" if docs else ""))
        for key, value in data[section].items():
            if docs:
                lines.append(f"# {field_doc.get(key, '')}")
            lines.append(f"{key} = {to_toml_value(value)}")
        lines.append("")
    return "\n".join(lines)
