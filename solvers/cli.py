"""Command-line pieces shared by ``solve.py`` and ``exploitability.py``.

Option values are typed by the option (``ranks=89`` stays the text ``"89"``):

>>> parse_toy_options(["ranks=TJQKA", "streets=3"])
ToyParams(ranks='TJQKA', suits='cdh', streets=3, ante=1, small_bet=1, big_bet=2, raise_cap=2)
>>> parse_toy_options(["streets=two"])
Traceback (most recent call last):
...
ValueError: option streets='two' is not allowed: expected an int
"""

from __future__ import annotations

import dataclasses
from typing import Any

from solvers.toy import ToyParams, quote

GAMES = ("toy_stud",)
OPTION_HELP = "ranks=JQKA, suits=cdh, streets=2, ante=1, small_bet=1, big_bet=2, raise_cap=2 (the defaults)"
_TEXT_OPTIONS = ("ranks", "suits")


def check_game(name: str) -> None:
    """Only toy_stud is small enough to solve exactly; say so for anything else."""
    if name not in GAMES:
        raise ValueError(f"game {quote(name)} cannot be solved exactly; supported: {', '.join(GAMES)}")


def parse_toy_options(items: list[str]) -> ToyParams:
    """``["key=value", ...]`` -> validated :class:`ToyParams`."""
    options: dict[str, Any] = {}
    known = [f.name for f in dataclasses.fields(ToyParams)]
    for item in items:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise ValueError(f"--option {quote(item)}: expected key=value, e.g. --option ranks=TJQKA")
        if key not in known:
            raise ValueError(f"unknown option {quote(key)} for toy_stud; known options: {', '.join(known)}")
        options[key] = value if key in _TEXT_OPTIONS else _int(key, value)
    return ToyParams(**options)


def _int(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"option {key}={quote(text)} is not allowed: expected an int") from None


def describe(params: ToyParams) -> str:
    """``ranks=JQKA suits=cdh streets=2 ...``: the options as one line."""
    return " ".join(f"{k}={v}" for k, v in params.to_dict().items())
