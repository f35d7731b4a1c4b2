"""Matches spread over processes, with a progress bar and streamed hand histories.

A :class:`MatchSpec` describes one match as plain data (variant, bot specs, seats,
options, seed), so that worker processes can rebuild it. :func:`play_matches` cuts
every match into chunks of consecutive deals, plays the chunks (in this process, or
in a pool of ``workers`` processes started with ``spawn``) and merges them back in
deal order. Because the arena seeds every deal and every bot per hand, the merged
result is identical for any number of workers and any chunk size.

That guarantee assumes bots act only on what they are shown (plus their seeded
randomness): a bot that learns across hands would see a different sequence of hands
in each chunk.

``MatchSpec(isolate=True)`` runs every bot in its own process (:mod:`evaluation.isolate`,
started once per bot and process and reused by its chunks) with a time limit per
decision. A bot that fails then forfeits its match: the match's result carries
``forfeit`` (its other chunks are skipped when playing in this process), the hands
played before the failure are kept (and their histories written), and the other
matches go on.

Bot programs (``cmd:``, ``tcp://``: :mod:`evaluation.external`) have one session per
match and process, reused by that match's chunks (a process holds one match's sessions
at a time), and always forfeit like isolated bots. ``play_matches(match_log=...)``
(:mod:`evaluation.matchlog`) logs every chunk as it comes back and plays only the deals
not logged yet: an interrupted run resumes with the same final result.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from agents.base import describe
from agents.loading import load
from envs.engine.history import HandRecord, hand_history
from evaluation.arena import HandRecordLite, MatchResult, lineups, run_match
from evaluation.external import MATCH_TIMEOUT, ExternalBot, is_external
from evaluation.isolate import DECISION_TIMEOUT, IsolatedBot
from evaluation.matchlog import LOG_CHUNK, MatchLog, deal_chunks

HISTORY_FORMATS = ("text", "json", "both")
MAX_CHUNK = 200  # deals per job: bounds the memory held for hand histories


@dataclass(frozen=True)
class MatchSpec:
    """One match as data: what a worker process needs to play any range of its deals.

    ``bots`` are ``agents.load`` specs (strings); a bot object also works in this
    process, and in workers if it pickles.
    """

    variant: str
    bots: tuple[Any, ...]
    num_players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    duplicate: bool = True
    seating: str = "rotate"
    record_decisions: bool = True  # the decision mix (summed per bot: see MatchResult.fold_mix)
    keep_decisions: bool = False  # also keep each hand's list of decisions
    histories: str | None = None  # None, "text", "json" or "both"
    isolate: bool = False  # every bot in its own process; a failing bot forfeits the match
    decision_timeout: float = DECISION_TIMEOUT  # seconds per decision, with isolate (and for bot programs)
    match_timeout: float = MATCH_TIMEOUT  # seconds a bot program may spend answering in the match

    def hands_per_deal(self) -> int:
        """Hands played for each deal (one per lineup, or one without duplicate play)."""
        return len(lineups(len(self.bots), self.num_players, self.duplicate, self.seating))


@dataclass(frozen=True)
class HandHistory:
    """A hand's history in the requested forms (the live state stays in the worker)."""

    text: str | None
    record: dict[str, Any] | None


Job = tuple[int, MatchSpec, range]
HistorySink = Callable[[int, MatchSpec, list[HandRecordLite]], None]
Backend = Callable[[list[Job], tqdm], Iterator[tuple[int, MatchResult]]]  # plays chunks elsewhere (Ray)

_BOTS: dict[tuple[str, int], Any] = {}  # per process: bots loaded once, reseeded per hand
_ISOLATED: dict[tuple[str, int, float], IsolatedBot] = {}  # per process: bot processes, reused while alive
_EXTERNAL: dict[tuple[int, int], ExternalBot] = {}  # per process: (match, bot) -> a bot program's session


def _bot(spec: Any, seed: int) -> Any:
    if not isinstance(spec, str):
        return spec
    key = (spec, seed)
    if key not in _BOTS:
        _BOTS[key] = load(spec, seed=seed)
    return _BOTS[key]


def _isolated_bot(spec: Any, seed: int, timeout: float) -> IsolatedBot:
    if not isinstance(spec, str):
        raise ValueError("isolated play needs bot specs (strings): a bot object already lives in this process")
    key = (spec, seed, timeout)
    bot = _ISOLATED.get(key)
    if bot is None or not bot.alive:
        bot = _ISOLATED[key] = IsolatedBot(spec, seed=seed, timeout=timeout)
    return bot


def _external_bot(index: int, position: int, spec: MatchSpec) -> ExternalBot:
    """Match ``index``'s session with its bot program ``position`` (one match's
    sessions at a time: the others end here)."""
    for key in [k for k in _EXTERNAL if k[0] != index]:
        _EXTERNAL.pop(key).close()
    bot = _EXTERNAL.get((index, position))
    if bot is None or not bot.alive:
        bot = _EXTERNAL[(index, position)] = ExternalBot(
            spec.bots[position], seed=spec.seed + position, timeout=spec.decision_timeout,
            match_timeout=spec.match_timeout,
        )  # fmt: skip
    return bot


def close_isolated() -> None:
    """Stop the bot processes this process started (and end bot programs' sessions)."""
    while _ISOLATED:
        _ISOLATED.popitem()[1].close()
    while _EXTERNAL:
        _EXTERNAL.popitem()[1].close()


