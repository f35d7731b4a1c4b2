"""The Cowboy family's own state: the deal in progress and what everyone has seen.

Public facts about the current deal live here, typed, so that observation pieces and
bots' views read them without touching anything secret: the deal number and phase,
who stayed, how many cards each drew, who chooses the dummy's draw, and a summary of
every showdown so far.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PHASES = ("stay", "draw", "declare", "dummy")  # the phases a player can act in ("over" ends the game)


@dataclass(frozen=True)
class DealSummary:
    """What everyone saw at one deal's showdown (the observation's summary of past deals).

    Attributes:
        deal: the deal number.
        shown: per seat the five cards shown, or () for a seat that folded.
        declared: per seat 0 low, 1 high, 2 both, or None for a seat that folded.
        won: per seat (won or tied the high share, won or tied the low share).
        paid: per seat the chips paid to match the pot (0 until the deal is settled).
        dummy: the dummy's final hand, or () without a dummy.
    """

    deal: int
    shown: tuple[tuple[int, ...], ...]
    declared: tuple[int | None, ...]
    won: tuple[tuple[bool, bool], ...]
    paid: tuple[int, ...]
    dummy: tuple[int, ...] = ()


@dataclass(frozen=True)
class ShowdownResult:
    """What the showdown decided, for :class:`~.showdown.Settle` to pay out."""

    pot: int
    winners: list[list[int]]  # per share (high, low) the winning seats
    values: list[list[int]]  # per share, per seat the hand's value


@dataclass
class CowboyState:
    """The game in progress (one state spans every deal of a Cowboy game).

    Attributes:
        deal: the deal number (1, 2, ...; 0 before the first).
        phase: "stay", "draw", "declare", "dummy" or "over".
        stay: per seat True (stayed), False (folded) or None (not asked yet).
        drawn: per seat the number of cards drawn this deal (None: not yet).
        dummy_drawn: the same for the dummy.
        dummy_chooser: the seat choosing the dummy's draw (None: nobody).
        summaries: every showdown so far.
        ante_due: the seats that ante at the next deal (None: everyone).
        showdown: this deal's showdown until it is settled.
        seed: the game's private generator seed (drawn at the first deal).
    """

    deal: int = 0
    phase: str = ""
    stay: list[bool | None] = field(default_factory=list)
    drawn: list[int | None] = field(default_factory=list)
    dummy_drawn: int | None = None
    dummy_chooser: int | None = None
    summaries: list[DealSummary] = field(default_factory=list)
    ante_due: list[int] | None = None
    showdown: ShowdownResult | None = None


def public_facts(st: Any, seat: int) -> dict[str, Any]:
    """What a seat's view shows of the game (the bots' ``view.extra``): the deal, its
    phase, who stayed, how many cards each drew, every seat's net chips, the showdowns
    so far, and the dummy's cards only to the seat choosing its draw."""
    game: CowboyState = st.family
    out: dict[str, Any] = {
        "deal": game.deal,
        "phase": game.phase,
        "stayed": tuple(game.stay),
        "drawn": tuple(game.drawn),
        "net": tuple(st.stack[s] - st.start_stack[s] for s in range(st.n)),
        "summaries": tuple(game.summaries),
    }
    if game.dummy_chooser == seat and "dummy" in st.piles:
        out["dummy_cards"] = tuple(st.piles["dummy"])
    return out


def facts_from_data(extra: dict[str, Any]) -> dict[str, Any]:
    """:func:`public_facts` from plain data (lists for tuples, dicts for summaries)."""
    summaries = extra.get("summaries", ())
    return {**extra, "summaries": tuple(DealSummary(**{k: _tuples(v) for k, v in s.items()}) for s in summaries)}


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value
