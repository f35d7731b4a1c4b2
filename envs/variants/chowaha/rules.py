"""Chowaha (``chowaha``): two hole cards, three flops, two turns, one river, four boards.
docs/rules.md sections 1 and 6.

Rules as implemented:

* two or more players, as many as the deck allows: the layout takes 12 cards, so 40
  are left for hole cards (``hole_cards=2``: up to 20 players; ``hole_cards=4``: up to
  10). ``remaining_as_hole=True`` shares the 40 out equally, ``40 // n`` each (2 to 20
  players); the ``40 % n`` cards left over stay face down in the stub, unused;
* dealing order (for stacked decks, top card first): hole cards one at a time
  clockwise from the seat left of the button, round after round; then the layout in
  ``LAYOUT`` order (top flop 1-3, middle flop 1-3, bottom flop 1-3, upper turn, lower
  turn, river), each card taken from the stub when its round turns it;
* an optional ``ante`` from everyone, then the small and big blind: the two seats left
  of the button, or heads-up the button (small blind) and the other seat. Stacks must
  cover the ante and the big blind, so blinds are always posted in full;
* four betting rounds: before the flop (first to act: left of the big blind, which
  is the button heads-up; the big blind keeps its option), after the nine flop cards,
  after the two turn cards, after the river (first to act: the first live seat left
  of the button);
* ``betting="limit"`` (default): the small bet is the big blind (first two rounds),
  the big bet twice that (last two); the big blind counts as the first bet of the
  pre-flop cap (``raise_cap`` full bets and raises, lifted heads-up unless
  ``cap_heads_up``). ``"pot_limit"`` / ``"no_limit"``: the minimum bet is the big
  blind, a raise at least the largest full raise of the round; sized bets
  ``bet_sizes`` (fractions of the pot after calling; pot limit: at most 1) and, in no
  limit, ``all_in``. Stacks default to 100 big blinds; ``stack=None`` (unlimited) is
  allowed in limit only;
* boards: 1 = top flop + upper turn + river, 2 = middle flop + upper turn + river,
  3 = middle flop + lower turn + river, 4 = bottom flop + lower turn + river. A hand is
  exactly two hole cards plus three cards of one board; high and low may use
  different boards (and different hole cards);
* showdown: high-low eight-or-better, cards speak (``hi_lo=False``: high only). Each
  side pot is split separately: half to the best high, half to the best qualifying
  low (none qualifies: high scoops); the odd chip of a pot goes to the high half and,
  within a tied half, to the first tied seat clockwise from the button. The hand
  history notes every shown player's best high and low with board and cards.

Rewards are in big blinds.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from envs.engine.actions import BETTING_ACTIONS, HIGH, LOW, action_names, fraction_name
from envs.engine.betting import LIMIT, NO_LIMIT, POT_LIMIT, BetRules, Betting
from envs.engine.cards import NUM_CARDS, format_cards
from envs.engine.events import Event, EventKind
from envs.engine.game import Step
from envs.engine.hands import NO_LOW, best_board_hands, describe_high, describe_low
from envs.engine.options import (
    DEFAULT_STACK,
    check_bool,
    check_button,
    check_choice,
    check_int,
    quoted,
    resolve_stack,
)
from envs.engine.pots import Share
from envs.engine.state import State
from envs.engine.steps import Ante, Showdown, seats_from_left_of_button
from envs.engine.variant import AFTER_BIG_BLIND, AFTER_BUTTON, BIG, SMALL, PotShare, Program, Street, Variant

LAYOUT = (
    *(f"{row} flop {i}" for row in ("top", "middle", "bottom") for i in (1, 2, 3)),
    "upper turn",
    "lower turn",
    "river",
)
LAYOUT_SIZE = len(LAYOUT)  # 12
STREETS = (
    Street(label="preflop", bet=SMALL, opener=AFTER_BIG_BLIND),
    Street(label="flop", community=LAYOUT[:9], bet=SMALL, opener=AFTER_BUTTON),
    Street(label="turn", community=LAYOUT[9:11], bet=BIG, opener=AFTER_BUTTON),
    Street(label="river", community=LAYOUT[11:], bet=BIG, opener=AFTER_BUTTON),
)
STREET_NAMES = tuple(s.label for s in STREETS)
# the five layout positions of each board (top flop + upper turn + river, ...)
BOARDS = ((0, 1, 2, 9, 11), (3, 4, 5, 9, 11), (3, 4, 5, 10, 11), (6, 7, 8, 10, 11))
HOLE_CHOICES = (2, 4)
BETTING_CHOICES = (LIMIT, POT_LIMIT, NO_LIMIT)
MAX_BET_SIZES = 8
# A bet of 1000 pots is already far past any sensible sizing (and past every stack of
# a normal table); much larger fractions overflow the chip arithmetic (1e308 * pot is
# infinity, not a number of chips), so they are refused when the game is made.
MAX_POT_FRACTION = 1000.0
# Chip counts stay exact in float64 rewards and observations: 20 seats of 10**14 chips
# bet up to 1000 pots remain far below float64's range and exact below 2**53 per pot.
MAX_CHIPS = 10**14
LOW_QUALIFIER = 8


@dataclass(frozen=True)
class ChowahaOptions:
    """Options of Chowaha (chips are integers; docs/rules.md sections 1 and 6).

    Attributes:
        small_blind: posted left of the button (heads-up: by the button).
        big_blind: posted next; also the small bet and the minimum bet.
        ante: from every player before the blinds (0: none).
        betting: "limit", "pot_limit" or "no_limit".
        raise_cap: limit only: full bets and raises per round (None: no cap).
        cap_heads_up: limit only: keep the cap with two players left.
        bet_sizes: pot- and no-limit: the sized bets, as fractions of the pot after
            calling, increasing (a list is accepted and stored as a tuple).
        stack: chips per player, default 100 big blinds; None: unlimited (limit only).
        hi_lo: high-low eight-or-better (False: high only).
        hole_cards: 2, or 4 (use exactly two).
        remaining_as_hole: share the 40 non-layout cards out equally as hole cards.
        button: "rotate", "random" or a fixed seat.
    """

    small_blind: int = 1
    big_blind: int = 2
    ante: int = 0
    betting: str = LIMIT
    raise_cap: int | None = 4
    cap_heads_up: bool = False
    bet_sizes: tuple[float, ...] = (0.5, 1.0)
    stack: int | str | None = DEFAULT_STACK
    hi_lo: bool = True
    hole_cards: int = 2
    remaining_as_hole: bool = False
    button: int | str = "rotate"

    def __post_init__(self) -> None:
        check_int("big_blind", self.big_blind, 1)
        check_int("small_blind", self.small_blind, 1, self.big_blind)
        check_int("ante", self.ante, 0)
        for name in ("small_blind", "big_blind", "ante"):
            _check_chips(name, getattr(self, name))
        check_choice("betting", self.betting, BETTING_CHOICES)
        check_int("raise_cap", self.raise_cap, 1, allow_none=True)
        for name in ("cap_heads_up", "hi_lo", "remaining_as_hole"):
            check_bool(name, getattr(self, name))
        object.__setattr__(self, "bet_sizes", _checked_sizes(self.bet_sizes, self.betting))
        resolve_stack(self, self.big_blind)
        if self.stack is None and self.betting != LIMIT:
            raise ValueError(f"option stack=None is not allowed with betting={self.betting!r}: give chips per seat")
        check_int("stack", self.stack, self.ante + self.big_blind, allow_none=True)
        _check_chips("stack", self.stack)
        check_choice("hole_cards", self.hole_cards, HOLE_CHOICES)
        if self.remaining_as_hole and self.hole_cards != 2:
            raise ValueError(
                f"option hole_cards={self.hole_cards!r} is not allowed with remaining_as_hole=True: "
                "the remaining cards are the hole cards; leave hole_cards at 2"
            )
        check_button(self.button)

    def bet_rules(self) -> BetRules:
        """The betting structure these options describe."""
        sizes = self.bet_sizes if self.betting != LIMIT else ()
        return BetRules(
            structure=self.betting, raise_cap=self.raise_cap, cap_heads_up=self.cap_heads_up, bet_sizes=sizes
        )


def _check_chips(name: str, value: Any) -> None:
    """A chip option (already checked as an int) must not overflow the arithmetic."""
    if value is not None and value > MAX_CHIPS:
        raise ValueError(
            f"option {name}={quoted(value)} is not allowed: chip amounts are at most {MAX_CHIPS:_} "
            "(larger counts overflow the float arithmetic of rewards and observations)"
        )


def _checked_sizes(sizes: Any, betting: str) -> tuple[float, ...]:
    """``bet_sizes`` as a tuple of increasing positive fractions with distinct names.

    Pot limit allows at most the pot (1); no limit at most ``MAX_POT_FRACTION`` pots."""
    most = 1.0 if betting == POT_LIMIT else MAX_POT_FRACTION
    numbers = isinstance(sizes, (tuple, list)) and all(
        isinstance(f, (int, float)) and not isinstance(f, bool) for f in sizes
    )
    values = tuple(float(f) for f in sizes) if numbers else ()
    valid = (
        numbers
        and len(values) <= MAX_BET_SIZES
        and all(0 < f <= most and math.isfinite(f) for f in values)
        and all(a < b for a, b in itertools.pairwise(values))
        and len({fraction_name(f) for f in values}) == len(values)
    )
    if not valid:
        expected = f"an increasing list of at most {MAX_BET_SIZES} positive pot fractions"
        if betting == POT_LIMIT:
            expected += " of at most 1 (pot limit)"
        else:
            expected += f" of at most {MAX_POT_FRACTION:g} (larger bets overflow the chip arithmetic)"
        raise ValueError(f"option bet_sizes={quoted(sizes)} is not allowed: expected {expected}")
    return values


def hole_count(options: ChowahaOptions, num_players: int) -> int:
    """Hole cards per player."""
    if options.remaining_as_hole:
        return (NUM_CARDS - LAYOUT_SIZE) // num_players
    return options.hole_cards


def max_players(options: ChowahaOptions) -> int:
    """Most players the deck allows for these options (each needs two hole cards)."""
    per_player = 2 if options.remaining_as_hole else options.hole_cards
    return (NUM_CARDS - LAYOUT_SIZE) // per_player


def check_players(options: ChowahaOptions, num_players: int) -> None:
    """The deck must hold the layout plus everyone's hole cards."""
    most = max_players(options)
    if num_players > most:
        how = "remaining_as_hole=True" if options.remaining_as_hole else f"hole_cards={options.hole_cards}"
        raise ValueError(
            f"option num_players={quoted(num_players)} is not allowed with {how}: expected an int in 2..{most} "
            f"(the 12-card layout leaves {NUM_CARDS - LAYOUT_SIZE} cards for hole cards)"
        )


