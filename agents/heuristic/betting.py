"""Betting from equity: thresholds that scale with the number of opponents, pot odds,
and a bet size for pot- and no-limit games. The numbers are the knobs of a
:class:`~agents.heuristic.style.HeuristicStyle`; the default style's are quoted here.

With ``k`` live opponents a fair share of the pot is ``1 / (k + 1)``. The bot

* bets or raises when its equity is ``raise_edge`` (a quarter) of the way from a fair
  share to 1 (heads-up 0.625; three-handed 0.5), with the biggest pot-sized bet when
  it is ``strong_edge`` (half) of the way (heads-up 0.75), and moves all-in (no limit)
  only from ``nuts`` (0.9) or when its stack is no bigger than the pot;
* completes the stud bring-in on the raising threshold, else posts it;
* otherwise checks when it can, and calls when the expected chips of calling (its
  share of the pot after the call, less the call, plus ``implied_bets`` future bets a
  round still to come when it is ahead of a fair share: calling now commits it to
  more bets later) are at least ``call_margin`` (0) times the pot after the call;
* folds the rest;
* bluffs with chance ``bluff`` (0): bets or raises instead of any of the passive
  actions above, with a uniform number the caller drew from the bot's generator.

A limit raising war between two strong hands with unlimited stacks would never end,
so the bot stops re-raising once a street's bet reaches ``max_raises`` (6) bets
unless its equity is at least ``nuts``.
"""

from __future__ import annotations

from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.view import PublicView

ALL_IN = "all_in"


def thresholds(opponents: int, style: HeuristicStyle = DEFAULT_STYLE) -> tuple[float, float]:
    """(raise, strong) equity thresholds against ``opponents`` live players."""
    fair = 1.0 / (max(opponents, 1) + 1)
    return fair + style.raise_edge * (1 - fair), fair + style.strong_edge * (1 - fair)


def call_value(view: PublicView, equity: float, rounds_left: int, style: HeuristicStyle = DEFAULT_STYLE) -> float:
    """Expected chips of calling: the equity's part of the pot after the call, less the
    call, plus the edge over a fair share on ``implied_bets`` bets a round still to
    come (every live player puts them in; only counted when ahead of a fair share,
    because a hand that falls behind can fold later)."""
    pot = view.pot + view.to_call
    edge = equity * (view.live_opponents + 1) - 1
    future = style.implied_bets * rounds_left * view.bet_unit
    return equity * pot - view.to_call + future * max(edge, 0.0)


def choose_bet(
    view: PublicView,
    equity: float,
    rounds_left: int,
    style: HeuristicStyle = DEFAULT_STYLE,
    luck: float | None = None,
) -> int:
    """A legal betting action (fold, check/call, bring-in, raise or a sized bet).

    ``luck`` is a uniform number in [0, 1) from the bot's generator, needed only when
    the style bluffs: the bot bluffs when ``luck < style.bluff``.
    """
    legal = view.legal_actions
    raise_at, strong_at = thresholds(view.live_opponents, style)
    bluffing = luck is not None and luck < style.bluff
    if BRING_IN in legal:
        return RAISE if RAISE in legal and (equity >= raise_at or bluffing) else BRING_IN
    can_raise = RAISE in legal and not _raising_war(view, equity, style)
    if equity >= raise_at and can_raise:
        return _raise_action(view, equity, strong_at, style)
    if bluffing and can_raise:
        return _raise_action(view, equity, strong_at, style)
    if view.to_call <= 0:
        return CHECK_CALL
    if call_value(view, equity, rounds_left, style) >= style.call_margin * (view.pot + view.to_call):
        return CHECK_CALL
    return FOLD if FOLD in legal else CHECK_CALL


def _raising_war(view: PublicView, equity: float, style: HeuristicStyle) -> bool:
    unit = max(view.bet_unit, 1)
    return view.current_bet >= style.max_raises * unit and equity < style.nuts


def sized_bets(view: PublicView) -> dict[int, float]:
    """Legal sized bets (``bet_<f>_pot``) as action -> pot fraction."""
    out = {}
    for action, name in zip(view.legal_actions, view.legal_names, strict=True):
        if name.startswith("bet_") and name.endswith("_pot"):
            out[action] = float(name[len("bet_") : -len("_pot")])
    return out


def _raise_action(view: PublicView, equity: float, strong_at: float, style: HeuristicStyle) -> int:
    """``raise`` in limit games; in pot/no limit a size that grows with the equity."""
    sizes = sized_bets(view)
    all_in = next((a for a, n in zip(view.legal_actions, view.legal_names, strict=True) if n == ALL_IN), None)
    if not sizes and all_in is None:
        return RAISE
    if equity >= strong_at:
        stack = view.stacks[view.seat]
        if all_in is not None and (equity >= style.nuts or (stack is not None and stack <= view.pot)):
            return all_in
        potish = [a for a, f in sizes.items() if f <= 1.0]
        if potish:
            return max(potish, key=lambda a: sizes[a])
    halfish = [a for a, f in sizes.items() if f >= 0.5]
    if halfish:
        return min(halfish, key=lambda a: sizes[a])
    return RAISE
