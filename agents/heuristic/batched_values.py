"""Hand strengths of sampled deals without building the hands: the torch evaluators'
own tables, with each hand's key summed from its known part (once per table) and its
drawn cards (one small matrix product per sample block).

The evaluators of :mod:`envs.batched.hands` sum per-card keys over a hand's cards and
look the sum up. The known cards of a deal are the same in every sample, so their key
sums are taken once per table and seat; the drawn cards' keys are summed per seat by
``drawn_keys [R, S, K] @ assignment [R, K, P]``, where ``assignment[r, k, p]`` is 1
when drawn column ``k`` fills a slot of seat ``p`` (the shared community column fills
one slot of every live seat). Keys stay below 2**45 and the card bit masks below
2**52, so the float64 products are exact. The strengths are those of
``TorchHands.high_value`` and ``low_value`` (a test checks them on the filled hands).
"""

from __future__ import annotations

import functools

import torch

from agents.heuristic.batched_deal import TorchDeal
from envs.batched.hands import TorchHands
from envs.engine.cards import NUM_CARDS
from envs.engine.hands.tables import RANK_MASK, SUIT_SHIFT

__all__ = ["assignment", "high_values", "lookup", "low_values"]

RANKS = 13


def lookup(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[index]`` for a 1-D table: ``index_select`` on the flat index, several
    times faster on the CPU than advanced indexing, same values."""
    return table.index_select(0, index.reshape(-1)).view(index.shape)


def assignment(deal: TorchDeal, count: int) -> torch.Tensor:
    """``[R, count, P]`` float64: 1 where drawn column ``k`` fills a slot of seat ``p``."""
    r, p, _ = deal.known.shape
    unknown = deal.live.unsqueeze(2) & (deal.known < 0)
    out = torch.zeros(r, count * p, dtype=torch.float64, device=deal.known.device)
    seat = torch.arange(p, device=deal.known.device).view(1, p, 1)
    index = (deal.columns.clamp(max=max(count - 1, 0)) * p + seat).view(r, -1)
    out.scatter_add_(1, index, unknown.view(r, -1).double())
    return out.view(r, count, p)


@functools.cache
def _card_bits(device: torch.device) -> torch.Tensor:
    """``[52]`` int64: card ``rank * 4 + suit`` as bit ``suit * 13 + rank`` (a hand's
    sum is its card set, each suit's ranks in one 13-bit field)."""
    cards = torch.arange(NUM_CARDS, device=device)
    return torch.ones_like(cards) << ((cards & 3) * RANKS + (cards >> 2))


def _sums(table: torch.Tensor, deal: TorchDeal, drawn: torch.Tensor, share: torch.Tensor) -> torch.Tensor:
    """``[R, S, P]`` each live hand's sum of ``table`` over its cards."""
    known = deal.known
    part = torch.where(known >= 0, lookup(table, known.clamp(min=0)), 0).sum(2) * deal.live  # [R, P]
    keys = lookup(table.double(), drawn)  # [R, S, K]
    return torch.bmm(keys, share).long() + part.unsqueeze(1)


def high_values(hands: TorchHands, deal: TorchDeal, drawn: torch.Tensor, share: torch.Tensor) -> torch.Tensor:
    """``[R, S, P]`` best five-card high strengths (``high_value`` of the completed hands)."""
    k = deal.known.shape[2]
    key = _sums(hands.card_keys[k], deal, drawn, share)
    value = lookup(hands.high[k], key & RANK_MASK).long()
    suit = lookup(hands.flush_suit, key >> SUIT_SHIFT)  # -1: no flush
    bits = _sums(_card_bits(key.device), deal, drawn, share)
    ranks = (bits >> (suit.clamp(min=0) * RANKS)) & ((1 << RANKS) - 1)
    flush = lookup(hands.flush_mask, torch.where(suit >= 0, ranks, 0)).long()
    return torch.maximum(value, flush)


def low_values(
    hands: TorchHands, deal: TorchDeal, drawn: torch.Tensor, share: torch.Tensor, threshold: int = 0
) -> torch.Tensor:
    """``[R, S, P]`` ace-to-five lows, 0 below ``threshold`` (``low_value``)."""
    k = deal.known.shape[2]
    value = lookup(hands.low[k], _sums(hands.rank_keys[k], deal, drawn, share)).long()
    return torch.where(value >= threshold, value, 0)
