"""The stud family: seven-card stud, razz, stud high-low, declare, five-card and toy stud.

Betting: equity against the live opponents, each holding its visible up cards plus
random down cards, with every card still to come dealt at random from the cards this
seat has not seen (its own, all up cards including folded players', the community
card). Stud high uses the high share, razz the ace-to-five low, the high-low games
the expected split-pot share (high half plus qualifying low half, ties shared).

Declaration (``stud_hilo_declare``): from the chances of winning each way (ties
count unless the swing rule is ``"outright"``); ``both`` only when the chance of
winning both ways is at least the style's ``both_at`` and beats what either half is
worth.

The shape of a hand (how many cards, which face down) comes from the variant's
streets, the cards that can be dealt from its deck, and how the pot is won from its pot
shares, so five-card stud and toy stud (short, rank-only hands) need no code of their own.

Batches (:mod:`agents.heuristic.plans`): every view's deal is planned as a table of
card slots per live player (seven in seven-card stud), each slot a known card or a column of the view's
drawn cards (layouts are cached: the same few recur street after street); the hands
of many views are gathered into one array and evaluated by one call of each
evaluator, and the players' strengths compared for all the views at once.
:func:`deal_plan` and :func:`gather` are shared with Cowpie, which deals exactly like
stud.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context, wins_or_ties
from agents.heuristic.plans import Family, Rules, groups, luck, rows_mean, rules_of, seen_cards, unseen_cards
from agents.heuristic.sampling import Drawn, Request, draw
from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle
from envs.engine.actions import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW
from envs.engine.hands import NO_LOW, evaluate_high, evaluate_low
from envs.engine.hands.short import evaluate_short
from envs.engine.hands.wild import WildRules
from envs.engine.wild_options import wild_rules
from envs.view import PublicView

BOTH_AT = DEFAULT_STYLE.both_at  # least chance of winning both ways for a "both" declaration (default style)
GATHER_HANDS = 4096  # hands gathered and evaluated per block: keeps the arrays in cache


def down_pattern(rules: Rules) -> tuple[bool, ...]:
    """Face-down flags of a full hand's positions in dealt order (from the streets)."""
    return tuple(not up for street in rules.streets for up in street.deal)


def rounds_left(view: PublicView) -> int:
    """Betting rounds after this one."""
    return max(0, rules_of(view).last_street - view.street)


@dataclass(frozen=True)
class StudDeal:
    """How to complete every live hand of one view from its drawn cards.

    Attributes:
        opponents: the opponents' seats, in row order (row 0 is the bot).
        known_slots, known_cards: the card slots (``player * 7 + position``, dealt
            order) whose card is known, and those cards.
        drawn_slots, drawn_columns: the other slots, and the column of the drawn
            cards that fills each (in slot order: ``0, 1, 2 ...``, then the last
            column for every seventh card when it is one community card).
        down: ``(players, 7)`` face-down flags (the community card counts as up).
        pool: the unseen cards to draw from; ``need``: cards drawn per sample.
    """

    opponents: tuple[int, ...]
    players: int  # hands per sample: the bot's and the live opponents'
    size: int  # cards per hand (7 in seven-card stud)
    known_slots: np.ndarray
    known_cards: np.ndarray
    drawn_slots: np.ndarray
    drawn_columns: np.ndarray | None  # None: the identity (no community seventh card)
    down: np.ndarray
    pool: np.ndarray
    need: int


@dataclass(frozen=True)
class StudSample:
    """Sampled seven-card hands in dealt order.

    Attributes:
        hands: ``(S, P, 7)`` cards; player 0 is the bot, then the live opponents.
        down: ``(P, 7)`` face-down flags (the community card, if any, counts as up).
        opponents: the opponents' seats, in column order.
    """

    hands: np.ndarray
    down: np.ndarray
    opponents: tuple[int, ...]


def deal_plan(view: PublicView) -> StudDeal:
    """Random completions of every live hand consistent with what the seat has seen.
    When the unseen cards cannot give every live player its own last card (seven-card
    stud's seventh street), that card is one community card for everyone, as the rules
    deal it."""
    rules = rules_of(view)
    pattern = down_pattern(rules)
    size, up_slots = len(pattern), [i for i, down in enumerate(pattern) if not down]
    can_share = any(s.community_when_short for s in rules.streets)
    own = list(view.own_cards)
    opponents = [s for s in range(view.num_players) if s != view.seat and not view.folded[s]]
    pool = unseen_cards(seen_cards(view), rules.deck)
    community = view.community[0] if view.community else None
    while True:
        rows = [own + [-1] * (size - len(own))]
        for s in opponents:
            row = [-1] * size
            for slot, card in zip(up_slots, view.up_cards[s], strict=False):
                row[slot] = card
            rows.append(row)
        if community is not None:
            for row in rows:
                row[-1] = community
        unknown = sum(row.count(-1) for row in rows)
        shared = can_share and community is None and len(own) < size and unknown > len(pool)
        if shared:  # the deck runs out at the last street
            unknown -= sum(row[-1] == -1 for row in rows)
        need = unknown + int(shared)
        if need <= len(pool) or len(opponents) <= 1:
            break
        opponents.pop()  # cannot happen with a real deck; keep the model within the cards
    flat = [card for row in rows for card in row]
    known_slots, drawn_slots, columns = _layout(tuple(card < 0 for card in flat), need, shared, size)
    known_cards = np.array([card for card in flat if card >= 0], np.intp)
    down = _down(pattern, tuple(view.own_up), len(rows), community is not None or shared)
    return StudDeal(tuple(opponents), len(rows), size, known_slots, known_cards, drawn_slots, columns, down, pool, need)


