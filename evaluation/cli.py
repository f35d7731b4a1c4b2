"""Command-line helpers shared by ``evaluate.py``, ``play.py`` and other scripts.

Option values are parsed as data, never evaluated as code:

>>> parse_options(["ante=1", "bet_sizes=0.5,1", "match_cap=none", "hi_lo=false", "betting=no_limit"])
{'ante': 1, 'bet_sizes': (0.5, 1), 'match_cap': None, 'hi_lo': False, 'betting': 'no_limit'}
>>> parse_options(["games=razz,chowaha", "stakes.small_bet=4", "game_options.chowaha.betting=pot_limit"])
{'games': ('razz', 'chowaha'), 'stakes': {'small_bet': 4}, 'game_options': {'chowaha': {'betting': 'pot_limit'}}}
>>> parse_options(["ante"])
Traceback (most recent call last):
...
ValueError: --option 'ante': expected key=value, e.g. --option ante=1
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from typing import Any

_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")


def parse_value(text: str) -> Any:
    """An option value as data: ``none``/``null``, ``true``/``false``, ints, floats,
    comma-separated tuples (``0.5,1`` or ``(0.5, 1)``); anything else is a string."""
    text = text.strip()
    if text[:1] + text[-1:] in ("()", "[]"):
        inner = text[1:-1].strip()
        return tuple(parse_value(t) for t in inner.split(",") if t.strip()) if inner else ()
    if "," in text:
        return tuple(parse_value(t) for t in text.split(",") if t.strip())
    lowered = text.lower()
    if lowered in ("none", "null"):
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def parse_options(items: list[str]) -> dict[str, Any]:
    """``["key=value", ...]`` -> dict (the variant then validates names and values).
    A dotted key fills a dict: ``stakes.small_bet=4``, ``game_options.chowaha.betting=pot_limit``
    (dealer's choice's stakes and per-game options)."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        path = [part.strip() for part in key.split(".")]
        if not sep or not all(path):
            raise ValueError(f"--option {item!r}: expected key=value, e.g. --option ante=1")
        target = options
        for depth, part in enumerate(path[:-1]):
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                where = ".".join(path[: depth + 1])
                raise ValueError(f"--option {item!r}: {where} was given a value, so it cannot hold {path[depth + 1]}")
        target[path[-1]] = parse_value(value)
    return options


COMMAND = "dealers-choice"


def prog_name(script: str) -> str:
    """The name a command calls itself in ``--help`` and messages: ``dealers-choice
    <command>`` when run by the console command (which sets ``sys.argv[0]`` so), else
    the script's own name (``train.py``), as its user typed it."""
    name = os.path.basename(sys.argv[0]) if sys.argv else ""
    return name if name.startswith(COMMAND + " ") else script


def script_parser(prog: str, doc: str) -> argparse.ArgumentParser:
    """A script's argument parser whose ``--help`` is its docstring (see :func:`help_texts`)."""
    description, epilog = help_texts(doc)
    return argparse.ArgumentParser(
        prog=prog_name(prog),
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def help_texts(doc: str) -> tuple[str, str]:
    """``--help`` description and epilog from a script's docstring: the prose before
    ``Examples::`` re-wrapped for the terminal, then the examples as written."""
    prose, _, examples = doc.partition("Examples::")
    paragraphs = [" ".join(p.split()).replace("``", "") for p in prose.split("\n\n") if p.strip()]
    description = "\n\n".join(textwrap.fill(p, width=88) for p in paragraphs)
    lines = [line for line in examples.strip("\n").split("\n\n")[0].splitlines() if line.strip()]
    return description, "examples:\n" + "\n".join(lines) if lines else ""
