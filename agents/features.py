"""Card features: rank and suit counts read from the observation's card pieces.

The observation encodes cards one-hot per slot (stud's seven dealt slots, Cowboy's
five sorted positions, Chowaha's twelve layout positions). That is complete but hard
for an MLP: "a pair" means two slots whose card indices share a rank, a pattern it
has to learn separately for every pair of slots. This layer adds, for each group of
cards, what a player actually reasons with: for every rank whether the group holds at
least 1, 2, 3 or 4 of it, and how many cards of each suit it holds (divided by 5).

Groups, from the pieces of the env's layout (cards are ``rank * 4 + suit``):

* ``own``: the player's cards (``own_cards``, ``hand`` or ``hole_cards``);
* ``board``: the community cards; ``own_board``: own and board together;
* Chowaha (``boards`` given): ``board_<k>`` and ``own_board_<k>`` per board instead,
  because a Chowaha hand is two hole cards plus three cards of *one* board: counts
  over all twelve layout cards (pairs across boards, five of a suit spread over
  four boards) describe no hand anyone can make;
* ``up_<k>``: the face-up cards of relative seat ``k`` (stud family);
* ``dummy``: the Cowboy dummy, when the player draws for it.

The layer has no parameters: it is a fixed function of the observation, rebuilt from
the group description stored with the network's architecture.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

# piece name -> (group, stride of its 52-card blocks)
CARD_PIECES: dict[str, tuple[str, int]] = {
    "own_cards": ("own", 53),  # 52 one-hot and a face-up flag per slot
    "hand": ("own", 52),
    "hole_cards": ("own", 52),
    "community": ("board", 52),
    "up_cards": ("up", 52),  # one block per relative seat
    "dummy": ("dummy", 52),
}
PER_GROUP = 13 * 4 + 4  # at-least-k per rank, then suit counts
VERSION = 1  # stored with the architecture: a checkpoint needs the features it was trained on


def card_groups(
    pieces: Sequence[tuple[str, int]], boards: Sequence[Sequence[int]] | None = None
) -> list[tuple[str, list[int]]]:
    """``(group, offsets of its 52-card blocks)`` for an observation layout.

    Args:
        pieces: the layout's (name, size) pieces.
        boards: community positions of each board (Chowaha's ``BOARDS``), or None for
            one group of all community cards.
    """
    groups: dict[str, list[int]] = {}
    offset = 0
    for name, size in pieces:
        if name in CARD_PIECES:
            group, stride = CARD_PIECES[name]
            if size % stride:
                raise ValueError(f"piece {name!r} has {size} floats, not a multiple of {stride}")
            for k in range(size // stride):
                key = f"up_{k + 1}" if group == "up" else group
                groups.setdefault(key, []).append(offset + k * stride)
        offset += size
    if boards is not None and "board" in groups:
        layout = groups.pop("board")
        for k, positions in enumerate(boards):
            groups[f"board_{k}"] = [layout[p] for p in positions]
        for k in range(len(boards)):
            groups[f"own_board_{k}"] = groups.get("own", []) + groups[f"board_{k}"]
    elif "own" in groups and "board" in groups:
        groups["own_board"] = groups["own"] + groups["board"]
    return list(groups.items())


def layout_card_groups(variant: str, pieces: Sequence[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    """:func:`card_groups` of a variant's layout (per board in Chowaha)."""
    boards = None
    if variant == "chowaha":
        from envs.variants.chowaha import BOARDS

        boards = BOARDS
    return card_groups(pieces, boards)


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
