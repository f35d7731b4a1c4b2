"""Card features: rank and suit counts read from the observation's card pieces.

The observation encodes cards one-hot per slot (stud's seven dealt slots, Cowboy's
five sorted positions, Chowaha's twelve layout positions). That is complete but hard
for an MLP: "a pair" means two slots whose card indices share a rank, a pattern it
has to learn separately for every pair of slots. This layer adds, for each group of
cards, what a player actually reasons with: for every rank whether the group holds at
least 1, 2, 3 or 4 of it, and how many cards of each suit it holds (divided by 5).

Groups come from the pieces' card blocks (cards are ``rank * 4 + suit``): ``own``
(the player's cards), ``board`` and ``own_board`` (community cards, alone and with
the player's), ``board_<k>`` and ``own_board_<k>`` instead where the community forms
several boards (a Chowaha hand is two hole cards plus three cards of *one* board:
counts over all twelve layout cards describe no hand anyone can make), ``up_<k>``
(the face-up cards of relative seat ``k``) and ``dummy`` (the Cowboy dummy).

The layer has no parameters: it is a fixed function of the observation, rebuilt from
the group description stored with the network's architecture.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from envs.engine.observation import Piece

PER_GROUP = 13 * 4 + 4  # at-least-k per rank, then suit counts
VERSION = 1  # stored with the architecture: a checkpoint needs the features it was trained on


def piece_card_groups(pieces: Sequence[Piece]) -> list[tuple[str, list[int]]]:
    """``(group, offsets of its 52-card blocks)`` from the pieces' card blocks.

    Each piece says where it holds cards and which groups they belong to
    (:class:`envs.engine.observation.CardBlock`), so no piece name is known here. Where
    the community cards form several boards (``board_1``...: Chowaha), the whole
    ``board`` group is dropped, since counts over cards of different boards describe
    no hand; ``own_<board>`` joins the player's cards with each board.
    """
    groups: dict[str, list[int]] = {}
    offset = 0
    for piece in pieces:
        for block in piece.card_blocks:
            for group in block.groups:
                groups.setdefault(group, []).append(offset + block.offset)
        offset += piece.size
    boards = [g for g in groups if g.startswith("board_")]
    if boards:
        groups.pop("board", None)
    elif "board" in groups:
        boards = ["board"]
    if "own" in groups:
        for board in boards:
            groups[f"own_{board}"] = groups["own"] + groups[board]
    return list(groups.items())


class CardFeatures(nn.Module):
    """Rank and suit counts of each card group (see the module docstring).

    Args:
        obs_size: observation length.
        groups: from :func:`card_groups`.
    """

    def __init__(self, obs_size: int, groups: Sequence[tuple[str, Sequence[int]]]) -> None:
        super().__init__()
        self.groups = [(str(name), [int(s) for s in starts]) for name, starts in groups]
        # rank and suit counts are linear in the one-hot cards: one matrix product gives
        # all of them (far cheaper than gathering the blocks)
        counts = torch.zeros(obs_size, len(self.groups) * 17)
        card = torch.arange(52)
        for g, (_, starts) in enumerate(self.groups):
            for start in starts:
                if not 0 <= start <= obs_size - 52:
                    raise ValueError(f"card block at {start} does not fit an observation of {obs_size}")
                counts[start + card, g * 17 + card // 4] += 1.0  # rank
                counts[start + card, g * 17 + 13 + card % 4] += 1.0  # suit
        self.counts: torch.Tensor
        self.thresholds: torch.Tensor
        rows = counts.abs().sum(1).nonzero()
        self.lo, self.hi = (int(rows.min()), int(rows.max()) + 1) if len(rows) else (0, 0)  # the card columns
        self.register_buffer("counts", counts[self.lo : self.hi].contiguous(), persistent=False)
        self.register_buffer("thresholds", torch.arange(4, dtype=torch.float32), persistent=False)
        self.size = len(self.groups) * PER_GROUP

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """(batch, size) features of raw observations (batch, obs_size)."""
        batch, g = obs.shape[0], len(self.groups)
        if g == 0:
            return obs.new_zeros(batch, 0)
        counts = (obs[:, self.lo : self.hi] @ self.counts).view(batch, g, 17)
        at_least = (counts[..., :13].unsqueeze(-1) - self.thresholds).clamp(0.0, 1.0)  # count >= 1, 2, 3, 4
        suits = counts[..., 13:] / 5.0
        return torch.cat([at_least.flatten(2), suits], dim=2).flatten(1)  # per group: 52 then 4