def play_chunk(job: Job, on_hand: Callable[[HandRecordLite], None] | None = None) -> tuple[int, MatchResult]:
    """Play one chunk of one match; hand histories become text / JSON here."""
    index, spec, deals = job
    bots: list[Any] = [
        _external_bot(index, i, spec)
        if is_external(b)
        else _isolated_bot(b, spec.seed + i, spec.decision_timeout)
        if spec.isolate
        else _bot(b, spec.seed + i)
        for i, b in enumerate(spec.bots)
    ]

    def finish(record: HandRecordLite) -> None:
        if spec.histories is not None:
            state = record.history
            text = hand_history(state) if spec.histories in ("text", "both") else None
            data = dataclasses.asdict(HandRecord.of(state)) if spec.histories in ("json", "both") else None
            record.history = HandHistory(text, data)
        if on_hand is not None:
            on_hand(record)

    result = run_match(
        spec.variant,
        bots,
        deals=len(deals),
        num_players=spec.num_players,
        seed=spec.seed,
        duplicate=spec.duplicate,
        options=spec.options,
        record_decisions=spec.record_decisions,
        keep_histories=spec.histories is not None,
        deal_range=deals,
        on_hand=finish,
        seating=spec.seating,
        forfeit=spec.isolate or any(is_external(b) for b in spec.bots),
        names=[b if isinstance(b, str) else describe(b) for b in spec.bots],
    )
    if result.forfeit is not None:  # it starts afresh in its next match
        bots[result.forfeit.bot].close()
    result.names = [b if isinstance(b, str) else name for b, name in zip(spec.bots, result.names, strict=True)]
    if spec.record_decisions:
        result.fold_mix(spec.keep_decisions)
    return index, result


def _play_job(job: Job) -> tuple[int, MatchResult]:
    return play_chunk(job)


def _init_worker() -> None:
    """One thread per worker process: the pool already uses every core. Ctrl-C reaches
    every process of the terminal's group: workers ignore it and the parent, which
    handles it, stops them (without a traceback from each)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = "1"


def available_cores() -> int:
    """Cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def auto_workers(total_deals: int, min_deals: int = 500) -> int:
    """All available cores, but no more than one per ``min_deals`` deals: starting a
    worker costs about half a second, about what it takes to play 500 deals."""
    return max(1, min(available_cores(), total_deals // min_deals))


def chunks(deals: int, workers: int) -> list[range]:
    """Consecutive deal ranges: a few per worker, so the bar moves and cores stay busy."""
    size = max(1, min(MAX_CHUNK, math.ceil(deals / (workers * 8))))
    return [range(start, min(start + size, deals)) for start in range(0, deals, size)]


def play_matches(
    specs: Sequence[MatchSpec],
    deals: int,
    *,
    workers: int = 1,
    progress: bool = True,
    on_histories: HistorySink | None = None,
    backend: Backend | None = None,
    match_log: MatchLog | None = None,
) -> list[MatchResult]:
    """Play ``deals`` deals of every match; one merged :class:`MatchResult` per spec.

    ``on_histories(index, spec, hands)`` receives each chunk's hands in deal order (the
    histories are dropped from the results afterwards, to bound memory). ``backend``:
    plays the chunks elsewhere, ``(jobs, bar) -> chunk results in job order``
    (:func:`evaluation.ray_runner.ray_results` plays them as Ray tasks on the Ray this
    process is connected to; ``workers`` then only sizes the chunks: pass the CPUs that
    :func:`evaluation.ray_cluster.ray_session` yields); the results are the same.
    ``match_log``: chunks of at most :data:`~evaluation.matchlog.LOG_CHUNK` deals, each
    logged as it comes back; deals already in the log are not played again (their
    logged results are merged in).
    """
    if deals < 1:
        raise ValueError(f"deals={deals} is not allowed: play at least one deal")
    if workers < 1:
        raise ValueError(f"workers={workers} is not allowed: expected at least 1")
    _BOTS.clear()  # a checkpoint file may have changed since the last call
    parts: list[list[MatchResult]] = [match_log.parts(i) if match_log else [] for i in range(len(specs))]
    forfeited = {i for i, p in enumerate(parts) if any(part.forfeit is not None for part in p)}
    size = len(chunks(deals, workers)[0])
    jobs: list[Job] = [
        (i, spec, r)
        for i, spec in enumerate(specs)
        if i not in forfeited
        for r in (deal_chunks(deals, match_log.done(i), min(size, LOG_CHUNK)) if match_log else chunks(deals, workers))
    ]
    total = sum(spec.hands_per_deal() * len(r) for _, spec, r in jobs)
    try:
        with tqdm(total=total, unit="hand", disable=not progress, dynamic_ncols=True) as bar:
            chunks_done = backend(jobs, bar) if backend is not None else _results(jobs, workers, bar, forfeited)
            for index, part in chunks_done:
                if on_histories is not None and specs[index].histories is not None:
                    on_histories(index, specs[index], part.hands)
                for hand in part.hands:
                    hand.history = None
                parts[index].append(part)
                if match_log is not None:
                    match_log.write(index, part)
                if part.forfeit is not None:
                    forfeited.add(index)
    finally:
        close_isolated()
    return [MatchResult.merge(p) for p in parts]


def _results(jobs: list[Job], workers: int, bar: tqdm, forfeited: set[int]) -> Iterator[tuple[int, MatchResult]]:
    """Chunk results in job order: here hand by hand (skipping matches already
    forfeited), or from a pool chunk by chunk."""
    if workers == 1:
        for job in jobs:
            if job[0] not in forfeited:
                yield play_chunk(job, on_hand=lambda _: bar.update(1))
        return
    context = multiprocessing.get_context("spawn")  # no fork: safe with torch and threads
    with context.Pool(workers, initializer=_init_worker) as pool:
        for index, part in pool.imap(_play_job, jobs):
            bar.update(len(part.hands))
            yield index, part
