"""The event log: everything that happened in a hand, in order.

Events are small named tuples so that logging costs little. Their ``kind`` is an
:class:`EventKind` and a player's choice carries a :class:`Verb`, so code that reads
the log (observations, histories, decision counts) switches on typed values, never on
English text; ``text`` is only for people. ``secret`` events (a burned card, a
declaration or a Cowpie split before the reveal, a Cowboy discard) are in the log for
replay and debugging but must not reach other players' observations or histories
shown to them.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple


class EventKind(StrEnum):
    """What an event records (a ``str``: ``kind == "deal"`` works too)."""

    START = "start"  # seat = button, amount = number of players
    ANTE = "ante"
    BLIND = "blind"
    DEAL = "deal"  # one card to seat; up tells face up
    COMMUNITY = "community"  # a shared card; text names its position
    BURN = "burn"
    ACTION = "action"  # a betting action: verb, amount = the seat's total bet this street
    DECLARE = "declare"  # secret until the reveal
    REVEAL = "reveal"
    SPLIT = "split"  # Cowpie, secret until the reveal
    SPLIT_REVEAL = "split_reveal"
    SHOW = "show"  # cards: everything the seat shows
    AWARD = "award"  # amount won, text what for
    STREET = "street"  # a new street or phase begins (text)
    SHUFFLE = "shuffle"  # every card is gathered and shuffled again (a new Cowboy deal)
    DRAW = "draw"
    STAY = "stay"
    RESHUFFLE = "reshuffle"
    DUMMY = "dummy"
    NOTE = "note"
    CHOOSE = "choose"  # dealer's choice: seat = button, action = choose_<game>, text = the game's title
    END = "end"


class Verb(IntEnum):
    """A player's choice as it appears in the log."""

    NONE = 0
    FOLD = 1
    CHECK = 2
    CALL = 3
    BRING_IN = 4
    COMPLETE = 5  # the stud bring-in completed to a full bet: the opening bet
    BET = 6
    RAISE = 7
    DECLARE_LOW = 8
    DECLARE_HIGH = 9
    DECLARE_BOTH = 10
    STAY = 11
    SPLIT = 12
    ILLEGAL_SPLIT = 13  # Cowpie with illegal_split="forfeit": wins neither half
    DRAW = 14
    CHOOSE = 15  # dealer's choice: the button names the game (a rotation or a draw logs Verb.NONE)


BETTING_VERBS = (Verb.FOLD, Verb.CHECK, Verb.CALL, Verb.BRING_IN, Verb.COMPLETE, Verb.BET, Verb.RAISE)
AGGRESSIVE_VERBS = (Verb.COMPLETE, Verb.BET, Verb.RAISE)
DECLARE_VERBS = (Verb.DECLARE_LOW, Verb.DECLARE_HIGH, Verb.DECLARE_BOTH)  # in declaration-value order


class Event(NamedTuple):
    """One thing that happened (see :class:`EventKind` for what each kind carries)."""

    kind: EventKind
    seat: int = -1
    cards: tuple[int, ...] = ()
    amount: int = 0
    action: int = -1
    up: bool = False
    text: str = ""
    street: int = -1
    secret: bool = False
    verb: Verb = Verb.NONE