# ------------------------------------------------------------------ dealing
@dataclass(frozen=True, kw_only=True)
class DealHoleCards(Step):
    """Hole cards face down, one at a time clockwise from the seat left of the button."""

    label: str
    count: int  # hole cards per player

    def start(self, st: State) -> None:
        st.log(Event(EventKind.STREET, text=self.label, street=0))
        order = seats_from_left_of_button(st)
        for _ in range(self.count):
            for seat in order:
                card = st.deal_card()
                st.cards[seat].append(card)
                st.up[seat].append(False)
                st.log(Event(EventKind.DEAL, seat=seat, cards=(card,), up=False, street=0))


@dataclass(frozen=True, kw_only=True)
class TurnLayout(Step):
    """Turn the round's layout positions face up; each event names its position."""

    street: int
    label: str
    positions: tuple[str, ...]

    def start(self, st: State) -> None:
        st.log(Event(EventKind.STREET, text=self.label, street=self.street))
        for position in self.positions:
            card = st.deal_card()
            st.community.append(card)
            st.log(Event(EventKind.COMMUNITY, cards=(card,), up=True, text=position, street=self.street))


# ------------------------------------------------------------------ betting
def blind_seats(st: State) -> tuple[int, int]:
    """(small blind, big blind): heads-up the button posts the small blind."""
    if st.n == 2:
        return st.button, 1 - st.button
    return (st.button + 1) % st.n, (st.button + 2) % st.n


