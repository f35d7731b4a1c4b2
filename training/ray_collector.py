"""Collection on Ray actors: ``train.py --set rollout.backend="ray" --set rollout.workers=N``.

The learner stays where ``train.py`` runs; the tables move to ``N`` Ray actors
(:class:`RolloutWorker`, one CPU each), each holding its own
:class:`~training.rollout.Collector` with ``rollout.tables`` tables, its own copy of
the network and of the opponent pool, and its own generators. One rollout:

1. the learner puts the current weights, and the pool's scores plus any snapshot the
   actors have not seen yet, into Ray's object store *once* (``ray.put``), and every
   actor loads them from that one reference (on one machine: shared memory; on a
   cluster: one transfer per node);
2. actor ``i`` collects its share of ``rollout.decisions`` (``decisions // N``, the
   first ``decisions % N`` actors one more), exactly as the local collector does;
3. the batches come back and are concatenated in worker order into one
   :class:`~training.episodes.Batch`, the statistics merged the same way, and the
   actors' results against pool snapshots are recorded in the learner's pool in that
   order (they steer ``pool.rule = "weighted"``).

The algorithm is the local one: same batch format, same update, same checkpoints and
logs. Two differences, both deterministic: each actor's pool scores move only with its
own hands during a rollout (the learner's pool gets them all after it), and the deals
and actions come from the actors' generators, so a Ray run is not the local run.

Reproducible and resumable: actor ``i`` seeds its deal generator and its action
generator from ``SeedSequence(train.seed, spawn_key=(2 + i,))`` (the trainer's own
generators are children 0 and 1 of the same seed), so a run depends on the seed and
the worker count only; their states between two updates go into the checkpoint's
training state (:meth:`RayCollector.state`) and ``--resume`` puts them back, which
continues exactly as the uninterrupted run. Resuming with another worker count (or
from a local run) cannot do that: the actors then start generators of their own from
the seed and the update reached, and a note says so.

Ray is imported only here, and this module only when ``rollout.backend = "ray"``.
"""

from __future__ import annotations

import copy
import functools
import sys
import time
from contextlib import ExitStack
from dataclasses import fields
from typing import Any

import numpy as np
import torch

from agents.nets import PolicyNet
from evaluation.ray_cluster import import_ray, ray_session
from training.config import Config, ConfigError
from training.episodes import Batch
from training.pool import OpponentPool
from training.rollout import RolloutStats, collector_for

FIRST_WORKER_KEY = 2  # spawn keys 0 and 1 are the trainer's collection and update generators


def worker_seed(seed: int, index: int, update: int | None = None) -> np.random.SeedSequence:
    """The seed sequence of actor ``index``: from the run seed and the index (and, for
    an actor that cannot continue saved generators, the update it starts after)."""
    key = (FIRST_WORKER_KEY + index,) if update is None else (FIRST_WORKER_KEY + index, update)
    return np.random.SeedSequence(seed, spawn_key=key)


def shares(decisions: int, workers: int) -> list[int]:
    """Learner decisions per actor: as equal as possible, the first ones one more.

    >>> shares(10, 4)
    [3, 3, 2, 2]
    """
    base, extra = divmod(decisions, workers)
    return [base + (1 if i < extra else 0) for i in range(workers)]


