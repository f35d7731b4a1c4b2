"""Chowaha: betting on the equity of two hole cards over the four boards.

The layout positions still face down and every live opponent's hole cards are dealt
at random from the unseen cards (community cards are placed by their layout labels,
``view.community_labels``); :func:`~envs.engine.hands.best_board_hands` finds every
player's best two-plus-three high and eight-or-better low over the four boards, and
the equity is the high share (``hi_lo=False``) or the split-pot share. Before the
flop this is the hand's preflop strength: the whole layout is random.

Big hole-card counts (``hole_cards=4``, ``remaining_as_hole``) and big tables make
each sample dearer, so the sample count is cut to keep a decision within
``COMBINATION_BUDGET`` evaluated combinations (never below ``MIN_SAMPLES``).
Bet sizes in pot and no limit follow :mod:`agents.heuristic.betting`.

Batches: the views with the same hole-card count, player count, sample count and
pot rule are stacked along the sample axis and evaluated by one call of
``best_board_hands``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context
from agents.heuristic.plans import Family, groups, luck, rows_mean, seen_cards, unseen_cards
from agents.heuristic.sampling import Drawn, Request, draw
from agents.heuristic.stud import best_share, hilo_share
from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle
from envs.engine.hands import best_board_hands
from envs.variants.chowaha import BOARDS, LAYOUT, LAYOUT_SIZE, LOW_QUALIFIER, STREET_NAMES
from envs.view import PublicView

COMBINATION_BUDGET = 150_000  # (hole pair, board, board triple) combinations per decision
MIN_SAMPLES = 24
LAST_ROUND = len(STREET_NAMES) - 1
BOARD_INDEX = np.asarray(BOARDS)
EVALUATED_PLAYERS = 4096  # players (with their four boards) per best_board_hands call


def sample_count(view: PublicView, ctx: Context) -> int:
    """Samples that keep the evaluation within the budget."""
    return _sample_count(view, ctx.samples)


def _sample_count(view: PublicView, samples: int) -> int:
    hole = len(view.own_cards)
    per_player = hole * (hole - 1) // 2 * len(BOARDS) * 10
    players = 1 + view.live_opponents
    return int(np.clip(COMBINATION_BUDGET // (per_player * players), MIN_SAMPLES, samples))


@dataclass(frozen=True)
class ChowahaPlan:
    """One betting decision: the known layout, what is hidden, and the draw."""

    view: PublicView
    style: HeuristicStyle
    layout: np.ndarray  # (LAYOUT_SIZE,) cards, -1 where face down
    hidden: np.ndarray  # positions of the face-down layout cards
    request: Request


def plan(view: PublicView, style: HeuristicStyle, samples: int) -> ChowahaPlan:
    """Step 1 (see :mod:`agents.heuristic.plans`)."""
    layout = np.full(LAYOUT_SIZE, -1, np.intp)
    for card, label in zip(view.community, view.community_labels, strict=True):
        layout[LAYOUT.index(label)] = card
    hidden = np.flatnonzero(layout < 0)
    count = len(hidden) + view.live_opponents * len(view.own_cards)
    request = Request(unseen_cards(seen_cards(view)), _sample_count(view, samples), count, int(style.bluff > 0))
    return ChowahaPlan(view, style, layout, hidden, request)


def finish(plans: Sequence[ChowahaPlan], drawn: Sequence[Drawn | None]) -> list[int]:
    """Step 3: the equities of views that fit one evaluation together, then the bets."""
    actions = [0] * len(plans)
    keys = [(len(p.view.own_cards), p.view.live_opponents, p.request.samples, p.view.options.hi_lo) for p in plans]
    for (hole, opponents, samples, hi_lo), members in groups(keys).items():
        per_call = max(1, EVALUATED_PLAYERS // (samples * (1 + opponents)))
        for start in range(0, len(members), per_call):
            part = members[start : start + per_call]
            shares = _equities([plans[i] for i in part], [drawn[i] for i in part], hole, opponents, hi_lo)
            for i, share in zip(part, shares, strict=True):
                p = plans[i]
                actions[i] = choose_bet(p.view, share, max(0, LAST_ROUND - p.view.street), p.style, luck(drawn[i]))
    return actions


def _equities(
    plans: Sequence[ChowahaPlan], drawn: Sequence[Drawn | None], hole: int, opponents: int, hi_lo: bool
) -> list[float]:
    """Expected pot shares of views with the same hole-card, opponent and sample counts."""
    holes, layouts = [], []
    for p, d in zip(plans, drawn, strict=True):
        assert d is not None
        cards = d.cards
        samples, hidden = len(cards), len(p.hidden)
        layout = np.broadcast_to(p.layout, (samples, LAYOUT_SIZE)).copy()
        layout[:, p.hidden] = cards[:, :hidden]
        own = np.broadcast_to(np.asarray(p.view.own_cards), (samples, 1, hole))
        holes.append(np.concatenate([own, cards[:, hidden:].reshape(samples, opponents, hole)], axis=1))
        layouts.append(layout)
    boards = np.concatenate(layouts)[:, BOARD_INDEX]  # (n * S, 4, 5)
    best = best_board_hands(np.concatenate(holes), boards[:, None], qualifier=LOW_QUALIFIER, validate=False)
    shape = (len(plans), -1, 1 + opponents)
    high = best.high.reshape(shape).transpose(0, 2, 1)  # (n, P, S) as the stud helpers want
    if not hi_lo:
        return rows_mean(best_share(high))
    return rows_mean(hilo_share(high, best.low.reshape(shape).transpose(0, 2, 1)))


FAMILY = Family(plan, finish)


def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share at the showdown against random hole cards and layout."""
    p = plan(view, DEFAULT_STYLE, ctx.samples)
    return _equities([p], draw(ctx.rng, [p.request]), len(view.own_cards), view.live_opponents, view.options.hi_lo)[0]
