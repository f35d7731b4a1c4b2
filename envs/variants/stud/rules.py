"""The stud family's rules: options, dealing by streets, who opens, bet sizes, shares.

Every stud variant is a tuple of :class:`~envs.engine.variant.Street` (what each
street deals, face up or down, its bet size and who opens it) plus a
:class:`StudKind` (which hands win). The steps here read that data and the options
once, when the program is built; at run time they only read the state.

Rules common to the family (docs/rules.md sections 1-3, 8 and 10):

* an ante from everyone (``ante``); cards are dealt one at a time clockwise from the
  seat left of the button, street by street, to the players still in;
* the first street is the forced-bet round: the lowest up card brings in (aces high,
  clubs < diamonds < hearts < spades; razz: the highest, aces low, the king of spades
  highest). The bring-in player posts ``bring_in`` or completes to the small bet and
  cannot fold; completing is the opening bet. ``bring_in=None``: no forced bet, the
  best up card (razz: the lowest) acts first and may check, by rank only;
* later streets: the best showing hand acts first (razz: the lowest, pairs count
  against); ties, here and on the first street without a bring-in, go to the first
  seat clockwise from the button;
* fixed limit: each street's bet is ``small_bet`` or ``big_bet``; at most
  ``raise_cap`` bets and raises a street (no cap heads-up unless ``cap_heads_up``);
  ``open_pair_big_bet``: an open pair showing on the marked street makes that round's
  bets big bets;
* ``burn_cards`` burns a card before each street. Seven-card stud: burned cards are
  reused, in the order they were burned, when the stub runs short at seventh street
  (after the stub's own cards), and if it is still short one
  community card is dealt face up for everyone. Five-card stud: a burn is taken only
  from cards the hand cannot need (the stub must still hold every card still to be
  dealt to the players in), so ten players always get their five cards;
* showdown by the variant's shares; odd chips to the high half, within a tie to the
  player with the highest card by suit (low half: the lowest card, aces low).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from envs.engine.actions import DECLARE_ACTIONS, HIGH, LOW, action_names
from envs.engine.betting import LIMIT, BetRules, Betting
from envs.engine.cards import JOKER, RANKS, SUITS
from envs.engine.events import Event, EventKind
from envs.engine.game import Step
from envs.engine.hands import describe_high, describe_low, high_value, low_threshold, low_value
from envs.engine.hands.short import evaluate_short
from envs.engine.hands.wild import WildRules
from envs.engine.options import (
    DEFAULT_STACK,
    check_bool,
    check_button,
    check_choice,
    check_int,
    check_stack,
    quoted,
    resolve_stack,
)
from envs.engine.pots import Share
from envs.engine.state import State
from envs.engine.steps import Ante, Declare, Showdown, seats_from_left_of_button
from envs.engine.variant import BIG, BRING_IN, DOWN, UP, PotShare, Program, Street, Variant
from envs.engine.wild_options import wild_options_class, wild_rules
from envs.variants.stud.wild import (
    bring_in_key,
    describe_wild_share,
    showing_candidates,
    shows_pair,
    wild_shares,
    wild_suit,
)

SWING_RULES = ("win_or_tie", "outright")
ACE_OF_CLUBS = 48


@dataclass(frozen=True)
class StudOptions:
    """Options of the stud family (chips are integers; see docs/rules.md sections 1-3).

    ``stack``: chips per seat (one int, or one per seat); the default is 100 big bets;
    ``None`` means unlimited chips (then, heads-up with no cap, a hand lasts as long as
    both players keep raising).

    ``up_by_street`` changes what a seat observes, never the game: the observation gains
    an ``up_by_street`` piece, the other seats' up cards in the order they were dealt
    (:class:`~envs.variants.stud.pieces.UpByStreet`). The ``up_cards`` piece shows them
    as a set, so two hands that differ only in which card was showing during an earlier
    betting round look alike; the piece tells them apart (perfect recall of the board).
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
    up_by_street: bool = False

    def __post_init__(self) -> None:
        check_int("ante", self.ante, 0, MAX_CHIPS)
        check_int("small_bet", self.small_bet, 1, MAX_CHIPS)
        check_int("big_bet", self.big_bet, self.small_bet, MAX_CHIPS)
        check_int("bring_in", self.bring_in, 1, self.small_bet, allow_none=True)
        check_int("raise_cap", self.raise_cap, 1, allow_none=True)
        for name in ("cap_heads_up", "open_pair_big_bet", "burn_cards", "up_by_street"):
            check_bool(name, getattr(self, name))
        resolve_stack(self, self.big_bet)
        check_stack(self.stack, MAX_CHIPS)
        check_int("low_qualifier", self.low_qualifier, 5, 13, allow_none=True)
        check_choice("swing_rule", self.swing_rule, SWING_RULES)
        check_button(self.button)

    def bet_rules(self) -> BetRules:
        """The fixed-limit structure these options describe."""
        return BetRules(
            structure=LIMIT, raise_cap=self.raise_cap, cap_heads_up=self.cap_heads_up, bring_in=self.bring_in
        )


