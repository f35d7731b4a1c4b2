"""``train.init_from``: start a run's learner from an agent's weights instead of fresh ones.

Why: a best responder that starts as the very policy it plays (``--approx`` and
``approx-curve`` with ``--warm-start``) starts at the policy's own value against it (0 by
symmetry, the seats rotated over every lineup), so it only has to find the policy's
mistakes; a responder from fresh weights first has to relearn the game (on the Cowboy family it
still lost to the agents after their whole training budget). Fine-tuning a shipped agent
on a new mix of opponents is the same operation.

The checkpoint must fit the run exactly: the same table (variant, seats, options: the
observation and action layouts), the same network shape (``[model]``), so that the
learner's first policy *is* the checkpoint's. A shipped agent is acting-only: its value
head is absent, so the learner's value head (and its normalisation statistics) start
fresh; a training checkpoint whose value head has the same shape brings it along.
"""

from __future__ import annotations

from pathlib import Path

from agents.checkpoint import CheckpointError, net_from_checkpoint, read_checkpoint
from agents.loading import network_path
from agents.nets import PolicyNet
from agents.neural import Layout
from solvers.toy import quote
from training.config import ConfigError

# arch keys that must agree, and the [model] setting that decides each
SHAPE_SETTINGS = {
    "hidden": "model.hidden",
    "shared": "model.shared",
    "card_groups": "model.card_features",
    "candidates": "model.candidates",
}
# state-dict prefixes of the value head: its torso, output layer and normalisation statistics
VALUE_PARTS = ("value_torso", "value", "value_mean", "value_std")


def checkpoint_path(spec: str) -> Path:
    """The file of ``spec`` (:func:`agents.loading.network_path`; a bot spec is an error)."""
    try:
        path = network_path(spec)
    except ValueError as err:
        raise ConfigError(f"train.init_from = {quote(spec)}: {err}") from None
    if path is None:
        raise ConfigError(
            f"train.init_from = {quote(spec)}: expected a network checkpoint (a .pt path or pretrained:<variant>); "
            "a bot such as the heuristic has no weights to start from"
        )
    return path


def warm_start(net: PolicyNet, layout: Layout, spec: str) -> str:
    """Load the weights of ``spec`` into ``net`` (the learner, built for ``layout`` and
    ``[model]``) in place; returns what was loaded, for the run's log. Nothing is changed
    when the checkpoint does not fit (a :class:`ConfigError` says why and which setting
    to change)."""
    path = checkpoint_path(spec)
    try:
        source, stored = net_from_checkpoint(read_checkpoint(path), path)
    except CheckpointError as err:
        raise ConfigError(f"train.init_from = {quote(spec)}: {err}") from None
    problem = stored.mismatch(layout)
    if problem:
        raise ConfigError(
            f"train.init_from = {quote(spec)} cannot start this run: {problem}; set [env] to the table it was "
            f"trained for ({stored.describe()}, options {stored.options})"
        )
    ours, theirs = net.arch(), source.arch()
    wrong = [
        f"{setting} (checkpoint: {theirs[key]!r}, run: {ours[key]!r})"
        for key, setting in SHAPE_SETTINGS.items()
        if ours[key] != theirs[key]
    ]
    if wrong:
        raise ConfigError(
            f"train.init_from = {quote(spec)} has another network shape; set {', '.join(wrong)} to the checkpoint's"
        )
    own = net.state_dict()
    weights = source.state_dict()
    value_fits = source.has_value and all(k in own and own[k].shape == v.shape for k, v in weights.items())
    value_names = {k for k in own if k.split(".")[0] in VALUE_PARTS}
    loaded = {k: v for k, v in weights.items() if value_fits or k not in value_names}
    own.update(loaded)
    net.load_state_dict(own)
    head = "policy and value head" if value_fits else "policy (the value head starts fresh)"
    return f"{head} from {spec} ({path}, {stored.describe()})"
