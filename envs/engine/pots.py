"""Pots: side pots by contribution level, and dividing a pot among shares and ties.

Every pot is divided the same way (docs/rules.md section 1):

1. the pot is split evenly among the shares that someone can win (high and low halves,
   Cowpie's five- and two-card halves); the odd chip goes to the first share (high);
2. a share with no possible winner (nobody declared that way, no qualifying low) folds
   into the others;
3. within a share, tied winners split equally and leftover chips go one at a time in
   the variant's tie order (stud: highest card by suit; button games: first seat
   clockwise from the button).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from envs.engine.actions import BOTH, HIGH, LOW


def side_pots(committed: Sequence[int], live: Sequence[bool]) -> list[tuple[int, list[int]]]:
    """Main pot first: (chips, eligible live seats) for each contribution level.

    Chips of folded players count toward the pots they reached; chips above the
    highest live level (none in a legal hand) join the last pot.
    """
    n = len(committed)
    levels = sorted({committed[s] for s in range(n) if live[s]})
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in committed)
        eligible = [s for s in range(n) if live[s] and committed[s] >= level]
        if amount:
            if pots and pots[-1][1] == eligible:  # same players: one pot
                pots[-1] = (pots[-1][0] + amount, eligible)
            else:
                pots.append((amount, eligible))
        previous = level
    spill = sum(max(0, c - previous) for c in committed)
    if spill and pots:
        pots[-1] = (pots[-1][0] + spill, pots[-1][1])
    return pots


@dataclass(frozen=True, kw_only=True)
class Share:
    """One way to win part of a pot.

    Attributes:
        name: "high", "low", "five-card hand", "two-card hand"...
        value: strength of a seat's hand for this share; 0 means it cannot win it.
        tie_order: sort key of a seat for odd chips (smallest first).
        direction: HIGH or LOW in declare games: who declared that way may win it.
    """

    name: str
    value: Callable[[Any, int], int]
    tie_order: Callable[[Any, int], Any]
    direction: int = HIGH


def declare_eligible(declared: int | None, direction: int) -> bool:
    """A declaration of ``direction`` or both."""
    return declared in (direction, BOTH)


def share_winners(
    eligible: Sequence[int],
    values: Sequence[Sequence[int]],
    directions: Sequence[int],
    declared: Sequence[int | None] | None = None,
    swing_rule: str = "win_or_tie",
) -> list[list[int]]:
    """Winners of each share among ``eligible`` seats (an empty list: nobody can win it).

    With ``declared`` (declare games), only seats that declared a share's direction
    compete for it, and a seat that declared both must win both ways ("win_or_tie":
    beat or tie everyone; "outright": beat everyone) or it is out of both shares.
    """
    candidates = [
        [s for s in eligible if vals[s] > 0 and (declared is None or declare_eligible(declared[s], d))]
        for vals, d in zip(values, directions, strict=True)
    ]
    if declared is not None:
        failed = {s for s in eligible if declared[s] == BOTH and not _swing_wins(s, candidates, values, swing_rule)}
        candidates = [[s for s in c if s not in failed] for c in candidates]
    winners = []
    for vals, cands in zip(values, candidates, strict=True):
        best = max((vals[s] for s in cands), default=0)
        winners.append([s for s in cands if vals[s] == best] if cands else [])
    return winners


def _swing_wins(seat: int, candidates: list[list[int]], values: Sequence[Sequence[int]], rule: str) -> bool:
    for cands, vals in zip(candidates, values, strict=True):
        if seat not in cands:
            return False
        others = [vals[s] for s in cands if s != seat]
        top = max(others, default=0)
        if vals[seat] < top or (rule == "outright" and vals[seat] == top):
            return False
    return True


def divide(
    amount: int,
    winners: Sequence[Sequence[int]],
    tie_orders: Sequence[Callable[[int], Any]],
) -> list[tuple[int, int, int]]:
    """(share index, seat, chips) for a pot divided among shares that have winners.

    Shares split the pot evenly, the first (high) share taking the odd chip; within
    a share, leftover chips go to winners in ``tie_orders[share]`` order.
    """
    active = [i for i, w in enumerate(winners) if w]
    if not active:
        return []
    base, extra = divmod(amount, len(active))
    awards = []
    for rank, i in enumerate(active):
        portion = base + (1 if rank < extra else 0)
        seats = sorted(winners[i], key=tie_orders[i])
        each, odd = divmod(portion, len(seats))
        for j, seat in enumerate(seats):
            awards.append((i, seat, each + (1 if j < odd else 0)))
    return awards


DIRECTION_NAMES = {HIGH: "high", LOW: "low"}