WildStudOptions = wild_options_class(StudOptions, "WildStudOptions", __name__)

# Bets, antes and stacks: far beyond any real game, and small enough that a hand's
# payoffs in big bets, their squares and sums over millions of hands stay finite floats
# (the Cowboy family bounds its pots the same way).
MAX_CHIPS = 10**150


@dataclass(frozen=True)
class ToyOptions(StudOptions):
    """Toy stud's options (docs/rules.md section 10): stud's, plus the deck and the length.

    Attributes:
        ranks: the ranks in the deck, e.g. ``"JQKA"`` (2 to 13 distinct of ``23456789TJQKA``).
        suits: the suits, e.g. ``"cdh"`` (1 to 4 distinct of ``cdhs``).
        streets: betting rounds: 1 (one down and one up card), 2 (and one more up
            card) or 3 (and a third up card).
    """

    ranks: str = "JQKA"
    suits: str = "cdh"
    streets: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_letters("ranks", self.ranks, RANKS, 2)
        _check_letters("suits", self.suits, SUITS, 1)
        check_int("streets", self.streets, 1, 3)
        cards, needed = len(self.ranks) * len(self.suits), 2 * (self.streets + 1)
        if cards < needed:
            raise ValueError(
                f"options ranks={self.ranks!r} and suits={self.suits!r} make a deck of {cards} cards: "
                f"expected at least {needed} (two players, {self.streets + 1} cards each with streets={self.streets})"
            )


def _check_letters(name: str, value: Any, alphabet: str, fewest: int) -> None:
    ok = isinstance(value, str) and len(set(value)) == len(value) >= fewest and set(value) <= set(alphabet)
    if not ok:
        raise ValueError(
            f"option {name}={quoted(value)} is not allowed: expected {fewest} or more distinct letters of {alphabet!r}"
        )


def toy_deck(options: ToyOptions) -> tuple[int, ...]:
    """The toy's cards: every chosen rank in every chosen suit."""
    return tuple(sorted(RANKS.index(r) * 4 + SUITS.index(s) for r in options.ranks for s in options.suits))


def first_streets(options: ToyOptions, streets: tuple[Street, ...]) -> tuple[Street, ...]:
    """The first ``options.streets`` streets (the toy's length is an option)."""
    return streets[: options.streets]


