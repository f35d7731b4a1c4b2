"""Counter-based randomness: a table's deck depends only on (seed, table, hand).

A batch never draws from a shared stream, so table ``i``'s ``k``-th hand is the same
whatever the batch size and on every device: each deck is the stable argsort of
62-bit keys hashed (splitmix64's finaliser, in wrapping int64 arithmetic) from the
seed, the table index, the hand number and the card position.
"""

from __future__ import annotations

import torch

_M = [(1 << (64 - k)) - 1 for k in range(64)]  # masks that make >> a logical shift


def _signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


_C1 = _signed(0xBF58476D1CE4E5B9)
_C2 = _signed(0x94D049BB133111EB)
_GOLDEN = _signed(0x9E3779B97F4A7C15)
_TABLE = _signed(0xD1B54A32D192ED03)
_HAND = _signed(0x8CB92BA72F3D8DD7)
_PURPOSE = _signed(0xABC98388FB8FAC03)


def _shr(x: torch.Tensor, k: int) -> torch.Tensor:
    return (x >> k) & _M[k]


def mix(x: torch.Tensor) -> torch.Tensor:
    """splitmix64's finaliser on int64 (wrapping multiplication, logical shifts)."""
    x = x ^ _shr(x, 30)
    x = x * _C1
    x = x ^ _shr(x, 27)
    x = x * _C2
    return x ^ _shr(x, 31)


def hashed(seed: int, tables: torch.Tensor, hands: torch.Tensor, width: int, purpose: int = 0) -> torch.Tensor:
    """Non-negative 62-bit hashes ``[len(tables), width]`` of (seed, table, hand, position)."""
    base = mix(torch.full_like(tables, _signed(seed & ((1 << 64) - 1))) + _GOLDEN)
    base = mix(base ^ (tables * _TABLE) ^ mix(hands * _HAND + purpose * _PURPOSE))
    position = torch.arange(1, width + 1, device=tables.device, dtype=torch.int64) * _GOLDEN
    return _shr(mix(base.unsqueeze(1) + position), 2)


def shuffled_decks(seed: int, tables: torch.Tensor, hands: torch.Tensor, cards: torch.Tensor) -> torch.Tensor:
    """One deck order of ``cards`` per (table, hand), top card first: ``[len(tables), D]``."""
    keys = hashed(seed, tables, hands, len(cards))
    return cards[keys.argsort(dim=1, stable=True)]


def random_seats(seed: int, tables: torch.Tensor, hands: torch.Tensor, num_players: int) -> torch.Tensor:
    """A uniformly drawn seat per (table, hand) (``button="random"``)."""
    return hashed(seed, tables, hands, 1, purpose=1)[:, 0] % num_players
