"""Seven-card stud: high (``stud``), ``razz``, high-low eight-or-better (``stud_hilo``)
and high-low with a declaration (``stud_hilo_declare``). RULES.md sections 1-3.

Rules as implemented:

* two to eight players; an ante from everyone (``ante``, default 0);
* third street: two cards down and one up, dealt one at a time clockwise from the seat
  left of the button; fourth to sixth street one card up; seventh one card down. If
  the stub holds fewer cards than players still in at seventh street (eight players
  who all stay), one community card is dealt face up for everyone. ``burn_cards``
  burns a card before each street; burned cards are reused before a community card;
* third street: the lowest up card brings in (aces high, clubs < diamonds < hearts <
  spades); in razz the highest (aces low, the king of spades highest). The bring-in
  player posts ``bring_in`` or completes to the small bet and cannot fold; completing
  is the opening bet. ``bring_in=None``: no forced bet, the highest up card (razz:
  lowest) acts first and may check, ties to the first seat clockwise from the button;
* later streets: the best showing hand acts first (razz: the lowest, pairs count
  against), ties to the first seat clockwise from the button;
* fixed limit: ``small_bet`` on third and fourth street, ``big_bet`` from fifth; at
  most ``raise_cap`` bets and raises a street (no cap heads-up unless
  ``cap_heads_up``); ``open_pair_big_bet`` (stud only): an open pair showing on fourth
  street makes that round's bets big bets;
* showdown: ``stud`` best five-card high; ``razz`` best ace-to-five low (no qualifier);
  ``stud_hilo`` half to the best high, half to the best eight-or-better low
  (``low_qualifier``), high scoops when nobody qualifies; ``stud_hilo_declare`` as
  ``stud_hilo`` after a secret declaration of low, high or both (RULES.md section 3,
  ``swing_rule``). Odd chips: the high half gets the odd chip; within a tie, the
  player with the highest card by suit (low half: lowest card, aces low).
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.engine.actions import DECLARE_ACTIONS, HIGH, LOW, action_names
from envs.engine.betting import LIMIT, BetRules, Betting
from envs.engine.events import Event
from envs.engine.hands import describe_high, describe_low, high_value, low_threshold, low_value
from envs.engine.options import (
    DEFAULT_STACK,
    check_bool,
    check_button,
    check_choice,
    check_int,
    check_stack,
    resolve_stack,
)
from envs.engine.pots import Share
from envs.engine.state import State, Step
from envs.engine.steps import Ante, Declare, Showdown, seats_from_left_of_button
from envs.variants.base import Program, Variant

STREET_NAMES = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")
DEAL_PATTERNS = ((False, False, True), (True,), (True,), (True,), (False,))  # True = face up
SEVENTH = 4
SWING_RULES = ("win_or_tie", "outright")


@dataclass(frozen=True)
class StudOptions:
    """Options of the stud family (chips are integers; see RULES.md sections 1-3).

    ``stack``: chips per seat (one int, or one per seat); the default is 100 big bets;
    ``None`` means unlimited chips (then, heads-up with no cap, a hand lasts as long as
    both players keep raising).
    """

    ante: int = 0
    bring_in: int | None = 1
    small_bet: int = 2
    big_bet: int = 4
    raise_cap: int | None = 4
    cap_heads_up: bool = False
    open_pair_big_bet: bool = False
    burn_cards: bool = False
    stack: int | tuple[int, ...] | str | None = DEFAULT_STACK
    low_qualifier: int | None = 8
    swing_rule: str = "win_or_tie"
    button: int | str = "rotate"

    def __post_init__(self) -> None:
        check_int("ante", self.ante, 0)
        check_int("small_bet", self.small_bet, 1)
        check_int("big_bet", self.big_bet, self.small_bet)
        check_int("bring_in", self.bring_in, 1, self.small_bet, allow_none=True)
        check_int("raise_cap", self.raise_cap, 1, allow_none=True)
        for name in ("cap_heads_up", "open_pair_big_bet", "burn_cards"):
            check_bool(name, getattr(self, name))
        resolve_stack(self, self.big_bet)
        check_stack(self.stack)
        check_int("low_qualifier", self.low_qualifier, 5, 13, allow_none=True)
        check_choice("swing_rule", self.swing_rule, SWING_RULES)
        check_button(self.button)

    def bet_rules(self) -> BetRules:
        """The fixed-limit structure these options describe."""
        return BetRules(LIMIT, self.raise_cap, self.cap_heads_up, self.bring_in)


COMMON_OPTIONS = frozenset(
    {"ante", "bring_in", "small_bet", "big_bet", "raise_cap", "cap_heads_up", "burn_cards", "stack", "button"}
)


# ------------------------------------------------------------------ dealing
@dataclass(frozen=True)
class StudDeal(Step):
    """Deal one street, one card at a time, clockwise from the seat left of the button."""

    street: int

    def start(self, st: State) -> None:
        options = st.game.options
        st.log(Event("street", text=STREET_NAMES[self.street], street=self.street))
        live = [s for s in seats_from_left_of_button(st) if not st.folded[s]]
        if options.burn_cards and self.street == 0:
            # The reuse shuffle at seventh street gets its own generator now, while the
            # state still has the caller's to itself: a caller drawing from it between
            # decisions would otherwise change that shuffle and the hand would not replay.
            st.extra["reuse_seed"] = int(st.rng.integers(1 << 63))
        if options.burn_cards and st.stub:
            card = st.deal_card()
            st.burned.append(card)
            st.log(Event("burn", cards=(card,), street=self.street, secret=True))
        if self.street == SEVENTH and len(st.stub) < len(live):
            _reuse_burned(st)
            if len(st.stub) < len(live):
                card = st.deal_card()
                st.community.append(card)
                st.log(Event("community", cards=(card,), up=True, text="community card", street=self.street))
                return
        for up in DEAL_PATTERNS[self.street]:
            for seat in live:
                card = st.deal_card()
                st.cards[seat].append(card)
                st.up[seat].append(up)
                st.log(Event("deal", seat=seat, cards=(card,), up=up, street=self.street))


def _reuse_burned(st: State) -> None:
    """Short stub at seventh street: burned cards go under the stub, shuffled."""
    if not st.burned:
        return
    order = np.random.default_rng(st.extra["reuse_seed"]).permutation(len(st.burned))
    burned = [st.burned[i] for i in order]
    st.log(Event("reshuffle", cards=tuple(burned), text="burned cards reused", secret=True))
    st.stub[:0] = burned
    st.burned = []


# ----------------------------------------------------------------- openers
def _ace_low(card: int) -> int:
    """Card order with aces low (razz): rank first, then suit."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


