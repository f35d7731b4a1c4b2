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
  declared, so ``both`` only when both ways are strong (``p_both`` at least the
  style's ``both_at``, 0.5).
* **Stay or fold**: staying alone wins the pot; two stayers split it (or, with
  ``two_stay="showdown"``, play it out with nothing to pay); three or more play the
  draw and declaration above. Each seat still to choose is assumed to stay with
  probability ``stay_guess`` (0.5); the bot stays when the expected value over the
  number of stayers is above ``stay_margin`` (0) pots (folding risks nothing more
  this deal).
* **Dummy draw** (the first folded seat chooses it): every legal discard is tried on
  sampled replacement cards, and the one expected to beat the most share winners is
  chosen: a beaten winner pays the pot and leaves its share in the next deal's pot,
  where the folded seats play for it again.

Batches (:mod:`agents.heuristic.plans`): the candidate and opponent hands of every
stay, draw and declaration in a batch are evaluated by one call of each evaluator;
the dummy's draw (one seat, once a deal) is evaluated on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb

import numpy as np

from agents.heuristic.equity import Context
from agents.heuristic.plans import ALL_CARDS, Family, groups, unseen_cards
from agents.heuristic.sampling import Drawn, Request, draw
from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle
from envs.engine.actions import DECLARE_LOW, DRAW_BASE, FOLD, NUM_DRAWS, STAY, draw_action
from envs.engine.cards import JOKER
from envs.engine.hands import NO_LOW, evaluate_high, evaluate_low, high_category, high_value
from envs.engine.hands.tables import STRAIGHT
from envs.engine.hands.wild import WildRules, wild_high_category
from envs.engine.wild_options import wild_rules
from envs.variants.cowboy.deal import HAND_SIZE, draw_actions
from envs.view import PublicView

STAY_GUESS = DEFAULT_STYLE.stay_guess  # chance that a seat still to choose stays (default style)
BOTH_AT = DEFAULT_STYLE.both_at  # least chance of winning both ways for "both" (default style)
LOW_KEEP = 7  # keep low cards up to this ace-low rank index (7 = eight)
EVALUATED_HANDS = 4096  # five-card hands per evaluation block: larger blocks fall out of the cache


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
    wild: WildRules | None = None  # the wild-card house rule (docs/rules.md section 11)

    @classmethod
    def of(cls, view: PublicView) -> Rules:
        """Read them from the view's options."""
        o = view.options
        qualifier = 8 if o.low_rule == "a5_8" else None
        outright = o.swing_rule == "outright"
        return cls(qualifier, outright, o.two_stay, o.match_cap, o.dummy, o.max_draw, o.ace_draw, wild_rules(o))

    @property
    def deck(self) -> frozenset[int]:
        """The cards an opponent may hold: the joker too where it is dealt."""
        return ALL_CARDS | {JOKER} if self.wild is not None and self.wild.wild != "deuces" else ALL_CARDS

    def match(self, pot: int) -> int:
        """What a stayer who wins nothing pays."""
        return pot if self.match_cap is None else min(pot, self.match_cap)


# ------------------------------------------------------------------- keeps
def _low_rank(card: int) -> int:
    """Ace-low rank index: ace 0, deuce 1 .. king 12."""
    return ((card >> 2) + 1) % 13


def high_discards(hand: Sequence[int], wild: WildRules | None = None) -> list[int]:
    """Positions to throw for a high hand, the most useless first (never a wild card)."""
    if wild is not None:
        return _wild_high_discards(hand, wild)
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


def _wild_high_discards(hand: Sequence[int], wild: WildRules) -> list[int]:
    """Keep the wild cards, and pairs or better; otherwise draw to the best natural card."""
    strength = int(wild.strength(wild.high(list(hand))))
    if wild_high_category(strength) >= STRAIGHT:
        return []
    natural = [i for i in range(HAND_SIZE) if not wild.is_wild(hand[i])]
    ranks = [hand[i] >> 2 for i in natural]
    paired = [i for i, r in zip(natural, ranks, strict=True) if ranks.count(r) > 1]
    if paired:
        return [i for i in natural if i not in paired]
    return sorted(natural, key=lambda i: hand[i])[: max(0, len(natural) - 1)]  # keep the top natural card


def low_discards(hand: Sequence[int], wild: WildRules | None = None) -> list[int]:
    """Positions to throw for a low hand: second cards of a rank first, then cards above
    an eight, the highest first (never a wild card: it is the lowest rank missing)."""
    seen: set[int] = set()
    dup, high = [], []
    for i in sorted(range(HAND_SIZE), key=lambda i: _low_rank(hand[i])):
        if wild is not None and wild.is_wild(hand[i]):
            continue
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
    for discards in (high_discards(hand, rules.wild), low_discards(hand, rules.wild), []):
        option = trimmed(discards, legal)
        if option not in out:
            out.append(option)
    return out


# ------------------------------------------------------------- Monte Carlo
def _values(hands: np.ndarray, qualifier: int | None, wild: WildRules | None = None) -> tuple[np.ndarray, np.ndarray]:
    flat = hands.reshape(-1, HAND_SIZE)
    if wild is not None:  # keys of the wild-card rule, as the showdown compares them
        return wild.high(flat).reshape(hands.shape[:-1]), wild.low(flat, qualifier).reshape(hands.shape[:-1])
    high = evaluate_high(flat, validate=False).reshape(hands.shape[:-1])
    low = evaluate_low(flat, qualifier, validate=False).reshape(hands.shape[:-1])
    return high, low


@dataclass(frozen=True)
class Chances:
    """Win chances per (candidate, number of opponents ``j = 1 .. O``), shape (C, O)."""

    high: np.ndarray
    low: np.ndarray
    both: np.ndarray


def deal_hands(hand: Sequence[int], options: list[tuple[int, ...]], cards: np.ndarray, opponents: int) -> np.ndarray:
    """``(C * S + S * (O + 1), 5)`` hands of one decision: the bot's hand after each
    candidate draw (candidates share their random cards: common random numbers), then
    ``opponents`` random hands and a random dummy per sample."""
    s = len(cards)
    most = max(len(o) for o in options)
    mine = np.broadcast_to(np.asarray(hand), (len(options), s, HAND_SIZE)).copy()
    for c, positions in enumerate(options):
        mine[c][:, list(positions)] = cards[:, : len(positions)]
    others = cards[:, most:].reshape(s * (opponents + 1), HAND_SIZE)  # the last of each sample is the dummy
    return np.concatenate([mine.reshape(-1, HAND_SIZE), others])


def win_chances(
    my_high: np.ndarray, my_low: np.ndarray, high: np.ndarray, low: np.ndarray, dummy_at: np.ndarray, outright: bool
) -> Chances:
    """Chances of winning each way after each candidate draw, against ``j`` random
    hands for every ``j`` up to ``O`` (and a random dummy where ``dummy_at[j-1]``), for
    n decisions at once: the candidates' values ``(n, C, S)``, the random hands'
    ``(n, S, O + 1)`` (the last one the dummy). Chances are ``(n, C, O)``."""
    top_high = np.maximum.accumulate(high[..., :-1], axis=2)[:, None]  # (n, 1, S, O)
    top_low = np.maximum.accumulate(low[..., :-1], axis=2)[:, None]
    mh, ml = my_high[..., None], my_low[..., None]  # (n, C, S, 1)
    safe_high = np.where(dummy_at, high[:, None, :, -1:] <= mh, True)  # the dummy must not beat it
    safe_low = np.where(dummy_at, low[:, None, :, -1:] <= ml, True)
    qualified = ml > NO_LOW
    win_high = (mh >= top_high) & safe_high
    win_low = (ml >= top_low) & safe_low & qualified
    both = win_high & win_low
    if outright:  # a both-way declarer must beat everyone both ways
        both &= (mh > top_high) & (ml > top_low)
    return Chances(win_high.mean(axis=2), win_low.mean(axis=2), both.mean(axis=2))


def declaration_values(
    p_high: np.ndarray, p_low: np.ndarray, p_both: np.ndarray, pot: int, match: int, both_at: float = BOTH_AT
) -> np.ndarray:
    """(..., 3) expected chips of declaring low, high, both (action order); ``both`` is
    ruled out (-inf) below ``both_at``: a both-way declaration needs both ways strong."""
    half = pot / 2
    both = np.where(p_both >= both_at, p_both * pot - (1 - p_both) * match, -np.inf)
    return np.stack([p_low * half - (1 - p_low) * match, p_high * half - (1 - p_high) * match, both], axis=-1)


def deal_values(view: PublicView, chances: Chances, rules: Rules, both_at: float = BOTH_AT) -> np.ndarray:
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
        best = declaration_values(chances.high[:, j], chances.low[:, j], chances.both[:, j], pot, match, both_at)
        values[:, j] = best.max(axis=-1)
    return values


def _dummy_at(view: PublicView, rules: Rules, opponents: int) -> np.ndarray:
    """Is there a dummy with ``j + 1`` stayers (someone folded, the game goes on)?"""
    stayers = np.arange(1, opponents + 1) + 1
    return rules.dummy & (stayers < view.num_players) & (stayers > 2)


# --------------------------------------------------------------- decisions
@dataclass(frozen=True)
class DummyTargets:
    """The share winners that the dummy's draw tries to beat."""

    high: list[tuple[int, int]]  # (winner's seat, its value that way)
    low: list[tuple[int, int]]
    masks: list[int]  # the legal discards


@dataclass(frozen=True)
class CowboyPlan:
    """One decision: ``kind`` is stay, draw, declare or dummy; ``action`` is set when no
    random numbers are needed (a single legal keep, a dummy draw without a target)."""

    view: PublicView
    style: HeuristicStyle
    rules: Rules
    kind: str
    options: list[tuple[int, ...]]
    opponents: int
    request: Request | None
    action: int | None = None
    targets: DummyTargets | None = None


def plan(view: PublicView, style: HeuristicStyle, samples: int) -> CowboyPlan:
    """Step 1 (see :mod:`agents.heuristic.plans`)."""
    legal = view.legal_actions
    rules = Rules.of(view)
    if STAY in legal:
        options = candidates(view.own_cards, rules)
        return _chance_plan(view, style, rules, "stay", options, view.num_players - 1, samples)
    if DECLARE_LOW in legal:
        return _chance_plan(view, style, rules, "declare", [()], view.live_opponents, samples)
    if any(DRAW_BASE <= a < DRAW_BASE + NUM_DRAWS for a in legal):
        if "dummy_cards" in view.extra:
            return _dummy_plan(view, style, rules, samples)
        options = candidates(view.own_cards, rules)
        if len(options) == 1:
            return CowboyPlan(view, style, rules, "draw", options, 0, None, draw_action(list(options[0])))
        return _chance_plan(view, style, rules, "draw", options, view.live_opponents, samples)
    raise ValueError(f"no Cowboy decision matches the legal actions {view.legal_names}")


def _chance_plan(
    view: PublicView,
    style: HeuristicStyle,
    rules: Rules,
    kind: str,
    options: list[tuple[int, ...]],
    opponents: int,
    samples: int,
) -> CowboyPlan:
    count = max(len(o) for o in options) + HAND_SIZE * (opponents + 1)
    request = Request(unseen_cards(view.own_cards, rules.deck), samples, count)
    return CowboyPlan(view, style, rules, kind, options, opponents, request)


def finish(plans: Sequence[CowboyPlan], drawn: Sequence[Drawn | None]) -> list[int]:
    """Step 3: every stay, draw and declaration's hands evaluated together."""
    actions = [0] * len(plans)
    chance = []
    for i, p in enumerate(plans):
        if p.action is not None:
            actions[i] = p.action
        elif p.kind == "dummy":
            actions[i] = dummy_draw(p, drawn[i])
        else:
            chance.append(i)
    for key, members in groups(_shape(plans[i], drawn[i]) for i in chance).items():
        _, _, candidates, opponents, samples, _ = key
        per_block = max(1, EVALUATED_HANDS // (samples * (candidates + opponents + 1)))
        for start in range(0, len(members), per_block):
            part = [chance[j] for j in members[start : start + per_block]]
            chosen = _decide_alike([plans[i] for i in part], [drawn[i] for i in part], key)
            for i, choice in zip(part, chosen, strict=True):
                actions[i] = choice
    return actions


Shape = tuple[tuple[int | None, WildRules | None], bool, int, int, int, tuple[bool, ...]]


def _shape(p: CowboyPlan, drawn: Drawn | None) -> Shape:
    """What decisions must share to be evaluated as one array: the low qualifier, the
    swing rule, the candidate, opponent and sample counts, where a dummy plays."""
    assert drawn is not None
    dummy_at = tuple(_dummy_at(p.view, p.rules, p.opponents).tolist())
    return (p.rules.qualifier, p.rules.wild), p.rules.outright, len(p.options), p.opponents, len(drawn.cards), dummy_at


def _decide_alike(plans: Sequence[CowboyPlan], drawn: Sequence[Drawn | None], key: Shape) -> list[int]:
    """Decisions of one shape: their hands in one evaluation, their chances in one pass."""
    (qualifier, wild), outright, candidates, opponents, samples, dummy_at = key
    hands = []
    for p, d in zip(plans, drawn, strict=True):
        assert d is not None
        hands.append(deal_hands(p.view.own_cards, p.options, d.cards, opponents))
    high, low = _values(np.stack(hands), qualifier, wild)  # (n, C * S + S * (O + 1))
    mine = (len(plans), candidates, samples)
    others = (len(plans), samples, opponents + 1)
    split = candidates * samples
    chances = win_chances(
        high[:, :split].reshape(mine),
        low[:, :split].reshape(mine),
        high[:, split:].reshape(others),
        low[:, split:].reshape(others),
        np.array(dummy_at, bool),
        outright,
    )
    return [DECIDE[p.kind](p, Chances(chances.high[i], chances.low[i], chances.both[i])) for i, p in enumerate(plans)]


def stay_or_fold(p: CowboyPlan, chances: Chances) -> int:
    """Stay when the expected value over how many others stay is above the margin."""
    view, style = p.view, p.style
    stayed = view.extra["stayed"]
    before = sum(1 for s, x in enumerate(stayed) if s != view.seat and x)
    after = sum(1 for s, x in enumerate(stayed) if s != view.seat and x is None)
    per_count = deal_values(view, chances, p.rules, style.both_at).max(axis=0)  # best draw per opponent count
    value = 0.0
    guess = style.stay_guess
    for extra in range(after + 1):
        others = before + extra
        chance = comb(after, extra) * guess**extra * (1 - guess) ** (after - extra)
        value += chance * (view.pot if others == 0 else per_count[others - 1])
    return STAY if value > style.stay_margin * view.pot else FOLD


def choose_draw(p: CowboyPlan, chances: Chances) -> int:
    """The candidate keep worth most against the stayers."""
    values = deal_values(p.view, chances, p.rules, p.style.both_at)[:, p.opponents - 1]
    return draw_action(list(p.options[int(values.argmax())]))


def declare(p: CowboyPlan, chances: Chances) -> int:
    """Low, high or both: the declaration worth most."""
    view, j = p.view, p.opponents - 1
    match = 0 if p.opponents == 1 else p.rules.match(view.pot)
    high, low, both = chances.high[0, j], chances.low[0, j], chances.both[0, j]
    values = declaration_values(high, low, both, view.pot, match, p.style.both_at)
    return DECLARE_LOW + int(values.argmax())  # low, high, both: the action order


DECIDE = {"stay": stay_or_fold, "draw": choose_draw, "declare": declare}


def _dummy_plan(view: PublicView, style: HeuristicStyle, rules: Rules, samples: int) -> CowboyPlan:
    summary = view.extra["summaries"][-1]
    high_targets: list[tuple[int, int]] = []
    low_targets: list[tuple[int, int]] = []
    for seat, (won_high, won_low) in enumerate(summary.won):
        shown = np.array([summary.shown[seat]])
        if won_high:
            high_targets.append((seat, int(_values(shown, rules.qualifier, rules.wild)[0][0])))
        if won_low:
            low_targets.append((seat, int(_values(shown, rules.qualifier, rules.wild)[1][0])))
    legal = sorted(view.legal_actions)
    if not high_targets and not low_targets:
        action = draw_action([]) if draw_action([]) in legal else legal[0]
        return CowboyPlan(view, style, rules, "dummy", [], 0, None, action)
    known = set(view.own_cards) | set(view.extra["dummy_cards"]) | {c for hand in summary.shown for c in hand}
    masks = [a - DRAW_BASE for a in legal]
    request = Request(unseen_cards(known, rules.deck), samples, max(m.bit_count() for m in masks))
    targets = DummyTargets(high_targets, low_targets, masks)
    return CowboyPlan(view, style, rules, "dummy", [], 0, request, targets=targets)


def dummy_draw(p: CowboyPlan, drawn: Drawn | None) -> int:
    """The dummy's discard expected to beat the most share winners."""
    assert drawn is not None and p.targets is not None
    high_targets, low_targets, masks = p.targets.high, p.targets.low, p.targets.masks
    dummy = list(p.view.extra["dummy_cards"])
    samples = len(drawn.cards)
    hands = np.broadcast_to(np.asarray(dummy), (len(masks), samples, HAND_SIZE)).copy()
    for i, mask in enumerate(masks):
        positions = [q for q in range(HAND_SIZE) if mask >> q & 1]
        hands[i][:, positions] = drawn.cards[:, : len(positions)]
    high, low = _values(hands, p.rules.qualifier, p.rules.wild)  # (M, S)
    seats = sorted({s for s, _ in high_targets} | {s for s, _ in low_targets})
    beaten = np.zeros((len(masks), samples, len(seats)), bool)
    for seat, value in high_targets:
        beaten[..., seats.index(seat)] |= high > value
    for seat, value in low_targets:
        beaten[..., seats.index(seat)] |= low > value
    score = beaten.sum(axis=2).mean(axis=1)
    return DRAW_BASE + masks[int(score.argmax())]


FAMILY = Family(plan, finish)


def decide(view: PublicView, ctx: Context, style: HeuristicStyle = DEFAULT_STYLE) -> int:
    """One decision, drawing from ``ctx.rng`` (stay or fold, a draw, the dummy's draw,
    a declaration)."""
    p = plan(view, style, ctx.samples)
    return finish([p], draw(ctx.rng, [p.request]))[0]
