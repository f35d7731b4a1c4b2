"""Betting rounds: fixed limit (with the stud bring-in and a raise cap), pot limit and
no limit, with all-ins for less.

Bookkeeping (kept on the :class:`State`): ``contrib`` is what each seat has put in this
street, ``current_bet`` the highest of those, ``bets`` the number of full bets and raises
(a completion is the opening bet; the bring-in is not a bet), and ``epoch`` counts full
bets/raises. A seat records the epoch at which it last acted; it must act again while
it owes chips or a full raise has come since, and it may raise only if a full raise has
come since it last acted. An all-in raise for less than a full raise therefore makes
earlier players call the difference without reopening their raising.

Conventions (documented in docs/rules.md):

* folding is legal only when facing a bet (checking is free);
* a player cannot raise when every other live player is all-in;
* limit: ``raise`` completes the bring-in to the small bet, else bets or raises one unit
  on top of the current bet; at most ``raise_cap`` full bets and raises per street, no cap
  with two players left unless ``cap_heads_up``;
* pot and no limit: ``raise`` is the minimum bet or raise (the largest full raise of the
  street, at least the big blind); ``bet_<f>_pot`` raises by ``f`` times the pot after
  calling (pot limit: at most the pot); no limit adds ``all_in``. A sized bet below the
  minimum raise is not offered (never rounded up silently). Pot limit has no
  ``all_in`` action, so there a sized bet larger than the player's stack puts the
  player all-in (still only if that is at least a full raise; ``raise`` covers an
  all-in for less);
* pot and no limit: a player who already acted may raise again only when facing at
  least a full raise since (several short all-ins together can make one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE, SIZED_BASE
from envs.engine.events import Event, EventKind, Verb
from envs.engine.game import Step
from envs.engine.state import State

LIMIT, POT_LIMIT, NO_LIMIT = "limit", "pot_limit", "no_limit"


@dataclass(frozen=True, kw_only=True)
class BetRules:
    """How much may be bet: the structure and its limits."""

    structure: str = LIMIT
    raise_cap: int | None = 4
    cap_heads_up: bool = False
    bring_in: int | None = None
    bet_sizes: tuple[float, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Betting(Step):
    """One betting round.

    The dealing step before it logs the street's name (a ``street`` event).

    Args:
        street: index of the street (observations and history use it).
        label: name of the round ("third street", "flop").
        unit: the bet size of this round (limit) or the minimum bet (pot/no limit).
        unit_rule: when the size depends on the table (stud's open pair on fourth
            street), the function that gives it instead of ``unit``.
        opener: the first seat to act.
        rules: the betting structure.
        bring_in: whether this round opens with the stud bring-in.
        forced: posts blinds before the round (Chowaha) or None.
    """

    street: int
    label: str
    unit: int
    opener: Callable[[State], int]
    rules: BetRules
    unit_rule: Callable[[State], int] | None = None
    bring_in: bool = False
    forced: Callable[[State], None] | None = None

    def start(self, st: State) -> None:
        st.street = self.street
        st.street_label = self.label
        n = st.n
        st.contrib = [0] * n
        st.current_bet = 0
        st.bets = 0
        st.epoch = 0
        st.seat_epoch = [-1] * n
        st.bet_unit = self.unit if self.unit_rule is None else self.unit_rule(st)
        st.min_raise = st.bet_unit
        st.bring_in_seat = -1
        if self.forced is not None:
            self.forced(st)
        first = self.opener(st)
        if self.bring_in and self.rules.bring_in:
            st.bring_in_seat = first
        st.actor = first if _needs_action(st, first) else _next_actor(st, first)

    def actor(self, st: State) -> int | None:
        return st.actor

    def legal(self, st: State) -> list[int]:
        seat = st.actor
        assert seat is not None
        if seat == st.bring_in_seat:
            bring_in = self.rules.bring_in or 0
            can_complete = st.covers(seat, bring_in + 1) and bring_in < st.bet_unit
            return [BRING_IN, RAISE] if can_complete else [BRING_IN]
        to_call = st.current_bet - st.contrib[seat]
        acts = [FOLD, CHECK_CALL] if to_call > 0 else [CHECK_CALL]
        if _may_raise(st, seat, to_call, self.rules):
            acts.append(RAISE)
            if self.rules.structure != LIMIT:
                acts.extend(_sized_actions(st, seat, to_call, self.rules))
        return acts

    def apply(self, st: State, action: int) -> None:
        seat = st.actor
        assert seat is not None
        if action == FOLD:
            st.fold(seat)
            _log(st, seat, action, "folds", Verb.FOLD)
        elif action == CHECK_CALL:
            to_call = st.current_bet - st.contrib[seat]
            paid = _pay(st, seat, to_call)
            verb = "checks" if to_call == 0 else ("calls" if paid == to_call else "calls all-in for")
            _log(st, seat, action, verb, Verb.CHECK if to_call == 0 else Verb.CALL)
        elif action == BRING_IN:
            _pay(st, seat, self.rules.bring_in or 0)
            st.current_bet = max(st.current_bet, st.contrib[seat])
            if st.contrib[seat] >= st.bet_unit:  # a bring-in of a full small bet opens the betting
                st.bets += 1
                st.epoch += 1
            st.bring_in_seat = -1
            _log(st, seat, action, "brings in all-in for" if st.all_in(seat) else "brings in for", Verb.BRING_IN)
        else:
            self._raise(st, seat, action)
        st.seat_epoch[seat] = st.epoch
        if st.bring_in_seat == seat:
            st.bring_in_seat = -1
        st.actor = _next_actor(st, seat)

    def _raise(self, st: State, seat: int, action: int) -> None:
        target = _raise_target(st, seat, action, self.rules)
        full_target = _full_target(st)
        opened = st.bets > 0 or (st.current_bet > 0 and not self.bring_in)
        completing = self.bring_in and st.bets == 0 and self.rules.structure == LIMIT
        _pay(st, seat, target - st.contrib[seat])
        new_total = st.contrib[seat]
        increment = new_total - st.current_bet
        full = new_total >= full_target if self.rules.structure == LIMIT else increment >= st.min_raise
        if full:
            st.bets += 1
            st.epoch += 1
            if self.rules.structure != LIMIT:
                st.min_raise = max(st.min_raise, increment)
        st.current_bet = max(st.current_bet, new_total)
        kind = Verb.COMPLETE if completing else (Verb.RAISE if opened else Verb.BET)
        verb = "completes to" if completing else ("raises to" if opened else "bets")
        if st.all_in(seat):
            verb += " (all-in)" if verb != "bets" else " all-in"
        _log(st, seat, action, verb, kind)


# ------------------------------------------------------------------- helpers
def _log(st: State, seat: int, action: int, text: str, verb: Verb) -> None:
    amount = st.contrib[seat]
    st.log(Event(EventKind.ACTION, seat=seat, action=action, amount=amount, text=text, street=st.street, verb=verb))


def _pay(st: State, seat: int, amount: int) -> int:
    paid = st.put_in(seat, amount)
    st.contrib[seat] += paid
    return paid


def _can_act(st: State, seat: int) -> bool:
    return not st.folded[seat] and not st.all_in(seat)


def _needs_action(st: State, seat: int) -> bool:
    """Whether ``seat`` must still act in this round."""
    if not _can_act(st, seat):
        return False
    owes = st.contrib[seat] < st.current_bet
    if owes:
        return True
    if st.seat_epoch[seat] >= st.epoch:
        return False
    # Nobody left to bet against: everyone else live is all-in.
    return any(_can_act(st, s) for s in range(st.n) if s != seat) or seat == st.bring_in_seat


def _next_actor(st: State, seat: int) -> int | None:
    if st.live_count() <= 1:
        return None
    n = st.n
    for step in range(1, n + 1):
        s = (seat + step) % n
        if _needs_action(st, s):
            return s
    return None


def _cap_reached(st: State, rules: BetRules) -> bool:
    if rules.structure != LIMIT or rules.raise_cap is None:
        return False
    if st.live_count() == 2 and not rules.cap_heads_up:
        return False
    return st.bets >= rules.raise_cap


def _may_raise(st: State, seat: int, to_call: int, rules: BetRules) -> bool:
    if not st.covers(seat, to_call + 1) or _cap_reached(st, rules):
        return False
    if st.seat_epoch[seat] >= st.epoch and not _faces_full_raise(st, to_call, rules):
        return False
    return any(_can_act(st, s) for s in range(st.n) if s != seat)


def _faces_full_raise(st: State, to_call: int, rules: BetRules) -> bool:
    """Pot and no limit: a seat that already acted may raise again when it faces at
    least a full raise, even if that came from several short all-ins together.

    A seat that can still act matched the current bet when it last acted, so what it
    now owes is everything raised since. (Limit games get the same effect from the
    bet levels of ``_full_target``.)
    """
    return rules.structure != LIMIT and to_call >= st.min_raise


def _full_target(st: State) -> int:
    """Total a seat must reach for a full bet, completion or raise (limit).

    The next full level is one unit above the last full bet (a completion of the
    bring-in reaches one unit); if a short all-in already went past that level, the
    raise goes one unit above the all-in.
    """
    level = (st.bets + 1) * st.bet_unit
    return level if level > st.current_bet else st.current_bet + st.bet_unit


def _pot_after_call(st: State, seat: int) -> int:
    return st.pot() + st.current_bet - st.contrib[seat]


def _sized_actions(st: State, seat: int, to_call: int, rules: BetRules) -> list[int]:
    """Sized bets that are legal and differ from a plain call; all-in in no limit."""
    acts = []
    max_total = _all_in_total(st, seat)
    min_total = st.current_bet + st.min_raise
    pot_cap = st.current_bet + _pot_after_call(st, seat)
    for i, fraction in enumerate(rules.bet_sizes):
        total = st.current_bet + int(fraction * _pot_after_call(st, seat))
        if rules.structure == POT_LIMIT:  # no all_in action: a size beyond the stack is all-in
            total = _at_most(total, max_total)
        affordable = max_total is None or total <= max_total
        if min_total <= total and affordable and (rules.structure != POT_LIMIT or total <= pot_cap):
            acts.append(SIZED_BASE + i)
    if rules.structure == NO_LIMIT and (max_total is None or max_total > st.current_bet):
        acts.append(SIZED_BASE + len(rules.bet_sizes))
    return acts


def _raise_target(st: State, seat: int, action: int, rules: BetRules) -> int:
    """Total contribution the seat is raising to (before its stack limit)."""
    if rules.structure == LIMIT:
        return _full_target(st)
    all_in = _all_in_total(st, seat)
    if action == RAISE:
        target = st.current_bet + st.min_raise
        if rules.structure == POT_LIMIT:
            target = min(target, st.current_bet + _pot_after_call(st, seat))
        return _at_most(target, all_in)
    index = action - SIZED_BASE
    if index == len(rules.bet_sizes):
        assert all_in is not None, "no-limit betting needs finite stacks (the options refuse stack=None)"
        return all_in
    return st.current_bet + int(rules.bet_sizes[index] * _pot_after_call(st, seat))


def legal_raise_amounts(st: State, rules: BetRules) -> dict[int, int]:
    """For the acting seat: each legal raising action and the total it raises to."""
    seat = st.actor
    assert seat is not None
    to_call = st.current_bet - st.contrib[seat]
    if not _may_raise(st, seat, to_call, rules):
        return {}
    acts = [RAISE] + (_sized_actions(st, seat, to_call, rules) if rules.structure != LIMIT else [])
    cap = _all_in_total(st, seat)
    return {a: _at_most(_raise_target(st, seat, a, rules), cap) for a in acts}


def _all_in_total(st: State, seat: int) -> int | None:
    """The seat's total for the street if it put in every chip (None: unlimited)."""
    behind = st.behind(seat)
    return None if behind is None else st.contrib[seat] + behind


def _at_most(total: int, cap: int | None) -> int:
    """``total`` limited by ``cap`` (no limit when None)."""
    return total if cap is None else min(total, cap)