# Steps hold these option readers: attrgetters (unlike lambdas) pickle, and so do envs.
ANTE = operator.attrgetter("game.options.ante")
SMALL_BET = operator.attrgetter("game.options.small_bet")
BIG_BET = operator.attrgetter("game.options.big_bet")
SWING_RULE = operator.attrgetter("game.options.swing_rule")


def _up_cards(st: State, seat: int) -> list[int]:
    return [c for c, u in zip(st.cards[seat], st.up[seat], strict=True) if u]


def _first_best(st: State, key: Any, best: Any) -> int:
    """The live seat with the best key (``best`` = min or max); ties to the first seat
    clockwise from the button."""
    n, folded = st.n, st.folded
    keyed = [(key(s), s) for s in ((st.button + 1 + i) % n for i in range(n)) if not folded[s]]
    target = best(k for k, _ in keyed)
    return next(s for k, s in keyed if k == target)


def bring_in_seat(st: State, low_game: bool) -> int:
    """Lowest up card by suit (stud); highest with aces low (razz). Suits break ties."""
    if low_game:
        return _first_best(st, lambda s: _ace_low(_up_cards(st, s)[0]), max)
    return _first_best(st, lambda s: _up_cards(st, s)[0], min)


def first_without_bring_in(st: State, low_game: bool) -> int:
    """No bring-in: highest up card (razz: lowest) by rank only; ties clockwise."""
    if low_game:
        return _first_best(st, lambda s: _ace_low(_up_cards(st, s)[0]) >> 2, min)
    return _first_best(st, lambda s: _up_cards(st, s)[0] >> 2, max)


