"""The opponent pool: frozen snapshots of the learning agent to play against.

Self-play against only the current policy can chase its own tail (a strategy that
beats last week's self may lose to the self of a month ago); keeping past snapshots
around as opponents keeps the learner honest. The trainer adds a snapshot every few
updates; the pool keeps the ``capacity`` most recent ones (oldest dropped first).

Which snapshot a table gets is the sampling ``rule``:

``latest``
    always the newest snapshot;
``uniform``
    every snapshot in the pool equally likely;
``weighted``
    snapshot ``i`` with probability proportional to ``exp(-score_i / temperature)``,
    where ``score_i`` is a running mean (step ``score_step``) of the learner's reward
    per hand against that snapshot, in the variant's unit. Snapshots that beat the
    learner (low score) come up more often; a new snapshot starts at score 0.

Snapshots are immutable tensors, so a pool costs one copy of the weights per
snapshot and saving it in a checkpoint copies nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from agents.nets import PolicyNet

SAMPLING_RULES = ("latest", "uniform", "weighted")


@dataclass
class Snapshot:
    """One frozen copy of the learner."""

    id: int
    update: int
    weights: dict[str, torch.Tensor]
    score: float = 0.0  # running mean of the learner's reward against it
    hands: int = 0


class OpponentPool:
    """Frozen snapshots sampled by a documented rule (see the module docstring).

    Args:
        make_net: builds an empty network of the learner's architecture.
        capacity: most snapshots kept.
        rule: ``latest``, ``uniform`` or ``weighted``.
        temperature: ``weighted`` only: reward units; smaller is greedier.
        score_step: ``weighted`` only: step of each snapshot's running mean score.
    """

    def __init__(
        self,
        make_net: Callable[[], PolicyNet],
        *,
        capacity: int,
        rule: str = "uniform",
        temperature: float = 1.0,
        score_step: float = 0.02,
    ) -> None:
        if rule not in SAMPLING_RULES:
            raise ValueError(f"pool sampling rule must be one of {', '.join(SAMPLING_RULES)}; got {rule!r}")
        if capacity < 1:
            raise ValueError(f"pool capacity must be >= 1, got {capacity}")
        if temperature <= 0 or not 0 < score_step <= 1:
            raise ValueError(f"need temperature > 0 and 0 < score_step <= 1, got {temperature}, {score_step}")
        self.make_net = make_net
        self.capacity = capacity
        self.rule = rule
        self.temperature = temperature
        self.score_step = score_step
        self.snapshots: list[Snapshot] = []
        self.next_id = 0
        self._nets: dict[int, PolicyNet] = {}

    def __len__(self) -> int:
        return len(self.snapshots)

    def add(self, net: PolicyNet, update: int) -> int:
        """Freeze a copy of ``net`` (on the CPU, wherever ``net`` is: the pool and the
        training state stay device-free); drops the oldest snapshot when full. Returns its id."""
        weights = {k: v.detach().to("cpu", copy=True) for k, v in net.state_dict().items()}
        snapshot = Snapshot(self.next_id, update, weights)
        self.next_id += 1
        self.snapshots.append(snapshot)
        while len(self.snapshots) > self.capacity:
            dropped = self.snapshots.pop(0)
            self._nets.pop(dropped.id, None)
        return snapshot.id

    def probabilities(self) -> np.ndarray:
        """Sampling probability of each snapshot, in pool order."""
        k = len(self.snapshots)
        if k == 0:
            raise ValueError("the opponent pool is empty: add a snapshot first")
        if self.rule == "latest":
            p = np.zeros(k)
            p[-1] = 1.0
            return p
        if self.rule == "uniform":
            return np.full(k, 1.0 / k)
        logits = -np.array([s.score for s in self.snapshots]) / self.temperature
        w = np.exp(logits - logits.max())
        return w / w.sum()

    def sample(self, rng: np.random.Generator) -> int:
        """The id of a snapshot drawn by the pool's rule."""
        p = self.probabilities()
        index = int(rng.choice(len(p), p=p)) if len(p) > 1 else 0
        return self.snapshots[index].id

    def record(self, snapshot_id: int, learner_reward: float) -> None:
        """The learner won ``learner_reward`` (per seat, one hand) against the snapshot."""
        for s in self.snapshots:
            if s.id == snapshot_id:
                s.score += self.score_step * (learner_reward - s.score)
                s.hands += 1
                return

    def net(self, snapshot_id: int) -> PolicyNet:
        """The snapshot as a network in inference mode (built once, then cached)."""
        if snapshot_id not in self._nets:
            snapshot = next((s for s in self.snapshots if s.id == snapshot_id), None)
            if snapshot is None:
                raise KeyError(f"no snapshot {snapshot_id} in the pool (ids: {[s.id for s in self.snapshots]})")
            net = self.make_net()
            net.load_state_dict(snapshot.weights)
            self._nets[snapshot_id] = net.eval().requires_grad_(False)
        return self._nets[snapshot_id]

    def state_dict(self) -> dict[str, Any]:
        """Plain data for a checkpoint."""
        return {
            "next_id": self.next_id,
            "snapshots": [
                {"id": s.id, "update": s.update, "weights": s.weights, "score": s.score, "hands": s.hands}
                for s in self.snapshots
            ],
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`state_dict`."""
        self.next_id = int(state["next_id"])
        self.snapshots = [
            Snapshot(int(s["id"]), int(s["update"]), dict(s["weights"]), float(s["score"]), int(s["hands"]))
            for s in state["snapshots"]
        ]
        self._nets.clear()

    def summary(self) -> str:
        """One line: ids, updates and scores."""
        return ", ".join(f"#{s.id}@{s.update} score {s.score:+.2f}" for s in self.snapshots) or "(empty)"
