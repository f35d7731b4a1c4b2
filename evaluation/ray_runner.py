"""Chunks of deals as Ray tasks: ``evaluate.py --ray [ADDRESS]``.

:func:`evaluation.runner.play_matches` cuts every match into chunks of consecutive deals;
with ``backend=ray_results`` each chunk becomes a Ray task (one CPU each) instead of a job for a
local process pool, on whatever Ray is connected (:func:`evaluation.ray_cluster.ray_session`:
a private instance on this machine or a cluster). A task plays its chunk exactly as a
pool worker does (:func:`evaluation.runner.play_chunk`: every deal and every bot seeded per
hand), and the chunks come back in job order, so the merged result, the hand histories
and their order are identical to ``--workers 1`` for the same seed.

At most a few tasks per CPU are in flight at once, so a long match holds a bounded
number of finished chunks in memory; the progress bar moves as each chunk finishes.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Iterator
from typing import Any

from tqdm import tqdm

from evaluation import runner
from evaluation.arena import MatchResult
from evaluation.ray_cluster import import_ray

TASKS_PER_CPU = 2  # in flight at once: every CPU busy, one chunk queued behind it

_RUN: str | None = None  # the evaluation whose bots this worker process holds


def play_job(job: runner.Job, run: str) -> tuple[int, MatchResult]:
    """One chunk, in a Ray worker process. Workers outlive an evaluation, so the bots
    cached by an earlier one (a checkpoint file may have changed since) are dropped,
    and its isolated bot processes stopped, when a new evaluation starts."""
    global _RUN
    if run != _RUN:
        runner._BOTS.clear()
        runner.close_isolated()
        _RUN = run
    return runner.play_chunk(job)


def ray_results(jobs: list[runner.Job], bar: tqdm) -> Iterator[tuple[int, MatchResult]]:
    """Chunk results in job order, played as Ray tasks on the connected cluster."""
    ray = import_ray()
    if not ray.is_initialized():
        raise ValueError("playing on Ray needs a connection: use evaluation.ray_cluster.ray_session(address)")
    task = ray.remote(num_cpus=1)(play_job)
    run = uuid.uuid4().hex
    window = TASKS_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    waiting = deque(jobs)
    ordered: deque[Any] = deque()  # refs in job order, not yet returned
    pending: dict[Any, int] = {}  # refs not finished yet -> the hands their chunk plays
    try:
        while waiting or ordered:
            while waiting and len(ordered) < window:
                job = waiting.popleft()
                ref = task.remote(job, run)
                ordered.append(ref)
                pending[ref] = len(job[2]) * job[1].hands_per_deal()
            if ordered[0] in pending:  # the next chunk in order is still playing: wait for any
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    bar.update(pending.pop(ref))
                continue
            yield _result(ray, ordered.popleft())
    finally:
        for ref in pending:
            ray.cancel(ref)


def _result(ray: Any, ref: Any) -> tuple[int, MatchResult]:
    """A chunk's result. A task's error is raised as the error the task raised (a
    ``BotError`` naming the bot, say), not as Ray's wrapper around it: evaluate.py then
    reports it exactly as when the chunk is played in this process."""
    try:
        return ray.get(ref)  # type: ignore[no-any-return]
    except ray.exceptions.RayTaskError as err:
        if isinstance(err.cause, Exception):
            raise err.cause from None
        raise