# ------------------------------------------------------------------ dealing
@dataclass(frozen=True, kw_only=True)
class StudDeal(Step):
    """Deal one street, one card at a time, clockwise from the seat left of the button."""

    index: int
    street: Street
    burn: bool  # the burn_cards option
    spare_burns: bool  # five-card stud: burn only cards the hand cannot need
    still_to_deal: int  # cards per player in this street and the later ones

    def start(self, st: State) -> None:
        st.log(Event(EventKind.STREET, text=self.street.label, street=self.index))
        live = [s for s in seats_from_left_of_button(st) if not st.folded[s]]
        if self.burn and st.stub and (not self.spare_burns or len(st.stub) > self.still_to_deal * len(live)):
            card = st.deal_card()
            st.burned.append(card)
            st.log(Event(EventKind.BURN, cards=(card,), street=self.index, secret=True))
        if self.street.community_when_short and len(st.stub) < len(live):
            _reuse_burned(st)
            if len(st.stub) < len(live):
                card = st.deal_card()
                st.community.append(card)
                text = "community card"
                st.log(Event(EventKind.COMMUNITY, cards=(card,), up=True, text=text, street=self.index))
                return
        for up in self.street.deal:
            for seat in live:
                card = st.deal_card()
                st.cards[seat].append(card)
                st.up[seat].append(up)
                st.log(Event(EventKind.DEAL, seat=seat, cards=(card,), up=up, street=self.index))


def _reuse_burned(st: State) -> None:
    """Short stub at seventh street: the burned cards go under the stub in the order
    they were burned (after the stub's own cards, the first card burned is dealt first).

    They left a shuffled deck face down and nobody saw them, so their burn order is
    already uniformly random to every player: a second shuffle would add nothing
    anyone can tell, and without one the hand is a function of its deck order alone,
    so an explicit deck (and the batched engine, which deals from decks) plays it the same."""
    if not st.burned:
        return
    burned = list(st.burned)  # top first: the order they are dealt in
    st.log(Event(EventKind.RESHUFFLE, cards=tuple(burned), text="burned cards reused", secret=True))
    st.stub[:0] = burned[::-1]  # the stub's last card is its top
    st.burned = []


# ----------------------------------------------------------------- openers
def ace_low(card: int) -> int:
    """Card order with aces low (razz): rank first, then suit."""
    return (((card >> 2) + 1) % 13) * 4 + (card & 3)


def up_cards(st: State, seat: int) -> list[int]:
    """A seat's face-up cards in dealt order."""
    return [c for c, u in zip(st.cards[seat], st.up[seat], strict=True) if u]


def _first_best(st: State, key: Any, best: Any) -> int:
    """The live seat with the best key (``best`` = min or max); ties to the first seat
    clockwise from the button."""
    n, folded = st.n, st.folded
    keyed = [(key(s), s) for s in ((st.button + 1 + i) % n for i in range(n)) if not folded[s]]
    target = best(k for k, _ in keyed)
    return next(s for k, s in keyed if k == target)


def bring_in_seat(st: State, low_game: bool, rules: WildRules | None = None) -> int:
    """Lowest up card by suit (stud); highest with aces low (razz). Suits break ties.
    A wild up card is an ace (stud) or the lowest card (razz): it never brings in
    while a natural up card can (docs/rules.md section 11)."""
    if rules is not None:
        key = functools.partial(bring_in_key, low_game=low_game, rules=rules)
        return _first_best(st, lambda s: key(up_cards(st, s)[0]), max if low_game else min)
    if low_game:
        return _first_best(st, lambda s: ace_low(up_cards(st, s)[0]), max)
    return _first_best(st, lambda s: up_cards(st, s)[0], min)


