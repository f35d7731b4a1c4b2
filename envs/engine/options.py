"""Validation helpers for variant options: every bad value is a clear ``ValueError``.

Options are frozen dataclasses (one per family) built from keyword arguments; these
helpers keep each ``__post_init__`` to a list of one-line checks. ``check_seat`` and
``check_seed`` check the envs' ``reset`` arguments the same way, and ``quoted`` is how
every message in the engine and the envs quotes user input (cut to ~100 characters).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any, TypeVar

import numpy as np

T = TypeVar("T")

QUOTE_LIMIT = 100  # characters of user input an error message shows
OBSERVATION_OPTIONS = frozenset({"up_by_street"})
"""Options that change what a seat observes and never the game (the stud games'
``up_by_street``): hand histories leave them out, and a network's layout records them
only when set, so layouts saved before they existed still match."""


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters.

    Messages quote what the caller passed so the mistake is visible, but a 900,000
    character deck string must not become a 900 KB exception: past ``limit`` the text
    ends with ``... (N characters)``, N the length of the string (or of the repr).

    >>> quoted("As Kd")
    "'As Kd'"
    >>> quoted("x" * 1000, limit=10)
    "'xxxxxxxxx... (1000 characters)"
    """
    try:
        text = repr(value)
    except ValueError:  # an int past Python's 4300-digit str conversion limit
        return f"<{type(value).__name__} of {value.bit_length()} bits>" if isinstance(value, int) else "<unprintable>"
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, str) else len(text)
    return f"{text[:limit]}... ({size} characters)"


def check_int(
    name: str, value: Any, low: int | None = None, high: int | None = None, *, allow_none: bool = False
) -> None:
    """``value`` must be an int in [low, high] (or None when allowed)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        allowed = "an int" + (" or None" if allow_none else "")
        raise ValueError(f"option {name}={quoted(value)} is not allowed: expected {allowed}{_range(low, high)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"option {name}={quoted(value)} is not allowed: expected an int{_range(low, high)}")


def _range(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f" in {low}..{high}"
    if low is not None:
        return f" >= {low}"
    if high is not None:
        return f" <= {high}"
    return ""


def check_choice(name: str, value: Any, choices: Collection[Any]) -> None:
    """``value`` must be one of ``choices``."""
    if isinstance(value, bool) and not any(isinstance(c, bool) for c in choices):
        raise ValueError(f"option {name}={quoted(value)} is not allowed: expected one of {sorted(map(repr, choices))}")
    if value not in choices:
        allowed = ", ".join(map(repr, choices))
        raise ValueError(f"option {name}={quoted(value)} is not allowed: expected one of {allowed}")


def check_bool(name: str, value: Any) -> None:
    """``value`` must be True or False."""
    if not isinstance(value, bool):
        raise ValueError(f"option {name}={quoted(value)} is not allowed: expected True or False")


def build_options(cls: type[T], variant: str, kwargs: dict[str, Any]) -> T:
    """Construct an options dataclass, naming any unknown option and the known ones."""
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(kwargs) - known)
    if unknown:
        allowed = ", ".join(sorted(known))
        raise ValueError(f"unknown option {quoted(unknown[0])} for {variant}; known options: {allowed}")
    return cls(**kwargs)


DEFAULT_STACK = "default"  # the option's default: the variant picks a depth (100 big bets)
DEFAULT_DEPTH = 100


def resolve_stack(options: Any, unit: int) -> None:
    """Replace the ``"default"`` stack of a frozen options object by ``DEFAULT_DEPTH`` units.

    Finite default stacks keep every hand finite: with no raise cap heads-up and
    unlimited chips, two players who always raise would never finish a hand."""
    if options.stack == DEFAULT_STACK:
        object.__setattr__(options, "stack", DEFAULT_DEPTH * unit)


def check_stack(value: Any, most: int | None = None) -> None:
    """``stack``: None (unlimited), chips for everyone, or a sequence of chips per seat
    (each at most ``most`` chips, when given)."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError("option stack=() is not allowed: give one stack per seat, an int or None")
        for i, chips in enumerate(value):
            check_int(f"stack[{i}]", chips, 1, most)
        return
    check_int("stack", value, 1, most, allow_none=True)


def stacks_for(value: Any, num_players: int) -> list[int | None]:
    """Per-seat stacks from a ``stack`` option; a sequence must have one entry per seat."""
    if isinstance(value, (list, tuple)):
        if len(value) != num_players:
            expected = f"expected {num_players} stacks, one per seat"
            raise ValueError(f"option stack={quoted(value)} is not allowed: {expected}")
        return list(value)
    return [value] * num_players


def check_seat(name: str, value: Any, num_players: int) -> int:
    """A seat index for this table: an int (numpy ints too, not bools) in 0..n-1."""
    if isinstance(value, np.integer):
        value = int(value)
    check_int(name, value, 0, num_players - 1)
    return int(value)


def check_seed(seed: Any) -> int | None:
    """A reset seed: None or a non-negative int (numpy ints too, not bools).

    Checked before anything is reseeded, so a bad seed changes nothing. numpy would
    accept a list of ints (or a string of digits via ``int``) and Gymnasium would
    refuse numpy ints; one rule for both envs keeps seeds comparable.

    Raises:
        TypeError: the seed is not an int; ValueError: it is negative.
    """
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"seed={quoted(seed)} is not allowed: expected None or an int >= 0")
    if seed < 0:
        raise ValueError(f"seed={quoted(seed)} is not allowed: expected None or an int >= 0")
    return int(seed)


def check_button(value: Any, num_players: int | None = None) -> None:
    """``button``: 'rotate', 'random' or a seat index."""
    if value in ("rotate", "random"):
        return
    check_int("button", value, 0, None if num_players is None else num_players - 1)
