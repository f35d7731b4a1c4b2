"""Which collector a run uses: this process (``rollout.backend = "local"``) or Ray actors.

The trainer talks to one *collector-like* object (:class:`RolloutBackend`):

* ``collect(min_decisions)`` returns one :class:`~training.episodes.Batch` and its
  :class:`~training.rollout.RolloutStats`, whichever backend played the tables;
* ``state()`` / ``load_state(state, update=k)`` are the collection's generators as they
  stand between two updates, saved in the checkpoint's training state so that
  ``--resume`` continues exactly;
* ``close()`` releases what the backend holds (Ray actors, a private Ray instance).

The local :class:`~training.rollout.Collector` shares the learner's network, pool and
generators with the trainer, so it needs no hooks: the trainer saves those generators
itself. The Ray collector (:mod:`training.ray_collector`) keeps copies in its actors
and sends the current weights and pool at the start of each rollout, reading them from
the learner's network and pool objects it was given. That is one broadcast per update,
as ``set_weights`` / ``set_pool`` calls after each update would be, without a hook the
trainer could forget to call (after a resume, a pool snapshot, an evaluation).
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np
import torch

from agents.nets import PolicyNet
from training.config import Config, ConfigError
from training.episodes import Batch
from training.pool import OpponentPool
from training.rollout import Collector, RolloutStats, collector_for

LOCAL = "local"
RAY = "ray"


class RolloutBackend(Protocol):
    """What the trainer needs from a collector (see the module docstring)."""

    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats]: ...

    def state(self) -> dict[str, Any]: ...

    def load_state(self, state: dict[str, Any] | None, *, update: int) -> None: ...

    def close(self) -> None: ...


class LocalBackend:
    """The in-process :class:`Collector`: its generators are the trainer's, saved by the
    trainer, so there is no state of its own to save and nothing to send."""

    def __init__(self, collector: Collector) -> None:
        self.collector = collector

    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats]:
        return self.collector.collect(min_decisions)

    def state(self) -> dict[str, Any]:
        return {}

    def load_state(self, state: dict[str, Any] | None, *, update: int) -> None:
        pass

    def close(self) -> None:
        pass


def make_collector(
    config: Config, net: PolicyNet, pool: OpponentPool, *, rng: np.random.Generator, generator: torch.Generator
) -> RolloutBackend:
    """The collector of ``rollout.backend``; Ray is imported only for ``"ray"``."""
    if config.rollout.backend == RAY:
        from evaluation.ray_cluster import import_ray
        from training.ray_collector import RayCollector

        try:
            import_ray()
        except ValueError as err:
            raise ConfigError(f'rollout.backend = "ray" needs Ray. {err}') from None
        return RayCollector(config, net, pool)
    return LocalBackend(collector_for(config, net, pool, rng=rng, generator=generator))
