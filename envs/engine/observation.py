"""Observations built from named pieces: one spec gives the vector, its docs table and a
text view.

Each :class:`Piece` owns a slice of the flat ``float32`` vector. Most of what a player
sees arrives as events (a card dealt, an action, a reveal), so pieces update one row
per viewer incrementally from the engine's event log (``on_event``); quantities that
change every step (pot, amount to call) are written when an observation is asked for
(``dynamic``). A piece writes only what its viewer may see (docs/rules.md section 7): the
tests resample every hidden card and check that no observation changes.

Seats are encoded relative to the viewer: relative seat 0 is the viewer, 1 the next
seat clockwise, and so on.

Chip amounts of the shared pieces are in reward units through
:func:`envs.scaling.soft_units` (``Tracker.chips``): the amount itself up to a
million units, logarithmic growth beyond, so that the vector stays finite whatever the
options (no real game comes near the bound, so ordinary values are exact quotients).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from envs.engine.cards import JOKER
from envs.engine.events import DECLARE_VERBS, Event, Verb
from envs.engine.scaling import LINEAR_UNITS, soft_units
from envs.engine.state import State

ACTION_KINDS = ("fold", "check", "call", "bring-in", "bet", "raise")
# a betting verb's slot in the history one-hot (a completion is the opening bet)
_VERB_KIND = {Verb.FOLD: 0, Verb.CHECK: 1, Verb.CALL: 2, Verb.BRING_IN: 3, Verb.COMPLETE: 4, Verb.BET: 4, Verb.RAISE: 5}
LAPS = 4  # action slots per seat and street; later actions share the last slot


@dataclass(frozen=True)
class CardBlock:
    """A 52-wide one-hot (or multi-hot) block of cards inside a piece, and the card
    groups it belongs to (``own``, ``board``, ``up_1``..., ``dummy``, ``board_2``...).
    Agents read these to build card features without knowing piece names."""

    offset: int  # within the piece
    groups: tuple[str, ...]


@dataclass
class Piece:
    """A named slice of the observation.

    Attributes:
        name: identifier used in docs and ``describe``.
        size: number of floats.
        doc: what the values mean.
        events: event kinds this piece listens to.
        card_blocks: where the piece holds cards, and which groups they form.
    """

    name: str
    size: int
    doc: str
    events: tuple[str, ...] = ()
    card_blocks: tuple[CardBlock, ...] = ()
    offset: int = field(default=0, init=False)

    def reset(self, t: Tracker) -> None:
        """A new hand has started (write static per-hand facts)."""

    def on_event(self, t: Tracker, e: Event) -> None:
        """Update the viewers' rows for a public (or, for its owner, private) event."""

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        """Write values that change every step into ``out`` (the piece's slice)."""

    @property
    def has_dynamic(self) -> bool:
        """Whether ``dynamic`` does anything (skipped otherwise)."""
        return type(self).dynamic is not Piece.dynamic

    # ------------------------------------------------ one layout for several games
    def merge_key(self) -> tuple[Any, ...]:
        """Pieces of different games with equal keys mean the same thing and may share
        one slice of a layout that embeds them all (dealer's choice,
        :mod:`envs.engine.embedding`): the class and the name."""
        return (type(self), self.name)

    def union(self, pieces: Sequence[Piece]) -> Union | None:
        """One slice for ``pieces`` (this one among them, all with its merge key), or
        None when they cannot share one. By default only pieces of one size and
        meaning (the same doc) share a slice, value for value; pieces whose size
        follows the game (slots, streets, labelled positions) override this."""
        if any(p.size != self.size or p.doc != self.doc for p in pieces):
            return None
        identity = np.arange(self.size)
        return Union(self.inert(), [identity] * len(pieces))

    def inert(
        self, size: int | None = None, doc: str | None = None, blocks: Sequence[CardBlock] | None = None
    ) -> Piece:
        """A piece that only describes a slice (name, size, doc, card blocks) and
        tracks nothing: a layout's entry for values another tracker writes."""
        return Piece(
            self.name,
            self.size if size is None else size,
            self.doc if doc is None else doc,
            (),
            tuple(self.card_blocks if blocks is None else blocks),
        )


@dataclass(frozen=True)
class Union:
    """One shared slice: the piece that describes it, and for each member piece the
    index in the slice of each of its values (``slots[i][k]``: where value ``k`` of
    piece ``i`` goes)."""

    piece: Piece
    slots: list[np.ndarray]


def _ordered_union(lists: Iterable[Sequence[Any]]) -> list[Any]:
    """Every item of the lists once, in order of first appearance."""
    out: dict[Any, None] = {}
    for items in lists:
        out.update(dict.fromkeys(items))
    return list(out)


