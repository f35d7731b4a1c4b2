"""A variant's options as OpenSpiel game parameters, and back.

OpenSpiel parameters are ints, floats, bools or strings, checked against the type of
their default, and a game's string (``dealers_choice_stud(ante=1,players=3,...)``)
lists them all. So that every game has a string that ``pyspiel.load_game`` turns back
into the same game (OpenSpiel's serialization relies on it):

* an option of one plain type (``ante: int``, ``ranks: str``) is a parameter of that type;
* an int option that may be ``None`` (``raise_cap``, ``bring_in``, ``match_cap``...)
  is an int parameter where ``-1`` stands for ``None`` (no such option allows -1);
* any other option (``stack``: an int, one int per seat, ``None`` or ``"default"``;
  ``button``: a seat or ``"rotate"``; ``bet_sizes``: a tuple) is a string parameter:
  ``None`` is ``None``, a tuple its items joined by ``/`` (``100/200``; one item:
  ``0.5/``), a number is quoted (``"400"``: OpenSpiel reads a bare ``400`` as an int),
  and any other string is itself (``rotate``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from envs.engine.options import quoted
from envs.engine.variant import Variant

PLAYERS = "players"  # OpenSpiel's name for the player count
SCALARS = {"int": int, "float": float, "bool": bool, "str": str}
NONE = "None"
NONE_INT = -1  # an int option's None
SEPARATOR = "/"
QUOTE = '"'
INT_RANGE = (-(2**31), 2**31 - 1)  # OpenSpiel keeps int parameters in a C int


def _fields(variant: Variant) -> dict[str, dataclasses.Field[Any]]:
    return {f.name: f for f in dataclasses.fields(variant.options_cls) if f.name in variant.option_names}


def _kind(field: dataclasses.Field[Any]) -> str:
    """``"plain"`` (one plain type), ``"int_or_none"`` or ``"text"`` (written as a string)."""
    annotation = field.type if isinstance(field.type, str) else getattr(field.type, "__name__", "")
    parts = {part.strip() for part in annotation.split("|")}
    if len(parts) == 1 and parts <= set(SCALARS):
        return "plain"
    return "int_or_none" if parts == {"int", NONE} else "text"


def _default(variant: Variant, field: dataclasses.Field[Any]) -> Any:
    if field.name in variant.defaults:
        return variant.defaults[field.name]
    if field.default is not dataclasses.MISSING:
        return field.default
    assert field.default_factory is not dataclasses.MISSING, f"option {field.name} has no default"
    return field.default_factory()


def encode(value: Any) -> str:
    """A value of a string-written option (see the module docstring)."""
    if value is None:
        return NONE
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
        return SEPARATOR.join(items) + (SEPARATOR if len(items) == 1 else "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{QUOTE}{value}{QUOTE}"
    return str(value)


def decode(text: str) -> Any:
    """The value a string-written option stands for."""
    if SEPARATOR in text:
        return tuple(_number(part) for part in text.split(SEPARATOR) if part)
    if text == NONE:
        return None
    if len(text) >= 2 and text[0] == text[-1] == QUOTE:
        return _number(text[1:-1])
    return text


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


def _to_param(field: dataclasses.Field[Any], value: Any) -> Any:
    kind = _kind(field)
    if kind == "text":
        return encode(value)
    if kind == "int_or_none" and value is None:
        return NONE_INT
    if isinstance(value, int) and not isinstance(value, bool) and not INT_RANGE[0] <= value <= INT_RANGE[1]:
        raise ValueError(
            f"option {field.name}={quoted(value)} is beyond what an OpenSpiel parameter holds "
            f"(ints {INT_RANGE[0]}..{INT_RANGE[1]})"
        )
    return value


def _from_param(field: dataclasses.Field[Any], value: Any) -> Any:
    kind = _kind(field)
    if kind == "text":
        if not isinstance(value, str):
            raise ValueError(
                f"parameter {field.name}={quoted(value)} must be a string: None, items joined by '/', "
                'a quoted number such as "400", or a word such as rotate'
            )
        return decode(value)
    if kind == "int_or_none" and value == NONE_INT and not isinstance(value, bool):
        return None
    return value


def specification(variant: Variant) -> dict[str, Any]:
    """OpenSpiel's parameter specification: ``players`` and every option, with its default."""
    spec: dict[str, Any] = {PLAYERS: variant.seats[0]}
    for name, field in sorted(_fields(variant).items()):
        spec[name] = _to_param(field, _default(variant, field))
    return spec


def to_params(variant: Variant, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of a game with these options (defaults filled in), as OpenSpiel
    holds them. Unknown names pass through for the engine to refuse."""
    fields = _fields(variant)
    params = specification(variant)
    params[PLAYERS] = players
    for name, value in options.items():
        field = fields.get(name)
        params[name] = value if field is None else _to_param(field, value)
    return params


def to_options(variant: Variant, params: Mapping[str, Any]) -> tuple[int, dict[str, Any]]:
    """The player count and the variant's options from OpenSpiel parameters."""
    fields = _fields(variant)
    options = dict(params)
    players = options.pop(PLAYERS, variant.seats[0])
    for name, value in options.items():
        field = fields.get(name)
        if field is not None:
            options[name] = _from_param(field, value)
    return players, options
