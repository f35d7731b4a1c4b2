"""The showdown on tensors: side pots, shares, declarations, ties and odd chips.

The same rules as :class:`envs.engine.steps.Showdown` with
:func:`envs.engine.pots.side_pots`, :func:`~envs.engine.pots.share_winners` and
:func:`~envs.engine.pots.divide`: every live seat's committed level is a candidate
pot (``[B, P]`` pots, the duplicates empty), so side pots with several all-ins are
always computed; each pot is halved among the shares that have a winner (the first
share takes the odd chip), and within a share tied winners split with the leftover
chips going in the share's tie order. A pot nobody can win is chopped.
"""

from __future__ import annotations

import torch

from envs.batched.hands import TorchHands
from envs.batched.spec import ShareSpec, Spec
from envs.batched.state import TableState
from envs.engine.actions import BOTH

__all__ = ["award"]


def _hands(s: TableState) -> torch.Tensor:
    """``[B, P, C]`` each seat's cards plus the community card in its empty slot."""
    slot = torch.arange(s.cards.shape[2], device=s.cards.device)
    fill = (slot == s.ncards.unsqueeze(2)) & (s.community >= 0).view(-1, 1, 1)
    return torch.where(fill, s.community.view(-1, 1, 1), s.cards)


def _values(s: TableState, share: ShareSpec, hands: TorchHands) -> torch.Tensor:
    """``[B, P]`` strengths for one share (0: cannot win it)."""
    if share.hand == "high":
        return hands.high_value(_hands(s))
    if share.hand == "low":
        return hands.low_value(_hands(s), share.threshold)
    if share.hand == "short":
        return hands.short_value(_hands(s))
    table = s.split_five if share.hand == "cowpie_five" else s.split_two
    pick = s.chosen.clamp(min=0).unsqueeze(2)
    legal = s.split_legal.gather(2, pick).squeeze(2)
    return torch.where(legal & (s.chosen >= 0), table.gather(2, pick).squeeze(2), 0)


def _tie_key(s: TableState, share: ShareSpec) -> torch.Tensor:
    """``[B, P]`` odd-chip order, smallest first (distinct cards: no equal keys)."""
    held = s.cards >= 0
    if share.tie == "highest_card":
        return -torch.where(held, s.cards, -1).max(2).values
    ace_low = (((s.cards >> 2) + 1) % 13) * 4 + (s.cards & 3)
    return torch.where(held, ace_low, 99).min(2).values


def _pots(s: TableState) -> tuple[torch.Tensor, torch.Tensor]:
    """(amounts ``[B, K]``, eligible ``[B, K, P]``): one candidate pot per live seat's level."""
    live = ~s.folded
    c = s.committed
    level = c  # pot k is the level of seat k
    below = live.unsqueeze(1) & (c.unsqueeze(1) < level.unsqueeze(2))  # [B, K, P]
    prev = torch.where(below, c.unsqueeze(1), 0).max(2).values
    amount = (torch.minimum(c.unsqueeze(1), level.unsqueeze(2)) - torch.minimum(c.unsqueeze(1), prev.unsqueeze(2))).sum(
        2
    )
    idx = torch.arange(c.shape[1], device=c.device)
    same_before = live.unsqueeze(1) & (c.unsqueeze(1) == level.unsqueeze(2)) & (idx.view(1, 1, -1) < idx.view(1, -1, 1))
    rep = live & ~same_before.any(2)
    amount = torch.where(rep, amount, 0)
    top = torch.where(live, c, -1).max(1).values
    spill = (c - top.unsqueeze(1)).clamp(min=0).sum(1)
    is_top = rep & (c == top.unsqueeze(1))
    amount = amount + torch.where(is_top, spill.unsqueeze(1), 0)
    eligible = live.unsqueeze(1) & (c.unsqueeze(1) >= level.unsqueeze(2)) & rep.unsqueeze(2)
    return amount, eligible


def _swing_failed(
    cands: list[torch.Tensor], values: list[torch.Tensor], declared: torch.Tensor, outright: bool
) -> torch.Tensor:
    """``[B, K, P]``: a both-declarer that does not win (or tie) every share."""
    ok = declared.unsqueeze(1) == BOTH
    p = declared.shape[1]
    other = ~torch.eye(p, dtype=torch.bool, device=declared.device)
    for cand, val in zip(cands, values, strict=True):
        v = val.unsqueeze(1).expand_as(cand)  # [B, K, P]
        others = torch.where(cand.unsqueeze(2) & other, v.unsqueeze(2), 0)  # [B, K, seat, other]
        top = others.max(3).values
        beaten = (v < top) | ((v == top) if outright else torch.zeros_like(cand))
        ok = ok & cand & ~beaten
    return (declared.unsqueeze(1) == BOTH) & ~ok


def _split(portion: torch.Tensor, winners: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
    """``[B, K, P]`` chips per seat: ``portion`` ``[B, K]`` among ``winners``, leftover
    chips to the winners first in ``key`` order."""
    count = winners.sum(2)
    safe = count.clamp(min=1)
    each, odd = portion // safe, portion % safe
    k = key.unsqueeze(1).expand_as(winners)
    before = (winners.unsqueeze(2) & (k.unsqueeze(2) < k.unsqueeze(3))).sum(3)  # winners ahead of each seat
    chips = each.unsqueeze(2) + (before < odd.unsqueeze(2)).long()
    return torch.where(winners, chips, 0)


def award(s: TableState, spec: Spec, hands: TorchHands, m: torch.Tensor) -> None:
    """``Showdown.start`` for the tables of ``m``: chips won, payoffs, ``done``."""
    live = ~s.folded
    contested = live.sum(1) > 1
    amount, eligible = _pots(s)
    values = [_values(s, share, hands) for share in spec.shares]
    cands = []
    for share, val in zip(spec.shares, values, strict=True):
        cand = eligible & (val > 0).unsqueeze(1)
        if spec.declare:
            d = s.declared.unsqueeze(1)
            cand = cand & ((d == share.direction) | (d == BOTH))
        cands.append(cand)
    if spec.declare:
        failed = _swing_failed(cands, values, s.declared, spec.swing_outright)
        cands = [c & ~failed for c in cands]
    winners = []
    for cand, val in zip(cands, values, strict=True):
        v = val.unsqueeze(1).expand_as(cand)
        best = torch.where(cand, v, -1).max(2, keepdim=True).values
        winners.append(cand & (v == best))
    active = torch.stack([w.any(2) for w in winners])  # [H, B, K]
    n_active = active.sum(0)
    base, extra = amount // n_active.clamp(min=1), amount % n_active.clamp(min=1)
    won = torch.zeros_like(s.stack)
    rank = torch.zeros_like(amount)
    for h, share in enumerate(spec.shares):
        portion = torch.where(active[h], base + (rank < extra).long(), 0)
        rank = rank + active[h].long()
        won = won + _split(portion, winners[h], _tie_key(s, share)).sum(1)
    chop = _split(torch.where(n_active == 0, amount, 0), eligible, _tie_key(s, spec.shares[0])).sum(1)
    won = won + chop
    pot = s.committed.sum(1, keepdim=True)
    won = torch.where(contested.unsqueeze(1), won, torch.where(live, pot, 0))
    m1 = m.unsqueeze(1)
    s.shown = torch.where(m1, live & contested.unsqueeze(1), s.shown)
    s.payoff = torch.where(m1, won - s.committed, s.payoff)
    s.done = s.done | m
    s.actor = torch.where(m, -1, s.actor)