class Tracker:
    """Per-hand observation rows, one per seat, fed by the engine's events."""

    def __init__(self, pieces: Sequence[Piece], num_players: int, unit: int) -> None:
        self.pieces = list(pieces)
        offset = 0
        for piece in self.pieces:
            piece.offset = offset
            offset += piece.size
        self.size = offset
        self.n = num_players
        self.unit = unit
        self.linear_chips = LINEAR_UNITS * unit  # chips() divides exactly up to here
        self.rows = np.zeros((num_players, offset), np.float32)
        self.dispatch: dict[str, list[Piece]] = {}
        for piece in self.pieces:
            for kind in piece.events:
                self.dispatch.setdefault(kind, []).append(piece)
        self.dynamic_pieces = [p for p in self.pieces if p.has_dynamic]
        self.state: State | None = None
        self.seen = 0
        self.counters: dict[tuple[int, int], int] = {}

    def reset(self, state: State) -> None:
        """Start a new hand."""
        self.state = state
        self.rows.fill(0.0)
        self.seen = 0
        self.counters.clear()
        for piece in self.pieces:
            piece.reset(self)
        self.sync()

    def sync(self) -> None:
        """Consume the events logged since the last call."""
        assert self.state is not None
        events = self.state.events
        dispatch = self.dispatch
        for i in range(self.seen, len(events)):
            e = events[i]
            for piece in dispatch.get(e.kind, ()):
                piece.on_event(self, e)
        self.seen = len(events)

    def observe(self, seat: int) -> np.ndarray:
        """The seat's observation vector (a fresh array)."""
        out = self.rows[seat].copy()
        for piece in self.dynamic_pieces:
            piece.dynamic(self, seat, out[piece.offset : piece.offset + piece.size])
        return out

    def rel(self, viewer: int, seat: int) -> int:
        """Relative seat of ``seat`` for ``viewer``."""
        return (seat - viewer) % self.n

    def set(self, viewer: int, piece: Piece, index: int, value: float = 1.0) -> None:
        """Write one value of a piece in a viewer's row."""
        self.rows[viewer, piece.offset + index] = value

    def set_all(self, piece: Piece, seat: int, index_for_rel: int, stride: int, value: float = 1.0) -> None:
        """For every viewer, write at ``rel(viewer, seat) * stride + index_for_rel``."""
        n = self.n
        base = piece.offset + index_for_rel
        for viewer in range(n):
            self.rows[viewer, base + ((seat - viewer) % n) * stride] = value

    def chips(self, amount: int) -> float:
        """Chips in reward units (big bets, big blinds or antes), finite for any amount:
        :func:`envs.scaling.soft_units` (the plain quotient up to a million units)."""
        if -self.linear_chips <= amount <= self.linear_chips:
            return amount / self.unit
        return soft_units(amount, self.unit)


# ------------------------------------------------------------------- pieces
class OwnCards(Piece):
    """The viewer's own cards in dealt order: per slot a one-hot card and an up flag."""

    def __init__(self, slots: int) -> None:
        doc = f"{slots} slots in dealt order x (52 one-hot card, 1 face-up flag)"
        blocks = tuple(CardBlock(k * 53, ("own",)) for k in range(slots))
        super().__init__("own_cards", slots * 53, doc, ("deal",), blocks)
        self.slots = slots

    def union(self, pieces: Sequence[Piece]) -> Union | None:
        """The most slots of any of them: a game with fewer fills the first ones."""
        widest = max(pieces, key=lambda p: p.size)
        return Union(widest.inert(), [np.arange(p.size) for p in pieces])

    def on_event(self, t: Tracker, e: Event) -> None:
        # count the seat's deal events: more cards may have been dealt since this one
        slot = t.counters.get((-1, e.seat), 0)
        t.counters[(-1, e.seat)] = slot + 1
        if e.cards[0] != JOKER:  # the joker is in no 52-card block: the wild_cards piece marks it
            t.set(e.seat, self, slot * 53 + e.cards[0])
        if e.up:
            t.set(e.seat, self, slot * 53 + 52)


class UpCards(Piece):
    """Face-up cards of the other seats, by relative seat (kept after a fold)."""

    def __init__(self, n: int) -> None:
        doc = f"relative seats 1..{n - 1} x 52: their face-up cards"
        blocks = tuple(CardBlock(k * 52, (f"up_{k + 1}",)) for k in range(n - 1))
        super().__init__("up_cards", (n - 1) * 52, doc, ("deal",), blocks)

    def on_event(self, t: Tracker, e: Event) -> None:
        if not e.up or e.cards[0] == JOKER:  # the joker: the wild_cards piece
            return
        n = t.n
        for viewer in range(n):
            if viewer != e.seat:
                t.set(viewer, self, (((e.seat - viewer) % n) - 1) * 52 + e.cards[0])


