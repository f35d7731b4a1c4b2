"""Cowboy family, second half of a deal: the showdown, the dummy hand and settling
(pot shares, match payments, the pot carried to the next deal).

Pot shares use the engine's declare logic (:func:`~envs.engine.pots.share_winners` and
:func:`~envs.engine.pots.divide`): the high half among high/both declarers, the low
half among low/both declarers, one side takes everything when the other has no
eligible hand, a both-declarer must win or tie both ways (``swing_rule``). The odd
chip of the pot goes to the high half; within a tied half, to the first tied seat
clockwise from the button.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from envs.engine.actions import HIGH, LOW
from envs.engine.cards import format_cards
from envs.engine.events import Event, EventKind
from envs.engine.game import Step
from envs.engine.hands import describe_high, describe_low, high_value, low_threshold, low_value
from envs.engine.hands.wild import WildRules
from envs.engine.pots import divide, share_winners
from envs.engine.state import State
from envs.engine.steps import seats_from_left_of_button
from envs.variants.cowboy.deal import DUMMY, HAND_SIZE, end_game, pay_into_pot, split_evenly, take_cards, take_from_pot
from envs.variants.cowboy.state import DealSummary, ShowdownResult

SHARE_NAMES = ("high", "low")  # share 0 is high (it takes the odd chip), share 1 low
DIRECTIONS = (HIGH, LOW)


def low_floor(low_rule: str) -> int:
    """Smallest low value that counts: 0 for ``low_rule="a5"``, 8-7-6-5-4 for ``"a5_8"``."""
    return low_threshold(8) if low_rule == "a5_8" else 0


def hand_values(hand: Sequence[int], floor: int, rules: WildRules | None = None) -> tuple[int, int]:
    """(high, low) strength of a five-card hand; low 0 = no qualifying low (below ``floor``).
    With wild cards (docs/rules.md section 11) both are ``rules``' keys."""
    if rules is not None:
        qualifier = 8 if floor else None  # low_rule "a5_8" is the only floor
        return int(rules.high(list(hand))), int(rules.low(list(hand), qualifier))
    return high_value(hand), low_value(hand, floor)


def _describe(share: int, value: int, rules: WildRules | None = None) -> str:
    if rules is not None:
        return rules.describe_high(value) if share == 0 else rules.describe_low(value)
    return describe_high(value) if share == 0 else describe_low(value)


def _stayers(st: State) -> list[int]:
    return [s for s in seats_from_left_of_button(st) if not st.folded[s]]


@dataclass(frozen=True, kw_only=True)
class CowboyShowdown(Step):
    """Show the stayers' hands and find the share winners; deal the dummy when a seat
    folded and the game goes on (``dummy``). Chips move in :class:`Settle`."""

    swing_rule: str
    low_floor: int
    dummy: bool
    draws: bool  # the game has a draw: a folded seat chooses the dummy's
    rules: WildRules | None = None  # the wild-card house rule, if any
    contested_only = False

    def start(self, st: State) -> None:
        stayers = _stayers(st)
        st.log(Event(EventKind.STREET, text="showdown"))
        values: list[list[int]] = [[0] * st.n, [0] * st.n]
        for seat in stayers:
            hand = st.cards[seat]
            st.log(Event(EventKind.SHOW, seat=seat, cards=tuple(hand), text=format_cards(hand)))
            values[0][seat], values[1][seat] = hand_values(hand, self.low_floor, self.rules)
        winners = share_winners(stayers, values, DIRECTIONS, st.declared, self.swing_rule)
        st.family.showdown = ShowdownResult(pot=st.pot(), winners=winners, values=values)
        st.family.summaries.append(
            DealSummary(
                deal=st.family.deal,
                shown=tuple(tuple(st.cards[s]) if not st.folded[s] else () for s in range(st.n)),
                declared=tuple(st.declared),
                won=tuple((s in winners[0], s in winners[1]) for s in range(st.n)),
                paid=(0,) * st.n,
            )
        )
        final = len(stayers) == 2  # two_stay="showdown": the game ends with this deal
        if self.dummy and len(stayers) < st.n and not final:
            _deal_dummy(st, self.draws)


def _deal_dummy(st: State, draws: bool) -> None:
    """Five cards to the dummy; the first folded seat clockwise from the button chooses
    its draw when the game has one (it alone sees the dummy until it is shown)."""
    hand = sorted(take_cards(st, HAND_SIZE))
    st.piles[DUMMY] = hand
    folded = [s for s in seats_from_left_of_button(st) if st.folded[s]]
    chooser = folded[0] if draws else None
    st.family.dummy_chooser = chooser
    st.family.phase = "dummy"
    st.log(Event(EventKind.STREET, text="dummy hand"))
    owner = -1 if chooser is None else chooser
    text = f"the dummy is dealt {format_cards(hand)}"
    st.log(Event(EventKind.DUMMY, seat=owner, cards=tuple(hand), text=text, secret=True))
    if chooser is not None:
        st.log(Event(EventKind.DUMMY, seat=chooser, text="chooses the dummy's draw for the folded players"))


