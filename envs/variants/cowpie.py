"""Cowpie: seven-card stud high where everyone splits their seven cards into a five-card
and a two-card hand, and each hand wins half of the pot. RULES.md section 4.

Rules as implemented:

* two to seven players, dealt and bet exactly as ``stud`` (antes, bring-in, fixed limit,
  raise cap, ``open_pair_big_bet``, ``burn_cards``, stacks and side pots): the five
  betting steps are :func:`envs.variants.stud.betting_rounds`;
* after the last betting round every live player, in turn from the seat left of the
  button, chooses which two of their seven cards form the two-card hand (actions
  ``split_i_j``, positions in dealt order). A split is legal when each hand holds at
  least one face-down card and the five-card hand ranks higher than the two-card hand
  (:mod:`envs.engine.hands.split` implements the comparison). ``illegal_split="mask"``
  (default) offers only legal splits; ``"forfeit"`` offers all 21, and an illegal one
  wins neither half;
* splits are secret (``split`` events are secret) until every player has split; with
  ``bet_after_split`` a sixth betting round at the big bet follows first (best showing
  hand opens, as on later stud streets). Then all splits are revealed together;
* each pot (side pots too) is halved: the best five-card hand takes one half, the best
  two-card hand the other (pair beats no pair, pairs by rank, unpaired by the higher
  card then the lower); one player may scoop. The odd chip of a pot goes to the
  five-card half; within a tied half the odd chips go to the tied player with the
  highest card by suit among all their cards, as in stud high. A pot whose players all
  made illegal splits (``"forfeit"`` only) cannot be won and is chopped among them.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from envs.engine.actions import SPLIT_ACTIONS, SPLIT_BASE, SPLIT_PAIRS, action_names
from envs.engine.betting import Betting
from envs.engine.cards import RANK_NAMES, RANK_PLURALS, format_card, format_cards
from envs.engine.events import Event
from envs.engine.hands import MAX_HIGH, MAX_TWO_CARD, cowpie_splits, describe_high, evaluate_high
from envs.engine.hands.split import TWO_CARD_STRENGTH
from envs.engine.options import check_bool, check_choice, check_int
from envs.engine.pots import Share
from envs.engine.state import State, Step
from envs.engine.steps import Ante, Showdown, seats_from_left_of_button
from envs.variants.base import Program, Variant
from envs.variants.stud import (
    ANTE,
    BIG_BET,
    COMMON_OPTIONS,
    STREET_NAMES,
    StudOptions,
    best_showing,
    betting_rounds,
    high_share,
)

ILLEGAL_SPLIT_RULES = ("mask", "forfeit")
SPLIT_PHASE = "split"  # the street label of the split (observation one-hot, history)
AFTER_SPLIT = "after the split"  # the optional sixth betting round
AFTER_SPLIT_STREET = len(STREET_NAMES)  # its street index (5)
ALL_SPLITS = list(range(SPLIT_BASE, SPLIT_BASE + len(SPLIT_PAIRS)))


@dataclass(frozen=True)
class CowpieOptions(StudOptions):
    """Stud's options plus the two Cowpie house rules (RULES.md section 4).

    Attributes:
        illegal_split: ``"mask"`` offers only legal splits; ``"forfeit"`` offers all
            21 and an illegal split wins neither half.
        bet_after_split: a sixth betting round at the big bet after the (secret)
            splits and before they are revealed.
    """

    illegal_split: str = "mask"
    bet_after_split: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        check_choice("illegal_split", self.illegal_split, ILLEGAL_SPLIT_RULES)
        check_bool("bet_after_split", self.bet_after_split)


def street_labels(options: CowpieOptions) -> tuple[str, ...]:
    """Phases in order (observation ``street`` one-hot): stud's five, the split, and
    the betting round after it when there is one."""
    return (*STREET_NAMES, SPLIT_PHASE, *((AFTER_SPLIT,) if options.bet_after_split else ()))


# --------------------------------------------------------------------- splits
@dataclass(frozen=True)
class SplitTable:
    """One seat's 21 splits, in ``SPLITS`` order (plain lists: read at every decision)."""

    legal: list[bool]
    five: list[int]  # high strength of the five-card hand
    two: list[int]  # two-card strength


