"""Errors raised by the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from envs.engine.options import quoted

if TYPE_CHECKING:
    from envs.engine.state import State


class IllegalActionError(ValueError):
    """An action outside the legal set: the message names the action, the state and
    the legal actions. The state is left exactly as it was."""

    def __init__(self, action: object, state: str, legal: list[str], name: str | None = None) -> None:
        self.action = action
        self.legal = legal
        shown = f"{quoted(action)} ({name})" if name else quoted(action)
        super().__init__(f"illegal action {shown} in state [{state}]; legal actions: {', '.join(legal) or 'none'}")


class CardNeeded(Exception):  # noqa: N818 (a signal, not a failure)
    """A scripted hand (``Game.new_state(scripted=...)``) wants a card its script does
    not hold yet.

    Only states dealt from a script raise it, from ``State.deal_card``: the caller
    (OpenSpiel's chance nodes, :mod:`envs.openspiel`) picks the next card among
    ``cards`` and deals the hand again with the longer script. The state that raised
    it stopped in the middle of a step and must not be used for play; its event log
    up to that point is the hand as dealt so far.

    Attributes:
        cards: the cards the stub holds (ascending): the possible next cards, each as
            likely as the others when the stub is shuffled.
        state: the state that raised it (not playable; for its event log).
    """

    def __init__(self, cards: tuple[int, ...], state: State) -> None:
        self.cards = cards
        self.state = state
        super().__init__(f"the script is used up: the next card is one of the {len(cards)} cards in the stub")