class RecordingPool(OpponentPool):
    """An actor's pool: also keeps the learner's results against snapshots, in order,
    so that the learner's own pool can record them after the rollout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[int, float]] = []

    def record(self, snapshot_id: int, learner_reward: float) -> None:
        self.log.append((snapshot_id, learner_reward))
        super().record(snapshot_id, learner_reward)


class RolloutWorker:
    """One actor: a local collector with its own tables, weights, pool and generators."""

    def __init__(self, config: Config, net: PolicyNet, seed: np.random.SeedSequence) -> None:
        torch.set_num_threads(1)  # small-batch inference: one core per actor
        self.net = net.eval().requires_grad_(False)
        template = copy.deepcopy(self.net)
        p = config.pool
        self.pool = RecordingPool(
            functools.partial(copy.deepcopy, template),
            capacity=p.capacity,
            rule=p.rule,
            temperature=p.temperature,
            score_step=p.score_step,
        )
        self.rng = np.random.default_rng()
        self.generator = torch.Generator()
        self.reseed(seed)
        self.collector = collector_for(config, self.net, self.pool, rng=self.rng, generator=self.generator)
        self.snapshot_weights: dict[int, dict[str, torch.Tensor]] = {}

    def reseed(self, seed: np.random.SeedSequence) -> None:
        """Deals and seats from one child of ``seed``, actions from the other."""
        deals, actions = seed.spawn(2)
        self.rng.bit_generator.state = np.random.default_rng(deals).bit_generator.state
        self.generator.manual_seed(int(actions.generate_state(1, np.uint64)[0]))

    def sync(self, message: dict[str, Any]) -> None:
        """Load the learner's weights and pool (snapshot weights sent once, kept here)."""
        self.net.load_state_dict(message["weights"])
        pool = message["pool"]
        for s in pool["snapshots"]:
            if s["weights"] is not None:
                self.snapshot_weights[s["id"]] = s["weights"]
        live = {s["id"] for s in pool["snapshots"]}
        self.snapshot_weights = {k: v for k, v in self.snapshot_weights.items() if k in live}
        self.pool.load_state_dict(
            {
                "next_id": pool["next_id"],
                "snapshots": [{**s, "weights": self.snapshot_weights[s["id"]]} for s in pool["snapshots"]],
            }
        )

    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats, list[tuple[int, float]]]:
        """The local collector's rollout, and the results against pool snapshots."""
        self.pool.log = []
        batch, stats = self.collector.collect(min_decisions)
        return batch, stats, self.pool.log

    def cpu_seconds(self) -> float:
        """CPU time of this actor's process so far (benchmarks: rates per core)."""
        return time.process_time()

    def state(self) -> dict[str, Any]:
        return {"rng": copy.deepcopy(self.rng.bit_generator.state), "generator": self.generator.get_state()}

    def load_state(self, state: dict[str, Any]) -> None:
        self.rng.bit_generator.state = state["rng"]
        self.generator.set_state(state["generator"])