def split_cards(cards: list[int], action: int) -> tuple[list[int], list[int]]:
    """(two-card hand, five-card hand) of a split action over seven cards in dealt order."""
    i, j = SPLIT_PAIRS[action - SPLIT_BASE]
    return [cards[i], cards[j]], [c for k, c in enumerate(cards) if k not in (i, j)]


def split_labels(cards: list[int], actions: list[int]) -> list[str]:
    """``split_As_9d`` for each split action: the two-card hand, higher card first."""
    names = [format_card(c) for c in cards]  # once per call: this runs at every split decision
    out = []
    for action in actions:
        i, j = SPLIT_PAIRS[action - SPLIT_BASE]
        if cards[i] < cards[j]:
            i, j = j, i
        out.append(f"split_{names[i]}_{names[j]}")
    return out


def split_label(cards: list[int], action: int) -> str:
    """``split_As_9d``: the two-card hand of one split action, higher card first."""
    return split_labels(cards, [action])[0]


def describe_two(cards: list[int]) -> str:
    """``pair of aces`` or ``ace-nine``."""
    high, low = sorted((c >> 2 for c in cards), reverse=True)
    return f"pair of {RANK_PLURALS[high]}" if high == low else f"{RANK_NAMES[high]}-{RANK_NAMES[low]}"


def _tables(st: State) -> dict[int, SplitTable]:
    tables: dict[int, SplitTable] = st.extra["split_tables"]
    return tables


def _chosen(st: State) -> dict[int, int]:
    chosen: dict[int, int] = st.extra["splits"]
    return chosen


@dataclass(frozen=True)
class Split(Step):
    """Every live player splits in secret, in turn from the seat left of the button.

    All live hands are evaluated in one batched call when the phase starts; the
    choices stay in secret ``split`` events until :class:`RevealSplits`.
    """

    def start(self, st: State) -> None:
        st.log(Event("street", text=SPLIT_PHASE))
        order = [s for s in seats_from_left_of_button(st) if not st.folded[s]]
        # Cowpie seats at most seven players, so nobody shares a community card.
        assert all(len(st.cards[s]) == 7 for s in order), "every Cowpie hand has seven cards"
        cards = np.array([st.cards[s] for s in order])
        down = ~np.array([st.up[s] for s in order])
        result = cowpie_splits(cards, down, validate=False)
        st.extra["split_order"] = order
        st.extra["split_tables"] = {
            seat: SplitTable(legal, five, two)
            for seat, legal, five, two in zip(
                order, result.legal.tolist(), result.five.tolist(), result.two.tolist(), strict=True
            )
        }
        st.extra["splits"] = {}

    def actor(self, st: State) -> int | None:
        chosen = _chosen(st)
        return next((s for s in st.extra["split_order"] if s not in chosen), None)

    def legal(self, st: State) -> list[int]:
        if st.game.options.illegal_split == "forfeit":
            return list(ALL_SPLITS)
        seat = self.actor(st)
        assert seat is not None
        return [SPLIT_BASE + i for i, ok in enumerate(_tables(st)[seat].legal) if ok]

    def labels(self, st: State, actions: list[int]) -> list[str]:
        seat = self.actor(st)
        assert seat is not None
        return split_labels(st.cards[seat], actions)

    def apply(self, st: State, action: int) -> None:
        seat = self.actor(st)
        assert seat is not None
        _chosen(st)[seat] = action
        two, five = split_cards(st.cards[seat], action)
        text = f"splits in secret: {_split_text(st, seat, action)}"
        st.log(Event("split", seat=seat, cards=(*two, *five), action=action, text=text, secret=True))


def split_is_legal(st: State, seat: int) -> bool:
    """Whether the seat's chosen split meets RULES.md section 4 (always, when masked)."""
    return _tables(st)[seat].legal[_chosen(st)[seat] - SPLIT_BASE]


