"""Steps shared by several variants: antes, secret declarations and the showdown."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from envs.engine.actions import DECLARATION_NAMES, DECLARE_LOW
from envs.engine.cards import format_cards
from envs.engine.events import DECLARE_VERBS, Event, EventKind
from envs.engine.game import Step
from envs.engine.pots import Share, divide, share_winners, side_pots
from envs.engine.state import State


def seats_from_left_of_button(st: State) -> list[int]:
    """All seats, clockwise, starting with the seat left of the button."""
    return [(st.button + 1 + i) % st.n for i in range(st.n)]


@dataclass(frozen=True, kw_only=True)
class Ante(Step):
    """Every player antes ``amount`` chips (all-in if the stack is short)."""

    amount: int

    def start(self, st: State) -> None:
        if self.amount <= 0:
            return
        for seat in seats_from_left_of_button(st):
            paid = st.put_in(seat, self.amount)
            st.log(Event(EventKind.ANTE, seat=seat, amount=paid))


@dataclass(frozen=True)
class Declare(Step):
    """Every live player declares low, high or both in secret; all are revealed together.

    Players choose in turn from the seat left of the button, but a choice is stored
    privately (a secret event) until everyone has chosen.
    """

    def start(self, st: State) -> None:
        st.declared = [None] * st.n
        st.declare_order = [s for s in seats_from_left_of_button(st) if not st.folded[s]]
        st.declarations_revealed = False

    def actor(self, st: State) -> int | None:
        return next((s for s in st.declare_order if st.declared[s] is None), None)

    def legal(self, st: State) -> list[int]:
        return [DECLARE_LOW, DECLARE_LOW + 1, DECLARE_LOW + 2]

    def apply(self, st: State, action: int) -> None:
        seat = self.actor(st)
        assert seat is not None
        choice = action - DECLARE_LOW
        st.declared[seat] = choice
        st.log(Event(EventKind.DECLARE, seat=seat, action=action, secret=True, verb=DECLARE_VERBS[choice]))

    def finish(self, st: State) -> int | None:
        for seat in st.declare_order:
            choice = st.declared[seat]
            assert choice is not None
            action, text, verb = DECLARE_LOW + choice, DECLARATION_NAMES[choice], DECLARE_VERBS[choice]
            st.log(Event(EventKind.REVEAL, seat=seat, action=action, text=text, verb=verb))
        st.declare_order = []
        st.declarations_revealed = True
        return None


@dataclass(frozen=True, kw_only=True)
class Showdown(Step):
    """Award every pot: to the last player left, or by the variant's shares.

    ``shares`` gives the ways to win part of each pot; ``declare`` makes the players'
    declarations decide who competes for which share (``swing_rule`` as docs/rules.md 3).
    ``describe`` names a seat's hand for a share in the history; ``no_winner`` says
    why a pot that nobody can win is chopped among its players.
    """

    shares: Callable[[State], tuple[Share, ...]]
    describe: Callable[[State, int, int], str]
    declare: bool = False
    swing_rule: str = "win_or_tie"
    no_winner: str = "no declaration won"
    contested_only = False

    def start(self, st: State) -> None:
        live = st.live()
        if len(live) == 1:
            st.won[live[0]] += st.pot()
            st.log(Event(EventKind.AWARD, seat=live[0], amount=st.pot(), text="the pot (uncontested)"))
            st.finish_hand()
            return
        for seat in [s for s in seats_from_left_of_button(st) if not st.folded[s]]:
            st.log(Event(EventKind.SHOW, seat=seat, cards=tuple(st.cards[seat]), text=format_cards(st.cards[seat])))
        shares = self.shares(st)
        values = [[share.value(st, s) if not st.folded[s] else 0 for s in range(st.n)] for share in shares]
        orders = [lambda s, share=share: share.tie_order(st, s) for share in shares]
        pots = side_pots(st.committed, [not f for f in st.folded])
        for index, (amount, eligible) in enumerate(pots):
            self._award(st, index, len(pots), amount, eligible, shares, values, orders)
        st.finish_hand()

    def _award(self, st, index, count, amount, eligible, shares, values, orders) -> None:  # type: ignore[no-untyped-def]
        declared = st.declared if self.declare else None
        winners = share_winners(eligible, values, [s.direction for s in shares], declared, self.swing_rule)
        awards = divide(amount, winners, orders)
        if len({chips for _, _, chips in awards}) > 1 or (awards and amount % len(awards)):
            st.odd_chips = True  # an uneven division happened (history, tests)
        if not awards:  # nobody can win (declarers failed, Cowpie splits forfeited): chop
            awards = [(-1, seat, chips) for seat, chips in _chop(amount, eligible, orders[0])]
        pot_name = "the pot" if count == 1 else ("the main pot" if index == 0 else f"side pot {index}")
        split = len({a[0] for a in awards}) > 1
        for share_index, seat, chips in awards:
            if chips == 0:
                continue
            st.won[seat] += chips
            if share_index < 0:
                what = f"{pot_name} (chopped: {self.no_winner})"
            else:
                share = shares[share_index]
                label = f"{share.name} half of " if split else ""
                hand = self.describe(st, seat, share_index)
                what = f"{label}{pot_name} with {hand}" if hand else f"{label}{pot_name}"
            st.log(Event(EventKind.AWARD, seat=seat, amount=chips, text=what))


def _chop(amount: int, seats: list[int], order: Callable[[int], object]) -> list[tuple[int, int]]:
    ordered = sorted(seats, key=order)  # type: ignore[arg-type]
    each, odd = divmod(amount, len(ordered))
    return [(seat, each + (1 if i < odd else 0)) for i, seat in enumerate(ordered)]
