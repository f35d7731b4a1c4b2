"""Dealing a street and choosing who opens, on tensors (``StudDeal``, the stud openers).

Cards go one at a time clockwise from the seat left of the button to the seats still
in: the ``j``-th card of the street for the seat ranked ``i`` among them is deck
position ``dptr + j * live + i``, so a whole street is one gather. The burn, the
community card when the stub is short and five-card stud's spare burns are always
computed and selected per table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from envs.batched.betting import Seats, live_count
from envs.batched.spec import Stage
from envs.batched.state import TableState

__all__ = ["StreetTable", "bring_in_opener", "deal_street", "open_pair", "showing_opener"]


def _live_rank(s: TableState, seats: Seats) -> torch.Tensor:
    """``[B, P]``: each live seat's place in dealing order from left of the button."""
    order = seats.clockwise((s.button + 1) % seats.p)
    live = (~s.folded).gather(1, order).long()
    rank = torch.empty_like(order)
    rank.scatter_(1, order, live.cumsum(1) - 1)
    return rank


@dataclass(frozen=True)
class StreetTable:
    """Every deal stage's data as tensors indexed by the stage number (``pc``), so one
    call deals each table its own street."""

    count: torch.Tensor  # [J] cards to each live seat
    faces: torch.Tensor  # [J, K] face up, per card
    burn: torch.Tensor  # [J] bool
    spare: torch.Tensor  # [J] bool: burn only cards the hand cannot need
    still: torch.Tensor  # [J] cards per player in this street and the later ones
    short: torch.Tensor  # [J] bool: a community card when the stub is short
    reuse: bool  # burned cards can be reused (a burn and a short-stub street)

    @classmethod
    def of(cls, stages: list[Stage], device: torch.device) -> StreetTable:
        width = max([len(s.deal) for s in stages] + [1])

        def t(values: list[Any], dtype: torch.dtype = torch.int64) -> torch.Tensor:
            return torch.tensor(values, dtype=dtype, device=device)

        faces = [list(s.deal) + [False] * (width - len(s.deal)) for s in stages]
        return cls(
            count=t([len(s.deal) for s in stages]),
            faces=t(faces, torch.bool),
            burn=t([s.burn for s in stages], torch.bool),
            spare=t([s.spare_burns for s in stages], torch.bool),
            still=t([s.still_to_deal for s in stages]),
            short=t([s.community_when_short for s in stages], torch.bool),
            reuse=any(s.kind == "deal" and s.burn for s in stages) and any(s.community_when_short for s in stages),
        )


def _cards_at(s: TableState, pos: torch.Tensor, reuse: bool) -> torch.Tensor:
    """The cards at stub positions ``pos`` ``[B, K]``: deck positions, and past the
    deck's end the burned cards put under the stub, in burn order."""
    d = s.deck.shape[1]
    if reuse:
        extra = (pos - d).clamp(0, s.burn_pos.shape[1] - 1)
        pos = torch.where(pos < d, pos, s.burn_pos.gather(1, extra))
    return s.deck.gather(1, pos.clamp(0, d - 1))


def _burn(s: TableState, burn: torch.Tensor) -> None:
    """Burn the top card at the tables of ``burn``, keeping where it lay in the deck."""
    slot = s.burned.clamp(max=s.burn_pos.shape[1] - 1).unsqueeze(1)
    s.burn_pos.scatter_(1, slot, torch.where(burn.unsqueeze(1), s.dptr.unsqueeze(1), s.burn_pos.gather(1, slot)))
    s.dptr = s.dptr + burn.long()
    s.burned = s.burned + burn.long()


