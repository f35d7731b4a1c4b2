"""Explicit chance over the engine: the position of an OpenSpiel state (no ``pyspiel``
here, so this part is tested without OpenSpiel installed).

The engine deals inside its steps. Here a hand is dealt from a script of the cards
chance has chosen so far (``Game.new_state(scripted=...)``); when the engine wants one
more it raises :class:`~envs.engine.errors.CardNeeded` and the position becomes a
chance node whose outcomes are the stub's cards, equally likely (the next card of a
uniformly shuffled stub). Choosing one plays again from the last playable state before
that point, the *checkpoint*, with the script one card longer: the hand then reaches
the next decision or the end, or needs yet another card. Nothing is replayed from the
start after the first decision: a checkpoint is at most one step behind.

The button is a seat (``button`` option: a seat, or ``"rotate"``: seat 0, the first
hand of a rotation) or, with ``button="random"``, a chance node of its own before the
deal.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from envs.engine.errors import CardNeeded
from envs.engine.game import Game
from envs.engine.options import quoted
from envs.engine.state import State

SEED = 0  # the engine's generator only orders a stub that scripted deals never read


@dataclass(frozen=True, eq=False)
class Position:
    """Where an OpenSpiel state is; never changed once made, so clones share it.

    Attributes:
        game: the engine's game.
        button: the button seat (None: chance still draws it).
        engine: the hand at a decision or over; at a chance node, the hand as dealt so
            far (its events are what players saw; it is never played on).
        scripted: every card chance chose, in order.
        checkpoint: at a chance node, the last playable hand before it (None: the deal
            starts from the beginning).
        pending: the decision to apply again to ``checkpoint`` (None: none).
        outcomes: at a chance node, the possible outcomes (cards, or seats for the button).
        memo: what was computed from it already (information-state strings), as it
            never changes.
    """

    game: Game
    button: int | None
    engine: State | None
    scripted: tuple[int, ...] = ()
    checkpoint: State | None = None
    pending: int | None = None
    outcomes: tuple[int, ...] | None = None
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)  # views computed once (strings)

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self  # immutable: OpenSpiel's clone copies a state's attributes deeply

    @classmethod
    def start(cls, game: Game) -> Position:
        """The start of a hand: the button's chance node, or the deal."""
        choice = getattr(game.options, "button", "rotate")
        if choice == "random":
            return cls(game, None, None, outcomes=tuple(range(game.num_players)))
        return _deal(game, choice if isinstance(choice, int) else 0, (), None, None)

    @property
    def is_chance(self) -> bool:
        return self.outcomes is not None

    @property
    def is_terminal(self) -> bool:
        return self.outcomes is None and self.engine is not None and self.engine.is_over

    def decide(self, action: int) -> Position:
        """A player's action (applied to a copy of the hand: positions are shared).

        Raises:
            IllegalActionError: the action is not legal here.
        """
        if self.outcomes is not None or self.engine is None:
            raise ValueError(f"action {quoted(action)} at a chance node: choose one of its outcomes")
        st = self.engine.clone()
        try:
            st.apply(action)
        except CardNeeded as need:
            return Position(self.game, self.button, need.state, self.scripted, self.engine, action, need.cards)
        return Position(self.game, self.button, st, self.scripted)

    def chance(self, outcome: int) -> Position:
        """Chance's outcome: a card, or the button's seat.

        Raises:
            ValueError: not a chance node, or an outcome that is not possible here.
        """
        if self.outcomes is None:
            raise ValueError(f"chance outcome {quoted(outcome)} at a decision node")
        if outcome not in self.outcomes:
            shown = ", ".join(str(o) for o in self.outcomes)
            raise ValueError(f"chance outcome {quoted(outcome)} is not possible here: expected one of {shown}")
        if self.button is None:
            return _deal(self.game, outcome, (), None, None)
        return _deal(self.game, self.button, (*self.scripted, outcome), self.checkpoint, self.pending)


def _deal(
    game: Game, button: int, scripted: tuple[int, ...], checkpoint: State | None, pending: int | None
) -> Position:
    """Play on from ``checkpoint`` (or the start) with ``scripted`` until the next
    decision, the end, or a card the script does not hold yet."""
    try:
        if checkpoint is None:
            st = game.new_state(SEED, button=button, scripted=scripted)
        else:
            st = checkpoint.clone()
            assert st.script is not None and pending is not None
            st.script.cards = list(scripted)
            st.apply(pending)
    except CardNeeded as need:
        return Position(game, button, need.state, scripted, checkpoint, pending, need.cards)
    return Position(game, button, st, scripted)


class TransitionCache:
    """The positions recent positions led to, by action (least recently used out first).

    OpenSpiel's tabular algorithms (CFR, best responses, exploitability, tabular
    policies) walk the same tree again and again and make a new child state at every
    visit; with this cache the engine plays each edge once while it stays cached. An
    entry holds its parent, so the parent's ``id`` in the key is not reused while the
    entry lives. ``maxsize=0`` turns caching off; a cached position costs about 5 KB.
    """

    def __init__(self, maxsize: int = 16384) -> None:
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[tuple[int, int], tuple[Position, Position]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def child(self, parent: Position, action: int) -> Position:
        """``parent`` after ``action`` (a chance outcome at a chance node)."""
        key = (id(parent), action)
        entry = self._entries.get(key)
        if entry is not None:
            self._entries.move_to_end(key)
            self.hits += 1
            return entry[1]
        child = parent.chance(action) if parent.is_chance else parent.decide(action)
        self.misses += 1
        if self.maxsize > 0:
            self._entries[key] = (parent, child)
            while len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)
        return child
