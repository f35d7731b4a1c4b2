"""Betting from equity: thresholds that scale with the number of opponents, pot odds,
and a bet size for pot- and no-limit games.

With ``k`` live opponents a fair share of the pot is ``1 / (k + 1)``. The bot

* bets or raises when its equity is a quarter of the way from a fair share to 1
  (heads-up 0.625; three-handed 0.5), with the biggest pot-sized bet when it is half
  way (heads-up 0.75), and moves all-in (no limit) only near the nuts or when its
  stack is no bigger than the pot;
* completes the stud bring-in on the raising threshold, else posts it;
* otherwise checks when it can, and calls when its equity beats the pot odds
  ``to_call / (pot + to_call)`` plus a margin of 0.03 per betting round still to come
  (calling now commits it to more bets later);
* folds the rest.

A limit raising war between two strong hands with unlimited stacks would never end,
so the bot stops re-raising once a street's bet reaches ``MAX_RAISE_LEVEL`` bets
unless its equity is above ``NUTS``.
"""

from __future__ import annotations

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.view import PublicView

RAISE_EDGE = 0.25  # raise at fair + RAISE_EDGE * (1 - fair)
STRONG_EDGE = 0.5  # big sized bets at fair + STRONG_EDGE * (1 - fair)
FUTURE_BETS = 1.0  # bets per player and betting round still to come (implied odds)
MAX_RAISE_LEVEL = 6  # stop raising at this many bets on a street ...
NUTS = 0.9  # ... unless the equity is at least this
ALL_IN = "all_in"


def thresholds(opponents: int) -> tuple[float, float]:
    """(raise, strong) equity thresholds against ``opponents`` live players."""
    fair = 1.0 / (max(opponents, 1) + 1)
    return fair + RAISE_EDGE * (1 - fair), fair + STRONG_EDGE * (1 - fair)


def call_value(view: PublicView, equity: float, rounds_left: int) -> float:
    """Expected chips of calling: the equity's part of the pot after the call, less the
    call, plus the edge over a fair share on ``FUTURE_BETS`` bets a round still to come
    (every live player puts them in; only counted when ahead of a fair share, because a
    hand that falls behind can fold later)."""
    pot = view.pot + view.to_call
    edge = equity * (view.live_opponents + 1) - 1
    future = FUTURE_BETS * rounds_left * view.bet_unit
    return equity * pot - view.to_call + future * max(edge, 0.0)


def choose_bet(view: PublicView, equity: float, rounds_left: int) -> int:
    """A legal betting action (fold, check/call, bring-in, raise or a sized bet)."""
    legal = view.legal_actions
    raise_at, strong_at = thresholds(view.live_opponents)
    if BRING_IN in legal:
        return RAISE if RAISE in legal and equity >= raise_at else BRING_IN
    if equity >= raise_at and RAISE in legal and not _raising_war(view, equity):
        return _raise_action(view, equity, strong_at)
    if view.to_call <= 0 or call_value(view, equity, rounds_left) >= 0:
        return CHECK_CALL
    return FOLD if FOLD in legal else CHECK_CALL


def _raising_war(view: PublicView, equity: float) -> bool:
    unit = max(view.bet_unit, 1)
    return view.current_bet >= MAX_RAISE_LEVEL * unit and equity < NUTS


def sized_bets(view: PublicView) -> dict[int, float]:
    """Legal sized bets (``bet_<f>_pot``) as action -> pot fraction."""
    out = {}
    for action, name in zip(view.legal_actions, view.legal_names, strict=True):
        if name.startswith("bet_") and name.endswith("_pot"):
            out[action] = float(name[len("bet_") : -len("_pot")])
    return out


def _raise_action(view: PublicView, equity: float, strong_at: float) -> int:
    """``raise`` in limit games; in pot/no limit a size that grows with the equity."""
    sizes = sized_bets(view)
    all_in = next((a for a, n in zip(view.legal_actions, view.legal_names, strict=True) if n == ALL_IN), None)
    if not sizes and all_in is None:
        return RAISE
    if equity >= strong_at:
        stack = view.stacks[view.seat]
        if all_in is not None and (equity >= NUTS or (stack is not None and stack <= view.pot)):
            return all_in
        potish = [a for a, f in sizes.items() if f <= 1.0]
        if potish:
            return max(potish, key=lambda a: sizes[a])
    halfish = [a for a, f in sizes.items() if f >= 0.5]
    if halfish:
        return min(halfish, key=lambda a: sizes[a])
    return RAISE
