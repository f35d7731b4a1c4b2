"""Validation helpers for variant options: every bad value is a clear ``ValueError``.

Options are frozen dataclasses (one per family) built from keyword arguments; these
helpers keep each ``__post_init__`` to a list of one-line checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import Any, TypeVar

T = TypeVar("T")


def check_int(
    name: str, value: Any, low: int | None = None, high: int | None = None, *, allow_none: bool = False
) -> None:
    """``value`` must be an int in [low, high] (or None when allowed)."""
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        allowed = "an int" + (" or None" if allow_none else "")
        raise ValueError(f"option {name}={value!r} is not allowed: expected {allowed}{_range(low, high)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"option {name}={value!r} is not allowed: expected an int{_range(low, high)}")


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
        raise ValueError(f"option {name}={value!r} is not allowed: expected one of {sorted(map(repr, choices))}")
    if value not in choices:
        raise ValueError(f"option {name}={value!r} is not allowed: expected one of {', '.join(map(repr, choices))}")


def check_bool(name: str, value: Any) -> None:
    """``value`` must be True or False."""
    if not isinstance(value, bool):
        raise ValueError(f"option {name}={value!r} is not allowed: expected True or False")


def build_options(cls: type[T], variant: str, kwargs: dict[str, Any]) -> T:
    """Construct an options dataclass, naming any unknown option and the known ones."""
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(kwargs) - known)
    if unknown:
        raise ValueError(f"unknown option {unknown[0]!r} for {variant}; known options: {', '.join(sorted(known))}")
    return cls(**kwargs)


DEFAULT_STACK = "default"  # the option's default: the variant picks a depth (100 big bets)
DEFAULT_DEPTH = 100


def resolve_stack(options: Any, unit: int) -> None:
    """Replace the ``"default"`` stack of a frozen options object by ``DEFAULT_DEPTH`` units.

    Finite default stacks keep every hand finite: with no raise cap heads-up and
    unlimited chips, two players who always raise would never finish a hand."""
    if options.stack == DEFAULT_STACK:
        object.__setattr__(options, "stack", DEFAULT_DEPTH * unit)


def check_stack(value: Any) -> None:
    """``stack``: None (unlimited), chips for everyone, or a sequence of chips per seat."""
    if isinstance(value, (list, tuple)):
        if not value:
            raise ValueError("option stack=() is not allowed: give one stack per seat, an int or None")
        for i, chips in enumerate(value):
            check_int(f"stack[{i}]", chips, 1)
        return
    check_int("stack", value, 1, allow_none=True)


def stacks_for(value: Any, num_players: int) -> list[int | None]:
    """Per-seat stacks from a ``stack`` option; a sequence must have one entry per seat."""
    if isinstance(value, (list, tuple)):
        if len(value) != num_players:
            raise ValueError(f"option stack={value!r} is not allowed: expected {num_players} stacks, one per seat")
        return list(value)
    return [value] * num_players


def check_button(value: Any, num_players: int | None = None) -> None:
    """``button``: 'rotate', 'random' or a seat index."""
    if value in ("rotate", "random"):
        return
    check_int("button", value, 0, None if num_players is None else num_players - 1)
