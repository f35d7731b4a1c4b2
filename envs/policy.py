"""Bots as the environment layer sees them: the :class:`Policy` protocol, every check
of a bot's answer, and seating bots at a table, in one place.

A bot is anything with ``act(observation, view) -> int``. The env layer owns this
protocol, so the envs take bots without importing any bot code (``agents`` builds on
``envs``, never the other way). Optional hooks, used when a bot has them:

* ``reset()``: a new hand (or Cowboy game) starts;
* ``seed(seed)``: reseed the bot's own randomness (arenas and trainers do, for
  reproducible matches);
* ``act_batch(observations, views) -> list[int]``: many tables at once.

:class:`Seating` seats bots at a table and is what every loop that plays bots uses
(the arena, the Gymnasium wrapper's opponents, the training collector's fixed bots,
``play.py``): it resets them, asks them, and checks every answer, never ``int()``-ing
a float or remapping anything. Every way a bot can fail becomes one of two errors:

* :class:`BotActionError` (an :class:`~envs.engine.errors.IllegalActionError`): it
  returned something that is not an int (``None``, ``1.0``, ``"call"``) or an int that
  is not legal now (``99``);
* :class:`BotError`: it raised, or tried to end the run (``SystemExit``), or, running
  isolated (:mod:`evaluation.isolate`), its process crashed, hung past the decision time
  limit or broke the protocol.

Both carry ``bot`` (its name), ``seat`` and ``what`` (what it did), and pickle, so
they cross process boundaries intact. Quoted values are cut to about 100 characters.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, runtime_checkable

import numpy as np

from envs.engine.errors import IllegalActionError
from envs.engine.options import quoted
from envs.engine.view import PublicView

MESSAGE_LIMIT = 300  # characters of a bot's exception message
Observation = dict[str, np.ndarray]


@runtime_checkable
class Policy(Protocol):
    """The minimal bot: anything with this method plugs into the arena and the envs
    (the optional hooks ``reset``, ``seed`` and ``act_batch``: see the module docstring)."""

    def act(self, observation: Observation, view: PublicView) -> int: ...


def describe(bot: Any) -> str:
    """A bot's short name for tables, logs and errors: its ``name``, else its class."""
    return str(getattr(bot, "name", type(bot).__name__))


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


class Seating:
    """Bots in the seats of one table (``bots[seat]``; None for a seat nobody plays
    here, such as a learner's or a person's): the one place that resets them, asks them
    and checks their answers.

    Args:
        bots: one bot (or None) per seat; the same bot may sit in several seats.
        names: how errors name each seat's bot (default: :func:`describe`).
    """

    def __init__(self, bots: Sequence[Any], names: Sequence[str] | None = None) -> None:
        self.bots = list(bots)
        self.names = list(names) if names is not None else [describe(b) if b is not None else "" for b in bots]

    def seed(self, seeds: Sequence[int | None]) -> None:
        """Reseed each seat's bot that takes a seed (a bot in several seats: the last)."""
        for seat, (bot, seed) in enumerate(zip(self.bots, seeds, strict=True)):
            if bot is not None and hasattr(bot, "seed"):
                with blame(self.names[seat], seat):
                    bot.seed(seed)

    def reset(self) -> None:
        """A new hand (or game): each distinct bot's ``reset``, once."""
        done: set[int] = set()
        for seat, bot in enumerate(self.bots):
            if bot is not None and id(bot) not in done and hasattr(bot, "reset"):
                done.add(id(bot))
                with blame(self.names[seat], seat):
                    bot.reset()

    def act(
        self, seat: int, observation: Observation, view: PublicView, *, labels: Sequence[str] = (), state: str = ""
    ) -> int:
        """The seat's bot's legal action, checked (see :func:`checked_action`).
        ``labels``: display names of the legal actions; ``state``: where the table is
        (both only for the error message; default: the view's names, nothing)."""
        with blame(self.names[seat], seat):
            answer = self.bots[seat].act(observation, view)
        if type(answer) is int and answer in view.legal_actions:
            return answer
        names = labels or view.legal_names
        return checked_action(answer, view.legal_actions, names, bot=self.names[seat], seat=seat, state=state)


def act_many(
    bot: Any, name: str, seats: Sequence[int], observations: Sequence[Observation], views: Sequence[PublicView]
) -> list[int]:
    """One bot's checked actions at many tables (its ``act_batch`` when it has one)."""
    with blame(name, seats[0] if seats else -1):
        if hasattr(bot, "act_batch"):
            answers = list(bot.act_batch(observations, views))
        else:
            answers = [bot.act(o, v) for o, v in zip(observations, views, strict=True)]
    if len(answers) != len(views):
        raise BotError(name, seats[0] if seats else -1, f"returned {len(answers)} actions for {len(views)} tables")
    return [
        a
        if type(a) is int and a in v.legal_actions
        else checked_action(a, v.legal_actions, v.legal_names, bot=name, seat=s, state="")
        for a, v, s in zip(answers, views, seats, strict=True)
    ]