def showing_key(cards: list[int], ace_low: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Comparable strength of up cards (no straights or flushes): the count pattern
    (quads > trips > two pair > pair > no pair), then ranks by count and rank."""
    counts: dict[int, int] = {}
    for c in cards:
        r = ((c >> 2) + 1) % 13 if ace_low else c >> 2
        counts[r] = counts.get(r, 0) + 1
    ordered = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return tuple(n for n, _ in ordered), tuple(r for _, r in ordered)


def best_showing(st: State, low_game: bool) -> int:
    """Best showing hand acts first (razz: the lowest, pairs counting against)."""
    return _first_best(st, lambda s: showing_key(_up_cards(st, s), low_game), min if low_game else max)


def _fourth_street_unit(st: State) -> int:
    options = st.game.options
    if options.open_pair_big_bet and any(
        len(set(c >> 2 for c in _up_cards(st, s))) < len(_up_cards(st, s)) for s in st.live()
    ):
        return options.big_bet
    return options.small_bet


def betting_rounds(options: StudOptions, low_game: bool) -> list[Step]:
    """The five dealing steps and betting rounds of seven-card stud."""
    rules = options.bet_rules()
    third_opener = bring_in_seat if options.bring_in is not None else first_without_bring_in
    steps: list[Step] = []
    for street in range(5):
        if street == 0:
            unit: Any = SMALL_BET
            opener = functools.partial(third_opener, low_game=low_game)
        else:
            unit = _fourth_street_unit if street == 1 else BIG_BET
            opener = functools.partial(best_showing, low_game=low_game)
        steps.append(StudDeal(street))
        steps.append(Betting(street, STREET_NAMES[street], unit, opener, rules, bring_in=street == 0))
    return steps


# ------------------------------------------------------------------ showdown
def all_cards(st: State, seat: int) -> list[int]:
    """A seat's cards plus the community card, if one was dealt."""
    return st.cards[seat] + st.community


def high_share() -> Share:
    """Best five-card high; odd chips to the highest card by suit."""
    return Share("high", lambda st, s: high_value(all_cards(st, s)), lambda st, s: -max(st.cards[s]), HIGH)


def low_share(qualifier: int | None) -> Share:
    """Best ace-to-five low (optionally qualified); odd chips to the lowest card, aces low."""
    threshold = 0 if qualifier is None else low_threshold(qualifier)
    return Share(
        "low",
        lambda st, s: low_value(all_cards(st, s), threshold),
        lambda st, s: min(_ace_low(c) for c in st.cards[s]),
        LOW,
    )


def describe_share(st: State, seat: int, share: int, names: tuple[str, ...]) -> str:
    """Readable hand for the history: 'two pair, kings and nines' or '8-5-4-3-A'."""
    cards = all_cards(st, seat)
    if names[share] == "high":
        return describe_high(high_value(cards))
    return describe_low(low_value(cards))


@dataclass(frozen=True)
class StudKind:
    """What distinguishes the four stud variants."""

    low_game: bool = False  # razz: bring-in and first to act reversed, low hands
    hi_lo: bool = False
    declare: bool = False

    def shares(self, st: State) -> tuple[Share, ...]:
        """High, low or both, with the game's qualifier."""
        if self.low_game:
            return (low_share(None),)
        if self.hi_lo:
            return (high_share(), low_share(st.game.options.low_qualifier))
        return (high_share(),)


def build_stud(variant: Variant, num_players: int, options: StudOptions, kind: StudKind) -> Program:
    """Antes, five dealt streets with betting, (declaration), showdown."""
    steps: list[Step] = [Ante(ANTE)]
    steps += betting_rounds(options, kind.low_game)
    if kind.declare:
        steps.append(Declare())
    names = ("low",) if kind.low_game else (("high", "low") if kind.hi_lo else ("high",))
    steps.append(
        Showdown(
            shares=kind.shares,
            describe=functools.partial(describe_share, names=names),
            declare=kind.declare,
            swing_rule=SWING_RULE,
        )
    )
    return Program(tuple(steps), options.big_bet, action_names(DECLARE_ACTIONS))


def _variant(name: str, title: str, kind: StudKind, extra: frozenset[str], rules: str) -> Variant:
    return Variant(
        name=name,
        title=title,
        family="stud",
        seats=(2, 8),
        options_cls=StudOptions,
        option_names=COMMON_OPTIONS | extra,
        build=functools.partial(build_stud, kind=kind),
        rules=rules,
    )


STUD = _variant(
    "stud",
    "Seven-card stud",
    StudKind(),
    frozenset({"open_pair_big_bet"}),
    "Seven-card stud high: two down and one up, three more up, one down; best five-card hand wins.",
)
RAZZ = _variant(
    "razz",
    "Razz",
    StudKind(low_game=True),
    frozenset(),
    "Seven-card stud for the lowest ace-to-five hand; high card brings in, lowest board acts first.",
)
STUD_HILO = _variant(
    "stud_hilo",
    "Seven-card stud high-low eight-or-better",
    StudKind(hi_lo=True),
    frozenset({"low_qualifier"}),
    "Seven-card stud, pot split between the best high and the best eight-or-better low; cards speak.",
)
STUD_HILO_DECLARE = _variant(
    "stud_hilo_declare",
    "Seven-card stud high-low with a declaration",
    StudKind(hi_lo=True, declare=True),
    frozenset({"low_qualifier", "swing_rule"}),
    "Seven-card stud high-low where everyone declares low, high or both in secret before the showdown.",
)