def _split_text(st: State, seat: int, action: int) -> str:
    two, five = split_cards(st.cards[seat], action)
    text = f"{format_cards(five)} / {format_cards(two)}"
    return text if _tables(st)[seat].legal[action - SPLIT_BASE] else text + " (illegal: wins neither half)"


@dataclass(frozen=True)
class RevealSplits(Step):
    """Every live player's split is shown at once (a public ``split_reveal`` event)."""

    def start(self, st: State) -> None:
        chosen = _chosen(st)
        for seat in st.extra["split_order"]:
            if st.folded[seat]:
                continue  # a player who folded after splitting never shows the split
            action = chosen[seat]
            two, five = split_cards(st.cards[seat], action)
            text = f"splits {_split_text(st, seat, action)}"
            st.log(Event("split_reveal", seat=seat, cards=(*two, *five), action=action, text=text))


@dataclass(frozen=True)
class Phase(Step):
    """Logs the start of a phase that deals nothing (the betting round after the split)."""

    label: str
    street: int

    def start(self, st: State) -> None:
        st.log(Event("street", text=self.label, street=self.street))


# ------------------------------------------------------------------- showdown
def _half_value(st: State, seat: int, half: int) -> int:
    table = _tables(st)[seat]
    i = _chosen(st)[seat] - SPLIT_BASE
    if not table.legal[i]:
        return 0  # an illegal (forfeited) split wins neither half
    return table.five[i] if half == 0 else table.two[i]


_HIGH = high_share()  # stud high's odd-chip order: the highest card by suit first
SHARES = (
    replace(_HIGH, name="five-card", value=functools.partial(_half_value, half=0)),
    replace(_HIGH, name="two-card", value=functools.partial(_half_value, half=1)),
)


def cowpie_shares(st: State) -> tuple[Share, ...]:
    """Five-card half first (it takes the odd chip of a pot), then the two-card half."""
    return SHARES


def describe_half(st: State, seat: int, share: int) -> str:
    """The winning hand of a half, for the award text: ``pair of kings (Kh Kc 7s 4d 2c)``."""
    table = _tables(st)[seat]
    action = _chosen(st)[seat]
    two, five = split_cards(st.cards[seat], action)
    if share == 0:
        return f"{describe_high(table.five[action - SPLIT_BASE])} ({format_cards(five)})"
    return f"{describe_two(two)} ({format_cards(two)})"


def build_cowpie(variant: Variant, num_players: int, options: CowpieOptions) -> Program:
    """Antes, stud's five streets, the split, (a betting round), the reveal, the showdown."""
    steps: list[Step] = [Ante(ANTE), *betting_rounds(options, low_game=False), Split()]
    if options.bet_after_split:
        opener = functools.partial(best_showing, low_game=False)
        steps.append(Phase(AFTER_SPLIT, AFTER_SPLIT_STREET))
        steps.append(Betting(AFTER_SPLIT_STREET, AFTER_SPLIT, BIG_BET, opener, options.bet_rules()))
    steps.append(RevealSplits())
    steps.append(Showdown(shares=cowpie_shares, describe=describe_half, no_winner="every split was illegal"))
    return Program(tuple(steps), options.big_bet, action_names(SPLIT_ACTIONS))


COWPIE = Variant(
    name="cowpie",
    title="Cowpie",
    family="cowpie",
    seats=(2, 7),
    options_cls=CowpieOptions,
    option_names=COMMON_OPTIONS | {"open_pair_big_bet", "illegal_split", "bet_after_split"},
    build=build_cowpie,
    rules=(
        "Seven-card stud where each player splits their cards into a five-card and a two-card hand "
        "(a face-down card in each, the five ranking higher); the best of each takes half the pot."
    ),
)


