"""Cowpie: seven-card stud high where everyone splits their seven cards into a five-card
and a two-card hand, and each hand wins half of the pot. docs/rules.md section 4.

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
from dataclasses import dataclass, field, replace

import numpy as np

from envs.engine.actions import SPLIT_ACTIONS, SPLIT_BASE, SPLIT_PAIRS, action_names
from envs.engine.betting import Betting
from envs.engine.cards import RANK_NAMES, RANK_PLURALS, format_card, format_cards
from envs.engine.events import Event, EventKind, Verb
from envs.engine.game import Step
from envs.engine.hands import cowpie_splits, describe_high
from envs.engine.hands.wild import WildRules, two_card_ranks
from envs.engine.hands.wild_split import wild_splits
from envs.engine.options import check_bool, check_choice
from envs.engine.pots import Share
from envs.engine.state import State
from envs.engine.steps import Ante, Showdown, seats_from_left_of_button
from envs.engine.variant import BEST_SHOWING, BIG, PotShare, Program, Street, Variant
from envs.engine.wild_options import wild_options_class, wild_rules
from envs.variants.stud.rules import StudOptions, best_showing, betting_rounds, high_share
from envs.variants.stud.variants import SEVEN_CARD_STREETS

ILLEGAL_SPLIT_RULES = ("mask", "forfeit")
SPLIT_PHASE = "split"  # the street label of the split (observation one-hot, history)
AFTER_SPLIT = "after the split"  # the optional sixth betting round
AFTER_SPLIT_STREET = len(SEVEN_CARD_STREETS)  # its street index (5)
ALL_SPLITS = list(range(SPLIT_BASE, SPLIT_BASE + len(SPLIT_PAIRS)))
# Cowpie's rounds: stud's five streets, then (bet_after_split) a round that deals nothing
STREETS = (*SEVEN_CARD_STREETS, Street(label=AFTER_SPLIT, bet=BIG, opener=BEST_SHOWING))


@dataclass(frozen=True)
class CowpieOptions(StudOptions):
    """Stud's options plus the two Cowpie house rules (docs/rules.md section 4).

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


WildCowpieOptions = wild_options_class(CowpieOptions, "WildCowpieOptions", __name__)


def active_streets(options: CowpieOptions) -> tuple[Street, ...]:
    """Stud's five streets, and the round after the split when there is one."""
    return STREETS if options.bet_after_split else STREETS[:AFTER_SPLIT_STREET]


def street_labels(streets: tuple[Street, ...]) -> tuple[str, ...]:
    """Phases in order (observation ``street`` one-hot): stud's five, the split, and
    the betting round after it when there is one."""
    labels = [s.label for s in streets]
    return (*labels[:AFTER_SPLIT_STREET], SPLIT_PHASE, *labels[AFTER_SPLIT_STREET:])


@dataclass
class CowpieState:
    """Cowpie's own state during the split: who splits in which order, every live
    hand's 21 splits (evaluated once), and the choices made so far (secret until the
    reveal)."""

    order: list[int] = field(default_factory=list)
    tables: dict[int, SplitTable] = field(default_factory=dict)
    chosen: dict[int, int] = field(default_factory=dict)


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


def describe_two(cards: list[int], rules: WildRules | None = None) -> str:
    """``pair of aces`` or ``ace-nine`` (wild cards as they play: section 11)."""
    ranks = [c >> 2 for c in cards] if rules is None else two_card_ranks(np.array(cards), rules.wild).tolist()
    high, low = sorted(ranks, reverse=True)
    return f"pair of {RANK_PLURALS[high]}" if high == low else f"{RANK_NAMES[high]}-{RANK_NAMES[low]}"


def _tables(st: State) -> dict[int, SplitTable]:
    tables: dict[int, SplitTable] = st.family.tables
    return tables


def _chosen(st: State) -> dict[int, int]:
    chosen: dict[int, int] = st.family.chosen
    return chosen


