"""The state of B tables as a struct of arrays: one tensor per quantity, ``[B, ...]``.

Field for field it mirrors :class:`envs.engine.state.State` (``stack``, ``committed``,
``contrib``, ``current_bet``, ``bets``, ``epoch``, ``seat_epoch``, ``bring_in_seat``...),
with -1 where the scalar state holds None, plus what the scalar observation tracker
accumulates from events (the betting history, laps, the street one-hot, who showed).
Chips are int64; everything is on one device.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import torch

from envs.engine.observation import LAPS

__all__ = ["HISTORY_STRIDE", "TableState", "new_state"]

HISTORY_STRIDE = 7  # six action kinds and the amount (envs.engine.observation.History)
NUM_SPLITS = 21


@dataclass
class TableState:
    """Every table's hand in progress (see the module docstring)."""

    deck: torch.Tensor  # [B, D] card ints, top card first
    dptr: torch.Tensor  # [B] cards taken from the deck (dealt and burned)
    burned: torch.Tensor  # [B] cards burned (and not reused)
    burn_pos: torch.Tensor  # [B, K] deck positions of the burned cards in burn order, -1 empty
    reused: torch.Tensor  # [B] burned cards put under the stub at the last street (dealt after deck position D - 1)
    cards: torch.Tensor  # [B, P, C] dealt order, -1 empty
    up: torch.Tensor  # [B, P, C] bool face up
    ncards: torch.Tensor  # [B, P]
    upranks: torch.Tensor  # [B, P, 13] face-up cards per rank (openers, open pairs)
    community: torch.Tensor  # [B] the community card or -1
    button: torch.Tensor  # [B]
    hand: torch.Tensor  # [B] the hand's number at its table
    folded: torch.Tensor  # [B, P] bool
    stack: torch.Tensor  # [B, P] chips behind (unlimited seats: a balance from 0)
    committed: torch.Tensor  # [B, P] chips put in this hand
    contrib: torch.Tensor  # [B, P] chips put in this street
    current_bet: torch.Tensor  # [B]
    bets: torch.Tensor  # [B] full bets and raises this street
    epoch: torch.Tensor  # [B]
    seat_epoch: torch.Tensor  # [B, P]
    bet_unit: torch.Tensor  # [B]
    bring_in_seat: torch.Tensor  # [B] or -1
    actor: torch.Tensor  # [B] the seat to act or -1
    street: torch.Tensor  # [B] betting street index (history)
    label: torch.Tensor  # [B] index in the street piece's labels, or -1
    pc: torch.Tensor  # [B] the stage in progress
    started: torch.Tensor  # [B] bool: the stage has begun
    declared: torch.Tensor  # [B, P] 0 low, 1 high, 2 both, -1 none
    revealed: torch.Tensor  # [B] bool: declarations revealed
    chosen: torch.Tensor  # [B, P] Cowpie: the split index 0..20, or -1
    split_public: torch.Tensor  # [B, P] bool: the seat's split was revealed
    split_five: torch.Tensor  # [B, P, 21] (Cowpie) five-card strengths
    split_two: torch.Tensor  # [B, P, 21] two-card strengths
    split_legal: torch.Tensor  # [B, P, 21] bool
    shown: torch.Tensor  # [B, P] bool: cards shown at the showdown
    history: torch.Tensor  # [B, S, P, LAPS, 7] float32: the observation's history, absolute seats
    laps: torch.Tensor  # [B, S, P] actions per street and seat
    payoff: torch.Tensor  # [B, P] net chips once done
    done: torch.Tensor  # [B] bool
    decisions: torch.Tensor  # [B, H] actions in order (int8)
    n_decisions: torch.Tensor  # [B]

    def tensors(self) -> dict[str, torch.Tensor]:
        """Every field by name (save, restore, copy)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def where(self, mask: torch.Tensor, other: TableState) -> TableState:
        """Per table: ``other``'s state where ``mask``, this one's elsewhere."""
        out = {}
        for name, mine in self.tensors().items():
            theirs = getattr(other, name)
            m = mask.view(-1, *([1] * (mine.dim() - 1)))
            out[name] = torch.where(m, theirs, mine)
        return TableState(**out)

    def select(self, rows: torch.Tensor, names: tuple[str, ...] | None = None) -> TableState:
        """The tables ``rows`` (an index tensor) as a smaller state: of the fields
        ``names`` only when given (the others stay whole and must not be read)."""
        return TableState(
            **{
                name: t.index_select(0, rows) if names is None or name in names else t
                for name, t in self.tensors().items()
            }
        )

    def assign(self, rows: torch.Tensor, part: TableState, names: tuple[str, ...] | None = None) -> None:
        """Write ``part`` (from :meth:`select`) back into the tables ``rows``."""
        for name, t in self.tensors().items():
            if names is None or name in names:
                t.index_copy_(0, rows, getattr(part, name))


RECORD_FIELDS = ("deck", "button", "hand", "decisions", "n_decisions", "payoff", "done")
SHOWDOWN_FIELDS = (
    "folded",
    "committed",
    "cards",
    "ncards",
    "community",
    "declared",
    "chosen",
    "split_five",
    "split_two",
    "split_legal",
    "stack",
    "payoff",
    "done",
    "shown",
    "actor",
)


def new_state(
    b: int,
    p: int,
    slots: int,
    deck: int,
    streets: int,
    history: int,
    splits: bool,
    device: torch.device,
    burns: int = 1,
) -> TableState:
    """Empty tables (no hand dealt)."""
    long, boolean = torch.int64, torch.bool

    def z(*shape: int, dtype: torch.dtype = long, fill: int = 0) -> torch.Tensor:
        return torch.full(shape, fill, dtype=dtype, device=device)

    ns = NUM_SPLITS if splits else 1
    return TableState(
        deck=z(b, deck),
        dptr=z(b),
        burned=z(b),
        burn_pos=z(b, max(burns, 1), fill=-1),
        reused=z(b),
        cards=z(b, p, slots, fill=-1),
        up=z(b, p, slots, dtype=boolean),
        ncards=z(b, p),
        upranks=z(b, p, 13),
        community=z(b, fill=-1),
        button=z(b),
        hand=z(b),
        folded=z(b, p, dtype=boolean),
        stack=z(b, p),
        committed=z(b, p),
        contrib=z(b, p),
        current_bet=z(b),
        bets=z(b),
        epoch=z(b),
        seat_epoch=z(b, p, fill=-1),
        bet_unit=z(b),
        bring_in_seat=z(b, fill=-1),
        actor=z(b, fill=-1),
        street=z(b, fill=-1),
        label=z(b, fill=-1),
        pc=z(b),
        started=z(b, dtype=boolean),
        declared=z(b, p, fill=-1),
        revealed=z(b, dtype=boolean),
        chosen=z(b, p, fill=-1),
        split_public=z(b, p, dtype=boolean),
        split_five=z(b, p, ns),
        split_two=z(b, p, ns),
        split_legal=z(b, p, ns, dtype=boolean),
        shown=z(b, p, dtype=boolean),
        history=torch.zeros(b, max(streets, 1), p, LAPS, HISTORY_STRIDE, device=device),
        laps=z(b, max(streets, 1), p),
        payoff=z(b, p),
        done=z(b, dtype=boolean),
        decisions=z(b, history, dtype=torch.int8),
        n_decisions=z(b),
    )
