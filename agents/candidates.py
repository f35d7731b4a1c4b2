"""Candidate features: what each choice of a combinatorial decision is worth.

A Cowpie split, a Cowboy discard set, the dummy's draw and a declaration are choices
among many similar options whose merit is a matter of card arithmetic (which split
leaves the best five- and two-card hands, which discard set draws to the best hand).
An MLP that sees only slot indices has to learn that arithmetic separately for every
slot, and after half a million decisions it still chose Cowpie splits at chance. So
each legal candidate gets its own feature row, and the network scores every row with
one shared head (:class:`agents.nets.PolicyNet`): it chooses among candidates it can
see.

Rows cover the action indices ``CANDIDATE_LO`` (``declare_low``) up to, not
including, ``stay``: the variant's prefix of that range (three rows in stud high-low
declare, 24 in Cowpie, 56 in the Cowboy games). Columns (``FEATURES``):

====  ======================================================================
0-5   kind, one-hot: declare low, declare high, declare both, split, own
      draw, dummy draw
6     declare: P(win high); split: the five-card hand's percentile among all
      five-card hands; draw: P(win high) after this draw; dummy draw: the
      share of high winners the dummy beats
7     the same for low (split: the two-card hand's percentile)
8     declare and draw: P(win both ways); split: the split's score minus the
      best legal split's score (0 for the best); dummy draw: the share of
      all winners beaten
9     declare: the declaration's expected value as a share of the pot; split:
      the split score of ``envs.variants.cowpie.rank_splits``; own draw: the
      best declaration's expected value after this draw, as a share of the pot
10    draws: the number of cards discarded / 5
====  ======================================================================

Rows of illegal candidates stay zero (the mask removes them anyway). Chances are
Monte Carlo estimates against opponents holding random cards among those the seat
has not seen (``samples`` deals; common random numbers across candidates); a Cowpie
split is exact. Everything is a function of the :class:`~envs.view.PublicView` and
the generator: the acting policy never sees more than the seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.heuristic.mixed import game_view
from envs.engine.actions import DECLARE_BOTH, DECLARE_LOW, DRAW_BASE, NUM_DRAWS, SPLIT_BASE, STAY
from envs.engine.cards import NUM_CARDS
from envs.engine.hands import NO_LOW, cowpie_splits, evaluate_high, evaluate_low, high_value, low_value
from envs.engine.hands.evaluate import low_threshold
from envs.variants.cowpie import five_card_percentiles, two_card_percentiles
from envs.view import PublicView

CANDIDATE_LO = DECLARE_LOW
CANDIDATE_HI = STAY
FEATURES = 11
KIND_DECLARE, KIND_SPLIT, KIND_DRAW, KIND_DUMMY = 0, 3, 4, 5
DEFAULT_SAMPLES = 64
HAND = 5  # Cowboy hand size
STUD_HAND = 7


def candidate_slots(num_actions: int) -> tuple[int, int] | None:
    """``(lo, hi)``: the action indices that get candidate rows in a variant with
    ``num_actions`` actions, or None when it has no combinatorial decision."""
    hi = min(num_actions, CANDIDATE_HI)
    return (CANDIDATE_LO, hi) if hi > CANDIDATE_LO else None


def needs_candidates(masks: np.ndarray, slots: tuple[int, int] | None) -> np.ndarray:
    """Per row of ``masks``: is one of the candidate actions legal?"""
    if slots is None:
        return np.zeros(len(masks), bool)
    return np.asarray(masks[:, slots[0] : slots[1]]).any(axis=1)


def candidate_features(
    view: PublicView, slots: tuple[int, int], rng: np.random.Generator, samples: int = DEFAULT_SAMPLES
) -> np.ndarray:
    """``(hi - lo, FEATURES)`` float32 rows for the seat's legal candidates (see the module docstring)."""
    lo, hi = slots
    view = game_view(view)  # at a dealer's choice table: the game in play's own view
    out = np.zeros((hi - lo, FEATURES), np.float32)
    legal = [a for a in view.legal_actions if lo <= a < hi]
    if not legal:
        raise ValueError(f"no candidate decision here: the legal actions are {list(view.legal_names)}")
    if legal[0] <= DECLARE_BOTH:
        chances = _cowboy_declare(view, rng, samples) if _is_cowboy(view) else _stud_declare(view, rng, samples)
        for a in legal:
            out[a - lo, a - DECLARE_LOW] = 1.0
            out[a - lo, 6:10] = chances[a - DECLARE_LOW]
    elif legal[0] < DRAW_BASE:
        _splits(view, legal, out[SPLIT_BASE - lo :])
    elif "dummy_cards" in view.extra:
        _dummy_draws(view, legal, rng, samples, out[DRAW_BASE - lo :])
    else:
        _own_draws(view, legal, rng, samples, out[DRAW_BASE - lo :])
    return out


def _is_cowboy(view: PublicView) -> bool:
    return "stayed" in view.extra  # the Cowboy family's public facts


# ------------------------------------------------------------ sampling
def _unseen(known: Sequence[int]) -> np.ndarray:
    mask = np.ones(NUM_CARDS, bool)
    mask[list(known)] = False
    return np.flatnonzero(mask)


