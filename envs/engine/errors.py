"""Errors raised by the engine."""

from __future__ import annotations

from envs.engine.options import quoted


class IllegalActionError(ValueError):
    """An action outside the legal set: the message names the action, the state and
    the legal actions. The state is left exactly as it was."""

    def __init__(self, action: object, state: str, legal: list[str], name: str | None = None) -> None:
        self.action = action
        self.legal = legal
        shown = f"{quoted(action)} ({name})" if name else quoted(action)
        super().__init__(f"illegal action {shown} in state [{state}]; legal actions: {', '.join(legal) or 'none'}")