class Community(Piece):
    """Shared face-up cards, one slot per layout position."""

    def __init__(self, slots: int, labels: Sequence[str] = (), groups: Sequence[tuple[str, ...]] | None = None) -> None:
        doc = f"{slots} positions x 52 one-hot" + (f" ({', '.join(labels)})" if labels else "")
        groups = groups if groups is not None else [("board",)] * slots
        blocks = tuple(CardBlock(k * 52, tuple(g)) for k, g in enumerate(groups))
        super().__init__("community", slots * 52, doc, ("community",), blocks)
        self.labels = list(labels)
        self.positions = list(labels) if labels else [f"card {k + 1}" for k in range(slots)]
        self.groups = [tuple(g) for g in groups]

    def union(self, pieces: Sequence[Piece]) -> Union | None:
        """Every position of any of them once, by its label (stud's seventh-street
        community card and Chowaha's twelve layout positions), with the card groups of
        every piece that has it."""
        members = [p for p in pieces if isinstance(p, Community)]
        positions = _ordered_union(p.positions for p in members)
        groups: dict[str, list[str]] = {label: [] for label in positions}
        for p in members:
            for label, group in zip(p.positions, p.groups, strict=True):
                groups[label] = _ordered_union([groups[label], group])
        slots = [
            np.concatenate([np.arange(52) + 52 * positions.index(label) for label in p.positions]) for p in members
        ]
        doc = f"{len(positions)} positions x 52 one-hot ({', '.join(positions)})"
        blocks = [CardBlock(k * 52, tuple(groups[label])) for k, label in enumerate(positions)]
        return Union(self.inert(size=52 * len(positions), doc=doc, blocks=blocks), slots)

    def on_event(self, t: Tracker, e: Event) -> None:
        slot = self.labels.index(e.text) if e.text in self.labels else t.counters.get((-2, 0), 0)
        t.counters[(-2, 0)] = t.counters.get((-2, 0), 0) + 1
        if e.cards[0] == JOKER:  # the wild_cards piece
            return
        for viewer in range(t.n):
            t.set(viewer, self, slot * 52 + e.cards[0])


class BettingPiece(Piece):
    """Pot and current betting round, in reward units (``Tracker.chips``)."""

    def __init__(self, raise_cap: int | None) -> None:
        doc = (
            "pot, amount to call, current bet, bet size of the round (reward units, log growth past 1e6), "
            "full bets+raises this street / cap"
        )
        super().__init__("betting", 5, doc)
        self.cap = raise_cap or 4

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        st = t.state
        assert st is not None
        chips = t.chips
        out[:] = (
            chips(st.pot()),
            chips(max(0, st.current_bet - st.contrib[seat])),
            chips(st.current_bet),
            chips(st.bet_unit),
            st.bets / self.cap,
        )


class Chips(Piece):
    """Per relative seat: chips committed this hand and chips behind (0 when unlimited)."""

    def __init__(self, n: int) -> None:
        doc = f"relative seats 0..{n - 1} x (committed, stack behind; 0 when unlimited), reward units (as betting)"
        super().__init__("chips", 2 * n, doc)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        st = t.state
        assert st is not None
        n, chips, values = t.n, t.chips, []
        for rel in range(n):
            s = (seat + rel) % n
            values.append(chips(st.committed[s]))
            behind = st.behind(s)
            values.append(0.0 if behind is None else chips(behind))
        out[:] = values


class StreetPiece(Piece):
    """One-hot street (or phase) of the hand."""

    def __init__(self, labels: Sequence[str]) -> None:
        super().__init__("street", len(labels), "one-hot: " + ", ".join(labels), ("street",))
        self.labels = list(labels)

    def union(self, pieces: Sequence[Piece]) -> Union | None:
        """Every label of any of them once (a label names one street or phase in every
        game that has it)."""
        members = [p for p in pieces if isinstance(p, StreetPiece)]
        labels = _ordered_union(p.labels for p in members)
        slots = [np.array([labels.index(label) for label in p.labels], dtype=np.intp) for p in members]
        return Union(self.inert(size=len(labels), doc="one-hot: " + ", ".join(labels)), slots)

    def on_event(self, t: Tracker, e: Event) -> None:
        if e.text in self.labels:
            i = self.labels.index(e.text)
            t.rows[:, self.offset : self.offset + self.size] = 0.0
            t.rows[:, self.offset + i] = 1.0


class Position(Piece):
    """Seat's distance clockwise from the button (one-hot; 0 = on the button)."""

    def __init__(self, n: int) -> None:
        super().__init__("position", n, f"one-hot distance 0..{n - 1} clockwise from the button")

    def reset(self, t: Tracker) -> None:
        assert t.state is not None
        for seat in range(t.n):
            t.set(seat, self, (seat - t.state.button) % t.n)


