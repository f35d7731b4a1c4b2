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
checkpoint intact (:func:`remove_temporaries` deletes what such a kill leaves behind).
It is read with ``torch.load(..., weights_only=True)``: a file that holds anything else
(for instance a pickle crafted to run code while loading) is refused with
:class:`CheckpointError` before any of it runs, as are truncated or corrupt files, files
of another format, and files holding NaN or infinite values (the weights of a run that
diverged play nonsense, and resuming from them only spreads the NaN): such a file is
never written either.

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

import json
import os
import pickle
import re
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

from agents.nets import PolicyNet
from agents.neural import Layout, LayoutError, NeuralAgent

FORMAT = "dealers-choice-checkpoint"
VERSION = 2
READABLE = (1, 2)
REQUIRED = ("format", "version", "arch", "layout", "weights", "step", "config")
TEMPORARY_GLOB = ".*.pt.*.tmp"  # what atomic_save writes before its rename
CHECKED_SECTIONS = ("weights", "training")  # sections whose tensors must be finite


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
    problem = non_finite(data, CHECKED_SECTIONS)
    if problem:
        raise CheckpointError(f"refused to write {str(path)!r}: {problem}")
    return atomic_save(data, Path(path))


def non_finite(tree: Any, sections: tuple[str, ...] | None = None, prefix: str = "") -> str | None:
    """Which floating-point tensor in ``tree`` (nested dicts and lists) holds NaN or
    infinite values, and how many (None: all are finite). ``sections`` limits the
    search to those top-level keys of a dict."""
    tensors = list(_float_tensors(tree, sections, prefix))
    if not tensors:
        return None
    # a sum is finite exactly when every element is (NaN and infinities propagate): one
    # isfinite over the sums costs a fraction of isfinite() over every element; a sum
    # that merely overflowed is found to be harmless by the exact count below
    sums = torch.stack([tensor.sum().double() for _, tensor in tensors])
    for index in (~torch.isfinite(sums)).nonzero().flatten().tolist():
        name, tensor = tensors[index]
        nan, inf = int(torch.isnan(tensor).sum()), int(torch.isinf(tensor).sum())
        if nan + inf:
            return f"tensor {name or 'value'} holds {nan} NaN and {inf} infinite values of {tensor.numel()}"
    return None


def _float_tensors(tree: Any, sections: tuple[str, ...] | None, prefix: str) -> Iterator[tuple[str, torch.Tensor]]:
    """Every floating-point tensor in nested dicts and lists, with its dotted path."""
    if isinstance(tree, torch.Tensor):
        if tree.is_floating_point():
            yield prefix, tree
        return
    items: list[tuple[Any, Any]] = []
    if isinstance(tree, dict):
        items = [(k, v) for k, v in tree.items() if sections is None or k in sections]
    elif isinstance(tree, list | tuple):
        items = list(enumerate(tree))
    for key, value in items:
        yield from _float_tensors(value, None, f"{prefix}.{key}" if prefix else str(key))


def remove_temporaries(folder: str | Path) -> list[Path]:
    """Delete the temporary files that a save cut short left in ``folder``
    (``.latest.pt.<random>.tmp``); returns them. Only call this while no other
    process can be saving there (``train.py`` holds the run folder's lock)."""
    removed = []
    for tmp in sorted(Path(folder).glob(TEMPORARY_GLOB)):
        if tmp.is_file():
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed


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
    foreign = foreign_archive(path)
    if foreign is not None:
        raise CheckpointError(foreign)
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
    problem = non_finite(data, CHECKED_SECTIONS)
    if problem:
        raise CheckpointError(
            f"refused to load {str(path)!r}: {problem} (the run that wrote it diverged; use an earlier checkpoint)"
        )
    return data


def foreign_archive(path: Path) -> str | None:
    """What a zip file that ``torch.save`` did not write is, and what to do with it
    (None for anything else). ``torch.save`` files are zips too, with every entry in
    one folder (``<name>/data.pkl``); a Stable-Baselines3 model (``model.save``) has
    ``data`` and ``policy.pth`` at the top. Only the entry names and SB3's JSON
    ``data`` entry are read: nothing is unpickled."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if any(n.endswith("/data.pkl") for n in names):
                return None
            if "data" in names and "policy.pth" in names:
                return _sb3_advice(path, archive)
    except (zipfile.BadZipFile, OSError):
        return None  # not a zip (or unreadable): torch.load says what is wrong
    shown = ", ".join(n[:60] for n in names[:5]) + (f", ... ({len(names)} entries)" if len(names) > 5 else "")
    return (
        f"{str(path)!r} is a zip archive ({shown or 'empty'}), not a Dealer's Choice checkpoint: "
        "agents.load reads the .pt files that train.py writes (agents.checkpoint)"
    )


def _sb3_advice(path: Path, archive: zipfile.ZipFile) -> str:
    """The message for a Stable-Baselines3 model archive: what it is, how to play it."""
    version = ""
    if "_stable_baselines3_version" in archive.namelist():
        version = f", stable-baselines3 {archive.read('_stable_baselines3_version').decode(errors='replace')[:20]}"
    try:
        policy_module = json.loads(archive.read("data")).get("policy_class", {}).get("__module__", "")
    except (ValueError, AttributeError):
        policy_module = ""
    algorithm = "sb3_contrib.MaskablePPO" if "maskable" in policy_module else "its Stable-Baselines3 algorithm class"
    load = "MaskablePPO" if "maskable" in policy_module else "PPO"
    name = str(path)
    return (
        f"{name!r} is a Stable-Baselines3 model archive ({algorithm}{version}), not a Dealer's Choice "
        f"checkpoint (.pt). Load it with {algorithm} and wrap it as a bot: "
        f"agents.sb3.SB3Agent({load}.load({name!r})); for a spec string (evaluate.py, opponents=...), "
        "name a class that does this in its __init__, 'your_module:YourModel' "
        "(docs/gymnasium.md, 'Trained models as bots')"
    )


def _offending(err: BaseException) -> str:
    """The object torch refused, without its advice to switch the protection off."""
    found = re.search(r"(Unsupported global: GLOBAL [\w.]+|Unsupported operand \d+)", str(err))
    return f"; {found.group(1).strip()}" if found else ""


def _first_line(err: BaseException) -> str:
    return (str(err).strip().splitlines() or [type(err).__name__])[0][:300]


def net_from_checkpoint(data: dict[str, Any], path: str | Path = "checkpoint") -> tuple[PolicyNet, Layout]:
    """Rebuild the network and its layout, checking the layout against the current env code
    (and that the weights are finite, for data that did not come through :func:`read_checkpoint`)."""
    problem = non_finite(data.get("weights"), None, "weights")
    if problem:
        raise CheckpointError(f"{str(path)!r} cannot be used: {problem}")
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
            advice = layout.api_advice(target) if strict_options else ""
            raise CheckpointError(f"checkpoint {str(path)!r} cannot play this table: {problem}{advice}")
    label = f"ppo@{Path(path).stem}"
    try:
        return NeuralAgent(net, layout, greedy=greedy, seed=seed, strict_options=strict_options, name=label)
    except LayoutError as err:
        raise CheckpointError(f"checkpoint {str(path)!r}: {err}") from None
