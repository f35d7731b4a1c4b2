"""Bots that act at every table of a batch at once (:mod:`envs.batched`), on tensors.

A batched bot answers for all B tables of a :class:`envs.batched.table.TableBatch` in
one call, on the batch's device, with no Python loop over tables: the batched
collector (training) and batched evaluation seat these where the scalar path seats
:class:`agents.base.Agent` objects. The contract, :class:`BatchedBot`:

* ``act(batch, rows)`` returns an int64 ``[B]`` tensor on ``batch.device``. Only the
  tables where the bool ``[B]`` tensor ``rows`` is True are used; there the action must
  be legal for the table's seat to act (``batch.legal_mask()``). Other rows may hold
  anything legal or not; the caller ignores them (a bot may skip work for them).
* A bot reads only what the seat to act sees (its own cards, the up cards, the
  betting): the batch's state holds every card, so reading the others' down cards
  would be a leak, which the no-leak tests check by resampling hidden cards.
* ``seed(seed)`` restarts its random stream, so a resumed training run replays it.

:func:`load_batched` builds one from the same spec strings as :func:`agents.load`
where a batched form exists (``random``, ``call``, ``heuristic[:style]``), and says
clearly which specs have none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import torch

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE

if TYPE_CHECKING:
    from envs.batched.table import TableBatch

__all__ = ["BatchedBot", "BatchedCall", "BatchedRandom", "NoBatchedBotError", "load_batched"]


class NoBatchedBotError(ValueError):
    """A bot spec with no batched form (play it through the scalar path instead)."""


@runtime_checkable
class BatchedBot(Protocol):
    """What the batched collector and batched evaluation seat (module docstring)."""

    name: str

    def seed(self, seed: int) -> None:
        """Restart the bot's random stream."""

    def act(self, batch: TableBatch, rows: torch.Tensor) -> torch.Tensor:
        """Actions ``[B]`` for every table's seat to act; used where ``rows``."""


class BatchedRandom:
    """Uniform over the legal actions (``agents.base.RandomAgent``)."""

    name = "random"

    def __init__(self, seed: int = 0, device: str | torch.device = "cpu") -> None:
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the stream."""
        self.generator.manual_seed(seed)

    def act(self, batch: TableBatch, rows: torch.Tensor) -> torch.Tensor:
        """One uniform legal action per table (every row: one multinomial call)."""
        return _sample(batch.legal_mask(), self.generator)


class BatchedCall:
    """Checks or calls, else posts the bring-in; other decisions (declarations,
    splits) uniformly among the legal actions but fold and raise
    (``agents.base.CallingStation``)."""

    name = "call"

    def __init__(self, seed: int = 0, device: str | torch.device = "cpu") -> None:
        self.generator = torch.Generator(device=device)
        self.generator.manual_seed(seed)

    def seed(self, seed: int) -> None:
        """Restart the stream of the random decisions."""
        self.generator.manual_seed(seed)

    def act(self, batch: TableBatch, rows: torch.Tensor) -> torch.Tensor:
        """check_call where legal, else the bring-in where legal, else random."""
        mask = batch.legal_mask()
        fallback = _sample(calm_mask(mask), self.generator)
        passive = torch.where(mask[:, BRING_IN], torch.full_like(fallback, BRING_IN), fallback)
        return torch.where(mask[:, CHECK_CALL], torch.full_like(fallback, CHECK_CALL), passive)


def calm_mask(mask: torch.Tensor) -> torch.Tensor:
    """The calling station's candidates where it has no preferred action: every legal
    action but fold and raise, or every legal action where only those are left. One
    definition for the batched bot and its probabilities (``agents.probabilities``)."""
    calm = mask.clone()
    calm[:, [FOLD, RAISE]] = False
    return torch.where(calm.any(1, keepdim=True), calm, mask)


def _sample(mask: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One uniform pick among each row's True entries. A row with none (a finished
    table without auto-reset, which the caller ignores) picks among all actions
    rather than making ``multinomial`` raise for the whole batch."""
    weights = (mask | ~mask.any(1, keepdim=True)).float()
    return torch.multinomial(weights, 1, generator=generator).squeeze(1)


def load_batched(spec: str, batch: TableBatch, *, seed: int = 0) -> BatchedBot:
    """The batched form of the bot ``spec`` (``random``, ``call``, ``heuristic`` or
    ``heuristic:<style>``) for ``batch``'s tables, seeded with ``seed``."""
    device = batch.device
    if spec == "random":
        return BatchedRandom(seed, device)
    if spec == "call":
        return BatchedCall(seed, device)
    if spec == "heuristic" or spec.startswith("heuristic:"):
        from agents.heuristic.batched import BatchedHeuristic

        style = spec.partition(":")[2] or "default"
        return BatchedHeuristic(batch, style=style, seed=seed)
    raise NoBatchedBotError(
        f"the bot {spec!r} has no batched form (batched bots: random, call, heuristic[:style]); "
        "use rollout.engine = 'scalar', or seat it as a pool snapshot or checkpoint network"
    )
