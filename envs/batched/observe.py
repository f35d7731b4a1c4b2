"""Observation vectors on tensors, laid out by the scalar game's own pieces.

The scalar env's :class:`~envs.engine.observation.Tracker` writes each piece from the
event log; here each piece class has a batched writer that computes the same values
from the table state for a viewer seat per table. The layout (piece order, sizes,
offsets) is the scalar game's list of pieces, so the two vectors agree index for
index. One-hot entries are scattered into a spare last column when absent, so no
table needs a branch. A piece class without a writer raises ``NoBatchedFormError``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import torch

from envs.batched.betting import Seats
from envs.batched.spec import NoBatchedFormError, Spec
from envs.batched.state import TableState
from envs.engine import observation as obs
from envs.engine.actions import SPLIT_PAIRS
from envs.engine.scaling import LINEAR_UNITS
from envs.variants.cowpie.pieces import SPLIT_ROW, Splits
from envs.variants.stud.pieces import UpByStreet

__all__ = ["Observer", "chips_to_units"]

BLOCK_ROWS = 512  # rows of the observation written together (see _View.write)


def chips_to_units(amount: torch.Tensor, unit: int) -> torch.Tensor:
    """``Tracker.chips`` as float32: the float64 quotient up to a million units, the
    soft logarithmic growth of :func:`envs.engine.scaling.soft_units` beyond."""
    x = amount.double()
    linear = x / unit
    size = x.abs().clamp(min=1.0)
    soft = LINEAR_UNITS * (
        1.0
        + torch.log(size)
        - torch.log(torch.tensor(float(unit), dtype=torch.float64))
        - torch.log(torch.tensor(float(LINEAR_UNITS), dtype=torch.float64))
    )
    out = torch.where(x.abs() <= LINEAR_UNITS * unit, linear, torch.where(x >= 0, soft, -soft))
    return out.float()


class Observer:
    """Builds ``[B, O]`` observations of a spec's pieces for viewer seats ``[B]``."""

    def __init__(self, spec: Spec, seats: Seats) -> None:
        self.spec, self.seats = spec, seats
        self.size = sum(p.size for p in spec.pieces)
        self.writers: list[tuple[int, obs.Piece, Callable[..., None]]] = []
        writers = {
            obs.OwnCards: self._own,
            obs.UpCards: self._up,
            obs.Community: self._community,
            obs.BettingPiece: self._betting,
            obs.Chips: self._chips,
            obs.StreetPiece: self._street,
            obs.Position: self._position,
            obs.InHand: self._in_hand,
            obs.History: self._history,
            obs.Declarations: self._declarations,
            obs.Shown: self._shown,
            Splits: self._splits,
            UpByStreet: self._up_by_street,
        }
        offset = 0
        for piece in spec.pieces:
            writer = writers.get(type(piece))
            if writer is None:
                raise NoBatchedFormError(
                    f"{spec.game.name}: the observation piece {type(piece).__name__} has no batched form"
                )
            self.writers.append((offset, piece, writer))
            offset += piece.size
        self.labels = next((list(p.labels) for p in spec.pieces if isinstance(p, obs.StreetPiece)), [])
        self.pool = BufferPool()

    def __call__(self, s: TableState, viewer: torch.Tensor) -> torch.Tensor:
        b = len(viewer)
        out = self.pool.take(b, self.size + 1, viewer.device)
        ctx = _View(s, self.seats, viewer, self.size)
        for offset, piece, writer in self.writers:
            writer(ctx, out, offset, piece)
        ctx.write(out)
        return out[:, : self.size]

    def chips(self, amount: torch.Tensor) -> torch.Tensor:
        return chips_to_units(amount, self.spec.unit)

    # ------------------------------------------------------------ pieces
    def _own(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        cards = v.cards()[:, 0]  # [B, C]
        up = v.up()[:, 0]
        slot = torch.arange(cards.shape[1], device=cards.device) * 53 + off
        v.hot(out, torch.where(cards >= 0, slot + cards, v.none))
        v.hot(out, torch.where((cards >= 0) & up, slot + 52, v.none))

    def _up(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        cards, up = v.cards()[:, 1:], v.up()[:, 1:]  # [B, P-1, C]
        base = (torch.arange(cards.shape[1], device=cards.device) * 52 + off).view(1, -1, 1)
        v.hot(out, torch.where((cards >= 0) & up, base + cards, v.none).flatten(1))

    def _up_by_street(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        """The k-th face-up card of each other seat in its k-th block: the rank of a
        card among the seat's face-up cards is the running count of face-up slots."""
        assert isinstance(piece, UpByStreet)
        cards, up = v.cards()[:, 1:], v.up()[:, 1:]  # [B, P-1, C], slots in dealt order
        shown = (cards >= 0) & up
        k = shown.long().cumsum(2) - 1
        base = (torch.arange(cards.shape[1], device=cards.device) * piece.ups * 52 + off).view(1, -1, 1)
        v.hot(out, torch.where(shown & (k < piece.ups), base + k * 52 + cards, v.none).flatten(1))

    def _community(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        c = v.s.community
        v.hot(out, torch.where(c >= 0, off + c, v.none).unsqueeze(1))

    def _betting(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        to_call = (s.current_bet - Seats.at(s.contrib, v.viewer)).clamp(min=0)
        amounts = torch.stack([s.committed.sum(1), to_call, s.current_bet, s.bet_unit], 1)
        v.put(off, self.chips(amounts))
        v.put(off + 4, (s.bets.double() / piece.cap).float().unsqueeze(1))  # type: ignore[attr-defined]

    def _chips(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        behind = torch.where(self.seats.unlimited, 0, s.stack)
        pair = torch.stack([v.rel(s.committed), v.rel(behind)], 2)  # [B, P, 2]
        v.put(off, self.chips(pair).flatten(1))

    def _street(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        lab = v.s.label
        v.hot(out, torch.where(lab >= 0, off + lab, v.none).unsqueeze(1))

    def _position(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        v.hot(out, (off + (v.viewer - v.s.button) % self.seats.p).unsqueeze(1))

    def _in_hand(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        pair = torch.stack([v.rel(~s.folded), v.rel(self.seats.all_in(s))], 2)
        v.put(off, pair.flatten(1).float())

    def _history(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        h = v.s.history  # [B, S, P, LAPS, 7], absolute seats
        b, streets, p = h.shape[0], piece.streets, self.seats.p  # type: ignore[attr-defined]
        rows = h[:, :streets].reshape(b * streets, p, -1)  # one row per (table, street, seat)
        first = (torch.arange(b * streets, device=h.device) * p).view(b, streets, 1)
        index = (first + v.order.unsqueeze(1)).flatten()  # relative seat r of the viewer: absolute order[r]
        v.put(off, rows.reshape(b * streets * p, -1).index_select(0, index).view(b, -1))

    def _declarations(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        d = v.rel(s.declared)
        seen = (d >= 0) & (s.revealed.unsqueeze(1) | (torch.arange(self.seats.p, device=d.device) == 0))
        base = torch.arange(self.seats.p, device=d.device) * 3 + off
        v.hot(out, torch.where(seen, base + d, v.none))

    def _shown(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        cards = v.cards()
        shown = v.rel(s.shown).unsqueeze(2) & (cards >= 0)
        base = (torch.arange(self.seats.p, device=cards.device) * 52 + off).view(1, -1, 1)
        v.hot(out, torch.where(shown, base + cards, v.none).flatten(1))

    def _splits(self, v: _View, out: torch.Tensor, off: int, piece: obs.Piece) -> None:
        s = v.s
        p = self.seats.p
        own = torch.arange(p, device=s.cards.device) == 0
        chosen = v.rel(s.chosen)
        seen = (chosen >= 0) & (v.rel(s.split_public) | own)  # [B, P]
        cards = v.cards()  # [B, P, 7]
        pick = chosen.clamp(min=0)
        i, j = self.spec_pairs(s.cards.device)
        in_two = (torch.arange(cards.shape[2], device=cards.device) == i[pick].unsqueeze(2)) | (
            torch.arange(cards.shape[2], device=cards.device) == j[pick].unsqueeze(2)
        )
        base = (torch.arange(p, device=cards.device) * SPLIT_ROW + off).view(1, -1, 1)
        where = base + cards + torch.where(in_two, 0, 52)
        v.hot(out, torch.where(seen.unsqueeze(2) & (cards >= 0), where, v.none).flatten(1))
        legal = v.rel(s.split_legal.gather(2, s.chosen.clamp(min=0).unsqueeze(2)).squeeze(2))
        flag = base.squeeze(2) + 104
        v.hot(out, torch.where(seen & legal, flag, v.none))

    def spec_pairs(self, device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
        """The two positions of each split's two-card hand."""
        return _split_pairs(device)


@functools.cache
def _split_pairs(device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    return (
        torch.tensor([a for a, _ in SPLIT_PAIRS], device=device),
        torch.tensor([b for _, b in SPLIT_PAIRS], device=device),
    )


class BufferPool:
    """float32 buffers for observations, reused once nobody holds them.

    A fresh ``[B, O]`` tensor per step is tens of megabytes at large B, and on the CPU
    a new allocation that size is new pages from the kernel (page faults) every time:
    that alone cost more than the rest of a step. A buffer handed out earlier is
    written again only when no tensor anywhere still uses its storage (not the
    returned view, not a view of it, not a numpy array on it), so what a caller holds
    is never changed behind its back; a caller that keeps every observation simply
    gets fresh ones. CUDA's caching allocator already reuses memory: pooled on the CPU only.
    """

    KEEP = 3  # buffers kept: the one in the caller's hands, the one being built, a spare

    def __init__(self) -> None:
        self.buffers: list[torch.Tensor] = []

    @staticmethod
    def _free(t: torch.Tensor) -> bool:
        return _use_count(t) == 0  # no tensor but the pool's own

    def take(self, rows: int, cols: int, device: torch.device) -> torch.Tensor:
        """A ``[rows, cols]`` float32 tensor nobody else holds, of any contents (the caller hands
        out views of it only, never the tensor itself: a view is what the count sees)."""
        if device.type != "cpu" or _use_count is None:
            return torch.empty(rows, cols, device=device)
        for t in self.buffers:
            if t.shape == (rows, cols) and self._free(t):
                return t
        t = torch.empty(rows, cols, device=device)
        self.buffers = [*[b for b in self.buffers if not self._free(b)][-(self.KEEP - 1) :], t]
        return t


def _storage_use_count() -> Callable[[torch.Tensor], int] | None:
    """How many tensors share a tensor's storage, less what a lone tensor reads (0:
    only the pool's own), from torch's private counter; None where this torch has no
    such counter or it does not see a view and a numpy array: then nothing is pooled."""
    count = getattr(torch._C, "_storage_Use_Count", None)
    if count is None:
        return None

    def raw(t: torch.Tensor) -> int:
        return int(count(t.untyped_storage()._cdata))

    try:
        probe = torch.zeros(2, 2)
        alone = raw(probe)
        view = probe[:, :1]
        with_view = raw(probe)
        del view
        array = probe.numpy()
        with_array = raw(probe)
        del array
    except (RuntimeError, TypeError, AttributeError):
        return None
    if not (with_view > alone and with_array > alone and raw(probe) == alone):
        return None
    return lambda t: raw(t) - alone


_use_count = _storage_use_count()


class _View:
    """One observation call: the state, the viewers and relative-seat gathers."""

    def __init__(self, s: TableState, seats: Seats, viewer: torch.Tensor, size: int) -> None:
        self.s, self.viewer, self.none = s, viewer, size
        self.hots: list[torch.Tensor] = []
        self._cards: torch.Tensor | None = None
        self._up: torch.Tensor | None = None
        self.dense: list[tuple[int, torch.Tensor]] = []
        self.order = seats.clockwise(viewer)  # relative seat r -> absolute seat

    def cards(self) -> torch.Tensor:
        """``rel(s.cards)``, gathered once per observation (several pieces read it)."""
        if self._cards is None:
            self._cards = self.rel(self.s.cards)
        return self._cards

    def up(self) -> torch.Tensor:
        """``rel(s.up)``, gathered once per observation."""
        if self._up is None:
            self._up = self.rel(self.s.up)
        return self._up

    def rel(self, t: torch.Tensor) -> torch.Tensor:
        """``t`` ``[B, P, ...]`` with its seat axis in relative order from the viewer."""
        idx = self.order.view(*self.order.shape, *([1] * (t.dim() - 2))).expand_as(t)
        return t.gather(1, idx)

    def hot(self, out: torch.Tensor, index: torch.Tensor) -> None:
        """Set 1.0 at ``index`` ``[B, K]`` (the spare column where absent), in :meth:`write`."""
        self.hots.append(index)

    def put(self, offset: int, values: torch.Tensor) -> None:
        """Write ``values`` ``[B, n]`` at columns ``offset..offset + n``, in :meth:`write`."""
        self.dense.append((offset, values))

    def write(self, out: torch.Tensor) -> None:
        """Zero ``out`` and write every piece, a block of rows at a time: at large B
        the vector is tens of megabytes, and one pass per piece over all of it was
        bound by cache misses; a block stays in cache from its zeroing to its last piece."""
        index = torch.cat(self.hots, 1) if self.hots else None
        for start in range(0, out.shape[0], BLOCK_ROWS):
            block = out[start : start + BLOCK_ROWS]
            block.zero_()
            if index is not None:
                block.scatter_(1, index[start : start + BLOCK_ROWS], 1.0)
            for offset, values in self.dense:
                block[:, offset : offset + values.shape[1]] = values[start : start + BLOCK_ROWS]
