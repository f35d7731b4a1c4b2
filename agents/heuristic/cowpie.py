"""Cowpie: the split, and betting on the equity of the best split.

Split: the first legal split of :func:`envs.variants.cowpie.rank_splits` (its
documented score: the mean of the two hands' chances of beating random hands of
their kind, raised to the number of live opponents). With ``illegal_split="forfeit"``
every split is offered, and ``rank_splits`` lists only the legal ones, so the bot
never forfeits.

Betting: stud's deal sampling completes every live hand; every sampled hand (the
bot's too) is split by the same score, and the equity is half the five-card share
plus half the two-card share. After the split (``bet_after_split``) the bot's own
split is fixed: it is read from its secret ``split`` event.
"""

from __future__ import annotations

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context, share_of_best
from agents.heuristic.stud import SEVENTH, deal_samples
from envs.engine.actions import SPLIT_BASE, SPLIT_PAIRS
from envs.engine.hands import cowpie_splits
from envs.variants.cowpie import five_card_percentiles, rank_splits, two_card_percentiles
from envs.view import PublicView


def choose_split(view: PublicView) -> int:
    """The best legal split by ``rank_splits``' score."""
    down = [not up for up in view.own_up]
    legal = set(view.legal_actions)
    for action, _score in rank_splits(list(view.own_cards), down, opponents=max(1, view.live_opponents)):
        if action in legal:
            return action
    raise RuntimeError(f"no legal split among {sorted(legal)} for {view.own_cards}")  # rank_splits is never empty


def own_split(view: PublicView) -> int | None:
    """The split this seat already chose (its own secret event), if any."""
    return next((e.action for e in reversed(view.events) if e.kind == "split" and e.seat == view.seat), None)


def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share: each half to the best hand of its kind, ties shared."""
    sample = deal_samples(view, ctx.samples, ctx.rng)
    splits = cowpie_splits(sample.hands, np.broadcast_to(sample.down, sample.hands.shape), validate=False)
    k = max(1, view.live_opponents)
    score = (five_card_percentiles()[splits.five] ** k + two_card_percentiles()[splits.two] ** k) / 2
    choice = np.where(splits.legal, score, -1.0).argmax(axis=-1)  # (S, P): every hand has a legal split
    chosen = own_split(view)
    if chosen is not None:
        choice[:, 0] = chosen - SPLIT_BASE
    five = np.take_along_axis(splits.five, choice[..., None], -1)[..., 0]
    two = np.take_along_axis(splits.two, choice[..., None], -1)[..., 0]
    legal = np.take_along_axis(splits.legal, choice[..., None], -1)[..., 0]
    five, two = np.where(legal, five, 0), np.where(legal, two, 0)  # a forfeited split wins nothing
    return float((0.5 * (share_of_best(five) + share_of_best(two))).mean())


def decide(view: PublicView, ctx: Context) -> int:
    """The split, or a betting action."""
    legal = view.legal_actions
    if any(SPLIT_BASE <= a < SPLIT_BASE + len(SPLIT_PAIRS) for a in legal):
        return choose_split(view)
    return choose_bet(view, equity(view, ctx), rounds_left=max(0, SEVENTH - view.street))