@functools.lru_cache(maxsize=4096)
def _layout(
    unknown: tuple[bool, ...], need: int, shared: bool, size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Known slots, drawn slots and their columns (see :class:`StudDeal`) of a deal
    whose unknown slots are ``unknown``; cached: the same few layouts recur."""
    known = [i for i, hidden in enumerate(unknown) if not hidden]
    drawn = [i for i, hidden in enumerate(unknown) if hidden]
    columns = None
    if shared:  # every last card is the last drawn column
        columns = np.array([need - 1 if i % size == size - 1 else 0 for i in drawn], np.intp)
        own = columns < need - 1
        columns[own] = np.arange(int(own.sum()))
    known_slots, drawn_slots = np.array(known, np.intp), np.array(drawn, np.intp)
    return _frozen(known_slots), _frozen(drawn_slots), None if columns is None else _frozen(columns)


@functools.lru_cache(maxsize=1024)
def _down(pattern: tuple[bool, ...], own_up: tuple[bool, ...], players: int, last_up: bool) -> np.ndarray:
    """Face-down flags per (player, position); cached like :func:`_layout`."""
    down = [list(pattern) for _ in range(players)]
    down[0][: len(own_up)] = [not up for up in own_up]
    if last_up:
        for row in down:
            row[-1] = False
    return _frozen(np.array(down, bool))


def _frozen(array: np.ndarray) -> np.ndarray:
    """Cached arrays are shared: make them read-only."""
    array.flags.writeable = False
    return array


def gather(deals: Sequence[StudDeal], drawn: Sequence[Drawn]) -> np.ndarray:
    """``(S, sum of players, size)`` hands of several views with the same sample count
    and hand size, view after view along axis 1, each as :func:`deal_samples` deals
    them: two assignments per view (its known cards, then its drawn columns)."""
    samples, size = drawn[0].cards.shape[0], deals[0].size
    out = np.empty((samples, size * sum(d.players for d in deals)), np.intp)
    start = 0
    for deal, d in zip(deals, drawn, strict=True):
        part = out[:, start : start + size * deal.players]
        part[:, deal.known_slots] = deal.known_cards
        part[:, deal.drawn_slots] = d.cards if deal.drawn_columns is None else d.cards[:, deal.drawn_columns]
        start += size * deal.players
    return out.reshape(samples, -1, size)


def players_first(values: np.ndarray, players: int) -> np.ndarray:
    """``(S, n * P)`` per-hand values of n views -> ``(n, P, S)`` contiguous rows:
    comparing the players of a sample is then a few whole-row operations."""
    return np.ascontiguousarray(values.T).reshape(-1, players, values.shape[0])


def deal_samples(view: PublicView, samples: int, rng: np.random.Generator) -> StudSample:
    """Random completions of every live hand (one view, drawn from ``rng``)."""
    deal = deal_plan(view)
    (drawn,) = draw(rng, [Request(deal.pool, samples, deal.need)])
    assert drawn is not None
    return StudSample(gather([deal], [drawn]), deal.down, deal.opponents)


# ------------------------------------------------------------------ the family
@dataclass(frozen=True)
class StudPlan:
    """One stud decision: betting or the declaration, and its deal."""

    view: PublicView
    style: HeuristicStyle
    declare: bool
    deal: StudDeal
    request: Request


def plan(view: PublicView, style: HeuristicStyle, samples: int) -> StudPlan:
    """Step 1: the deal of this decision (see :mod:`agents.heuristic.plans`)."""
    declare = DECLARE_LOW in view.legal_actions
    deal = deal_plan(view)
    extra = int(style.bluff > 0 and not declare)
    return StudPlan(view, style, declare, deal, Request(deal.pool, samples, deal.need, extra))


def finish(plans: Sequence[StudPlan], drawn: Sequence[Drawn | None]) -> list[int]:
    """Step 3: evaluate every plan's hands in batch, then decide each."""
    actions = [0] * len(plans)
    ways = [_ways(p.view) for p in plans]
    blocks = groups((w, p.deal.players, p.request.samples, p.deal.size) for w, p in zip(ways, plans, strict=True))
    for (way, players, samples, _size), members in blocks.items():
        per_block = max(1, GATHER_HANDS // (samples * players))
        for start in range(0, len(members), per_block):
            part = members[start : start + per_block]
            outcomes = _outcomes(way, [plans[i] for i in part], [drawn[i] for i in part], players)
            for i, outcome in zip(part, outcomes, strict=True):
                actions[i] = _act(plans[i], outcome, drawn[i])
    return actions


# ("high" | "low" | "hilo" | "short" | "declare", low qualifier, the wild-card rule or None)
Way = tuple[str, int | None, WildRules | None]


def _ways(view: PublicView) -> Way:
    """How a decision counts the pot, and the wild-card rule its hands are valued by
    (docs/rules.md section 11), so that views of different tables batch apart."""
    wild = wild_rules(view.options)
    if DECLARE_LOW in view.legal_actions:
        return "declare", view.options.low_qualifier, wild
    kind, qualifier = _bet_way(view)
    return kind, qualifier, wild


def _bet_way(view: PublicView) -> tuple[str, int | None]:
    """How betting counts the pot share, from the variant's pot shares: high (Cowpie's
    betting too: the five-card hand's strength), toy stud's short hands, razz's
    unqualified low, or high-low."""
    hands = [share.hand for share in rules_of(view).pot_shares]
    if hands == ["short"]:
        return "short", None
    if hands == ["low"]:
        return "low", None
    if "low" not in hands:
        return "high", None
    return "hilo", view.options.low_qualifier


def _outcomes(
    way: Way, plans: Sequence[StudPlan], drawn: Sequence[Drawn | None], players: int
) -> Sequence[float | tuple[float, float, float]]:
    """Equity (or the declaration's three chances) of plans sharing a way, a player
    count and a sample count."""
    kind, qualifier, wild = way
    hands = gather([p.deal for p in plans], [d for d in drawn if d is not None])  # (S, n * P, size)
    flat = hands.reshape(-1, hands.shape[-1])
    shape = hands.shape[:2]
    high = low = None
    if kind == "short":
        return rows_mean(best_share(players_first(evaluate_short(flat).reshape(shape), players)))
    if kind != "low":
        values = evaluate_high(flat, validate=False) if wild is None else wild.high(flat)
        high = players_first(values.reshape(shape), players)
    if kind != "high":
        values = evaluate_low(flat, qualifier, validate=False) if wild is None else wild.low(flat, qualifier)
        low = players_first(values.reshape(shape), players)
    if kind == "declare":
        assert high is not None and low is not None
        return [_chances(plans[i], high[i].T, low[i].T) for i in range(len(plans))]
    if kind == "high":
        assert high is not None
        return rows_mean(best_share(high))
    assert low is not None
    if kind == "low":
        return rows_mean(best_share(low))
    assert high is not None
    return rows_mean(hilo_share(high, low))


def best_share(values: np.ndarray) -> np.ndarray:
    """:func:`~agents.heuristic.equity.share_of_best` of ``(n, P, S)`` values (player 0
    the bot) for n views at once: ``(n, S)``. Element by element the same arithmetic."""
    best = values.max(axis=1)
    ties = (values == best[:, None]).sum(axis=1)
    return np.where(values[:, 0] == best, 1.0 / ties, 0.0)


def hilo_share(high: np.ndarray, low: np.ndarray) -> np.ndarray:
    """:func:`~agents.heuristic.equity.hilo_shares` of ``(n, P, S)`` values: ``(n, S)``."""
    hi = best_share(high)
    lo = best_share(low)
    best_low = low.max(axis=1)
    lo[best_low == NO_LOW] = 0.0  # nobody qualifies for low (share_of_best's rule)
    return np.where(best_low > NO_LOW, 0.5 * (hi + lo), hi)


def _chances(p: StudPlan, high: np.ndarray, low: np.ndarray) -> tuple[float, float, float]:
    """(P(win high), P(win low), P(win both)) of one declaring view."""
    outright = p.view.options.swing_rule == "outright"
    qualified = p.view.options.low_qualifier is not None
    p_high = float(wins_or_ties(high).mean())
    p_low = float(wins_or_ties(low, qualified=qualified).mean())
    p_both = float((wins_or_ties(high, outright) & wins_or_ties(low, outright, qualified)).mean())
    return p_high, p_low, p_both


def _act(p: StudPlan, outcome: float | tuple[float, float, float], drawn: Drawn | None) -> int:
    if isinstance(outcome, tuple):
        return choose_declaration(*outcome, both_at=p.style.both_at)
    return choose_bet(p.view, outcome, rounds_left(p.view), p.style, luck(drawn))


FAMILY = Family(plan, finish)


# --------------------------------------------------------- one view at a time
def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share at the showdown against random hidden cards (betting's way of
    counting, whatever the decision)."""
    p = plan(view, DEFAULT_STYLE, ctx.samples)
    (outcome,) = _outcomes((*_bet_way(view), wild_rules(view.options)), [p], draw(ctx.rng, [p.request]), p.deal.players)
    assert isinstance(outcome, float)
    return outcome


def choose_declaration(p_high: float, p_low: float, p_both: float, both_at: float = BOTH_AT) -> int:
    """``both`` when it is likely (``both_at``) and worth more than the better half
    (a scoop is the whole pot, a half is half of it), else the likelier half."""
    if p_both >= both_at and p_both >= max(p_high, p_low) / 2:
        return DECLARE_BOTH
    return DECLARE_LOW if p_low > p_high else DECLARE_HIGH


__all__ = ["FAMILY", "StudDeal", "StudSample", "deal_plan", "deal_samples", "equity", "gather"]