class RayCollector:
    """The trainer's collector on ``rollout.workers`` Ray actors (module docstring).

    Args:
        config: the run's config (``rollout.ray_address``, ``rollout.workers``...).
        net, pool: the learner's network and opponent pool, read before every rollout.
    """

    def __init__(self, config: Config, net: PolicyNet, pool: OpponentPool) -> None:
        self.config = config
        self.net = net
        self.pool = pool
        self.ray = import_ray()
        workers = config.rollout.workers
        self._session = ExitStack()
        cpus = self._session.enter_context(ray_session(config.rollout.ray_address, num_cpus=max(workers, _cores())))
        if cpus < workers:
            self._session.close()
            raise ConfigError(
                f"rollout.workers = {workers} needs {workers} CPUs (one per actor), but the Ray cluster at "
                f"{config.rollout.ray_address!r} offers {cpus}"
            )
        actor = self.ray.remote(num_cpus=1)(RolloutWorker)
        seed = config.train.seed
        self.actors = [actor.remote(config, net, worker_seed(seed, i)) for i in range(workers)]
        self.sent: set[int] = set()  # snapshot ids the actors already hold
        self.broadcast_bytes = 0  # size of the last broadcast (weights and new snapshots)
        self.broadcast_seconds = 0.0  # time of the last ray.put
        self.last_actor_seconds = 0.0  # the slowest actor's own time in the last rollout

    # ------------------------------------------------------------ rollout
    def broadcast(self) -> list[Any]:
        """Put the weights and the pool in the object store once and send every actor the
        reference; returns the actors' acknowledgements (Ray runs an actor's calls in
        order, so a rollout started after this sees them without waiting)."""
        began = time.perf_counter()
        weights = {k: v.detach().clone() for k, v in self.net.state_dict().items()}
        state = self.pool.state_dict()
        snapshots = []
        for s in state["snapshots"]:
            new = s["id"] not in self.sent
            snapshots.append({**s, "weights": s["weights"] if new else None})
        self.sent = {s["id"] for s in state["snapshots"]}
        message = {"weights": weights, "pool": {"next_id": state["next_id"], "snapshots": snapshots}}
        ref = self.ray.put(message)
        self.broadcast_seconds = time.perf_counter() - began
        self.broadcast_bytes = _tensor_bytes(weights) + sum(
            _tensor_bytes(s["weights"]) for s in snapshots if s["weights"] is not None
        )
        return [a.sync.remote(ref) for a in self.actors]

    def collect(self, min_decisions: int) -> tuple[Batch, RolloutStats]:
        """Broadcast, collect the shares in parallel, merge in worker order."""
        began = time.perf_counter()
        self.broadcast()
        refs = [a.collect.remote(n) for a, n in zip(self.actors, shares(min_decisions, len(self.actors)), strict=True)]
        results = self._get(refs)
        for _, _, records in results:
            for snapshot_id, reward in records:
                self.pool.record(snapshot_id, reward)
        stats = merge_stats([r[1] for r in results])
        self.last_actor_seconds = max(r[1].seconds for r in results)
        stats.seconds = time.perf_counter() - began
        return merge_batches([r[0] for r in results]), stats

    # -------------------------------------------------------------- state
    def state(self) -> dict[str, Any]:
        """Every actor's generators, in worker order (for the checkpoint)."""
        return {"backend": "ray", "workers": self._get([a.state.remote() for a in self.actors])}

    def load_state(self, state: dict[str, Any] | None, *, update: int) -> None:
        """Restore :meth:`state`; from another worker count or backend, fresh generators."""
        saved = (state or {}).get("workers", [])
        if len(saved) == len(self.actors):
            self._get([a.load_state.remote(s) for a, s in zip(self.actors, saved, strict=True)])
            return
        held = f"the generators of {len(saved)} Ray workers" if saved else "no Ray worker's generators (a local run)"
        print(
            f"train.py: note: the checkpoint holds {held} and this run has {len(self.actors)} workers: they start "
            f"new generators (from the seed and update {update}), so this resume continues the run but does not "
            "replay the uninterrupted one",
            file=sys.stderr,
        )
        seed = self.config.train.seed
        self._get([a.reseed.remote(worker_seed(seed, i, update)) for i, a in enumerate(self.actors)])

    def close(self) -> None:
        """Stop the actors and leave (or shut down) Ray."""
        for a in self.actors:
            self.ray.kill(a)
        self.actors = []
        self._session.close()

    def _get(self, refs: list[Any]) -> list[Any]:
        """Results in order; an actor's error is raised as the error it raised."""
        try:
            return list(self.ray.get(refs))
        except self.ray.exceptions.RayTaskError as err:
            if isinstance(err.cause, Exception):
                raise err.cause from None
            raise


def merge_batches(batches: list[Batch]) -> Batch:
    """One batch: the rows of each batch in order (optional fields kept when present)."""
    merged: dict[str, Any] = {}
    for f in fields(Batch):
        parts = [getattr(b, f.name) for b in batches]
        merged[f.name] = None if parts[0] is None else np.concatenate(parts)
    return Batch(**merged)


def merge_stats(parts: list[RolloutStats]) -> RolloutStats:
    """Counts summed, per-episode lists concatenated in order, per-bot lists merged by
    bot (``seconds`` is the caller's: the wall time of the parallel rollout)."""
    out = RolloutStats()
    for part in parts:
        for f in fields(RolloutStats):
            mine, theirs = getattr(out, f.name), getattr(part, f.name)
            if isinstance(mine, list):
                mine.extend(theirs)
            elif isinstance(mine, dict):
                for key, values in theirs.items():
                    mine.setdefault(key, []).extend(values)
            elif f.name != "seconds":
                setattr(out, f.name, mine + theirs)
    return out


def _tensor_bytes(tensors: dict[str, torch.Tensor]) -> int:
    return sum(t.numel() * t.element_size() for t in tensors.values())


def _cores() -> int:
    from evaluation.runner import available_cores

    return available_cores()