def _sample(rng: np.random.Generator, pool: np.ndarray, samples: int, count: int) -> np.ndarray:
    """``(samples, count)`` draws without replacement per row (random keys, sorted)."""
    if count == 0:
        return np.empty((samples, 0), np.intp)
    keys = rng.random((samples, len(pool)), dtype=np.float32)
    return pool[keys.argsort(axis=1)[:, :count]]


def _wins(mine: np.ndarray, others: np.ndarray, *, strict: bool = False, qualified: bool = False) -> np.ndarray:
    """Per sample: does ``mine`` (..., S) beat (or tie, unless strict) the best of ``others`` (S, k)?"""
    best = others.max(axis=-1) if others.shape[-1] else np.zeros(others.shape[:-1], others.dtype)
    won = mine > best if strict else mine >= best
    return won & (mine > NO_LOW) if qualified else won


# ------------------------------------------------------------ declarations
def _stud_declare(view: PublicView, rng: np.random.Generator, samples: int) -> np.ndarray:
    """(3, 4): for low, high, both: P(high), P(low), P(both), value per pot."""
    community = list(view.community)
    opponents = [s for s in range(view.num_players) if s != view.seat and not view.folded[s]]
    pool = _unseen(view.seen_cards())
    missing = [STUD_HAND - len(view.up_cards[s]) - len(community) for s in opponents]
    draws = _sample(rng, pool, samples, sum(missing))
    hands = np.empty((samples, 1 + len(opponents), STUD_HAND), np.intp)
    hands[:, 0] = [*view.own_cards, *community][:STUD_HAND]
    start = 0
    for row, (seat, count) in enumerate(zip(opponents, missing, strict=True), start=1):
        hands[:, row] = np.concatenate(
            [
                np.broadcast_to([*view.up_cards[seat], *community], (samples, STUD_HAND - count)),
                draws[:, start : start + count],
            ],
            axis=1,
        )
        start += count
    flat = hands.reshape(-1, STUD_HAND)
    qualifier = view.options.low_qualifier
    high = evaluate_high(flat, validate=False).reshape(samples, -1)
    low = evaluate_low(flat, qualifier, validate=False).reshape(samples, -1)
    outright = view.options.swing_rule == "outright"
    p_high = _wins(high[:, 0], high[:, 1:]).mean()
    p_low = _wins(low[:, 0], low[:, 1:], qualified=qualifier is not None).mean()
    both = _wins(high[:, 0], high[:, 1:], strict=outright) & _wins(
        low[:, 0], low[:, 1:], strict=outright, qualified=qualifier is not None
    )
    p_both = both.mean()
    return _declare_rows(p_high, p_low, p_both, values=(p_low / 2, p_high / 2, p_both))


def _declare_rows(p_high: float, p_low: float, p_both: float, values: Sequence[float]) -> np.ndarray:
    base = np.array([p_high, p_low, p_both], np.float32)
    return np.stack([np.append(base, np.float32(v)) for v in values])


def _cowboy_rules(view: PublicView) -> tuple[int | None, bool, int, bool]:
    """(low qualifier, outright both-way rule, what a loser pays, is the dummy in play)."""
    o = view.options
    qualifier = 8 if o.low_rule == "a5_8" else None
    live = 1 + view.live_opponents
    final = live == 2  # two stayers: no payments
    match = 0 if final else (view.pot if o.match_cap is None else min(view.pot, o.match_cap))
    dummy = bool(o.dummy) and 2 < live < view.num_players
    return qualifier, o.swing_rule == "outright", match, dummy


