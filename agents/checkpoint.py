"""Checkpoints: one file format for trained agents and for resuming training.

A checkpoint is a ``torch.save`` of plain data only (dicts, lists, strings, numbers,
tensors)::

    format        "dealers-choice-checkpoint"
    version       2
    arch          the network's description (PolicyNet.arch())
    layout        variant, player count, options, observation pieces, action names
    weights       the network's state_dict (float32, or float16 in shipped agents)
    step          {"update": ..., "decisions": ..., "hands": ...}
    config        the resolved training config (nested dicts)
    training      optional: optimizer, opponent pool, counters and RNG states
                  (what ``train.py --resume`` needs; agents ignore it)

Version 2 added the candidate scoring head, the privileged critic and the value
normalisation statistics to the network; version 1 files still load as agents (their
networks have none of these: the statistics are filled in as mean 0, scale 1, which is
what version 1 computed) but cannot be resumed (their training config names settings
that were replaced). Shipped agents (``agents/pretrained``) are written with
``acting_only=True`` (no value head: the policy alone acts) and ``half=True`` (float16
weights, read back as float32), which keeps each file small.

It is written atomically (to a temporary file in the same folder, flushed and synced,
then renamed over the target), so a run killed while saving leaves the previous
checkpoint intact. It is read with ``torch.load(..., weights_only=True)``: a file
that holds anything else (for instance a pickle crafted to run code while loading)
is refused with :class:`CheckpointError` before any of it runs, as are truncated or
corrupt files and files of another format.

>>> import tempfile, pathlib
>>> from agents.nets import PolicyNet
>>> layout = Layout.build("stud", 2, {})
>>> net = PolicyNet(layout.obs_size, len(layout.action_names), [32])
>>> path = pathlib.Path(tempfile.mkdtemp()) / "agent.pt"
>>> _ = save_checkpoint(path, net=net, layout=layout, step={"update": 0}, config={})
>>> load_agent(path, seed=0)
NeuralAgent(stud_v0, 2 players, greedy=False)
"""

from __future__ import annotations

import os
import pickle
import re
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import torch

from agents.nets import PolicyNet
from agents.neural import Layout, LayoutError, NeuralAgent

FORMAT = "dealers-choice-checkpoint"
VERSION = 2
READABLE = (1, 2)
REQUIRED = ("format", "version", "arch", "layout", "weights", "step", "config")


class CheckpointError(ValueError):
    """A checkpoint cannot be read or used (what is wrong is in the message)."""


def save_checkpoint(
    path: str | Path,
    *,
    net: PolicyNet,
    layout: Layout,
    step: dict[str, int],
    config: dict[str, Any],
    training: dict[str, Any] | None = None,
    acting_only: bool = False,
    half: bool = False,
) -> Path:
    """Write a checkpoint atomically; returns its path.

    ``acting_only`` drops the value head (an agent for play, not for resuming);
    ``half`` stores the weights as float16 (loading turns them back into float32)."""
    if net.obs_size != layout.obs_size or net.num_actions != len(layout.action_names):
        raise CheckpointError(f"network shape does not match the layout {layout.describe()}")
    if acting_only:
        if training is not None:
            raise CheckpointError("an acting-only checkpoint has no value head: it cannot hold a training state")
        net = net.acting_copy()
    dtype = torch.float16 if half else None
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "arch": net.arch(),
        "layout": layout.to_dict(),
        "weights": {
            k: v.detach().clone() if dtype is None or not v.is_floating_point() else v.detach().to(dtype)
            for k, v in net.state_dict().items()
        },
        "step": dict(step),
        "config": config,
    }
    if training is not None:
        data["training"] = training
    return atomic_save(data, Path(path))


