"""Running the stages: starting, finishing and advancing every table's program.

The scalar ``State.run`` loop (skip a contested-only step once one player is left,
start a step once, ask it for an actor, finish it) becomes one sweep over the stages
in order: a table that finishes stage ``j`` is at ``j + 1`` when the sweep reaches it,
so a whole cascade (the last call of a street, the next street's cards, a round in
which nobody can act, the showdown) happens in one sweep with masks and no branch on
a table. With ``sync_free=False`` (the CPU default) stages no table is at are skipped
after one ``any()``; the results are the same either way.
"""

from __future__ import annotations

from typing import Any

import torch

from envs.batched import betting as bet
from envs.batched.dealing import StreetTable, bring_in_opener, deal_street, open_pair, showing_opener
from envs.batched.hands import TorchHands
from envs.batched.observe import Observer
from envs.batched.showdown import award
from envs.batched.spec import Spec, Stage
from envs.batched.state import SHOWDOWN_FIELDS, TableState
from envs.engine.actions import DECLARE_LOW, SPLIT_BASE
from envs.variants.cowpie.rules import SPLIT_PHASE

__all__ = ["DECISIONS", "Program"]

DECISIONS = ("bet", "declare", "split")
# stage kinds started on the CPU for the tables entering them only: (fields read, fields written)
COMPACT: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "deal": (
        ("deck", "folded", "button", "pc"),
        ("dptr", "burned", "burn_pos", "reused", "community", "cards", "up", "ncards", "upranks"),
    ),
    "bet": (
        ("pc", "folded", "stack", "upranks", "cards", "up", "button"),
        ("street", "contrib", "current_bet", "bets", "epoch", "seat_epoch", "bet_unit", "bring_in_seat", "actor"),
    ),
}
COMPACT_SHARE = 0.5  # above this share of the tables, work on the whole batch
KINDS = ("deal", "bet", "declare", "split", "phase", "reveal", "showdown")


