"""Cowboy, Cowgirl and Cowpattie: stay or fold, the draw, the declaration, the dummy.

Every decision weighs what a share of the pot is worth against the cost of winning
nothing, which in these games is a payment of the whole pot (``match_cap`` at most).
Opponents' hands are random five-card hands from the cards this seat has not seen
(its own; when it chooses the dummy's draw, also the dummy and the shown hands).
A random bot's discards are random, so its final hand is a random hand too; real
players' hands improve with the draw, which makes the bot somewhat optimistic.

* **Draw** (when staying is decided, and at the draw): candidate keeps are *high*
  (keep pairs and better; stand pat on a straight or better; keep four to a flush;
  with nothing, keep the top card), *low* (keep one card of each rank eight or
  lower, aces low) and *pat*, each trimmed to the legal discards by keeping the
  least bad of the cards it wanted to throw. Each candidate's replacement cards are
  sampled and the candidate whose best declaration is worth most is played.
* **Declaration**: with ``P(win high)``, ``P(win low)`` and ``P(win both)`` (a tie
  wins unless the swing rule is ``"outright"`` for a both-way declaration; a dummy
  that beats the hand means losing), the values are ``p * pot / 2 - (1 - p) * match``
  for a half and ``p_both * pot - (1 - p_both) * match`` for both; the best is
  declared, so ``both`` only when both ways are strong.
* **Stay or fold**: staying alone wins the pot; two stayers split it (or, with
  ``two_stay="showdown"``, play it out with nothing to pay); three or more play the
  draw and declaration above. Each seat still to choose is assumed to stay with
  probability ``STAY_GUESS``; the bot stays when the expected value over the number
  of stayers is positive (folding risks nothing more this deal).
* **Dummy draw** (the first folded seat chooses it): every legal discard is tried on
  sampled replacement cards, and the one expected to beat the most share winners is
  chosen: a beaten winner pays the pot and leaves its share in the next deal's pot,
  where the folded seats play for it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np
from envs.variants.cowboy_deal import HAND_SIZE, draw_actions

from agents.heuristic.equity import Context, sample_cards, unseen
from agents.heuristic.stud import BOTH_AT
from envs.engine.actions import DECLARE_LOW, DRAW_BASE, FOLD, NUM_DRAWS, STAY, draw_action
from envs.engine.hands import NO_LOW, evaluate_high, evaluate_low, high_category, high_value, low_value
from envs.engine.hands.evaluate import low_threshold
from envs.engine.hands.tables import STRAIGHT
from envs.view import PublicView

STAY_GUESS = 0.5  # chance that a seat still to choose stays (uniform ignorance)
LOW_KEEP = 7  # keep low cards up to this ace-low rank index (7 = eight)


@dataclass(frozen=True)
class Rules:
    """The options that change the bot's arithmetic."""

    qualifier: int | None
    outright: bool
    two_stay: str
    match_cap: int | None
    dummy: bool
    max_draw: int
    ace_draw: int | None

    @classmethod
    def of(cls, view: PublicView) -> Rules:
        """Read them from the view's options."""
        o = view.options
        qualifier = 8 if o.low_rule == "a5_8" else None
        return cls(qualifier, o.swing_rule == "outright", o.two_stay, o.match_cap, o.dummy, o.max_draw, o.ace_draw)

    def match(self, pot: int) -> int:
        """What a stayer who wins nothing pays."""
        return pot if self.match_cap is None else min(pot, self.match_cap)


# ------------------------------------------------------------------- keeps
def _low_rank(card: int) -> int:
    """Ace-low rank index: ace 0, deuce 1 .. king 12."""
    return ((card >> 2) + 1) % 13


def high_discards(hand: Sequence[int]) -> list[int]:
    """Positions to throw for a high hand, the most useless first."""
    if high_category(high_value(list(hand))) >= STRAIGHT:
        return []
    ranks = [c >> 2 for c in hand]
    paired = [i for i, r in enumerate(ranks) if ranks.count(r) > 1]
    if paired:
        return [i for i in range(HAND_SIZE) if i not in paired]  # sorted hand: lowest first
    suits = [c & 3 for c in hand]
    flush = next((s for s in set(suits) if suits.count(s) == HAND_SIZE - 1), None)
    if flush is not None:
        return [i for i, s in enumerate(suits) if s != flush]
    return list(range(HAND_SIZE - 1))  # keep the top card


def low_discards(hand: Sequence[int]) -> list[int]:
    """Positions to throw for a low hand: second cards of a rank first, then cards above
    an eight, the highest first."""
    seen: set[int] = set()
    dup, high = [], []
    for i in sorted(range(HAND_SIZE), key=lambda i: _low_rank(hand[i])):
        rank = _low_rank(hand[i])
        if rank in seen:
            dup.append(i)
        elif rank > LOW_KEEP:
            high.append(i)
        seen.add(rank)
    order = sorted(dup, key=lambda i: -_low_rank(hand[i])) + sorted(high, key=lambda i: -_low_rank(hand[i]))
    return order