@dataclass(frozen=True, kw_only=True)
class Settle(Step):
    """Pay the shares, except those of winners the dummy beats; every stayer who won
    nothing (or was beaten by the dummy) pays the pot at the showdown (capped by
    ``match_cap``). The payments and the unpaid shares are the next deal's pot, which
    the folded players ante into. With exactly two stayers (``two_stay="showdown"``)
    nobody pays and the game ends."""

    match_cap: int | None
    low_floor: int
    rules: WildRules | None = None  # the wild-card house rule, if any
    contested_only = False

    def start(self, st: State) -> None:
        showdown = st.family.showdown
        assert showdown is not None
        st.family.showdown = None
        pot, winners, values = showdown.pot, showdown.winners, showdown.values
        stayers = _stayers(st)
        final = len(stayers) == 2
        beaten = _dummy_beats(st, winners, values, self.low_floor, self.rules)
        _pay_shares(st, pot, winners, values, beaten, stayers if final else [], self.rules)
        if final:
            end_game(st)
            return
        losers = [s for s in stayers if s in beaten or not any(s in w for w in winners)]
        match = pot if self.match_cap is None else min(pot, self.match_cap)
        paid = [0] * st.n
        for seat in losers:
            pay_into_pot(st, seat, match)
            paid[seat] = match
            st.log(Event(EventKind.NOTE, seat=seat, amount=match, text=f"pays {match} to match the pot"))
        summaries = st.family.summaries
        summaries[-1] = dataclasses.replace(summaries[-1], paid=tuple(paid), dummy=tuple(st.piles.get(DUMMY, ())))
        st.family.ante_due = [s for s in range(st.n) if st.folded[s]]
        text = f"the pot for deal {st.family.deal + 1} holds {st.pot()}"
        st.log(Event(EventKind.NOTE, amount=st.pot(), text=text))

    def finish(self, st: State) -> int | None:
        return 0  # the next deal


def _dummy_beats(
    st: State, winners: list[list[int]], values: list[list[int]], floor: int, rules: WildRules | None = None
) -> set[int]:
    """Show the dummy and return the share winners whose hand it beats (strictly) in the
    direction they won; a both-way winner beaten either way is beaten."""
    hand = st.piles.get(DUMMY)
    if not hand:
        return set()
    dummy = hand_values(hand, floor, rules)
    text = f"the dummy shows {format_cards(hand)}: {_describe(0, dummy[0], rules)}, low {_describe(1, dummy[1], rules)}"
    st.log(Event(EventKind.DUMMY, cards=tuple(hand), text=text))
    beaten: set[int] = set()
    for share, seats in enumerate(winners):
        for seat in seats:
            if dummy[share] > values[share][seat]:
                beaten.add(seat)
                what = f"{SHARE_NAMES[share]} ({_describe(share, values[share][seat], rules)})"
                st.log(Event(EventKind.DUMMY, seat=seat, text=f"the dummy beats its {what}: it wins nothing and pays"))
    return beaten


def _pay_shares(
    st: State,
    pot: int,
    winners: list[list[int]],
    values: list[list[int]],
    beaten: set[int],
    chop_among: list[int],
    rules: WildRules | None = None,
) -> None:
    """Pay each share winner (odd chip to the high half, then clockwise from the button);
    a beaten winner's share stays in the pot. When no declaration wins anything the pot
    stays, or is split evenly among ``chop_among`` (the last two players)."""
    key = lambda s: (s - st.button - 1) % st.n  # noqa: E731
    awards = divide(pot, winners, [key, key])
    if not awards:
        note = "no declaration wins: the pot stays" if not chop_among else "no declaration wins: the pot is split"
        st.log(Event(EventKind.NOTE, amount=pot, text=note))
        if chop_among:
            awards = [(-1, seat, chips) for seat, chips in split_evenly(st, pot, chop_among)]
    halves = len({share for share, _, _ in awards}) > 1
    for share, seat, chips in awards:
        if share < 0:
            what = "half of the pot"
        else:
            label = f"{SHARE_NAMES[share]} half of the pot" if halves else "the whole pot"
            what = f"{label} with {_describe(share, values[share][seat], rules)}"
        if seat in beaten:
            text = f"would win {chips} ({what}): it stays in the pot"
            st.log(Event(EventKind.NOTE, seat=seat, amount=chips, text=text))
            continue
        take_from_pot(st, seat, chips)
        st.log(Event(EventKind.AWARD, seat=seat, amount=chips, text=what))
