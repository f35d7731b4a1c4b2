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
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context, hilo_shares, sample_cards, share_of_best, unseen
from envs.engine.hands import best_board_hands
from envs.variants.chowaha import BOARDS, LAYOUT, LAYOUT_SIZE, LOW_QUALIFIER, STREET_NAMES
from envs.view import PublicView

COMBINATION_BUDGET = 150_000  # (hole pair, board, board triple) combinations per decision
MIN_SAMPLES = 24
LAST_ROUND = len(STREET_NAMES) - 1


def sample_count(view: PublicView, ctx: Context) -> int:
    """Samples that keep the evaluation within the budget."""
    hole = len(view.own_cards)
    per_player = hole * (hole - 1) // 2 * len(BOARDS) * 10
    players = 1 + view.live_opponents
    return int(np.clip(COMBINATION_BUDGET // (per_player * players), MIN_SAMPLES, ctx.samples))


def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share at the showdown against random hole cards and layout."""
    samples = sample_count(view, ctx)
    hole = len(view.own_cards)
    opponents = view.live_opponents
    layout = np.full(LAYOUT_SIZE, -1, np.intp)
    for card, label in zip(view.community, view.community_labels, strict=True):
        layout[LAYOUT.index(label)] = card
    hidden = np.flatnonzero(layout < 0)
    pool = unseen(view.seen_cards())
    draws = sample_cards(ctx.rng, pool, samples, len(hidden) + opponents * hole)
    layouts = np.broadcast_to(layout, (samples, LAYOUT_SIZE)).copy()
    layouts[:, hidden] = draws[:, : len(hidden)]
    holes = np.empty((samples, 1 + opponents, hole), np.intp)
    holes[:, 0] = view.own_cards
    holes[:, 1:] = draws[:, len(hidden) :].reshape(samples, opponents, hole)
    boards = layouts[:, np.asarray(BOARDS)]  # (S, 4, 5)
    hi_lo = view.options.hi_lo
    best = best_board_hands(holes, boards[:, None], qualifier=LOW_QUALIFIER, validate=False)
    if not hi_lo:
        return float(share_of_best(best.high).mean())
    return float(hilo_shares(best.high, best.low).mean())


def decide(view: PublicView, ctx: Context) -> int:
    """A betting action (Chowaha has no other decision)."""
    return choose_bet(view, equity(view, ctx), rounds_left=max(0, LAST_ROUND - view.street))