def trimmed(discards: list[int], legal: Sequence[int]) -> tuple[int, ...]:
    """The longest legal prefix of ``discards`` (most useless first), as sorted positions."""
    allowed = set(legal)
    for count in range(len(discards), -1, -1):
        if draw_action(discards[:count]) in allowed:
            return tuple(sorted(discards[:count]))
    raise RuntimeError(f"no legal discard among {sorted(allowed)}")  # discarding nothing is always legal


def candidates(hand: Sequence[int], rules: Rules) -> list[tuple[int, ...]]:
    """Distinct legal discard sets worth trying: high, low and standing pat."""
    if rules.max_draw == 0:
        return [()]
    legal = draw_actions(hand, rules.max_draw, rules.ace_draw)
    out: list[tuple[int, ...]] = []
    for discards in (high_discards(hand), low_discards(hand), []):
        option = trimmed(discards, legal)
        if option not in out:
            out.append(option)
    return out


# ------------------------------------------------------------- Monte Carlo
def _values(hands: np.ndarray, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    flat = hands.reshape(-1, HAND_SIZE)
    high = evaluate_high(flat, validate=False).reshape(hands.shape[:-1])
    low = evaluate_low(flat, rules.qualifier, validate=False).reshape(hands.shape[:-1])
    return high, low


@dataclass(frozen=True)
class Chances:
    """Win chances per (candidate, number of opponents ``j = 1 .. O``), shape (C, O)."""

    high: np.ndarray
    low: np.ndarray
    both: np.ndarray


def win_chances(
    hand: Sequence[int],
    options: list[tuple[int, ...]],
    pool: np.ndarray,
    opponents: int,
    dummy_at: np.ndarray,
    rules: Rules,
    ctx: Context,
) -> Chances:
    """Chances of winning each way after each candidate draw, against ``j`` random
    hands for every ``j`` up to ``opponents`` (and a random dummy where ``dummy_at[j-1]``).
    The candidates share their random cards (common random numbers)."""
    s = ctx.samples
    most = max(len(o) for o in options)
    draws = sample_cards(ctx.rng, pool, s, most + HAND_SIZE * (opponents + 1))
    mine = np.broadcast_to(np.asarray(hand), (len(options), s, HAND_SIZE)).copy()
    for c, positions in enumerate(options):
        mine[c][:, list(positions)] = draws[:, : len(positions)]
    others = draws[:, most:].reshape(s, opponents + 1, HAND_SIZE)  # the last one is the dummy
    my_high, my_low = _values(mine, rules)  # (C, S)
    high, low = _values(others, rules)  # (S, O + 1)
    top_high = np.maximum.accumulate(high[:, :-1], axis=1)[None]  # (1, S, O)
    top_low = np.maximum.accumulate(low[:, :-1], axis=1)[None]
    mh, ml = my_high[..., None], my_low[..., None]
    safe_high = np.where(dummy_at, high[:, -1:] <= mh, True)  # (C, S, O): the dummy must not beat it
    safe_low = np.where(dummy_at, low[:, -1:] <= ml, True)
    qualified = ml > NO_LOW
    win_high = (mh >= top_high) & safe_high
    win_low = (ml >= top_low) & safe_low & qualified
    both = win_high & win_low
    if rules.outright:  # a both-way declarer must beat everyone both ways
        both &= (mh > top_high) & (ml > top_low)
    return Chances(win_high.mean(axis=1), win_low.mean(axis=1), both.mean(axis=1))


def declaration_values(p_high: np.ndarray, p_low: np.ndarray, p_both: np.ndarray, pot: int, match: int) -> np.ndarray:
    """(..., 3) expected chips of declaring low, high, both (action order); ``both`` is
    ruled out (-inf) below ``BOTH_AT``: a both-way declaration needs both ways strong."""
    half = pot / 2
    both = np.where(p_both >= BOTH_AT, p_both * pot - (1 - p_both) * match, -np.inf)
    return np.stack([p_low * half - (1 - p_low) * match, p_high * half - (1 - p_high) * match, both], axis=-1)


def deal_values(view: PublicView, chances: Chances, rules: Rules) -> np.ndarray:
    """(C, O) expected chips of each candidate against ``j`` opponents, ``j + 1`` stayers."""
    pot = view.pot
    values = np.empty_like(chances.high)
    for j in range(values.shape[1]):
        stayers = j + 1 + 1
        final = stayers == 2
        if final and rules.two_stay == "split":
            values[:, j] = pot / 2
            continue
        match = 0 if final else rules.match(pot)
        best = declaration_values(chances.high[:, j], chances.low[:, j], chances.both[:, j], pot, match)
        values[:, j] = best.max(axis=-1)
    return values


def _dummy_at(view: PublicView, rules: Rules, opponents: int) -> np.ndarray:
    """Is there a dummy with ``j + 1`` stayers (someone folded, the game goes on)?"""
    stayers = np.arange(1, opponents + 1) + 1
    return rules.dummy & (stayers < view.num_players) & (stayers > 2)


# --------------------------------------------------------------- decisions
def stay_or_fold(view: PublicView, ctx: Context, rules: Rules) -> int:
    """Stay when the expected value over how many others stay is positive."""
    stayed = view.extra["stayed"]
    before = sum(1 for s, x in enumerate(stayed) if s != view.seat and x)
    after = sum(1 for s, x in enumerate(stayed) if s != view.seat and x is None)
    options = candidates(view.own_cards, rules)
    opponents = view.num_players - 1
    pool = unseen(view.own_cards)
    chances = win_chances(view.own_cards, options, pool, opponents, _dummy_at(view, rules, opponents), rules, ctx)
    per_count = deal_values(view, chances, rules).max(axis=0)  # best draw for each number of opponents
    value = 0.0
    for extra in range(after + 1):
        others = before + extra
        chance = comb(after, extra) * STAY_GUESS**extra * (1 - STAY_GUESS) ** (after - extra)
        value += chance * (view.pot if others == 0 else per_count[others - 1])
    return STAY if value > 0 else FOLD


def draw(view: PublicView, ctx: Context, rules: Rules) -> int:
    """The candidate keep worth most against the stayers."""
    options = candidates(view.own_cards, rules)
    opponents = view.live_opponents
    if len(options) == 1:
        return draw_action(list(options[0]))
    dummy_at = _dummy_at(view, rules, opponents)
    chances = win_chances(view.own_cards, options, unseen(view.own_cards), opponents, dummy_at, rules, ctx)
    values = deal_values(view, chances, rules)[:, opponents - 1]
    return draw_action(list(options[int(values.argmax())]))


def declare(view: PublicView, ctx: Context, rules: Rules) -> int:
    """Low, high or both: the declaration worth most."""
    opponents = view.live_opponents
    final = opponents == 1
    dummy_at = _dummy_at(view, rules, opponents)
    chances = win_chances(view.own_cards, [()], unseen(view.own_cards), opponents, dummy_at, rules, ctx)
    j = opponents - 1
    match = 0 if final else rules.match(view.pot)
    values = declaration_values(chances.high[0, j], chances.low[0, j], chances.both[0, j], view.pot, match)
    return DECLARE_LOW + int(values.argmax())  # low, high, both: the action order


def dummy_draw(view: PublicView, ctx: Context, rules: Rules) -> int:
    """The dummy's discard expected to beat the most share winners."""
    dummy = list(view.extra["dummy_cards"])
    summary = view.extra["summaries"][-1]
    floor = 0 if rules.qualifier is None else low_threshold(rules.qualifier)
    high_targets: list[tuple[int, int]] = []  # (winner's seat, its value that way)
    low_targets: list[tuple[int, int]] = []
    for seat, (won_high, won_low) in enumerate(summary.won):
        if won_high:
            high_targets.append((seat, high_value(list(summary.shown[seat]))))
        if won_low:
            low_targets.append((seat, low_value(list(summary.shown[seat]), floor)))
    legal = sorted(view.legal_actions)
    if not high_targets and not low_targets:
        return draw_action([]) if draw_action([]) in legal else legal[0]
    known = set(view.own_cards) | set(dummy) | {c for hand in summary.shown for c in hand}
    masks = [a - DRAW_BASE for a in legal]
    most = max(m.bit_count() for m in masks)
    draws = sample_cards(ctx.rng, unseen(known), ctx.samples, most)
    hands = np.broadcast_to(np.asarray(dummy), (len(masks), ctx.samples, HAND_SIZE)).copy()
    for i, mask in enumerate(masks):
        positions = [p for p in range(HAND_SIZE) if mask >> p & 1]
        hands[i][:, positions] = draws[:, : len(positions)]
    high, low = _values(hands, rules)  # (M, S)
    seats = sorted({s for s, _ in high_targets} | {s for s, _ in low_targets})
    beaten = np.zeros((len(masks), ctx.samples, len(seats)), bool)
    for seat, value in high_targets:
        beaten[..., seats.index(seat)] |= high > value
    for seat, value in low_targets:
        beaten[..., seats.index(seat)] |= low > value
    score = beaten.sum(axis=2).mean(axis=1)
    return DRAW_BASE + masks[int(score.argmax())]


def decide(view: PublicView, ctx: Context) -> int:
    """Stay or fold, draw (own or the dummy's), or declare."""
    legal = view.legal_actions
    rules = Rules.of(view)
    if STAY in legal:
        return stay_or_fold(view, ctx, rules)
    if DECLARE_LOW in legal:
        return declare(view, ctx, rules)
    if any(DRAW_BASE <= a < DRAW_BASE + NUM_DRAWS for a in legal):
        if "dummy_cards" in view.extra:
            return dummy_draw(view, ctx, rules)
        return draw(view, ctx, rules)
    raise ValueError(f"no Cowboy decision matches the legal actions {view.legal_names}")
