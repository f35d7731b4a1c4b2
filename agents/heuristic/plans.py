"""The two-phase decision shared by every family: plan, draw, then finish in batch.

A family decides a batch of views in three steps:

1. ``plan(view, style, samples)``: everything that depends only on the view (which
   decision it is, the known cards, the pool of unseen cards, what to sample), and the
   :class:`~agents.heuristic.sampling.Request` of random numbers it needs (or None);
2. the agent draws every request from its generator, view after view
   (:func:`agents.heuristic.sampling.draw`): exactly the numbers that one ``act`` per
   view would draw, in the same order;
3. ``finish(plans, drawn)``: the Monte Carlo evaluation of all the plans together (a
   few large calls of the numpy evaluators instead of one small call per view), then
   each view's action.

Nothing in step 3 mixes one view's numbers with another's: every array operation
works row by row or on one view's slice, so a view's action is the same alone or in
any batch.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from agents.heuristic.sampling import Drawn, Request
from agents.heuristic.style import HeuristicStyle
from envs.engine.cards import NUM_CARDS
from envs.engine.variant import PotShare, Street
from envs.engine.wild_options import deck_with_wild
from envs.variants import get_variant
from envs.view import PublicView

K = TypeVar("K", bound=Hashable)
ALL_CARDS = frozenset(range(NUM_CARDS))


@dataclass(frozen=True)
class Rules:
    """What the heuristic reads from a view's variant: its family, streets, deck and
    pot shares under the table's options (one object per variant and options)."""

    family: str
    streets: tuple[Street, ...]
    deck: frozenset[int]
    pot_shares: tuple[PotShare, ...]

    @property
    def hand_size(self) -> int:
        """Cards a player holds at the showdown (stud family: dealt by the streets)."""
        return sum(len(s.deal) for s in self.streets)

    @property
    def last_street(self) -> int:
        """Index of the last betting round."""
        return len(self.streets) - 1


@functools.lru_cache(maxsize=256)
def _rules(variant: str, options: Any) -> Rules:
    v = get_variant(variant)
    deck = deck_with_wild(v.deck(options), options)  # the joker is unseen too where it is dealt
    return Rules(v.family, v.streets_for(options), frozenset(deck), v.pot_shares(options))


def rules_of(view: PublicView) -> Rules:
    """The :class:`Rules` of the view's variant and options."""
    return _rules(view.variant, view.options)


class Plan(Protocol):
    """What step 1 returns: at least the view and the random numbers it needs."""

    @property
    def view(self) -> PublicView: ...

    @property
    def request(self) -> Request | None: ...


@dataclass(frozen=True)
class Family:
    """A family's two steps (see the module docstring)."""

    plan: Callable[[PublicView, HeuristicStyle, int], Plan]
    finish: Callable[[Sequence[Any], Sequence[Drawn | None]], list[int]]


def groups(keys: Iterable[K]) -> dict[K, list[int]]:
    """Positions by key, keys in order of first appearance."""
    out: dict[K, list[int]] = defaultdict(list)
    for i, key in enumerate(keys):
        out[key].append(i)
    return out


def unseen_cards(known: Iterable[int], deck: frozenset[int] = ALL_CARDS) -> np.ndarray:
    """Sorted cards of ``deck`` (the game's cards) not in ``known`` (as
    :func:`agents.heuristic.equity.unseen`)."""
    return np.array(sorted(deck.difference(known)), dtype=np.intp)


def seen_cards(view: PublicView) -> set[int]:
    """The cards this seat has seen that are out of the stub (``view.seen_cards()``:
    the view holds the seat's filtered events already, so this is cheap)."""
    return view.seen_cards()


def own_event(view: PublicView, kind: str) -> int | None:
    """The action of this seat's latest ``kind`` event (a seat sees all of its own
    events, secret ones included)."""
    seat = view.seat
    return next((e.action for e in reversed(view.events) if e.kind == kind and e.seat == seat), None)


def luck(drawn: Drawn | None) -> float | None:
    """The bluff coin of a betting decision (None when the style does not bluff)."""
    return float(drawn.extra[0]) if drawn is not None and len(drawn.extra) else None


def rows_mean(values: np.ndarray) -> list[float]:
    """Per-row means of ``(n, S)`` values, each summed exactly as ``values[i].mean()``
    (one contiguous row at a time, numpy's pairwise sum)."""
    return np.ascontiguousarray(values).mean(axis=1).tolist()
