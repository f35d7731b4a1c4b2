"""Hand evaluation on torch tensors, equal to the numpy evaluators of :mod:`envs.engine.hands`.

The numpy evaluators are table lookups (a hand's key is the sum of its cards' keys;
its rank part indexes a strength table, its suit part says which suit, if any, holds
five cards). The same tables, moved once to the batch's device, give the same
strengths here with a handful of gathers and no branch: a flush is always computed
and selected with ``torch.maximum``, so a batch runs on a GPU without host syncs.

Every function takes card ints of shape ``(..., k)`` (int64) and returns int64
strengths of shape ``(...)`` on the same scale as the numpy function of the same
name: higher is better, equal is a tie, 0 means "cannot win" (no qualifying low).
Padding: callers may hold ``-1`` in unused slots of hands that never reach a
showdown; those slots are read as the deuce of clubs (key 0 in the rank part), which
keeps every lookup in range, and the result is to be masked out by the caller.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import torch

from envs.engine.hands import get_tables
from envs.engine.hands.split import _DOWN_OK_T, _I, _J, _TWO_KEYS, TWO_CARD_STRENGTH, _five_keys
from envs.engine.hands.tables import RANK_MASK, SUIT_SHIFT

__all__ = ["TorchHands", "torch_hands"]

# (first count, second count) of a short hand -> its pattern code (envs.engine.hands.short)
_SHORT_PATTERNS = ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (3, 0), (3, 1), (4, 0))
_SHORT_BASE = 16


@dataclass(frozen=True)
class TorchHands:
    """The evaluation tables on one device (build with :func:`torch_hands`)."""

    device: torch.device
    card_keys: dict[int, torch.Tensor]  # k -> (52,) int64 card keys
    rank_keys: dict[int, torch.Tensor]  # k -> (52,) int64 rank part only (lows ignore suits)
    high: dict[int, torch.Tensor]  # k -> rank sum -> best non-flush high strength (int16)
    low: dict[int, torch.Tensor]  # k -> rank sum -> ace-to-five low value (int16)
    flush5: torch.Tensor  # five-card rank sum -> flush strength
    flush_mask: torch.Tensor  # 13-bit rank mask -> best flush / straight flush
    flush_suit: torch.Tensor  # suit part of a key -> suit with five cards, or -1
    five_keys: torch.Tensor  # five-card strength -> key against two-card hands (Cowpie)
    two_keys: torch.Tensor  # rank_a * 13 + rank_b -> two-card key against five-card hands
    two_strength: torch.Tensor  # rank_a * 13 + rank_b -> two-card strength 1..91
    down_ok: torch.Tensor  # (128, 21) bool: a face-down card in each hand of the split
    split_i: torch.Tensor  # (21,) first position of each split's two-card hand
    split_j: torch.Tensor  # (21,) second position
    short_codes: torch.Tensor  # (5, 5) pattern code of (first count, second count)

    # ------------------------------------------------------------------ high / low
    def high_value(self, cards: torch.Tensor) -> torch.Tensor:
        """Best five-card high strength of hands of 5, 6 or 7 cards (``evaluate_high``)."""
        k = cards.shape[-1]
        c = cards.clamp(min=0)
        keys = self.card_keys[k][c].sum(-1)
        value = self.high[k][keys & RANK_MASK].long()
        suit = self.flush_suit[keys >> SUIT_SHIFT]  # -1: no flush
        in_suit = (c & 3) == suit.unsqueeze(-1)
        bits = torch.where(in_suit, torch.ones_like(c) << (c >> 2), torch.zeros_like(c)).sum(-1)
        return torch.maximum(value, self.flush_mask[bits].long())  # flush_mask[0] == 0

    def low_value(self, cards: torch.Tensor, threshold: int = 0) -> torch.Tensor:
        """Ace-to-five low of hands of 5, 6 or 7 cards; 0 below ``threshold``
        (``low_value`` / ``evaluate_low`` with a qualifier's threshold)."""
        k = cards.shape[-1]
        value = self.low[k][self.rank_keys[k][cards.clamp(min=0)].sum(-1)].long()
        return torch.where(value >= threshold, value, torch.zeros_like(value))

    # ----------------------------------------------------------------- short hands
    def short_value(self, cards: torch.Tensor) -> torch.Tensor:
        """Strength of hands of 1-4 cards ranked by rank only (``evaluate_short``)."""
        ranks = cards.clamp(min=0) >> 2
        counts = (ranks.unsqueeze(-1) == torch.arange(13, device=self.device)).sum(-2)
        key = torch.where(counts > 0, counts * _SHORT_BASE + torch.arange(13, device=self.device), -1)
        top = key.sort(dim=-1, descending=True).values[..., :4]
        present = top >= 0
        pattern = torch.where(present[..., :2], top[..., :2] // _SHORT_BASE, 0)
        strength = self.short_codes[pattern[..., 0], pattern[..., 1]]
        for i in range(4):
            strength = strength * _SHORT_BASE + torch.where(present[..., i], top[..., i] % _SHORT_BASE + 1, 0)
        return strength

    # ---------------------------------------------------------------------- Cowpie
    def cowpie_splits(self, cards: torch.Tensor, down: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(five, two, legal) of the 21 splits of seven-card hands, each ``(..., 21)``
        in ``SPLITS`` order (``cowpie_splits``): the five-card hand's high strength,
        the two-card strength, and whether the split is legal."""
        c = cards.clamp(min=0)
        keys = self.card_keys[5][c]
        total = keys.sum(-1, keepdim=True)
        sub = total - keys[..., self.split_i] - keys[..., self.split_j]
        five = self.high[5][sub & RANK_MASK].long()
        flush = self.flush_suit[sub >> SUIT_SHIFT] >= 0
        five = torch.where(flush, self.flush5[sub & RANK_MASK].long(), five)
        ranks = c >> 2
        two_index = ranks[..., self.split_i] * 13 + ranks[..., self.split_j]
        two = self.two_strength[two_index]
        pattern = (down.long() << torch.arange(7, device=self.device)).sum(-1)
        legal = (self.five_keys[five] >= self.two_keys[two_index]) & self.down_ok[pattern]
        return five, two, legal


def _tensor(array: np.ndarray, device: torch.device, dtype: torch.dtype = torch.int64) -> torch.Tensor:
    return torch.as_tensor(np.asarray(array).astype(np.int64), device=device).to(dtype)


@functools.cache
def _torch_hands(device: torch.device) -> TorchHands:
    t = get_tables()
    small = torch.int16  # strengths fit (7,462 classes): half the memory of int32 tables
    codes = np.zeros((5, 5), np.int64)
    for i, p in enumerate(_SHORT_PATTERNS):
        codes[p] = i + 1
    return TorchHands(
        device=device,
        card_keys={k: _tensor(v, device) for k, v in t.card_keys.items()},
        rank_keys={k: _tensor(v & RANK_MASK, device) for k, v in t.card_keys.items()},
        high={k: _tensor(v, device, small) for k, v in t.high.items()},
        low={k: _tensor(v, device, small) for k, v in t.low.items()},
        flush5=_tensor(t.flush5, device, small),
        flush_mask=_tensor(t.flush_mask, device, small),
        flush_suit=_tensor(t.flush_suit, device),
        five_keys=_tensor(_five_keys(t), device),
        two_keys=_tensor(_TWO_KEYS, device),
        two_strength=_tensor(TWO_CARD_STRENGTH, device),
        down_ok=torch.as_tensor(np.ascontiguousarray(_DOWN_OK_T.T), device=device),
        split_i=_tensor(_I, device),
        split_j=_tensor(_J, device),
        short_codes=_tensor(codes, device),
    )


def torch_hands(device: str | torch.device = "cpu") -> TorchHands:
    """The evaluation tables on ``device`` (built once per device and cached)."""
    return _torch_hands(torch.device(device))