def deal_street(s: TableState, seats: Seats, m: torch.Tensor, streets: StreetTable) -> None:
    """``StudDeal.start`` for the tables of ``m``, each its own street (by ``s.pc``)."""
    d = s.deck.shape[1]
    live_n = live_count(s)
    pc = s.pc
    count = streets.count[pc]
    stub = d + s.reused - s.dptr
    room = torch.where(streets.spare[pc], stub > streets.still[pc] * live_n, True)
    _burn(s, m & streets.burn[pc] & (stub > 0) & room)
    short = m & streets.short[pc] & ((d + s.reused - s.dptr) < live_n)
    if streets.reuse:  # the stub ran short: the burned cards go under it (_reuse_burned)
        reuse = short & (s.burned > 0)
        s.reused = torch.where(reuse, s.reused + s.burned, s.reused)
        s.burned = torch.where(reuse, 0, s.burned)
        short = short & ((d + s.reused - s.dptr) < live_n)
    top = _cards_at(s, s.dptr.unsqueeze(1), streets.reuse).squeeze(1)
    s.community = torch.where(short, top, s.community)
    s.dptr = s.dptr + short.long()
    dealing = m & ~short
    rank = _live_rank(s, seats)
    live = ~s.folded & dealing.unsqueeze(1)
    faces = streets.faces[pc]
    for j in range(streets.faces.shape[1]):
        now = live & (j < count).unsqueeze(1)
        card = _cards_at(s, s.dptr.unsqueeze(1) + j * live_n.unsqueeze(1) + rank, streets.reuse)
        slot = s.ncards.clamp(max=s.cards.shape[2] - 1).unsqueeze(2)
        s.cards.scatter_(2, slot, torch.where(now, card, s.cards.gather(2, slot).squeeze(2)).unsqueeze(2))
        face = faces[:, j].unsqueeze(1)
        s.up.scatter_(2, slot, torch.where(now, face, s.up.gather(2, slot).squeeze(2)).unsqueeze(2))
        s.ncards = s.ncards + now.long()
        shown = (now & face).unsqueeze(2) & ((card >> 2).unsqueeze(2) == torch.arange(13, device=card.device))
        s.upranks = s.upranks + shown.long()
    s.dptr = s.dptr + torch.where(dealing, count * live_n, 0)


def _first_best(s: TableState, seats: Seats, key: torch.Tensor, lowest: bool) -> torch.Tensor:
    """``_first_best``: the live seat with the best key, ties to the first seat
    clockwise from the button."""
    big = torch.iinfo(torch.int64).max
    masked = torch.where(s.folded, big if lowest else -big, key)
    best = masked.min(1, keepdim=True).values if lowest else masked.max(1, keepdim=True).values
    return seats.first((masked == best) & ~s.folded, (s.button + 1) % seats.p)


def _ace_low(cards: torch.Tensor) -> torch.Tensor:
    return (((cards >> 2) + 1) % 13) * 4 + (cards & 3)


def bring_in_opener(s: TableState, seats: Seats, low_game: torch.Tensor) -> torch.Tensor:
    """``bring_in_seat``: lowest first up card by suit (razz: highest, aces low)."""
    first_up = s.up.to(torch.int8).argmax(2, keepdim=True)
    card = s.cards.gather(2, first_up).squeeze(2)
    key = torch.where(low_game.unsqueeze(1), _ace_low(card), -card)
    return _first_best(s, seats, key, lowest=False)


def showing_key(s: TableState, low_game: torch.Tensor) -> torch.Tensor:
    """``showing_key`` of every seat's up cards as one comparable int64 (razz tables:
    negated, so that the best is always the largest).

    The count pattern compares as the numbers of quads, trips, pairs and singles in
    that order (every live seat shows as many cards); within one pattern the ranks by
    count then rank compare as a bit mask with rank ``r`` of count ``c`` at bit
    ``13 * (c - 1) + r`` (equal-sized groups: the higher mask has the higher ranks)."""
    faces = torch.arange(13, device=s.cards.device)
    counts = torch.where(low_game.view(-1, 1, 1), s.upranks.roll(1, dims=2), s.upranks)  # aces low: ace first
    of = [(counts == c).sum(2) for c in (4, 3, 2, 1)]
    pattern = ((of[0] * 8 + of[1]) * 8 + of[2]) * 8 + of[3]
    bits = torch.where(counts > 0, torch.ones_like(counts) << (13 * (counts - 1) + faces).clamp(min=0), 0).sum(2)
    key = (pattern << 52) + bits
    return torch.where(low_game.unsqueeze(1), -key, key)


def showing_opener(s: TableState, seats: Seats, low_game: torch.Tensor) -> torch.Tensor:
    """``best_showing``: the best up cards act first (razz: the lowest)."""
    return _first_best(s, seats, showing_key(s, low_game), lowest=False)


def open_pair(s: TableState) -> torch.Tensor:
    """``[B]``: a live seat shows an open pair (``open_pair_unit``)."""
    return ((s.upranks >= 2).any(2) & ~s.folded).any(1)
