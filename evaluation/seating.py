"""Seating networks at the table they were trained for, from a command line.

A network (``pretrained:<variant>``, a checkpoint) plays only the table it was trained
for: the shipped Cowboy agents learnt ``match_cap = 8, max_deals = 20``, not the
default table. A user's first command with a shipped agent names no options, so the
command lines (``evaluate``, ``play``, the web server, ``verdict``) seat the networks
at their own table and say so, and every refusal names the ``--players`` and
``--option`` flags that fix it rather than an API argument a command-line user cannot
pass.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from agents.loading import trained_layout
from envs.registry import make_raw
from evaluation.external import is_external


def option_flags(options: dict[str, Any]) -> str:
    """Options as the ``--option key=value`` flags that give them back (``parse_options``
    reads each value as written here); ``(none)`` for a table without options."""
    flags = [shlex.quote(f"{key}={_flag_value(value)}") for key, value in _dotted(options)]
    return " ".join(f"--option {flag}" for flag in flags) or "(none)"


def _dotted(options: dict[str, Any], prefix: str = "") -> list[tuple[str, Any]]:
    """Nested option dicts (dealer's choice's ``stakes``) as dotted keys, as the flag spells them."""
    pairs: list[tuple[str, Any]] = []
    for key, value in options.items():
        if isinstance(value, dict) and value:
            pairs += _dotted(value, f"{prefix}{key}.")
        else:
            pairs.append((prefix + key, value))
    return pairs


def _flag_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(_flag_value(v) for v in value) + ")"
    return str(value)


def trained_table(
    variant: str, num_players: int, bots: tuple[str, ...] | list[str], options: dict[str, Any]
) -> tuple[dict[str, Any], str | None]:
    """The options a command line seats its networks at, and a line saying so (None:
    the table as asked).

    A network plays only the table it was trained for (the shipped Cowboy agents:
    ``match_cap = 8, max_deals = 20``). When the user names no options and every
    network of this variant was trained at one table, that table is used and the line
    names its options; otherwise a ``ValueError`` names the ``--option`` and
    ``--players`` flags that fix it. Other bots, and networks of other variants (refused
    later with their own message), are left alone."""
    layouts = {spec: trained_layout(spec) for spec in dict.fromkeys(bots) if not is_external(spec)}
    nets = {spec: lay for spec, lay in layouts.items() if lay is not None and lay.variant == variant}
    for spec, lay in nets.items():
        if lay.num_players != num_players:
            raise ValueError(
                f"{spec} was trained for {lay.num_players} players, not {num_players}: run with "
                f"--players {lay.num_players} {option_flags(lay.env_kwargs) if lay.env_kwargs else ''}".rstrip()
            )
    here = _resolved(variant, num_players, options)
    off = {spec: lay for spec, lay in nets.items() if lay.options != here}
    if not off:
        return options, None
    tables = {json.dumps(lay.options, sort_keys=True, default=str): lay for lay in nets.values()}
    if len(tables) > 1:
        seen = "; ".join(f"{spec} with {option_flags(lay.env_kwargs)}" for spec, lay in nets.items())
        raise ValueError(f"these networks were trained at different tables and cannot share one: {seen}")
    spec, lay = next(iter(off.items()))
    if options:
        from agents.neural import options_diff

        diff = options_diff(lay.options, here)
        named = ", ".join(f"{k}={_flag_value(now)} (trained: {_flag_value(was)})" for k, (was, now) in diff.items())
        fix = f"run with {option_flags(lay.env_kwargs)} instead of these --option flags, or with no --option"
        raise ValueError(
            f"{spec} was trained at another table ({named}): "
            + (f"{fix} to be seated at its table" if lay.env_kwargs else "run without --option")
        )
    who = ", ".join(nets)
    return dict(lay.env_kwargs), f"seating {who} at the table {'it was' if len(nets) == 1 else 'they were'} " + (
        f"trained for: {option_flags(lay.env_kwargs)}"
    )


def _resolved(variant: str, num_players: int, options: dict[str, Any]) -> dict[str, Any]:
    """Every option of the table, resolved as a network's layout records them."""
    from agents.neural import resolved_options

    return resolved_options(make_raw(variant, num_players, **options).game.options)
