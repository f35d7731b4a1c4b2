"""Cowpie: the split, and betting on the equity of the best split.

Split: the first legal split of :func:`envs.variants.cowpie.rank_splits` (its
documented score: the mean of the two hands' chances of beating random hands of
their kind, raised to the number of live opponents). With ``illegal_split="forfeit"``
every split is offered, and ``rank_splits`` lists only the legal ones, so the bot
never forfeits.

Betting: stud's deal sampling completes every live hand; every sampled hand (the
bot's too) is split by the same score, and the equity is half the five-card share
plus half the two-card share. After the split (``bet_after_split``) the bot's own
split is fixed: it is read from its secret ``split`` event. Batches deal as stud
(:func:`agents.heuristic.stud.gather`) and split every view's hands in one call of
``cowpie_splits``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context
from agents.heuristic.plans import Family, groups, luck, own_event, rows_mean
from agents.heuristic.sampling import Drawn, Request, draw
from agents.heuristic.stud import StudDeal, best_share, deal_plan, gather, players_first, rounds_left
from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle
from envs.engine.actions import SPLIT_BASE, SPLIT_PAIRS
from envs.engine.hands import cowpie_splits
from envs.engine.hands.wild_split import wild_splits
from envs.engine.wild_options import wild_rules
from envs.variants.cowpie import five_card_percentiles, rank_splits, two_card_percentiles
from envs.variants.cowpie.splits import natural_floor
from envs.view import PublicView

SPLIT_HANDS = 1024  # hands split per block: 21 splits each, the temporaries must stay in cache


def choose_split(view: PublicView) -> int:
    """The best legal split by ``rank_splits``' score."""
    down = [not up for up in view.own_up]
    legal = set(view.legal_actions)
    rules = wild_rules(view.options)
    for action, _score in rank_splits(list(view.own_cards), down, opponents=max(1, view.live_opponents), rules=rules):
        if action in legal:
            return action
    raise RuntimeError(f"no legal split among {sorted(legal)} for {view.own_cards}")  # rank_splits is never empty


def own_split(view: PublicView) -> int | None:
    """The split this seat already chose (its own secret event), if any."""
    return own_event(view, "split")


@dataclass(frozen=True)
class CowpiePlan:
    """A split (no random numbers) or a betting decision with its stud deal."""

    view: PublicView
    style: HeuristicStyle
    deal: StudDeal | None
    request: Request | None


def plan(view: PublicView, style: HeuristicStyle, samples: int) -> CowpiePlan:
    """Step 1 (see :mod:`agents.heuristic.plans`)."""
    if any(SPLIT_BASE <= a < SPLIT_BASE + len(SPLIT_PAIRS) for a in view.legal_actions):
        return CowpiePlan(view, style, None, None)
    deal = deal_plan(view)
    return CowpiePlan(view, style, deal, Request(deal.pool, samples, deal.need, int(style.bluff > 0)))


def finish(plans: Sequence[CowpiePlan], drawn: Sequence[Drawn | None]) -> list[int]:
    """Step 3: splits one by one, the betting equities in batch."""
    actions = [0] * len(plans)
    betting = [i for i, p in enumerate(plans) if p.deal is not None]
    for i, p in enumerate(plans):
        if p.deal is None:
            actions[i] = choose_split(p.view)
    keys = [
        (_players(plans[i]), _opponents(plans[i].view), _samples(drawn[i]), wild_rules(plans[i].view.options))
        for i in betting
    ]
    for (players, k, samples, _wild), members in groups(keys).items():
        per_block = max(1, SPLIT_HANDS // (samples * players))
        for start in range(0, len(members), per_block):
            part = [betting[j] for j in members[start : start + per_block]]
            shares = _equities([plans[i] for i in part], [drawn[i] for i in part], players, k)
            for i, share in zip(part, shares, strict=True):
                p = plans[i]
                actions[i] = choose_bet(p.view, share, rounds_left(p.view), p.style, luck(drawn[i]))
    return actions


def _players(p: CowpiePlan) -> int:
    assert p.deal is not None
    return p.deal.players


def _opponents(view: PublicView) -> int:
    return max(1, view.live_opponents)


def _samples(d: Drawn | None) -> int:
    assert d is not None
    return int(d.cards.shape[0])


def _equities(plans: Sequence[CowpiePlan], drawn: Sequence[Drawn | None], players: int, k: int) -> list[float]:
    """Expected pot shares of views with the same player count, live opponents ``k``
    and sample count: each half to the best hand of its kind, ties shared."""
    deals = [p.deal for p in plans if p.deal is not None]
    hands = gather(deals, [d for d in drawn if d is not None])  # (S, n * P, 7)
    down = np.concatenate([d.down for d in deals])
    wild = wild_rules(plans[0].view.options)  # one rule per batch (finish groups by it)
    if wild is None:
        splits = cowpie_splits(hands, np.broadcast_to(down, hands.shape), validate=False)
    else:
        splits = wild_splits(hands, np.broadcast_to(down, hands.shape), wild)
    # (21, hands) rows: the splits of a hand are compared by whole-row operations
    five, two, legal = (np.ascontiguousarray(a.reshape(-1, 21).T) for a in (splits.five, splits.two, splits.legal))
    five_power, two_power = _powered(k)
    if wild is None:
        score = (five_power[five] + two_power[two]) / 2  # the score of rank_splits, k opponents
    else:  # the score of rank_splits with wild cards (five-card hands at their natural floor)
        strength = np.asarray(wild.strength(five))
        score = (five_power[natural_floor()[strength]] + two_power[np.asarray(wild.strength(two))]) / 2
    choice = np.where(legal, score, -1.0).argmax(axis=0).reshape(hands.shape[:2])  # every hand has a legal split
    for i, p in enumerate(plans):
        chosen = own_split(p.view)
        if chosen is not None:
            choice[:, i * players] = chosen - SPLIT_BASE
    picked = (choice.ravel(), np.arange(choice.size))
    ok = legal[picked]  # a forfeited split wins nothing
    chosen_five = players_first(np.where(ok, five[picked], 0).reshape(choice.shape), players)
    chosen_two = players_first(np.where(ok, two[picked], 0).reshape(choice.shape), players)
    return rows_mean(0.5 * (best_share(chosen_five) + best_share(chosen_two)))


@functools.cache
def _powered(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The percentile tables raised to ``k`` (the same numbers as raising the looked-up
    values: the power is taken element by element either way)."""
    return five_card_percentiles() ** k, two_card_percentiles() ** k


FAMILY = Family(plan, finish)


def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share of one betting view (each half to the best hand of its kind)."""
    p = plan(view, DEFAULT_STYLE, ctx.samples)
    assert p.deal is not None, "equity is for betting decisions, not the split"
    return _equities([p], draw(ctx.rng, [p.request]), p.deal.players, _opponents(view))[0]