def _cowboy_chances(
    view: PublicView, hands: np.ndarray, draws: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(high), P(low), P(both) of ``hands`` (C, S, 5) against the live opponents (and
    the dummy) dealt from ``draws`` (S, 5 * (opponents + 1))."""
    qualifier, outright, _, dummy = _cowboy_rules(view)
    c, s, _ = hands.shape
    mine_high = evaluate_high(hands.reshape(-1, HAND), validate=False).reshape(c, s)
    mine_low = evaluate_low(hands.reshape(-1, HAND), qualifier, validate=False).reshape(c, s)
    others = draws.reshape(s, -1, HAND)
    high = evaluate_high(others.reshape(-1, HAND), validate=False).reshape(s, -1)
    low = evaluate_low(others.reshape(-1, HAND), qualifier, validate=False).reshape(s, -1)
    k = view.live_opponents + int(dummy)  # the dummy must not beat the hand either
    win_high = _wins(mine_high, high[:, :k])
    win_low = _wins(mine_low, low[:, :k], qualified=True)
    both = _wins(mine_high, high[:, :k], strict=outright) & _wins(mine_low, low[:, :k], strict=outright, qualified=True)
    return win_high.mean(axis=1), win_low.mean(axis=1), both.mean(axis=1)


def _cowboy_values(view: PublicView, p_high: np.ndarray, p_low: np.ndarray, p_both: np.ndarray) -> np.ndarray:
    """(C, 3) expected chips per pot of declaring low, high, both."""
    _, _, match, _ = _cowboy_rules(view)
    pot = max(view.pot, 1)
    half = pot / 2
    values = np.stack(
        [p_low * half - (1 - p_low) * match, p_high * half - (1 - p_high) * match, p_both * pot - (1 - p_both) * match],
        axis=-1,
    )
    return values / pot


def _cowboy_declare(view: PublicView, rng: np.random.Generator, samples: int) -> np.ndarray:
    hand = np.asarray(view.own_cards)
    draws = _sample(rng, _unseen(view.own_cards), samples, HAND * (view.live_opponents + 1))
    p_high, p_low, p_both = _cowboy_chances(view, np.broadcast_to(hand, (1, samples, HAND)), draws)
    values = _cowboy_values(view, p_high, p_low, p_both)[0]
    return _declare_rows(float(p_high[0]), float(p_low[0]), float(p_both[0]), values=values.tolist())


# ------------------------------------------------------------ splits and draws
def _splits(view: PublicView, legal: list[int], out: np.ndarray) -> None:
    """Exact: the five- and two-card percentiles and the rank_splits score of each split."""
    down = ~np.asarray(view.own_up)
    splits = cowpie_splits(np.asarray(view.own_cards), down, validate=False)
    five = five_card_percentiles()[splits.five]
    two = two_card_percentiles()[splits.two]
    k = max(1, view.live_opponents)
    score = (five**k + two**k) / 2
    rows = [a - SPLIT_BASE for a in legal]
    best = score[rows].max()
    out[rows, KIND_SPLIT] = 1.0
    out[rows, 6] = five[rows]
    out[rows, 7] = two[rows]
    out[rows, 8] = score[rows] - best
    out[rows, 9] = score[rows]


def _replaced(hand: np.ndarray, masks: list[int], draws: np.ndarray) -> np.ndarray:
    """(C, S, 5): the hand after each discard mask, replacements from ``draws`` (S, >= 5)."""
    out = np.broadcast_to(hand, (len(masks), len(draws), HAND)).copy()
    for i, mask in enumerate(masks):
        positions = [p for p in range(HAND) if mask >> p & 1]
        out[i][:, positions] = draws[:, : len(positions)]
    return out


def _own_draws(view: PublicView, legal: list[int], rng: np.random.Generator, samples: int, out: np.ndarray) -> None:
    masks = [a - DRAW_BASE for a in legal if a < DRAW_BASE + NUM_DRAWS]
    most = max(m.bit_count() for m in masks)
    draws = _sample(rng, _unseen(view.own_cards), samples, most + HAND * (view.live_opponents + 1))
    hands = _replaced(np.asarray(view.own_cards), masks, draws)
    p_high, p_low, p_both = _cowboy_chances(view, hands, draws[:, most:])
    best = _cowboy_values(view, p_high, p_low, p_both).max(axis=1)
    out[masks, KIND_DRAW] = 1.0
    out[masks, 6] = p_high
    out[masks, 7] = p_low
    out[masks, 8] = p_both
    out[masks, 9] = best
    out[masks, 10] = [m.bit_count() / HAND for m in masks]


def _dummy_draws(view: PublicView, legal: list[int], rng: np.random.Generator, samples: int, out: np.ndarray) -> None:
    """Shares of the deal's share winners that the dummy beats after each legal draw."""
    masks = [a - DRAW_BASE for a in legal if a < DRAW_BASE + NUM_DRAWS]
    out[masks, KIND_DUMMY] = 1.0
    out[masks, 10] = [m.bit_count() / HAND for m in masks]
    dummy = list(view.extra["dummy_cards"])
    summary = view.extra["summaries"][-1]
    qualifier = 8 if view.options.low_rule == "a5_8" else None
    floor = 0 if qualifier is None else low_threshold(qualifier)
    high_targets = [high_value(list(summary.shown[s])) for s, (h, _) in enumerate(summary.won) if h]
    low_targets = [low_value(list(summary.shown[s]), floor) for s, (_, lo) in enumerate(summary.won) if lo]
    if not high_targets and not low_targets:
        return
    known = set(view.own_cards) | set(dummy) | {c for hand in summary.shown for c in hand}
    most = max(m.bit_count() for m in masks)
    hands = _replaced(np.asarray(dummy), masks, _sample(rng, _unseen(sorted(known)), samples, most))
    flat = hands.reshape(-1, HAND)
    high = evaluate_high(flat, validate=False).reshape(len(masks), samples, 1)
    low = evaluate_low(flat, qualifier, validate=False).reshape(len(masks), samples, 1)
    beat_high = (high > np.asarray(high_targets or [np.iinfo(np.int64).max])).mean(axis=(1, 2))
    beat_low = (low > np.asarray(low_targets or [np.iinfo(np.int64).max])).mean(axis=(1, 2))
    winners = len(high_targets) + len(low_targets)
    out[masks, 6] = beat_high if high_targets else 0.0
    out[masks, 7] = beat_low if low_targets else 0.0
    out[masks, 8] = (beat_high * len(high_targets) + beat_low * len(low_targets)) / winners
