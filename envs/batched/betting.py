"""Fixed-limit betting on tensors: the rules of :class:`envs.engine.betting.Betting`.

Every function updates the tables of a boolean mask ``m`` ``[B]`` and leaves the
others as they were (``torch.where``, never a branch on a table's value), so one call
serves every table at once. Seats are indexed by ``[B]`` tensors (-1: none).
"""

from __future__ import annotations

import torch

from envs.batched.state import TableState
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE

__all__ = ["Seats", "apply_bet", "bet_mask", "needs_action", "next_actor", "start_round"]


class Seats:
    """Seat arithmetic shared by the batched rules for P seats on one device."""

    def __init__(self, p: int, unlimited: tuple[bool, ...], device: torch.device) -> None:
        self.p = p
        self.index = torch.arange(p, device=device)
        self.unlimited = torch.tensor(unlimited, device=device)

    def onehot(self, seat: torch.Tensor) -> torch.Tensor:
        """``[B, P]``: True at ``seat`` (nowhere for -1)."""
        return self.index == seat.unsqueeze(1)

    @staticmethod
    def at(t: torch.Tensor, seat: torch.Tensor) -> torch.Tensor:
        """``t[b, seat[b]]`` (seat -1 reads seat 0; callers mask it)."""
        return t.gather(1, seat.clamp(min=0).unsqueeze(1)).squeeze(1)

    def clockwise(self, start: torch.Tensor) -> torch.Tensor:
        """``[B, P]`` seats in order from ``start`` (inclusive) clockwise."""
        return (start.unsqueeze(1) + self.index) % self.p

    def first(self, flags: torch.Tensor, start: torch.Tensor) -> torch.Tensor:
        """The first seat from ``start`` clockwise whose flag is set, or -1."""
        order = self.clockwise(start)
        ordered = flags.gather(1, order)
        pos = ordered.to(torch.int8).argmax(1, keepdim=True)
        return torch.where(ordered.any(1), order.gather(1, pos).squeeze(1), -1)

    def all_in(self, s: TableState) -> torch.Tensor:
        """``[B, P]``: no chips behind (never for unlimited seats)."""
        return (s.stack == 0) & ~self.unlimited

    def covers(self, s: TableState, seat: torch.Tensor, chips: torch.Tensor) -> torch.Tensor:
        """Whether ``seat`` can put in ``chips`` more."""
        return self.at(self.unlimited.expand_as(s.stack), seat) | (self.at(s.stack, seat) >= chips)

    def pay(self, s: TableState, m: torch.Tensor, seat: torch.Tensor, amount: torch.Tensor) -> None:
        """``State.put_in`` plus the street contribution, for the tables of ``m``."""
        hot = self.onehot(seat) & m.unsqueeze(1)
        capped = torch.where(self.unlimited, amount.unsqueeze(1), torch.minimum(amount.unsqueeze(1), s.stack))
        paid = torch.where(hot, capped, 0)
        s.stack = s.stack - paid
        s.committed = s.committed + paid
        s.contrib = s.contrib + paid


def needs_action(s: TableState, seats: Seats) -> torch.Tensor:
    """``[B, P]``: ``_needs_action`` for every seat."""
    can = ~s.folded & ~seats.all_in(s)
    owes = s.contrib < s.current_bet.unsqueeze(1)
    acted = s.seat_epoch >= s.epoch.unsqueeze(1)
    others = (can.sum(1, keepdim=True) - can.long()) > 0
    bring_in = seats.onehot(s.bring_in_seat)
    return can & (owes | (~acted & (others | bring_in)))


def next_actor(s: TableState, seats: Seats, seat: torch.Tensor) -> torch.Tensor:
    """``_next_actor``: the first seat after ``seat`` that must act, or -1."""
    nxt = seats.first(needs_action(s, seats), (seat + 1) % seats.p)
    return torch.where(live_count(s) > 1, nxt, -1)


def live_count(s: TableState) -> torch.Tensor:
    return (~s.folded).sum(1)


def start_round(
    s: TableState,
    seats: Seats,
    m: torch.Tensor,
    street: torch.Tensor,
    unit: torch.Tensor,
    first: torch.Tensor,
    bring_in: torch.Tensor,
) -> None:
    """``Betting.start`` for the tables of ``m``: a fresh round opened by ``first``."""
    m1 = m.unsqueeze(1)
    s.street = torch.where(m, street, s.street)
    s.contrib = torch.where(m1, 0, s.contrib)
    s.current_bet = torch.where(m, 0, s.current_bet)
    s.bets = torch.where(m, 0, s.bets)
    s.epoch = torch.where(m, 0, s.epoch)
    s.seat_epoch = torch.where(m1, -1, s.seat_epoch)
    s.bet_unit = torch.where(m, unit, s.bet_unit)
    s.bring_in_seat = torch.where(m, torch.where(bring_in, first, -1), s.bring_in_seat)
    needs = seats.at(needs_action(s, seats), first)
    actor = torch.where(needs, first, next_actor(s, seats, first))
    s.actor = torch.where(m, actor, s.actor)