@dataclass(frozen=True, kw_only=True)
class Split(Step):
    """Every live player splits in secret, in turn from the seat left of the button.

    All live hands are evaluated in one batched call when the phase starts; the
    choices stay in secret ``split`` events until :class:`RevealSplits`.
    """

    forfeit: bool  # illegal_split="forfeit": every split is offered

    def start(self, st: State) -> None:
        st.log(Event(EventKind.STREET, text=SPLIT_PHASE))
        order = [s for s in seats_from_left_of_button(st) if not st.folded[s]]
        # Cowpie seats at most seven players, so nobody shares a community card.
        assert all(len(st.cards[s]) == 7 for s in order), "every Cowpie hand has seven cards"
        cards = np.array([st.cards[s] for s in order])
        down = ~np.array([st.up[s] for s in order])
        rules = wild_rules(st.game.options)
        result = cowpie_splits(cards, down, validate=False) if rules is None else wild_splits(cards, down, rules)
        st.family.order = order
        st.family.tables = {
            seat: SplitTable(legal, five, two)
            for seat, legal, five, two in zip(
                order, result.legal.tolist(), result.five.tolist(), result.two.tolist(), strict=True
            )
        }
        st.family.chosen = {}

    def actor(self, st: State) -> int | None:
        chosen = _chosen(st)
        return next((s for s in st.family.order if s not in chosen), None)

    def legal(self, st: State) -> list[int]:
        if self.forfeit:
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
        verb = Verb.SPLIT if split_is_legal(st, seat) else Verb.ILLEGAL_SPLIT
        cards = (*two, *five)
        st.log(Event(EventKind.SPLIT, seat=seat, cards=cards, action=action, text=text, secret=True, verb=verb))


def split_is_legal(st: State, seat: int) -> bool:
    """Whether the seat's chosen split meets docs/rules.md section 4 (always, when masked)."""
    return _tables(st)[seat].legal[_chosen(st)[seat] - SPLIT_BASE]


def _split_text(st: State, seat: int, action: int) -> str:
    two, five = split_cards(st.cards[seat], action)
    text = f"{format_cards(five)} / {format_cards(two)}"
    return text if _tables(st)[seat].legal[action - SPLIT_BASE] else text + " (illegal: wins neither half)"


@dataclass(frozen=True, kw_only=True)
class RevealSplits(Step):
    """Every live player's split is shown at once (a public ``split_reveal`` event)."""

    def start(self, st: State) -> None:
        chosen = _chosen(st)
        for seat in st.family.order:
            if st.folded[seat]:
                continue  # a player who folded after splitting never shows the split
            action = chosen[seat]
            two, five = split_cards(st.cards[seat], action)
            text = f"splits {_split_text(st, seat, action)}"
            verb = Verb.SPLIT if split_is_legal(st, seat) else Verb.ILLEGAL_SPLIT
            st.log(Event(EventKind.SPLIT_REVEAL, seat=seat, cards=(*two, *five), action=action, text=text, verb=verb))


@dataclass(frozen=True, kw_only=True)
class Phase(Step):
    """Logs the start of a phase that deals nothing (the betting round after the split)."""

    label: str
    street: int

    def start(self, st: State) -> None:
        st.log(Event(EventKind.STREET, text=self.label, street=self.street))


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
    rules = wild_rules(st.game.options)
    if share == 0:
        value = table.five[action - SPLIT_BASE]
        hand = describe_high(value) if rules is None else rules.describe_high(value)
        return f"{hand} ({format_cards(five)})"
    return f"{describe_two(two, rules)} ({format_cards(two)})"


def build_cowpie(variant: Variant, num_players: int, options: CowpieOptions) -> Program:
    """Antes, stud's five streets, the split, (a betting round), the reveal, the showdown."""
    streets = variant.streets_for(options)
    dealing = betting_rounds(streets[:AFTER_SPLIT_STREET], options, low_game=False, spare_burns=False)
    steps: list[Step] = [Ante(amount=options.ante), *dealing, Split(forfeit=options.illegal_split == "forfeit")]
    if options.bet_after_split:
        wild = wild_rules(options)
        extra = {} if wild is None else {"rules": wild}
        opener = functools.partial(best_showing, low_game=False, **extra)  # type: ignore[arg-type]
        steps.append(Phase(label=AFTER_SPLIT, street=AFTER_SPLIT_STREET))
        steps.append(
            Betting(
                street=AFTER_SPLIT_STREET,
                label=AFTER_SPLIT,
                unit=options.big_bet,
                opener=opener,
                rules=options.bet_rules(),
            )
        )
    steps.append(RevealSplits())
    steps.append(Showdown(shares=cowpie_shares, describe=describe_half, no_winner="every split was illegal"))
    return Program(tuple(steps), options.big_bet, action_names(SPLIT_ACTIONS))


def pot_shares(options: CowpieOptions) -> tuple[PotShare, ...]:
    """Half to the best five-card hand, half to the best two-card hand."""
    return (PotShare(name="five-card", hand="high"), PotShare(name="two-card", hand="two_card"))
