"""Games and their steps: what a :class:`~envs.engine.variant.Variant` builds.

A :class:`Game` is a variant with validated options and a player count; its
``program`` is a tuple of :class:`Step` (deal, betting round, declare, showdown...).
``Game.new_state`` makes a :class:`~envs.engine.state.State`, which runs the program.
This module sits between ``variant`` (which builds games) and ``state`` (which runs
them), so the engine's modules import one way, at the top: variant -> game -> state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from envs.engine.options import check_int, check_seat
from envs.engine.state import ScriptedDeal, State, build_stub

if TYPE_CHECKING:
    from envs.engine.variant import PotShare, Street, Variant


class Step:
    """One stage of a hand. Subclasses override what they need.

    ``start`` runs once when the step begins (chance events, forced bets); then the
    runner asks ``actor`` for the seat to act until it returns None; ``finish`` may
    return the index of the next step (default: the following one).
    """

    contested_only = True  # skipped once a single player is left in the hand

    def start(self, st: State) -> None:
        """Begin the step."""

    def actor(self, st: State) -> int | None:
        """Seat that must act now, or None when the step is complete."""
        return None

    def legal(self, st: State) -> list[int]:
        """Legal actions of the acting seat."""
        return []

    def apply(self, st: State, action: int) -> None:
        """Apply a legal action of the acting seat."""
        raise AssertionError(f"{type(self).__name__} takes no actions")

    def labels(self, st: State, actions: list[int]) -> list[str]:
        """Display names of ``actions`` for people and logs. Indices keep their stable
        meaning; a step may name them from the situation (Cowpie: ``split_Ah_9d``)."""
        names = st.game.action_names
        return [names[a] for a in actions]

    def finish(self, st: State) -> int | None:
        """Clean up; return the next step's index or None for the next one."""
        return None


@dataclass(kw_only=True)
class Game:
    """A variant, its validated options and the number of players (built by
    :meth:`~envs.engine.variant.Variant.game`)."""

    variant: Variant
    num_players: int
    options: Any
    program: tuple[Step, ...]
    unit: int  # chips per reward unit (big bet, big blind or ante)
    action_names: tuple[str, ...]
    deck: tuple[int, ...]  # the cards in play (52, or a toy deck), in the order a fresh deck has them
    pot_shares: tuple[PotShare, ...]  # how each pot is shared, for bots
    streets: tuple[Street, ...] = ()  # the dealing and betting rounds this game plays

    @property
    def num_actions(self) -> int:
        """Size of this game's discrete action space."""
        return len(self.action_names)

    @property
    def name(self) -> str:
        """The variant's name."""
        return self.variant.name

    def new_state(
        self,
        seed: int | np.random.Generator | None = None,
        *,
        button: int = 0,
        deck: Sequence[int | str] | str | None = None,
        scripted: Sequence[int] | None = None,
        hand: int = 0,
    ) -> State:
        """A fresh hand. ``deck`` stacks the deck (top card first: card ints 0..51 or
        card strings, see :func:`~envs.engine.cards.parse_deck`); cards it leaves out
        follow in a shuffled order.

        ``scripted`` puts chance in the caller's hands (OpenSpiel's chance nodes, see
        :class:`ScriptedDeal`): every card the hand deals, from the first, is the next
        card of the script, taken out of the stub wherever it lies (later deals and
        reshuffles included); once the script is used up, dealing raises
        :class:`~envs.engine.errors.CardNeeded` naming the stub's cards. Such a hand
        is not a shuffled deck, so its record does not replay.

        ``hand`` numbers the hand at its table (0, 1, ...: the env counts them, as it
        moves the button); only a game whose rules follow a rotation of hands reads it
        (dealer's choice with ``choice="rotate"``), and records keep it.

        Raises:
            ValueError: a button that is not a seat, a bad deck, a script card that is
                not in this game's deck, both ``deck`` and ``scripted``, or a ``hand``
                that is not an int >= 0 (before the generator is used).
        """
        button = check_seat("button", button, self.num_players)
        check_int("hand", hand, 0)
        script = None if scripted is None else ScriptedDeal.checked(scripted, self.deck, stacked=deck is not None)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        shuffle_rng_state = dict(rng.bit_generator.state)  # the deck follows from it
        stub = build_stub(rng, self.deck, deck)
        st = State(self, rng, button, stub)
        st.hand = hand
        st.script = script
        st.initial_deck = stub[::-1]
        st.initial_rng_state = dict(rng.bit_generator.state)
        st.shuffle_rng_state = shuffle_rng_state
        st.stacked = 0 if deck is None else len(deck)
        st.run()
        return st