def post_blinds(st: State, small_blind: int, big_blind: int) -> None:
    """Post both blinds as this round's first contributions; the big blind is the
    round's first (full) bet, so the limit cap counts it and raises build on it."""
    small, big = blind_seats(st)
    for seat, amount, name in ((small, small_blind, "small blind"), (big, big_blind, "big blind")):
        paid = st.put_in(seat, amount)
        st.contrib[seat] += paid
        st.log(Event(EventKind.BLIND, seat=seat, amount=paid, text=name, street=0))
    st.current_bet = max(st.contrib)
    st.bets = 1


def first_preflop(st: State) -> int:
    """Left of the big blind (heads-up: the button)."""
    return (blind_seats(st)[1] + 1) % st.n


def first_after_flop(st: State) -> int:
    """Left of the button (the round skips seats that cannot act)."""
    return (st.button + 1) % st.n


OPENERS = {AFTER_BIG_BLIND: first_preflop, AFTER_BUTTON: first_after_flop}


def bet_unit(options: ChowahaOptions, bet: str) -> int:
    """The round's bet: the big blind (limit small bet, big-bet games' minimum bet), or
    twice it (limit big bet on the last two rounds)."""
    return options.big_blind * (2 if bet == BIG and options.betting == LIMIT else 1)


def betting_rounds(options: ChowahaOptions, streets: tuple[Street, ...], num_players: int) -> list[Step]:
    """Hole cards, blinds and four rounds, each after its part of the layout."""
    rules = options.bet_rules()
    blinds = functools.partial(post_blinds, small_blind=options.small_blind, big_blind=options.big_blind)
    steps: list[Step] = [DealHoleCards(label=streets[0].label, count=hole_count(options, num_players))]
    for index, street in enumerate(streets):
        if street.community:
            steps.append(TurnLayout(street=index, label=street.label, positions=street.community))
        steps.append(
            Betting(
                street=index,
                label=street.label,
                unit=bet_unit(options, street.bet),
                opener=OPENERS[street.opener],
                rules=rules,
                forced=blinds if index == 0 else None,
            )
        )
    return steps