def showing_key(cards: list[int], ace_low: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Comparable strength of up cards (no straights or flushes): the count pattern
    (quads > trips > two pair > pair > no pair), then ranks by count and rank."""
    counts: dict[int, int] = {}
    for c in cards:
        r = ((c >> 2) + 1) % 13 if ace_low else c >> 2
        counts[r] = counts.get(r, 0) + 1
    ordered = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return tuple(n for n, _ in ordered), tuple(r for _, r in ordered)


def best_showing(st: State, low_game: bool, rules: WildRules | None = None) -> int:
    """Best showing hand acts first (razz: the lowest, pairs counting against); by rank
    only, so with one up card each this is also the first street without a bring-in.
    Wild up cards count at their best value (docs/rules.md section 11)."""
    if rules is not None:
        best = min if low_game else max

        def key(seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
            made = showing_candidates(up_cards(st, seat), low_game, rules)
            return best(showing_key(cards, low_game) for cards in made)

        return _first_best(st, key, best)
    return _first_best(st, lambda s: showing_key(up_cards(st, s), low_game), min if low_game else max)


def open_pair_unit(st: State, small: int, big: int, rules: WildRules | None = None) -> int:
    """The big bet when a live player shows an open pair (a wild up card pairs any
    other), else the small bet."""
    for s in st.live():
        if shows_pair(up_cards(st, s), rules):
            return big
    return small


def betting_rounds(streets: tuple[Street, ...], options: StudOptions, low_game: bool, spare_burns: bool) -> list[Step]:
    """A dealing step and a betting round for every street."""
    rules = options.bet_rules()
    wild = wild_rules(options)
    extra = {} if wild is None else {"rules": wild}  # keeps the plain games' partials as they were
    per_street = [len(s.deal) for s in streets]
    steps: list[Step] = []
    for index, street in enumerate(streets):
        bring_in = street.opener == BRING_IN and options.bring_in is not None
        opener = functools.partial(bring_in_seat if bring_in else best_showing, low_game=low_game, **extra)  # type: ignore[arg-type]
        unit = options.big_bet if street.bet == BIG else options.small_bet
        rule = None
        if street.open_pair_big_bet and options.open_pair_big_bet:
            rule = functools.partial(open_pair_unit, small=unit, big=options.big_bet, **extra)  # type: ignore[arg-type]
        deal = StudDeal(
            index=index,
            street=street,
            burn=options.burn_cards,
            spare_burns=spare_burns,
            still_to_deal=sum(per_street[index:]),
        )
        steps.append(deal)
        steps.append(
            Betting(
                street=index,
                label=street.label,
                unit=unit,
                unit_rule=rule,
                opener=opener,
                rules=rules,
                bring_in=bring_in,
            )
        )
    return steps


# ------------------------------------------------------------------ showdown
def all_cards(st: State, seat: int) -> list[int]:
    """A seat's cards plus the community card, if one was dealt."""
    return st.cards[seat] + st.community


def _high(st: State, seat: int) -> int:
    return high_value(all_cards(st, seat))


def _odd_chip_high(card: int) -> int:
    """Card order for the high odd chip: rank, then suit; the joker is an ace below
    the ace of clubs (its suit is below clubs, docs/rules.md section 11)."""
    return card * 2 if card != JOKER else ACE_OF_CLUBS * 2 - 1


def _odd_chip_low(card: int) -> int:
    """Card order for the low odd chip (aces low): the joker, an ace below clubs, first."""
    return ace_low(card) if card != JOKER else wild_suit(card)


def _highest_card_first(st: State, seat: int) -> int:
    return -max(_odd_chip_high(c) for c in st.cards[seat])


def _lowest_card_first(st: State, seat: int) -> int:
    return min(_odd_chip_low(c) for c in st.cards[seat])


def _low(st: State, seat: int, threshold: int) -> int:
    return low_value(all_cards(st, seat), threshold)


def _short(st: State, seat: int) -> int:
    return int(evaluate_short(all_cards(st, seat)))


def high_share() -> Share:
    """Best five-card high; odd chips to the highest card by suit."""
    return Share(name="high", value=_high, tie_order=_highest_card_first, direction=HIGH)


def low_share(qualifier: int | None) -> Share:
    """Best ace-to-five low (optionally qualified); odd chips to the lowest card, aces low."""
    threshold = 0 if qualifier is None else low_threshold(qualifier)
    value = functools.partial(_low, threshold=threshold)
    return Share(name="low", value=value, tie_order=_lowest_card_first, direction=LOW)


def short_share() -> Share:
    """Best short hand (toy stud); odd chips as stud high."""
    return Share(name="high", value=_short, tie_order=_highest_card_first, direction=HIGH)


@dataclass(frozen=True, kw_only=True)
class StudKind:
    """Which hands win, and the family rules that are not street data."""

    low_game: bool = False  # razz: bring-in and first to act reversed, low hands
    hi_lo: bool = False
    declare: bool = False
    short_hands: bool = False  # toy stud: fewer than five cards, rank-only hands
    spare_burns: bool = False  # five-card stud: burn only cards the hand cannot need

    def shares(self, qualifier: int | None) -> tuple[Share, ...]:
        """High, low or both (with the game's qualifier)."""
        if self.short_hands:
            return (short_share(),)
        if self.low_game:
            return (low_share(None),)
        if self.hi_lo:
            return (high_share(), low_share(qualifier))
        return (high_share(),)

    def pot_shares(self, options: StudOptions) -> tuple[PotShare, ...]:
        """The shares as bots read them."""
        if self.short_hands:
            return (PotShare(name="high", hand="short"),)
        if self.low_game:
            return (PotShare(name="low", hand="low"),)
        high = PotShare(name="high", hand="high", declared=self.declare)
        if self.hi_lo:
            low = PotShare(name="low", hand="low", qualifier=options.low_qualifier, declared=self.declare)
            return (high, low)
        return (high,)


def _fixed_shares(st: State, shares: tuple[Share, ...]) -> tuple[Share, ...]:
    return shares


def describe_share(st: State, seat: int, share: int, kind: StudKind) -> str:
    """Readable hand for the history: 'two pair, kings and nines' or '8-5-4-3-A'."""
    cards = all_cards(st, seat)
    if kind.short_hands:
        return _describe_short(cards)
    if kind.low_game or share == 1:
        return describe_low(low_value(cards))
    return describe_high(high_value(cards))


def _describe_wild(st: State, seat: int, share: int, kind: StudKind, rules: WildRules) -> str:
    return describe_wild_share(st, seat, share, kind.low_game or share == 1, rules)


def _describe_short(cards: list[int]) -> str:
    from envs.engine.cards import RANK_NAMES, RANK_PLURALS

    pattern, ranks = showing_key(cards, ace_low=False)
    if pattern[0] == 3:
        return f"three {RANK_PLURALS[ranks[0]]}"
    if pattern[:2] == (2, 2):
        return f"two pair, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[1]]}"
    if pattern[0] == 2:
        return f"a pair of {RANK_PLURALS[ranks[0]]}"
    return f"{RANK_NAMES[ranks[0]]} high"


def build_stud(variant: Variant, num_players: int, options: StudOptions, kind: StudKind) -> Program:
    """Antes, the dealt streets with betting, (declaration), showdown."""
    streets = variant.streets_for(options)
    steps: list[Step] = [Ante(amount=options.ante)]
    steps += betting_rounds(streets, options, kind.low_game, kind.spare_burns)
    if kind.declare:
        steps.append(Declare())
    qualifier = getattr(options, "low_qualifier", None)
    shares = kind.shares(qualifier)
    describe: Any = functools.partial(describe_share, kind=kind)
    wild = wild_rules(options)
    if wild is not None:
        shares = wild_shares(shares, wild, qualifier)
        describe = functools.partial(_describe_wild, kind=kind, rules=wild)
    steps.append(
        Showdown(
            shares=functools.partial(_fixed_shares, shares=shares),
            describe=describe,
            declare=kind.declare,
            swing_rule=options.swing_rule,
        )
    )
    return Program(tuple(steps), options.big_bet, action_names(DECLARE_ACTIONS))


def stud_program(kind: StudKind) -> Any:
    """The builder of a stud variant of this kind."""
    return functools.partial(build_stud, kind=kind)


__all__ = [
    "DOWN",
    "UP",
    "StudKind",
    "StudOptions",
    "ToyOptions",
    "WildStudOptions",
    "best_showing",
    "betting_rounds",
    "build_stud",
    "high_share",
    "showing_key",
]
