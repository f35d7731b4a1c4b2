"""Dealing a street and choosing who opens, on tensors (``StudDeal``, the stud openers).

Cards go one at a time clockwise from the seat left of the button to the seats still
in: the ``j``-th card of the street for the seat ranked ``i`` among them is deck
position ``dptr + j * live + i``, so a whole street is one gather. The burn, the
community card when the stub is short and five-card stud's spare burns are always
computed and selected per table.
"""

from __future__ import annotations

import torch

from envs.batched.betting import Seats, live_count
from envs.batched.spec import Stage
from envs.batched.state import TableState

__all__ = ["bring_in_opener", "deal_street", "open_pair", "showing_opener"]


def _live_rank(s: TableState, seats: Seats) -> torch.Tensor:
    """``[B, P]``: each live seat's place in dealing order from left of the button."""
    order = seats.clockwise((s.button + 1) % seats.p)
    live = (~s.folded).gather(1, order).long()
    rank = torch.empty_like(order)
    rank.scatter_(1, order, live.cumsum(1) - 1)
    return rank


def deal_street(s: TableState, seats: Seats, m: torch.Tensor, stage: Stage) -> None:
    """``StudDeal.start`` for the tables of ``m`` (the street label is set by the caller)."""
    d = s.deck.shape[1]
    live_n = live_count(s)
    if stage.burn:
        stub = d - s.dptr
        room = stub > stage.still_to_deal * live_n if stage.spare_burns else torch.ones_like(m)
        burn = m & (stub > 0) & room
        s.dptr = s.dptr + burn.long()
        s.burned = s.burned + burn.long()
    dealing = m
    if stage.community_when_short:
        short = m & ((d - s.dptr) < live_n)
        top = s.deck.gather(1, s.dptr.clamp(max=d - 1).unsqueeze(1)).squeeze(1)
        s.community = torch.where(short, top, s.community)
        s.dptr = s.dptr + short.long()
        dealing = m & ~short
    rank = _live_rank(s, seats)
    live = ~s.folded & dealing.unsqueeze(1)
    for j, face in enumerate(stage.deal):
        pos = (s.dptr.unsqueeze(1) + j * live_n.unsqueeze(1) + rank).clamp(0, d - 1)
        card = s.deck.gather(1, pos)
        slot = s.ncards.clamp(max=s.cards.shape[2] - 1).unsqueeze(2)
        s.cards.scatter_(2, slot, torch.where(live, card, s.cards.gather(2, slot).squeeze(2)).unsqueeze(2))
        s.up.scatter_(2, slot, torch.where(live, face, s.up.gather(2, slot).squeeze(2)).unsqueeze(2))
        s.ncards = s.ncards + live.long()
    s.dptr = s.dptr + torch.where(dealing, len(stage.deal) * live_n, 0)


def _first_best(s: TableState, seats: Seats, key: torch.Tensor, lowest: bool) -> torch.Tensor:
    """``_first_best``: the live seat with the best key, ties to the first seat
    clockwise from the button."""
    big = torch.iinfo(torch.int64).max
    masked = torch.where(s.folded, big if lowest else -big, key)
    best = masked.min(1, keepdim=True).values if lowest else masked.max(1, keepdim=True).values
    return seats.first((masked == best) & ~s.folded, (s.button + 1) % seats.p)


def _ace_low(cards: torch.Tensor) -> torch.Tensor:
    return (((cards >> 2) + 1) % 13) * 4 + (cards & 3)


def bring_in_opener(s: TableState, seats: Seats, low_game: bool) -> torch.Tensor:
    """``bring_in_seat``: lowest first up card by suit (razz: highest, aces low)."""
    first_up = s.up.to(torch.int8).argmax(2, keepdim=True)
    card = s.cards.gather(2, first_up).squeeze(2)
    if low_game:
        return _first_best(s, seats, _ace_low(card), lowest=False)
    return _first_best(s, seats, card, lowest=True)


def showing_key(s: TableState, low_game: bool) -> torch.Tensor:
    """``showing_key`` of every seat's up cards as one comparable int64: the count
    pattern first (base 5 digits), then the ranks by count and rank (base 16)."""
    ranks = s.cards >> 2
    if low_game:
        ranks = (ranks + 1) % 13
    faces = torch.arange(13, device=ranks.device)
    counts = ((ranks.unsqueeze(-1) == faces) & s.up.unsqueeze(-1)).sum(2)  # [B, P, 13]
    keys = torch.where(counts > 0, counts * 16 + faces, -1)
    width = s.cards.shape[2]
    top = keys.sort(dim=2, descending=True).values[..., :width]
    present = top >= 0
    pattern = torch.where(present, top // 16, 0)
    rank = torch.where(present, top % 16, 0)
    code = torch.zeros_like(s.stack)
    for i in range(width):
        code = code * 5 + pattern[..., i]
    for i in range(width):
        code = code * 16 + rank[..., i]
    return code


def showing_opener(s: TableState, seats: Seats, low_game: bool) -> torch.Tensor:
    """``best_showing``: the best up cards act first (razz: the lowest)."""
    return _first_best(s, seats, showing_key(s, low_game), lowest=low_game)


def open_pair(s: TableState) -> torch.Tensor:
    """``[B]``: a live seat shows an open pair (``open_pair_unit``)."""
    ranks = s.cards >> 2
    faces = torch.arange(13, device=ranks.device)
    counts = ((ranks.unsqueeze(-1) == faces) & s.up.unsqueeze(-1)).sum(2)
    return ((counts >= 2).any(2) & ~s.folded).any(1)
