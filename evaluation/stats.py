"""Per-bot and per-pair summaries of matches: what the report tables and files show.

Every interval here is a 95% interval over duplicate sets (see :mod:`evaluation.arena`):
a set is one deal replayed in every seating, so sets are independent while hands of
the same set are not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

import numpy as np

from evaluation.arena import MatchResult, Stat, mean_ci
from evaluation.external import display_name
from evaluation.mix import summarize, total


@dataclass(frozen=True)
class BotSummary:
    """One bot's numbers over all the hands it played."""

    name: str  # unique display name
    spec: str  # what agents.load was given
    result: Stat  # per 100 hands (or per game), 95% CI over duplicate sets
    win_rate: float  # share of its seat-hands with a positive result
    seat_hands: int
    mix: dict[str, float] = field(default_factory=dict)  # evaluation.mix rates


@dataclass(frozen=True)
class PairSummary:
    """Bot ``a`` against bot ``b`` in a tournament: a's result (b's is its negative)."""

    a: int
    b: int
    result: Stat
    set_win_rate: float  # share of duplicate sets a won (draws count half)
    sets: np.ndarray = field(repr=False, compare=False)  # a's mean per seat-hand, per set


def short_name(spec: Any) -> str:
    """``Class`` for ``module:Class``, the file name for a checkpoint path, else the spec."""
    if not isinstance(spec, str):
        return str(getattr(spec, "name", type(spec).__name__))
    named = display_name(spec)  # a bot program's name= option (a manifest's names)
    if named:
        return named
    if spec.endswith((".pt", ".pth")) or "/" in spec or "\\" in spec:
        return PurePath(spec).name
    return spec.rpartition(":")[2] or spec


def unique_names(specs: Sequence[Any]) -> list[str]:
    """Display names: short forms of the specs (full specs where two short forms of
    different specs collide), with ``#2``, ``#3`` on repeats (two copies of a bot)."""
    short = [short_name(s) for s in specs]
    clash = {n for n in short if len({str(s) for s, m in zip(specs, short, strict=True) if m == n}) > 1}
    seen: Counter[str] = Counter()
    names = []
    for spec, base in zip(specs, short, strict=True):
        base = str(spec) if base in clash and isinstance(spec, str) else base
        seen[base] += 1
        names.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return names


def seat_hands(result: MatchResult, bot: int) -> int:
    """How many seat-hands a bot of the match played."""
    return sum(1 for h in result.hands for b in h.lineup if b == bot)


def bot_mix(results: Sequence[tuple[MatchResult, int]]) -> dict[str, float]:
    """Decision-mix rates of one bot over several matches (``(match, bot index)``),
    from the summed counters where the runner folded them, else from every hand."""
    counters: list[Counter[str]] = []
    for r, bot in results:
        if r.mix_totals:
            counters.append(r.mix_totals[bot])
        else:
            counters += [h.mix[s] for h in r.hands if h.mix for s, b in enumerate(h.lineup) if b == bot]
    return summarize(total(counters))


def win_rate(results: Sequence[tuple[MatchResult, int]]) -> float:
    """Share of a bot's seat-hands, over several matches, with a positive result."""
    wins = [h.rewards[s] > 0 for r, bot in results for h in r.hands for s, b in enumerate(h.lineup) if b == bot]
    return float(np.mean(wins)) if wins else float("nan")


def summarize_match(result: MatchResult, specs: Sequence[Any]) -> list[BotSummary]:
    """One row per bot of a single match."""
    names = unique_names(specs)
    return [
        BotSummary(
            name=names[b],
            spec=str(specs[b]),
            result=result.result(b),
            win_rate=win_rate([(result, b)]),
            seat_hands=seat_hands(result, b),
            mix=bot_mix([(result, b)]),
        )
        for b in range(len(specs))
    ]


def summarize_pair(result: MatchResult, a: int, b: int) -> PairSummary:
    """A pairwise match (bots ``[a, b]``) as a's result against b."""
    sets = result.per_set()[:, 0]
    stat = mean_ci(sets.tolist())
    wins = float(np.mean(np.where(np.abs(sets) <= 1e-9, 0.5, sets > 0)))
    return PairSummary(a, b, Stat(stat.mean * result.per, stat.half_width * result.per, stat.n), wins, sets)


def pair_matrix(pairs: Sequence[PairSummary], num_bots: int) -> tuple[np.ndarray, np.ndarray]:
    """Row bot's mean result against the column bot, and the 95% half-widths (NaN on
    the diagonal)."""
    mean = np.full((num_bots, num_bots), np.nan)
    half = np.full((num_bots, num_bots), np.nan)
    for p in pairs:
        mean[p.a, p.b], mean[p.b, p.a] = p.result.mean, -p.result.mean
        half[p.a, p.b] = half[p.b, p.a] = p.result.half_width
    return mean, half
