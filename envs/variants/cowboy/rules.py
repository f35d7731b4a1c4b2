"""Cowboy, Cowgirl and Cowpattie: five-card draw, declare, match the pot, deal after
deal (docs/rules.md section 5, with section 3's declaration rules).

Rules as implemented (one episode is a whole game of several deals):

* three to seven players; unlimited stacks (net chips are tracked over the game);
  rewards are net chips divided by the ante;
* each deal: the antes (``ante``, default 1) of everyone on the first deal and, on
  later deals, of the players who folded the previous deal; five cards face down to
  everyone, one at a time from the seat left of the button. Hands are kept sorted
  (deuce first, ace last, suits clubs < diamonds < hearts < spades): draw positions
  0..4 always mean the lowest .. highest card. The button stays put for the whole game
  (it moves between episodes);
* one round from the seat left of the button: stay (action 60) or fold (action 0),
  seeing the earlier choices. Nobody stays: the pot carries and everyone antes again.
  One stays: that player takes the pot and the game ends. Two stay: they split it and
  the game ends (``two_stay="split"``; odd chip to the first of them clockwise from the
  button), or (``two_stay="showdown"``) they play the deal out with a declaration, the
  winners take the pot, nobody pays, no dummy is dealt and the game ends; if neither
  declaration wins, the two split the pot;
* three or more stay: the draw, in turn from the seat left of the button: discard any
  set of positions (actions 28..59, ``28 + mask``) and draw as many. ``max_draw`` is
  the limit (Cowboy 3, Cowgirl 1, Cowpattie 0 = no draw); ``ace_draw`` (Cowboy 4, else
  None) allows more discards when the player keeps an ace (it matters only when above
  ``max_draw``). When the stub runs out, the discards of the players who already drew
  are shuffled into a new stub (never the drawing player's own);
* the secret declaration low (4), high (5) or both (6), revealed together; the
  showdown: high half among high/both declarers, low half (ace-to-five; ``low_rule``
  "a5" no qualifier, "a5_8" eight-or-better) among low/both declarers; with no
  eligible hand one way, the other way takes the whole pot; a both-declarer must win
  or tie both ways (``swing_rule`` "win_or_tie"; "outright": ties lose too) or wins
  nothing. Odd chip to the high half; within a tied half to the first tied seat
  clockwise from the button (no cards are face up to break ties by suit);
* the dummy (``dummy``, default on): when a seat folded, five cards go to a dummy after
  the showdown. In Cowboy and Cowgirl (``max_draw`` > 0) the first folded seat
  clockwise from the button chooses its discards under the players' rules (it is the
  acting agent and the only one to see the dummy before it is shown). A share winner
  whose hand the dummy beats in the direction it won (either direction for a both-way
  winner) takes nothing and pays as a loser; its share stays in the pot;
* every stayer who won or tied no share (or was beaten by the dummy) pays the pot as it
  stood at the showdown (capped at ``match_cap`` chips). If no declaration wins at all
  (every both-declarer failed), nobody takes anything and every stayer pays. The
  payments and any unpaid share form the next deal's pot (which may even be empty when
  everyone who stayed took a share and nobody folded);
* ``max_deals`` (default 100) truncates the game before the next deal: the pot is
  returned in equal shares to all players, odd chips one each to the first seats
  clockwise from the button, and the game is reported as truncated;
* chips are exact ints at any size, and a game may not be long enough to outgrow
  floats: with no ``match_cap`` the chips in play can multiply by ``n + 1`` each deal
  (everyone stays, every both-declarer fails, everyone pays), so a table refuses a
  ``max_deals`` whose :func:`chip_bound` exceeds :data:`MAX_CHIPS` (10**150: a float
  holds such a reward, its square and sums over millions of games). With the default
  ante of 1 that allows up to 165 deals at seven players and 248 at three; a
  ``match_cap`` makes growth linear and allows far more.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.engine.actions import DRAW_ACTIONS, action_names
from envs.engine.options import check_bool, check_button, check_choice, check_int
from envs.engine.steps import Declare
from envs.engine.variant import PotShare, Program, Variant
from envs.engine.wild_options import wild_options_class, wild_rules
from envs.variants.cowboy.deal import DrawRound, DummyDraw, NewDeal, StayRound
from envs.variants.cowboy.showdown import CowboyShowdown, Settle, low_floor

SWING_RULES = ("win_or_tie", "outright")
LOW_RULES = ("a5", "a5_8")
TWO_STAY_RULES = ("split", "showdown")


@dataclass(frozen=True)
class CowboyOptions:
    """Options of the Cowboy family (docs/rules.md section 5); chips are integers.

    Attributes:
        ante: chips each player antes; also the reward unit.
        max_draw: most cards a player may discard and draw (0 = no draw).
        ace_draw: most discards when an ace is kept (None = no ace rule).
        two_stay: "split" (two stayers split the pot) or "showdown" (they play it out).
        low_rule: "a5" (ace-to-five, no qualifier) or "a5_8" (eight-or-better).
        swing_rule: "win_or_tie" or "outright" for a both-way declarer.
        match_cap: most chips one match payment can be (None = the whole pot).
        dummy: deal the dummy hand.
        max_deals: deals before the game is truncated.
        button: "rotate", "random" or a fixed seat (moves between games, not deals).
    """

    ante: int = 1
    max_draw: int = 3
    ace_draw: int | None = None
    two_stay: str = "split"
    low_rule: str = "a5"
    swing_rule: str = "win_or_tie"
    match_cap: int | None = None
    dummy: bool = True
    max_deals: int = 100
    button: int | str = "rotate"

    def __post_init__(self) -> None:
        check_int("ante", self.ante, 1)
        check_int("max_draw", self.max_draw, 0, 5)
        check_int("ace_draw", self.ace_draw, 0, 4, allow_none=True)
        check_choice("two_stay", self.two_stay, TWO_STAY_RULES)
        check_choice("low_rule", self.low_rule, LOW_RULES)
        check_choice("swing_rule", self.swing_rule, SWING_RULES)
        check_int("match_cap", self.match_cap, 1, allow_none=True)
        check_bool("dummy", self.dummy)
        check_int("max_deals", self.max_deals, 1)
        check_button(self.button)


WildCowboyOptions = wild_options_class(CowboyOptions, "WildCowboyOptions", __name__)

COMMON_OPTIONS = frozenset(
    {"ante", "max_draw", "two_stay", "low_rule", "swing_rule", "match_cap", "dummy", "max_deals", "button"}
)


MAX_CHIPS = 10**150  # no chip amount of a game may exceed this (see the module docstring)


def chip_bound(num_players: int, ante: int, match_cap: int | None, deals: int) -> int:
    """The most chips ever put in the pot over ``deals`` deals; no pot, payment or
    payoff can exceed it (a seat wins or loses at most what was put in).

    The first deal puts in ``n`` antes; each settle adds at most one match payment per
    player, each at most the pot (no more than the total so far) or ``match_cap``; each
    later deal adds at most ``n`` antes. Without a cap the bound is reached: everyone
    stays, every both-declarer fails, and everyone pays the whole pot.

    >>> chip_bound(3, 1, None, 1), chip_bound(3, 1, None, 2), chip_bound(3, 1, 8, 3)
    (12, 60, 66)
    """
    n, total = num_players, 0
    for _ in range(deals):  # one step per deal: checks use deal_limit
        pot = total + n * ante
        total = pot + n * (pot if match_cap is None else min(pot, match_cap))
    return total


def deal_limit(num_players: int, ante: int, match_cap: int | None) -> int:
    """The largest ``max_deals`` whose :func:`chip_bound` is at most :data:`MAX_CHIPS`
    (0 when even one deal can exceed it). Once the pot reaches ``match_cap`` each deal
    adds the same ``n * (ante + match_cap)``, so capped games count on in one step.

    >>> deal_limit(7, 1, None), deal_limit(3, 1, None), deal_limit(3, 1, 8) > 10**148
    (165, 248, True)
    """
    n, total, deals = num_players, 0, 0
    while True:
        pot = total + n * ante
        settled = pot + n * (pot if match_cap is None else min(pot, match_cap))
        if settled > MAX_CHIPS:
            return deals
        if match_cap is not None and pot >= match_cap:  # linear from here on
            return deals + 1 + (MAX_CHIPS - settled) // (n * (ante + match_cap))
        total, deals = settled, deals + 1


def check_max_deals(num_players: int, options: CowboyOptions) -> None:
    """Refuse a game long enough for its chips to outgrow floats (see :func:`chip_bound`)."""
    limit = deal_limit(num_players, options.ante, options.match_cap)
    if options.max_deals <= limit:
        return
    cap = "no match_cap" if options.match_cap is None else f"match_cap={_shown(options.match_cap)}"
    table = f"{num_players} players, ante={_shown(options.ante)} and {cap}"
    why = "chips in play could pass 10**150, beyond what rewards (floats, their squares and sums) can hold"
    if limit == 0:
        ante = _shown(options.ante)
        raise ValueError(f"option ante={ante} is not allowed with {num_players} players: {why} within one deal")
    raise ValueError(
        f"option max_deals={_shown(options.max_deals)} is not allowed with {table}: {why}; "
        f"expected max_deals <= {limit}" + (" (or set a match_cap)" if options.match_cap is None else "")
    )


def _shown(value: int) -> str:
    """An int option for a message (an int of thousands of digits as its size)."""
    return str(value) if value.bit_length() <= 64 else f"<an int of {value.bit_length()} bits>"


def build_cowboy(variant: Variant, num_players: int, options: CowboyOptions) -> Program:
    """One deal as a loop: :class:`Settle` (or a deal nobody stays in) jumps back to
    :class:`NewDeal` at index 0; the game ends when one or two stay or at ``max_deals``."""
    check_max_deals(num_players, options)
    draws, floor = options.max_draw > 0, low_floor(options.low_rule)
    wild = wild_rules(options)
    steps = (
        NewDeal(ante=options.ante, max_deals=options.max_deals),
        StayRound(two_stay=options.two_stay, draws=draws),
        DrawRound(max_draw=options.max_draw, ace_draw=options.ace_draw),
        Declare(),
        CowboyShowdown(swing_rule=options.swing_rule, low_floor=floor, dummy=options.dummy, draws=draws, rules=wild),
        DummyDraw(max_draw=options.max_draw, ace_draw=options.ace_draw),
        Settle(match_cap=options.match_cap, low_floor=floor, rules=wild),
    )
    return Program(steps, options.ante, action_names(DRAW_ACTIONS))


def pot_shares(options: CowboyOptions) -> tuple[PotShare, ...]:
    """Half to the best high among high/both declarers, half to the best ace-to-five low
    (eight-or-better with ``low_rule="a5_8"``) among low/both declarers."""
    qualifier = 8 if options.low_rule == "a5_8" else None
    return (
        PotShare(name="high", hand="high", declared=True),
        PotShare(name="low", hand="low", qualifier=qualifier, declared=True),
    )