# --------------------------------------------------------- a helper for agents
@functools.cache
def five_card_percentiles() -> np.ndarray:
    """``p[s]``: the share of all 2,598,960 five-card hands that a five-card hand of high
    strength ``s`` beats, counting ties as half (exact: every rank multiset is weighted
    by its number of suit assignments, flushes apart)."""
    hands, weights = [], []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        counts = [ranks.count(r) for r in set(ranks)]
        if max(counts) > 4:
            continue
        ways = math.prod(math.comb(4, c) for c in counts)
        seen: dict[int, int] = {}
        suited = []  # the k-th card of a rank gets suit k: never five of one suit
        for r in ranks:
            suited.append(r * 4 + seen.get(r, 0))
            seen[r] = seen.get(r, 0) + 1
        if len(counts) == 5:  # five distinct ranks: 4 flushes, the rest plain
            hands.append([r * 4 for r in ranks])
            weights.append(4)
            suited[-1] += 1
            ways -= 4
        hands.append(suited)
        weights.append(ways)
    strengths = evaluate_high(np.array(hands), validate=False)
    return _percentiles(strengths, np.array(weights), MAX_HIGH)


@functools.cache
def two_card_percentiles() -> np.ndarray:
    """``p[s]``: the share of all 1,326 two-card hands that a two-card hand of strength
    ``s`` beats, counting ties as half."""
    high, low = np.divmod(np.arange(169), 13)
    keep = high >= low  # each rank pair once
    weights = np.where(high == low, 6, 16)[keep]  # a pair: C(4, 2) suitings; else 4 x 4
    return _percentiles(TWO_CARD_STRENGTH[keep], weights, MAX_TWO_CARD)


def _percentiles(strengths: np.ndarray, weights: np.ndarray, top: int) -> np.ndarray:
    counts = np.zeros(top + 1, np.float64)
    np.add.at(counts, strengths, weights)
    below = np.cumsum(counts) - counts
    return (below + counts / 2) / counts.sum()


def split_scores(cards: Any, down: Any, opponents: int = 1) -> np.ndarray:
    """Score of each of the 21 splits of seven-card hands, shape (..., 21); -1 for an
    illegal split. See :func:`rank_splits` for what the score means."""
    check_int("opponents", opponents, 1)
    splits = cowpie_splits(cards, down)
    five = five_card_percentiles()[splits.five] ** opponents
    two = two_card_percentiles()[splits.two] ** opponents
    return np.where(splits.legal, (five + two) / 2, -1.0)


def rank_splits(cards: Any, down: Any, opponents: int = 1) -> list[tuple[int, float]]:
    """The legal splits of one seven-card hand, best first: ``[(action, score), ...]``.

    The score estimates the share of the pot the split wins against ``opponents``
    players whose five-card and two-card hands are uniformly random and independent:
    ``(p5 ** k + p2 ** k) / 2``, where ``p5`` (``p2``) is the exact share of all
    five-card (two-card) hands that this five-card (two-card) hand beats, ties counting
    half, and ``k = opponents``. Why this score: each hand wins half the pot, so the
    pot share is the mean of the two halves' win chances; it rises with both hands,
    so a split is never preferred to one that is better on both sides, and it trades
    one half against the other on a common scale (a pair of aces as the two-card hand
    beats 99.8% of two-card hands, K-K-7-4-2 as the five-card hand 86% of five-card
    hands). Real opponents keep their better cards, so absolute values are
    optimistic; larger ``opponents`` favour one very strong half over two fair ones.
    Ties in score are listed by action index, so the order is deterministic.

    Args:
        cards: seven card ints in dealt order (or a string such as ``"As 9d 2c ..."``).
        down: seven booleans, True for a face-down card.
        opponents: number of opponents still in the hand (>= 1).

    >>> from envs.engine.cards import parse
    >>> best, score = rank_splits(parse("As 9d 2c Kh Kc 7s 4d"), [True] * 3 + [False] * 4)[0]
    >>> split_label(parse("As 9d 2c Kh Kc 7s 4d"), best), round(score, 3)
    ('split_As_9d', 0.874)
    """
    scores = split_scores(cards, down, opponents)
    if scores.ndim != 1:
        raise ValueError(f"rank_splits takes one seven-card hand; use split_scores for {scores.shape[:-1]} hands")
    order = sorted((i for i in range(len(scores)) if scores[i] >= 0), key=lambda i: (-scores[i], i))
    return [(SPLIT_BASE + i, float(scores[i])) for i in order]