# ------------------------------------------------------------------ showdown
class BestHands(NamedTuple):
    """A seat's best high and low: value, board (0-3; -1 no low) and the five cards."""

    high: int
    high_board: int
    high_cards: tuple[int, ...]
    low: int
    low_board: int
    low_cards: tuple[int, ...]


@dataclass
class ChowahaState:
    """Chowaha's own state: every live seat's best hands, computed once per showdown."""

    best_hands: dict[int, BestHands] | None = None


def boards(st: State) -> np.ndarray:
    """The four five-card boards of a complete layout, shape (4, 5)."""
    return np.asarray(st.community)[np.asarray(BOARDS)]


def best_hands(st: State) -> dict[int, BestHands]:
    """Every live seat's best hands, computed once per showdown (kept in the family state)."""
    cached: dict[int, BestHands] | None = st.family.best_hands
    if cached is None:
        live = st.live()
        r = best_board_hands(np.asarray([st.cards[s] for s in live]), boards(st), validate=False)
        cached = {
            seat: BestHands(
                int(r.high[i]),
                int(r.high_board[i]),
                tuple(r.high_cards[i].tolist()),
                int(r.low[i]),
                int(r.low_board[i]),
                tuple(r.low_cards[i].tolist()),
            )
            for i, seat in enumerate(live)
        }
        st.family.best_hands = cached
    return cached


def describe_hand(best: BestHands, low: bool) -> str:
    """'ace-high flush, board 4 (Ac 3c Qc Jc Tc)'; 'no low'."""
    if low:
        if best.low == NO_LOW:
            return "no low"
        return f"{describe_low(best.low)}, board {best.low_board + 1} ({format_cards(best.low_cards)})"
    return f"{describe_high(best.high)}, board {best.high_board + 1} ({format_cards(best.high_cards)})"


def button_order(st: State, seat: int) -> int:
    """Odd-chip order: the first seat clockwise from the button comes first."""
    return (seat - st.button - 1) % st.n


def _high(st: State, seat: int) -> int:
    return best_hands(st)[seat].high


def _low(st: State, seat: int) -> int:
    return best_hands(st)[seat].low


HIGH_SHARE = Share(name="high", value=_high, tie_order=button_order, direction=HIGH)
LOW_SHARE = Share(name="low", value=_low, tie_order=button_order, direction=LOW)


def shares(st: State, hi_lo: bool) -> tuple[Share, ...]:
    """High (and eight-or-better low) from each seat's best two-plus-three hands.

    Called once when the showdown starts, after the hands are shown; it evaluates
    every live hand and notes each one's best high and low in the history.
    """
    best = best_hands(st)
    for seat in seats_from_left_of_button(st):
        if seat in best:
            text = "high: " + describe_hand(best[seat], False)
            if hi_lo:
                text += "; low: " + describe_hand(best[seat], True)
            st.log(Event(EventKind.NOTE, seat=seat, text=text, street=st.street))
    return (HIGH_SHARE, LOW_SHARE) if hi_lo else (HIGH_SHARE,)


def pot_shares(options: ChowahaOptions) -> tuple[PotShare, ...]:
    """High, and (``hi_lo``) the eight-or-better low."""
    high = PotShare(name="high", hand="high")
    return (high, PotShare(name="low", hand="low", qualifier=LOW_QUALIFIER)) if options.hi_lo else (high,)


def describe_award(st: State, seat: int, share: int) -> str:
    """The winning hand of an award: its board and cards."""
    return describe_hand(best_hands(st)[seat], low=share == 1)


# ------------------------------------------------------------------ variant
def build_chowaha(variant: Variant, num_players: int, options: ChowahaOptions) -> Program:
    """Ante, hole cards, four rounds of blinds/layout and betting, showdown."""
    steps: list[Step] = [Ante(amount=options.ante)]
    steps += betting_rounds(options, variant.streets, num_players)
    steps.append(Showdown(shares=functools.partial(shares, hi_lo=options.hi_lo), describe=describe_award))
    sized = options.betting != LIMIT
    names = action_names(BETTING_ACTIONS, options.bet_sizes if sized else (), all_in=options.betting == NO_LIMIT)
    return Program(tuple(steps), options.big_blind, names)
