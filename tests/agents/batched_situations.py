"""Fixed situations for the batched heuristic's tests: the same hand reached in a
batch (every situation repeated over many tables) and in the scalar env.

A situation is a deck, a button and a scripted action sequence (random legal
actions, checks and calls preferred so hands reach their later streets, played to a
random depth). :func:`situations` scripts them on a small batch; :func:`replicate`
deals each one ``copies`` times in one batch (``reset(decks=..., buttons=...)`` and the
same actions); :func:`scalar_view` reaches it in the scalar env with
``reset(options={"deck": ..., "button": ...})``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from envs.batched import TableBatch, make
from envs.engine.actions import CHECK_CALL
from envs.registry import make_raw
from envs.view import PublicView


@dataclass(frozen=True)
class Situations:
    """Scripted hands in progress, one per table of the scripting batch.

    Attributes:
        name, players, options: the game.
        decks: ``[M, D]``; buttons: ``[M]``.
        actions: per step, ``[M]`` actions and ``[M]`` bool: the table acted.
    """

    name: str
    players: int
    options: dict[str, Any]
    decks: torch.Tensor
    buttons: torch.Tensor
    actions: list[tuple[torch.Tensor, torch.Tensor]]


def situations(
    name: str,
    players: int,
    count: int,
    seed: int,
    depth: int = 12,
    call: float = 0.7,
    stop: Callable[[torch.Tensor], torch.Tensor] | None = None,
    **options: Any,
) -> Situations:
    """``count`` hands, each played to a random depth of up to ``depth`` decisions, or
    (``stop``: legal masks ``[M, A]`` -> ``[M]`` bool) to the first decision where
    ``stop`` holds; a hand that ends first is replaced by a new deal."""
    rng = np.random.default_rng(seed)
    decks, buttons, steps = [], [], []
    while len(decks) < count:
        batch = make(name, count, players, auto_reset=False, **options)
        batch.reset(seed=int(rng.integers(2**31)))
        start_decks, start_buttons = batch.state.deck.clone(), batch.state.button.clone()
        target = torch.as_tensor(rng.integers(0, depth + 1, count)) if stop is None else torch.full((count,), depth)
        played = torch.zeros(count, dtype=torch.long)
        script = []
        for _ in range(depth):
            mask = batch.legal_mask()
            active = (played < target) & ~batch.state.done
            if stop is not None:
                active &= ~stop(mask)
            actions = torch.as_tensor([_scripted(mask[i].numpy(), rng, call) for i in range(count)])
            batch.step(actions, active=active)
            played += active.long()
            script.append((actions, active))
        kept = ~batch.state.done if stop is None else ~batch.state.done & stop(batch.legal_mask())
        keep = kept.nonzero().squeeze(1).tolist()
        for i in keep[: count - len(decks)]:
            decks.append(start_decks[i])
            buttons.append(start_buttons[i])
            steps.append([(a[i], m[i]) for a, m in script])
    actions = [
        (torch.stack([s[t][0] for s in steps]), torch.stack([s[t][1] for s in steps])) for t in range(len(steps[0]))
    ]
    return Situations(name, players, options, torch.stack(decks), torch.stack(buttons), actions)


def _scripted(mask: np.ndarray, rng: np.random.Generator, call: float) -> int:
    legal = np.flatnonzero(mask)
    if not len(legal):
        return 0  # a finished table: never applied
    if mask[CHECK_CALL] and rng.random() < call:
        return CHECK_CALL
    return int(rng.choice(legal))


def replicate(sit: Situations, copies: int, **make_options: Any) -> TableBatch:
    """One batch holding every situation ``copies`` times in a row (table
    ``i * copies + k`` is copy ``k`` of situation ``i``)."""
    m = len(sit.decks)
    batch = make(sit.name, m * copies, sit.players, auto_reset=False, **make_options, **sit.options)
    batch.reset(seed=0, decks=sit.decks.repeat_interleave(copies, 0), buttons=sit.buttons.repeat_interleave(copies))
    for actions, active in sit.actions:
        batch.step(actions.repeat_interleave(copies), active=active.repeat_interleave(copies))
    return batch


def scalar_view(sit: Situations, i: int) -> PublicView:
    """Situation ``i`` in the scalar env: the view of its seat to act."""
    env = make_raw(sit.name, sit.players, **sit.options)
    env.reset(options={"deck": sit.decks[i].tolist(), "button": int(sit.buttons[i])})
    for actions, active in sit.actions:
        if bool(active[i]):
            env.step(int(actions[i]))
    state = env.state
    assert state is not None and not state.is_over
    return env.public_view(env.possible_agents[state.current_seat])


def subset(sit: Situations, keep: list[int]) -> Situations:
    """The situations ``keep`` of ``sit``, in that order."""
    index = torch.as_tensor(keep, dtype=torch.long)
    actions = [(a[index], m[index]) for a, m in sit.actions]
    return Situations(sit.name, sit.players, sit.options, sit.decks[index], sit.buttons[index], actions)