def _cap_reached(s: TableState, raise_cap: int, cap_heads_up: bool) -> torch.Tensor:
    if raise_cap <= 0:
        return torch.zeros_like(s.done)
    capped = s.bets >= raise_cap
    if cap_heads_up:
        return capped
    return capped & (live_count(s) != 2)


def bet_mask(
    s: TableState, seats: Seats, num_actions: int, bring_in: int, raise_cap: int, cap_heads_up: bool
) -> torch.Tensor:
    """``Betting.legal`` of every table's actor as a ``[B, A]`` mask."""
    a = s.actor
    to_call = s.current_bet - seats.at(s.contrib, a)
    can = ~s.folded & ~seats.all_in(s)
    others = (can.sum(1) - seats.at(can.long(), a)) > 0
    may_raise = (
        seats.covers(s, a, to_call + 1)
        & ~_cap_reached(s, raise_cap, cap_heads_up)
        & ~(seats.at(s.seat_epoch, a) >= s.epoch)
        & others
    )
    is_bi = a == s.bring_in_seat
    complete = seats.covers(s, a, torch.full_like(to_call, bring_in + 1)) & (bring_in < s.bet_unit)
    mask = torch.zeros(len(a), num_actions, dtype=torch.bool, device=a.device)
    mask[:, FOLD] = ~is_bi & (to_call > 0)
    mask[:, CHECK_CALL] = ~is_bi
    mask[:, BRING_IN] = is_bi
    mask[:, RAISE] = torch.where(is_bi, complete, may_raise)
    return mask


def apply_bet(
    s: TableState,
    seats: Seats,
    m: torch.Tensor,
    action: torch.Tensor,
    bring_in: int,
    bring_in_street: torch.Tensor,
    chips: object,
) -> None:
    """``Betting.apply`` for the tables of ``m``; logs the action into the history.

    ``bring_in_street`` ``[B]``: the round in progress opened with the bring-in (a
    completion is then the opening bet); ``chips`` turns chips into reward units.
    """
    a = s.actor
    contrib_a = seats.at(s.contrib, a)
    to_call = s.current_bet - contrib_a
    level = (s.bets + 1) * s.bet_unit
    target = torch.where(level > s.current_bet, level, s.current_bet + s.bet_unit)
    opened = (s.bets > 0) | ((s.current_bet > 0) & ~bring_in_street)
    completing = bring_in_street & (s.bets == 0)
    fold, call, post, raise_ = (action == FOLD), (action == CHECK_CALL), (action == BRING_IN), (action == RAISE)
    amount = torch.where(call, to_call, torch.where(post, bring_in, torch.where(raise_, target - contrib_a, 0)))
    seats.pay(s, m, a, amount)
    new_total = seats.at(s.contrib, a)
    full = (raise_ & (new_total >= target)) | (post & (new_total >= s.bet_unit))
    s.bets = torch.where(m & full, s.bets + 1, s.bets)
    s.epoch = torch.where(m & full, s.epoch + 1, s.epoch)
    s.current_bet = torch.where(m & (raise_ | post), torch.maximum(s.current_bet, new_total), s.current_bet)
    hot = seats.onehot(a) & m.unsqueeze(1)
    s.folded = s.folded | (hot & fold.unsqueeze(1))
    kind = torch.where(
        fold,
        0,
        torch.where(
            call, torch.where(to_call == 0, 1, 2), torch.where(post, 3, torch.where(completing | ~opened, 4, 5))
        ),
    )
    _log_action(s, m, a, kind, chips(new_total))  # type: ignore[operator]
    s.seat_epoch = torch.where(hot, s.epoch.unsqueeze(1), s.seat_epoch)
    s.bring_in_seat = torch.where(m & (s.bring_in_seat == a), -1, s.bring_in_seat)
    s.actor = torch.where(m, next_actor(s, seats, a), s.actor)


def _log_action(s: TableState, m: torch.Tensor, seat: torch.Tensor, kind: torch.Tensor, amount: torch.Tensor) -> None:
    """The ``History`` piece's update for one action per table of ``m``, through flat
    indices into the contiguous history (one gather and two scatters, not five-way
    advanced indexing)."""
    b, streets, p, laps_n, stride = s.history.shape
    street, who = s.street.clamp(min=0), seat.clamp(min=0)
    cell = (torch.arange(b, device=seat.device) * streets + street) * p + who  # (table, street, seat)
    laps = s.laps.view(-1).gather(0, cell)
    base = (cell * laps_n + laps.clamp(max=laps_n - 1)) * stride
    history = s.history.view(-1)
    history.index_add_(0, base + kind, m.to(history.dtype))
    last = base + stride - 1
    history.scatter_(0, last, torch.where(m, amount.to(history.dtype), history.gather(0, last)))
    s.laps.view(-1).scatter_(0, cell, laps + m.long())