class Program:
    """The stages of a spec, run on a :class:`TableState` (see the module docstring)."""

    def __init__(self, spec: Spec, seats: bet.Seats, hands: TorchHands, observer: Observer, sync_free: bool) -> None:
        self.spec, self.seats, self.hands, self.observer = spec, seats, hands, observer
        self.sync_free = sync_free
        device = seats.index.device
        stages = [*spec.stages, Stage(kind="showdown", contested_only=False)]  # pc past the end: done
        self.kind = torch.tensor([KINDS.index(s.kind) for s in stages], device=device)
        self.bring_in_street = torch.tensor([s.kind == "bet" and s.bring_in for s in stages], device=device)
        self.kinds = [k for k in KINDS if any(s.kind == k for s in stages)]
        self.any_pair_rule = any(s.open_pair_unit for s in stages)
        self.any_bring_in = any(s.bring_in for s in stages)
        self._tables(stages, device)

    def _label(self, text: str) -> int:
        labels = self.observer.labels
        return labels.index(text) if text in labels else -1

    def _tables(self, stages: list[Stage], device: torch.device) -> None:
        def t(values: list[Any], dtype: torch.dtype = torch.int64) -> torch.Tensor:
            return torch.tensor(values, dtype=dtype, device=device)

        self.streets = StreetTable.of(stages, device)
        split_label = self._label(SPLIT_PHASE)
        self.label = t(
            [
                self._label(s.label) if s.kind in ("deal", "phase") else split_label if s.kind == "split" else -1
                for s in stages
            ]
        )
        self.street = t([s.street for s in stages])
        self.unit = t([s.unit for s in stages])
        self.pair_unit = t([s.open_pair_unit for s in stages])
        self.low_game = t([s.low_game for s in stages], torch.bool)
        self.contested_only = t([s.contested_only for s in stages], torch.bool)
        self.decision = t([s.kind in DECISIONS for s in stages], torch.bool)
        # a hand with one player left skips every contested-only stage at once
        after = [next(k for k in range(j, len(stages)) if not stages[k].contested_only) for j in range(len(stages))]
        self.after_skip = t(after)

    # -------------------------------------------------------------- stages
    def _start(self, s: TableState, enter: torch.Tensor, kinds: list[str]) -> None:
        """Begin the stage each table of ``enter`` is at (every kind of ``kinds`` at once)."""
        pc, kind = s.pc, self.kind[s.pc]
        label = self.label[pc]
        s.label = torch.where(enter & (label >= 0), label, s.label)
        for k in kinds:
            m = enter & (kind == KINDS.index(k))
            if not self.sync_free:
                rows = m.nonzero().squeeze(1)
                if len(rows) == 0:
                    continue
                if k in COMPACT and len(rows) <= COMPACT_SHARE * len(m):
                    self._start_rows(s, rows, k)
                    continue
            self._start_kind(s, m, k)

    def _start_rows(self, s: TableState, rows: torch.Tensor, k: str) -> None:
        """``_start_kind`` on the tables ``rows`` only, as a smaller state: on the CPU
        a street dealt or a round opened at a few tables costs those tables only."""
        reads, writes = COMPACT[k]
        part = s.select(rows, reads + writes)
        self._start_kind(part, torch.ones_like(rows, dtype=torch.bool), k)
        s.assign(rows, part, writes)

    def _start_kind(self, s: TableState, m: torch.Tensor, k: str) -> None:
        """Begin the stages of kind ``k`` at the tables of ``m``."""
        if k == "deal":
            deal_street(s, self.seats, m, self.streets)
        elif k == "bet":
            self._start_round(s, m)
        elif k == "declare":
            s.declared = torch.where(m.unsqueeze(1), -1, s.declared)
            s.revealed = s.revealed & ~m
            s.actor = torch.where(m, self._first_undecided(s, s.declared), s.actor)
        elif k == "split":
            self._start_split(s, m)
        elif k == "reveal":
            s.split_public = torch.where(m.unsqueeze(1), ~s.folded & (s.chosen >= 0), s.split_public)
        elif k == "showdown":
            self._award(s, m)

    def _award(self, s: TableState, m: torch.Tensor) -> None:
        """The showdown; on the CPU only the tables that reach it are evaluated."""
        if self.sync_free:
            award(s, self.spec, self.hands, m)
            return
        rows = m.nonzero().squeeze(1)
        part = s.select(rows, SHOWDOWN_FIELDS)
        award(part, self.spec, self.hands, torch.ones_like(rows, dtype=torch.bool))
        for name in ("payoff", "done", "shown", "actor"):
            getattr(s, name).index_copy_(0, rows, getattr(part, name))

    def _start_round(self, s: TableState, m: torch.Tensor) -> None:
        pc, seats = s.pc, self.seats
        unit, pair = self.unit[pc], self.pair_unit[pc]
        if self.any_pair_rule:
            unit = torch.where((pair > 0) & open_pair(s), pair, unit)
        low, bring_in = self.low_game[pc], self.bring_in_street[pc]
        first = showing_opener(s, seats, low)
        if self.any_bring_in:
            first = torch.where(bring_in, bring_in_opener(s, seats, low), first)
        bet.start_round(s, seats, m, self.street[pc], unit, first, bring_in)

    def _start_split(self, s: TableState, m: torch.Tensor) -> None:
        five, two, legal = self.hands.cowpie_splits(s.cards, ~s.up)
        m3 = m.view(-1, 1, 1)
        s.split_five = torch.where(m3, five, s.split_five)
        s.split_two = torch.where(m3, two, s.split_two)
        s.split_legal = torch.where(m3, legal, s.split_legal)
        s.chosen = torch.where(m.unsqueeze(1), -1, s.chosen)
        s.actor = torch.where(m, self._first_undecided(s, s.chosen), s.actor)

    def _first_undecided(self, s: TableState, choice: torch.Tensor) -> torch.Tensor:
        return self.seats.first(~s.folded & (choice < 0), (s.button + 1) % self.seats.p)

    def advance(self, s: TableState) -> None:
        """Run every table on to its next decision or the end of its hand.

        On the CPU: passes that move every table that can move by one stage
        (``State.run``'s loop), until none can. Sync-free: one sweep over the stages
        in order, each stage's rule applied to the tables at it; a table moved on by
        stage ``j`` is at ``j + 1`` when the sweep gets there, so one sweep runs any
        cascade, with a fixed number of operations and no host check."""
        if self.sync_free:
            for j, stage in enumerate(self.spec.stages):
                self._pass(s, s.pc == j, [stage.kind])
            return
        for _ in range(len(self.spec.stages) + 1):
            if not self._pass(s, None, self.kinds):
                return

    def _pass(self, s: TableState, within: torch.Tensor | None, kinds: list[str]) -> bool:
        """Move the tables (of ``within``) that can move by one stage; False when none
        could (checked on the CPU only)."""
        pc = s.pc
        waiting = self.decision[pc] & s.started & (s.actor >= 0)
        need = ~s.done & ~waiting
        if within is not None:
            need = need & within
        if not self.sync_free and not bool(need.any()):
            return False
        skip = need & self.contested_only[pc] & (bet.live_count(s) <= 1)
        enter = need & ~skip & ~s.started
        self._start(s, enter, kinds)
        s.started = s.started | enter
        fin = need & ~skip & ~s.done & (~self.decision[pc] | (s.actor < 0))
        s.revealed = s.revealed | (fin & (self.kind[pc] == KINDS.index("declare")))
        showdown = need & ~skip & s.done
        move = skip | fin | showdown
        s.pc = torch.where(skip, self.after_skip[pc], torch.where(move, pc + 1, pc))
        s.started = s.started & ~move
        return True

    # ------------------------------------------------------------ decisions
    def kind_at(self, s: TableState) -> torch.Tensor:
        return self.kind[s.pc]

    def mask(self, s: TableState) -> torch.Tensor:
        """``[B, A]`` legal actions of every table's actor (all False when done)."""
        spec, kind = self.spec, self.kind_at(s)
        mask = bet.bet_mask(s, self.seats, spec.num_actions, spec.bring_in, spec.raise_cap, spec.cap_heads_up)
        mask = mask & (kind == KINDS.index("bet")).unsqueeze(1)
        if spec.declare:
            on = kind == KINDS.index("declare")
            mask[:, DECLARE_LOW : DECLARE_LOW + 3] |= on.unsqueeze(1)
        if spec.split:
            on = kind == KINDS.index("split")
            legal = s.split_legal.gather(1, s.actor.clamp(min=0).view(-1, 1, 1).expand(-1, 1, 21)).squeeze(1)
            if any(st.forfeit for st in spec.stages if st.kind == "split"):
                legal = torch.ones_like(legal)
            mask[:, SPLIT_BASE : SPLIT_BASE + 21] |= legal & on.unsqueeze(1)
        return mask & ~s.done.unsqueeze(1)

    def apply(self, s: TableState, action: torch.Tensor, active: torch.Tensor | None = None) -> None:
        """Every live table's actor (of the tables ``active``, default all) takes
        ``action``; then every table runs on."""
        kind = self.kind_at(s)
        live = ~s.done if active is None else ~s.done & active
        n = s.n_decisions
        cols = s.decisions.shape[1]
        write = live & (n < cols)
        s.decisions.scatter_(
            1,
            n.clamp(max=cols - 1).unsqueeze(1),
            torch.where(
                write, action.to(torch.int8), s.decisions.gather(1, n.clamp(max=cols - 1).unsqueeze(1)).squeeze(1)
            ).unsqueeze(1),
        )
        s.n_decisions = n + live.long()
        on_bet = live & (kind == KINDS.index("bet"))
        chips = self.observer.chips
        bet.apply_bet(s, self.seats, on_bet, action, self.spec.bring_in, self.bring_in_street[s.pc], chips)
        hot = self.seats.onehot(s.actor)
        if self.spec.declare:
            on = (live & (kind == KINDS.index("declare"))).unsqueeze(1) & hot
            s.declared = torch.where(on, (action - DECLARE_LOW).unsqueeze(1), s.declared)
            s.actor = torch.where(on.any(1), self._first_undecided(s, s.declared), s.actor)
        if self.spec.split:
            on = (live & (kind == KINDS.index("split"))).unsqueeze(1) & hot
            s.chosen = torch.where(on, (action - SPLIT_BASE).unsqueeze(1), s.chosen)
            s.actor = torch.where(on.any(1), self._first_undecided(s, s.chosen), s.actor)
        self.advance(s)
