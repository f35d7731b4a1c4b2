"""The public batch: ``make``, ``reset``, ``step``, ``observe``, ``record``, save/restore.

A :class:`TableBatch` holds B tables of one variant, seat count and option set as one
:class:`~envs.batched.state.TableState` on one device. Every call makes one decision
per table (the table's seat to act) and runs every table on to its next decision; a
finished table reports its rewards and is dealt its next hand at once (``auto_reset``).
Checking the actions (``check_actions=True``) reads the masks back to the host; set it
off for the fastest GPU loop once a policy is known to respect the mask.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from envs.batched.betting import Seats
from envs.batched.hands import torch_hands
from envs.batched.observe import Observer
from envs.batched.program import Program
from envs.batched.rng import random_seats, shuffled_decks
from envs.batched.spec import Spec, compile_game
from envs.batched.state import RECORD_FIELDS, TableState, new_state
from envs.engine.errors import IllegalActionError
from envs.engine.history import HandRecord
from envs.engine.options import check_choice, check_int, check_seed, quoted
from envs.registry import variant_of

__all__ = ["BatchStep", "BatchedIllegalActionError", "TableBatch", "make"]

SHOWN_TABLES = 5  # tables an error message details


@dataclass(frozen=True)
class BatchStep:
    """What ``reset`` and ``step`` return, one row per table.

    Attributes:
        observation: ``[B, O]`` float32, the seat to act's observation (the scalar
            env's vector for that seat).
        action_mask: ``[B, A]`` bool legal actions of the seat to act.
        seat: ``[B]`` the seat to act (-1 for a finished table without auto-reset).
        rewards: ``[B, P]`` float32 what each seat won at this step, in the variant's unit.
        done: ``[B]`` bool: the table's hand ended at this step (it has been dealt the
            next hand already when ``auto_reset``).
        illegal: ``[B]`` bool with ``illegal_action="lose"``: the tables whose seat to
            act lost its hand at this step for an illegal action (None otherwise).
    """

    observation: torch.Tensor
    action_mask: torch.Tensor
    seat: torch.Tensor
    rewards: torch.Tensor
    done: torch.Tensor
    illegal: torch.Tensor | None = None


class BatchedIllegalActionError(IllegalActionError):
    """Actions a batch refuses: the tables, what was given and each one's legal set.
    Nothing was applied to any table."""

    def __init__(self, problem: str, tables: list[int], details: list[str]) -> None:
        self.tables = tables
        self.details = details
        more = f" (and {len(tables) - len(details)} more)" if len(tables) > len(details) else ""
        ValueError.__init__(self, f"{problem} at tables {tables[:SHOWN_TABLES]}{more}: " + "; ".join(details))
        self.action, self.legal = None, details


def _device(device: Any) -> torch.device:
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError):
        raise ValueError(f"device={quoted(device)} is not allowed: expected 'cpu', 'cuda' or 'cuda:<n>'") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device={quoted(device)} is not available: torch sees no CUDA device here")
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"device={quoted(device)} is not allowed: expected 'cpu', 'cuda' or 'cuda:<n>'")
    if dev.type == "cuda" and dev.index is None:  # tensors report cuda:0; compare like with like
        dev = torch.device("cuda", torch.cuda.current_device())
    return dev


class TableBatch:
    """B tables stepped at once (build with :func:`make`)."""

    def __init__(
        self,
        spec: Spec,
        num_tables: int,
        device: torch.device,
        *,
        auto_reset: bool = True,
        check_actions: bool = True,
        record_limit: int = 256,
        sync_free: bool | None = None,
        illegal_action: str = "raise",
    ) -> None:
        self.spec, self.num_tables, self.device = spec, num_tables, device
        self.illegal_action = illegal_action
        self.game = spec.game
        self.num_players = p = spec.num_players
        self.num_actions = spec.num_actions
        self.auto_reset, self.check_actions, self.record_limit = auto_reset, check_actions, record_limit
        self.seats = Seats(p, spec.unlimited, device)
        self.observer = Observer(spec, self.seats)
        self.observation_size = self.observer.size
        sync_free = device.type != "cpu" if sync_free is None else sync_free
        self.program = Program(spec, self.seats, torch_hands(device), self.observer, sync_free)
        self.cards = torch.tensor(spec.deck, device=device)
        self.tables = torch.arange(num_tables, device=device)
        self.stacks = torch.tensor(spec.stacks, device=device)
        self.seed = 0
        self.state: TableState = self._empty()
        self.last: TableState = self._empty()  # each table's last finished hand (records)
        self._mask: torch.Tensor | None = None

    def _empty(self) -> TableState:
        spec = self.spec
        return new_state(
            self.num_tables,
            self.num_players,
            spec.slots,
            len(spec.deck),
            spec.streets,
            self.record_limit,
            spec.split,
            self.device,
            spec.burns,
        )

    # -------------------------------------------------------------- hands
    def _next_buttons(self, previous: torch.Tensor, hands: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
        choice = self.game.options.button
        if isinstance(choice, int):
            return torch.full_like(previous, choice)
        if choice == "random":
            return random_seats(self.seed, rows, hands, self.num_players)
        return (previous + 1) % self.num_players

    def _deal(
        self, s: TableState, rows: torch.Tensor, hands: torch.Tensor, decks: torch.Tensor | None, buttons: torch.Tensor
    ) -> TableState:
        """A fresh hand for the tables ``rows`` (a state of those rows only)."""
        fresh = new_state(
            len(rows),
            self.num_players,
            self.spec.slots,
            len(self.spec.deck),
            self.spec.streets,
            self.record_limit,
            self.spec.split,
            self.device,
            self.spec.burns,
        )
        fresh.hand = hands
        fresh.button = buttons
        fresh.deck = shuffled_decks(self.seed, rows, hands, self.cards) if decks is None else decks
        fresh.stack = self.stacks.expand(len(rows), -1).clone()
        ante = torch.full_like(fresh.stack, self.spec.ante)
        paid = torch.where(self.seats.unlimited, ante, torch.minimum(ante, fresh.stack))
        fresh.stack = fresh.stack - paid
        fresh.committed = paid
        self.program.advance(fresh)
        return fresh

    def reset(self, seed: int | None = None, decks: Any = None, buttons: Any = None) -> BatchStep:
        """Deal every table a new hand (hand 0 of a new run).

        ``seed`` fixes every later deck too (table ``i``'s ``k``-th hand depends on the
        seed, ``i`` and ``k`` only); ``decks`` ``[B, D]`` gives whole deck orders (top
        card first, burns included) for this hand; ``buttons`` ``[B]`` the button seats
        (default: the ``button`` option; ``"rotate"`` starts at seat 0).
        """
        seed = check_seed(seed)
        self.seed = secrets.randbits(62) if seed is None else seed
        decks_t = None if decks is None else self._check_decks(decks)
        b = self.num_tables
        if buttons is None:
            start = torch.full((b,), -1, dtype=torch.int64, device=self.device)
            btn = self._next_buttons(start, torch.zeros_like(start), self.tables)
        else:
            btn = self._check_buttons(buttons)
        self.state = self._deal(self.state, self.tables, torch.zeros_like(self.tables), decks_t, btn)
        self.last = self._empty()
        return self._result(torch.zeros(b, self.num_players, device=self.device), self.state.done.clone())

    def step(self, actions: Any, active: torch.Tensor | None = None) -> BatchStep:
        """One decision per table: ``actions`` ``[B]`` int on the batch's device.

        ``active`` ``[B]`` bool (optional): only those tables act; the others keep
        their state and their entries of ``actions`` are ignored (the single-agent
        wrapper plays the opponents' seats this way)."""
        s = self.state
        if active is not None and (active.shape != (self.num_tables,) or active.dtype != torch.bool):
            raise ValueError(f"active must be a bool tensor of shape ({self.num_tables},)")
        actions, lost = self._check(actions, active)
        was_done = s.done.clone()
        if lost is not None:
            offender = s.actor.clone()
            active = ~lost if active is None else active & ~lost
        self.program.apply(s, actions, active)
        if lost is not None:
            self._lose(s, lost)
        done = s.done & ~was_done  # finished at this step (without auto_reset a table stays done)
        rewards = (s.payoff.double() / self.spec.unit).float() * done.unsqueeze(1)
        if lost is not None:
            rewards = torch.where(lost.unsqueeze(1), self._losing(offender), rewards)
        if self.auto_reset:
            self._redeal(done)
        return self._result(rewards, done, lost)

    def _lose(self, s: TableState, lost: torch.Tensor) -> None:
        """End the hands of the tables ``lost`` where they stand (``illegal_action="lose"``):
        no chips change hands, the rewards are the AEC env's (see :meth:`_losing`)."""
        s.done = s.done | lost
        s.actor = torch.where(lost, -1, s.actor)
        s.payoff = torch.where(lost.unsqueeze(1), 0, s.payoff)

    def _losing(self, offender: torch.Tensor) -> torch.Tensor:
        """``[B, P]`` the AEC env's rewards for an illegal action: -1 for the offender,
        +1 shared by the others (PettingZoo's convention)."""
        p = self.num_players
        share = torch.full((self.num_tables, p), 1.0 / (p - 1), dtype=torch.float64, device=self.device)
        return torch.where(self.seats.onehot(offender), -1.0, share).float()

    def _redeal(self, done: torch.Tensor) -> None:
        s = self.state
        if self.program.sync_free:
            self.last = self.last.where(done, s)
            fresh = self._deal(s, self.tables, s.hand + 1, None, self._next_buttons(s.button, s.hand + 1, self.tables))
            self.state = s.where(done, fresh)
            return
        rows = done.nonzero().squeeze(1)
        if len(rows) == 0:
            return
        old = s.select(rows, RECORD_FIELDS)
        self.last.assign(rows, old, RECORD_FIELDS)
        hands = old.hand + 1
        s.assign(rows, self._deal(old, rows, hands, None, self._next_buttons(old.button, hands, rows)))

    def _result(self, rewards: torch.Tensor, done: torch.Tensor, lost: torch.Tensor | None = None) -> BatchStep:
        s = self.state
        mask = self.program.mask(s)
        self._mask = mask
        seat = s.actor
        if lost is None and self.illegal_action == "lose":
            lost = torch.zeros_like(done)
        return BatchStep(self.observer(s, seat.clamp(min=0)), mask, seat.clone(), rewards, done, lost)

    def observe(self, seat: int | torch.Tensor) -> torch.Tensor:
        """``[B, O]``: every table's observation for ``seat`` (an int, or ``[B]`` seats)."""
        if isinstance(seat, int):
            check_int("seat", seat, 0, self.num_players - 1)
            seat = torch.full((self.num_tables,), seat, dtype=torch.int64, device=self.device)
        seat = seat.to(self.device).long()
        if seat.shape != (self.num_tables,) or bool(((seat < 0) | (seat >= self.num_players)).any()):
            raise ValueError(f"seat must be an int 0..{self.num_players - 1} or {self.num_tables} such seats")
        return self.observer(self.state, seat)

    def legal_mask(self) -> torch.Tensor:
        """``[B, A]`` the current legal actions."""
        return self.program.mask(self.state)

    # ------------------------------------------------------------- checks
    def _check(self, actions: Any, active: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The actions as int64, and with ``illegal_action="lose"`` the ``[B]`` tables
        whose action is illegal (masked out or out of range; no host sync). A
        malformed tensor (type, shape, dtype, device) always raises."""
        b = self.num_tables
        if not isinstance(actions, torch.Tensor):
            raise BatchedIllegalActionError(
                f"actions must be a torch int tensor [{b}], got {type(actions).__name__}", list(range(b)), []
            )
        if actions.shape != (b,):
            raise BatchedIllegalActionError(
                f"actions of shape {tuple(actions.shape)}, expected ({b},)", list(range(b)), []
            )
        if actions.dtype in (torch.bool, torch.float16, torch.float32, torch.float64, torch.bfloat16) or (
            actions.is_complex()
        ):
            raise BatchedIllegalActionError(
                f"actions of dtype {actions.dtype}, expected an integer dtype", list(range(b)), []
            )
        if actions.device != self.device:
            raise BatchedIllegalActionError(
                f"actions on {actions.device}, the batch is on {self.device}", list(range(b)), []
            )
        actions = actions.long()
        if not self.check_actions:
            return actions, None
        mask = self._mask if self._mask is not None else self.program.mask(self.state)
        live = ~self.state.done if active is None else ~self.state.done & active.to(self.device)
        in_range = (actions >= 0) & (actions < self.num_actions)
        legal = mask.gather(1, actions.clamp(0, self.num_actions - 1).unsqueeze(1)).squeeze(1) & in_range
        bad = live & ~legal
        if self.illegal_action == "lose":
            return actions, bad  # the tables of bad do not act: their action is never applied
        if bool(bad.any()):
            self._refuse(bad, actions, mask)
        return actions, None

    def _refuse(self, bad: torch.Tensor, actions: torch.Tensor, mask: torch.Tensor) -> None:
        names = self.game.action_names
        tables = bad.nonzero().squeeze(1).tolist()
        details = []
        for t in tables[:SHOWN_TABLES]:
            a = int(actions[t])
            shown = f"{a} ({names[a]})" if 0 <= a < len(names) else f"{a} (out of range 0..{len(names) - 1})"
            legal = [names[i] for i in mask[t].nonzero().squeeze(1).tolist()]
            details.append(f"table {t} (player_{int(self.state.actor[t])}): {shown}; legal: {', '.join(legal)}")
        raise BatchedIllegalActionError("illegal actions", tables, details)

    def _check_decks(self, decks: Any) -> torch.Tensor:
        arr = decks.detach().cpu().numpy() if isinstance(decks, torch.Tensor) else np.asarray(decks)
        b, d = self.num_tables, len(self.spec.deck)
        if arr.dtype.kind not in "iu" or arr.shape != (b, d):
            raise ValueError(
                f"decks must be an int tensor of shape ({b}, {d}) (whole decks of card ints), "
                f"got {arr.dtype} {arr.shape}"
            )
        want = np.array(sorted(self.spec.deck))
        wrong = np.flatnonzero((np.sort(arr, axis=1) != want).any(axis=1))
        if len(wrong):
            raise ValueError(
                f"decks[{int(wrong[0])}] is not an order of this game's {d} cards "
                f"(every card of the deck exactly once): {arr[wrong[0]].tolist()}"
            )
        return torch.as_tensor(arr.astype(np.int64), device=self.device)

    def _check_buttons(self, buttons: Any) -> torch.Tensor:
        arr = buttons.detach().cpu().numpy() if isinstance(buttons, torch.Tensor) else np.asarray(buttons)
        b, p = self.num_tables, self.num_players
        if arr.dtype.kind not in "iu" or arr.shape != (b,) or (arr < 0).any() or (arr >= p).any():
            raise ValueError(f"buttons must be {b} seats in 0..{p - 1}, got {quoted(arr.tolist())}")
        return torch.as_tensor(arr.astype(np.int64), device=self.device)

    # ----------------------------------------------------------- records
    def record(self, i: int, finished: bool = False) -> HandRecord:
        """Table ``i``'s hand in progress (``finished=True``: its last finished hand)
        as a :class:`~envs.engine.history.HandRecord`, made by the scalar engine
        replaying the table's deck, button and decisions (so it replays exactly)."""
        check_int("i", i, 0, self.num_tables - 1)
        s = self.last if finished and self.auto_reset else self.state
        n = int(s.n_decisions[i])
        if finished and n == 0 and not bool(s.done[i]):
            raise ValueError(f"table {i} has not finished a hand yet")
        if n > self.record_limit:
            raise ValueError(f"table {i}'s hand took {n} decisions, more than record_limit={self.record_limit}")
        st = self.game.new_state(0, button=int(s.button[i]), deck=s.deck[i].tolist(), hand=int(s.hand[i]))
        for action in s.decisions[i, :n].tolist():
            st.apply(int(action))
        return HandRecord.of(st)

    # ------------------------------------------------------- save/restore
    def state_dict(self) -> dict[str, Any]:
        """Everything needed to resume exactly (tensors copied)."""
        return {
            "seed": self.seed,
            "state": {k: v.clone() for k, v in self.state.tensors().items()},
            "last": {k: v.clone() for k, v in self.last.tensors().items()},
        }

    def load_state_dict(self, data: dict[str, Any]) -> None:
        """Restore :meth:`state_dict`'s copy (shapes must match this batch)."""
        mine = self.state.tensors()
        for name, t in data["state"].items():
            if name not in mine or t.shape != mine[name].shape:
                raise ValueError(f"state field {name!r} does not fit this batch ({tuple(t.shape)})")
        self.seed = int(data["seed"])
        self.state = TableState(**{k: v.clone().to(self.device) for k, v in data["state"].items()})
        self.last = TableState(**{k: v.clone().to(self.device) for k, v in data["last"].items()})
        self._mask = None


def make(
    name: str,
    num_tables: int,
    num_players: int = 2,
    device: str | torch.device = "cpu",
    *,
    auto_reset: bool = True,
    check_actions: bool = True,
    record_limit: int = 256,
    sync_free: bool | None = None,
    illegal_action: str = "raise",
    **options: Any,
) -> TableBatch:
    """A batch of ``num_tables`` tables of the variant ``name`` (``"stud"`` or
    ``"stud_v0"``) for ``num_players``, with the variant's ``options`` (validated as
    ``envs.make`` validates them). ``illegal_action="lose"`` (as the AEC env's): a
    table whose seat to act gives a masked-out or out-of-range action ends its hand
    there, the offender at -1 and the others sharing +1, no chips moved; the default
    ``"raise"`` refuses the whole step. Raises ``ValueError`` for bad options, seat counts
    or devices, and :class:`~envs.batched.spec.NoBatchedFormError` for what has no batched
    form yet."""
    variant = variant_of(name)
    check_int("num_tables", num_tables, 1)
    check_int("record_limit", record_limit, 1)
    check_choice("illegal_action", illegal_action, ("raise", "lose"))
    if illegal_action == "lose" and not check_actions:
        raise ValueError("illegal_action='lose' needs check_actions=True (an unchecked action cannot lose)")
    game = variant.game(num_players, **options)
    dev = _device(device)
    return TableBatch(
        compile_game(game),
        num_tables,
        dev,
        auto_reset=auto_reset,
        check_actions=check_actions,
        record_limit=record_limit,
        sync_free=sync_free,
        illegal_action=illegal_action,
    )