def atomic_save(data: Any, path: Path) -> Path:
    """``torch.save`` to a temporary file next to ``path``, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            torch.save(data, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def read_checkpoint(path: str | Path) -> dict[str, Any]:
    """Load and validate a checkpoint's data (no code in the file ever runs)."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint file at {str(path)!r}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as err:
        raise CheckpointError(
            f"refused to load {str(path)!r}: it holds objects other than tensors and plain data "
            f"(a file crafted to run code when unpickled looks like this){_offending(err)}"
        ) from None
    except (RuntimeError, EOFError, OSError, zipfile.BadZipFile, ValueError, KeyError) as err:
        raise CheckpointError(
            f"cannot read checkpoint {str(path)!r}: the file is truncated or corrupt ({_first_line(err)})"
        ) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{str(path)!r} is not a Dealer's Choice checkpoint (no format tag {FORMAT!r})")
    if data.get("version") not in READABLE:
        raise CheckpointError(
            f"{str(path)!r} has checkpoint version {data.get('version')!r}; this code reads versions "
            f"{', '.join(map(str, READABLE))}"
        )
    missing = [k for k in REQUIRED if k not in data]
    if missing:
        raise CheckpointError(f"{str(path)!r} lacks {missing}: the file is incomplete")
    return data


def _offending(err: BaseException) -> str:
    """The object torch refused, without its advice to switch the protection off."""
    found = re.search(r"(Unsupported global: GLOBAL [\w.]+|Unsupported operand \d+)", str(err))
    return f"; {found.group(1).strip()}" if found else ""


def _first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:300]


def net_from_checkpoint(data: dict[str, Any], path: str | Path = "checkpoint") -> tuple[PolicyNet, Layout]:
    """Rebuild the network and its layout, checking the layout against the current env code."""
    try:
        net = PolicyNet.from_arch(data["arch"])
        weights = dict(data["weights"])
        if data.get("version") == 1:  # no value statistics yet: version 1 values were unnormalised
            weights.setdefault("value_mean", torch.zeros(()))
            weights.setdefault("value_std", torch.ones(()))
        net.load_state_dict(weights)
        stored = Layout.from_dict(data["layout"])
    except (KeyError, TypeError, ValueError, RuntimeError) as err:
        detail = " ".join(str(err).split())[:400]
        raise CheckpointError(f"{str(path)!r} does not describe a usable network: {detail}") from None
    current = Layout.build(stored.variant, stored.num_players, stored.env_kwargs)
    problem = stored.mismatch(current)
    if problem:
        raise CheckpointError(f"checkpoint {str(path)!r} cannot be used: {problem}")
    return net, stored


def load_agent(
    path: str | Path,
    seed: int | None = None,
    *,
    variant: str | None = None,
    num_players: int | None = None,
    options: dict[str, Any] | None = None,
    greedy: bool = False,
    strict_options: bool = True,
) -> NeuralAgent:
    """A :class:`NeuralAgent` from a checkpoint (``agents.load(path)`` comes here).

    Args:
        path: the ``.pt`` file.
        seed: seeds the agent's sampling.
        variant, num_players, options: the table it will play; when given, a checkpoint
            trained for another table is refused here rather than at the first action.
        greedy: play the most likely legal action instead of sampling.
        strict_options: refuse tables whose options differ from the training table's.
    """
    data = read_checkpoint(path)
    net, layout = net_from_checkpoint(data, path)
    if variant is not None or num_players is not None or options is not None:
        try:
            target = Layout.build(
                variant or layout.variant,
                num_players or layout.num_players,
                layout.env_kwargs if options is None else options,
            )
        except ValueError as err:
            raise CheckpointError(f"checkpoint {str(path)!r} cannot play this table: {err}") from None
        problem = layout.mismatch(target, strict_options=strict_options)
        if problem:
            raise CheckpointError(f"checkpoint {str(path)!r} cannot play this table: {problem}")
    label = f"ppo@{Path(path).stem}"
    try:
        return NeuralAgent(net, layout, greedy=greedy, seed=seed, strict_options=strict_options, name=label)
    except LayoutError as err:
        raise CheckpointError(f"checkpoint {str(path)!r}: {err}") from None
