"""What happens when a bot misbehaves: errors that name the bot, its seat and what it did.

A bot must return one of the legal actions, as an int. The arena checks every answer
(never ``int()``-ing a float or remapping anything) and turns every way a bot can fail
into one of two errors:

* :class:`BotActionError` (an :class:`~envs.engine.errors.IllegalActionError`): it
  returned something that is not an int (``None``, ``1.0``, ``"call"``) or an int that
  is not legal now (``99``);
* :class:`BotError`: it raised, or tried to end the run (``SystemExit``), or, running
  isolated (:mod:`agents.isolate`), its process crashed, hung past the decision time
  limit or broke the protocol.

Both carry ``bot`` (its name), ``seat`` and ``what`` (what it did), and pickle, so
they cross process boundaries intact. Quoted values are cut to about 100 characters.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from envs.engine.errors import IllegalActionError

QUOTE_LIMIT = 100  # characters of a bot's answer an error message shows
MESSAGE_LIMIT = 300  # characters of a bot's exception message

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = QUOTE_LIMIT
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8


def quoted(value: Any) -> str:
    """``repr(value)`` for an error message, cut short (a bot's answer can be anything)."""
    try:
        return _REPR.repr(value)
    except Exception:  # a __repr__ that raises: the type still says enough
        return f"<unprintable {type(value).__name__}>"


class BotFailure(Exception):  # noqa: N818 (not an error of the caller: a report of what a bot did)
    """What a bot did wrong, as a proxy for an isolated bot reports it (``what``);
    the arena adds the bot's name and seat (:class:`BotError`)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class ForeignAnswer:
    """An isolated bot's answer that is not an int, as its process described it (the
    parent never unpickles what a bot sends): :func:`checked_action` rejects it with the
    same message as the value itself in this process."""

    def __init__(self, shown: str, type_name: str) -> None:
        self.shown = shown
        self.type_name = type_name

    def __repr__(self) -> str:
        return self.shown


class BotError(RuntimeError):
    """A bot failed: it raised, quit, crashed or hung. Names the bot and its seat."""

    def __init__(self, bot: str, seat: int, what: str) -> None:
        super().__init__(f"bot {bot!r} (player_{seat}) {what}")
        self.bot = bot
        self.seat = seat
        self.what = what

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.bot, self.seat, self.what))


class BotActionError(IllegalActionError):
    """A bot returned something other than a legal action: not an int, or an int that
    is not legal now. Nothing was played."""

    def __init__(self, bot: str, seat: int, what: str, legal: Sequence[str], state: str = "") -> None:
        where = f" in state [{state}]" if state else ""
        legal_text = ", ".join(legal) or "none"
        ValueError.__init__(self, f"bot {bot!r} (player_{seat}) {what}{where}; legal actions: {legal_text}")
        self.bot = bot
        self.seat = seat
        self.what = what
        self.action = what
        self.legal = list(legal)
        self.state = state

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.bot, self.seat, self.what, self.legal, self.state))


def failure_text(error: BaseException) -> str:
    """What a bot did, from the exception its call raised."""
    if isinstance(error, BotFailure):
        return error.what
    if isinstance(error, SystemExit):
        return f"raised SystemExit({quoted(error.code)}): a bot may not end the run"
    message = str(error)
    if len(message) > MESSAGE_LIMIT:
        message = f"{message[:MESSAGE_LIMIT]}... ({len(message)} characters)"
    return f"raised {type(error).__name__}" + (f": {message}" if message else "")


@contextmanager
def blame(bot: str, seat: int) -> Iterator[None]:
    """Run a call into a bot; any failure becomes a :class:`BotError` naming it.
    ``KeyboardInterrupt`` still stops everything."""
    try:
        yield
    except (BotError, BotActionError):
        raise
    except (Exception, SystemExit) as err:
        raise BotError(bot, seat, failure_text(err)) from err


def checked_action(value: Any, legal: Sequence[int], names: Sequence[str], *, bot: str, seat: int, state: str) -> int:
    """The bot's answer as an int if it is one of ``legal``; otherwise a
    :class:`BotActionError` (``None``, ``1.0`` or ``True`` are not ints; ``99`` is not
    legal). Numpy integers count as ints. ``names``: display names of ``legal``."""
    shown = [f"{a} {n}" for a, n in zip(legal, names, strict=True)]
    if isinstance(value, ForeignAnswer):
        what = "which is not a legal action" if value.type_name == "int" else f"({value.type_name}), not an int"
        raise BotActionError(bot, seat, f"returned {value.shown} {what}", shown, state)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise BotActionError(bot, seat, f"returned {quoted(value)} ({type(value).__name__}), not an int", shown, state)
    action = int(value)
    if action not in legal:
        raise BotActionError(bot, seat, f"returned {quoted(action)}, which is not a legal action", shown, state)
    return action