class InHand(Piece):
    """Per relative seat: still in the hand, and all-in."""

    def __init__(self, n: int) -> None:
        super().__init__("in_hand", 2 * n, f"relative seats 0..{n - 1} x (not folded, all-in)")

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        st = t.state
        assert st is not None
        n, values = t.n, []
        for rel in range(n):
            s = (seat + rel) % n
            values.append(0.0 if st.folded[s] else 1.0)
            values.append(1.0 if st.all_in(s) else 0.0)
        out[:] = values


class History(Piece):
    """Every public betting action: street x relative seat x lap x (kind one-hot, amount).

    A seat's k-th action on a street goes to lap k (actions past the last lap share
    it); within a street, laps run in turn order, so the sequence is recoverable.
    """

    def __init__(self, streets: int, n: int) -> None:
        self.stride = len(ACTION_KINDS) + 1
        doc = (
            f"{streets} streets x {n} relative seats x {LAPS} laps x ({', '.join(ACTION_KINDS)} one-hot, "
            "seat's total bet this street after the action in reward units, as betting)"
        )
        super().__init__("history", streets * n * LAPS * self.stride, doc, ("action",))
        self.n_seats = n
        self.streets = streets

    def union(self, pieces: Sequence[Piece]) -> Union | None:
        """The most streets of any of them (street ``k`` of every game in block ``k``),
        for one table size."""
        members = [p for p in pieces if isinstance(p, History)]
        if len({p.n_seats for p in members}) > 1:
            return None
        longest = max(members, key=lambda p: p.streets)
        return Union(longest.inert(), [np.arange(p.size) for p in members])

    def on_event(self, t: Tracker, e: Event) -> None:
        kind = _VERB_KIND.get(e.verb)
        if kind is None or e.street < 0:
            return
        key = (e.street, e.seat)
        lap = min(t.counters.get(key, 0), LAPS - 1)
        t.counters[key] = t.counters.get(key, 0) + 1
        n = t.n
        amount = t.chips(e.amount)
        for viewer in range(n):
            rel = (e.seat - viewer) % n
            base = self.offset + ((e.street * n + rel) * LAPS + lap) * self.stride
            t.rows[viewer, base + kind] += 1.0
            t.rows[viewer, base + len(ACTION_KINDS)] = amount


class Declarations(Piece):
    """Per relative seat: low/high/both, visible to others only after the reveal."""

    def __init__(self, n: int) -> None:
        super().__init__(
            "declarations", 3 * n, f"relative seats 0..{n - 1} x (low, high, both) one-hot", ("declare", "reveal")
        )

    def on_event(self, t: Tracker, e: Event) -> None:
        choice = DECLARE_VERBS.index(e.verb)
        if e.kind == "declare":  # the declarer knows its own choice at once
            t.set(e.seat, self, choice)
        else:
            t.set_all(self, e.seat, choice, 3)


class Shown(Piece):
    """Cards shown at the showdown, per relative seat."""

    def __init__(self, n: int) -> None:
        super().__init__("shown", n * 52, f"relative seats 0..{n - 1} x 52: cards shown at showdown", ("show",))

    def on_event(self, t: Tracker, e: Event) -> None:
        for card in e.cards:
            if card != JOKER:  # the wild_cards piece
                t.set_all(self, e.seat, card, 52)


# ------------------------------------------------------------------- spec views
def docs_table(pieces: Iterable[Piece]) -> str:
    """Markdown table of the observation layout."""
    lines = ["| offset | size | piece | meaning |", "|---:|---:|---|---|"]
    offset = 0
    for p in pieces:
        lines.append(f"| {offset} | {p.size} | `{p.name}` | {p.doc} |")
        offset += p.size
    lines.append(f"| | **{offset}** | | total |")
    return "\n".join(lines)


def describe(pieces: Sequence[Piece], vector: np.ndarray) -> str:
    """Text view: each piece's non-zero entries as index=value."""
    out = []
    for p in pieces:
        part = vector[p.offset : p.offset + p.size]
        nz = np.flatnonzero(part)
        shown = ", ".join(f"{i}={part[i]:g}" for i in nz[:24]) + (" ..." if len(nz) > 24 else "")
        out.append(f"{p.name}: {shown or '-'}")
    return "\n".join(out)


def betting_pieces(num_players: int, raise_cap: int | None, street_labels: Sequence[str]) -> list[Piece]:
    """The pieces every betting game shares, in their order: the pot and the round,
    chips, the street, the position, who is in, and the public action history (one
    block per street)."""
    n = num_players
    return [
        BettingPiece(raise_cap),
        Chips(n),
        StreetPiece(street_labels),
        Position(n),
        InHand(n),
        History(len(street_labels), n),
    ]
