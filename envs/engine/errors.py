"""Errors raised by the engine."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action outside the legal set: the message names the action, the state and
    the legal actions. The state is left exactly as it was."""

    def __init__(self, action: object, state: str, legal: list[str]) -> None:
        self.action = action
        self.legal = legal
        super().__init__(f"illegal action {action!r} in state [{state}]; legal actions: {', '.join(legal) or 'none'}")
