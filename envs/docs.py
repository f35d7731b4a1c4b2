"""Documentation generated from the variant objects: the same text in a versioned
module's docstring (``help(envs.stud_v0)``), in docs/variants.md and in
``python -m envs``.

Everything here is read from the :class:`~envs.engine.variant.Variant` (its rules,
option defaults, streets) and from a sample table (its action names and observation
pieces), so the documentation cannot drift from the code.
"""

from __future__ import annotations

import dataclasses
import textwrap

from envs.engine.variant import Variant
from envs.engine.wild_options import WILD_DEFAULTS
from envs.variants import get_variant

WIDTH = 88


def sample_players(variant: Variant) -> int:
    """The table size the generated tables describe: two, or the variant's fewest."""
    return max(2, variant.seats[0])


def options_table(variant: Variant) -> list[str]:
    """Markdown rows: every option the variant takes and its default (after validation)."""
    options = variant.options()
    rows = ["| option | default |", "|---|---|"]
    for f in dataclasses.fields(options):
        if f.name in variant.option_names:
            rows.append(f"| `{f.name}` | `{getattr(options, f.name)!r}` |")
    if variant.wild_options_cls is not None:  # the house rule's own class (docs/rules.md section 11)
        for name, default in WILD_DEFAULTS.items():
            rows.append(f"| `{name}` | `{default!r}` |")
    return rows


def actions_line(variant: Variant) -> str:
    """``Actions (Discrete(7)): 0 fold, 1 check_call, ...`` for the default options."""
    game = variant.game(sample_players(variant))
    names = ", ".join(f"{i} `{a}`" for i, a in enumerate(game.action_names))
    return f"Actions (`Discrete({game.num_actions})`): {names}."


def observation_table(variant: Variant, num_players: int | None = None) -> str:
    """The observation layout of a table of this variant (default options)."""
    from envs.engine.observation import docs_table

    game = variant.game(num_players or sample_players(variant))
    return docs_table(variant.pieces(game))


def players_text(variant: Variant, dash: str = " to ") -> str:
    """``2 to 8``; where options lower the most: ``2 to 20 (`hole_cards=4`: up to 10)``."""
    low, high = variant.seats
    text = f"{low}{dash}{high}" if low != high else str(low)
    lower = []
    for name, value in variant.seat_limits:
        most = variant.most_players(**{name: value})
        if most < high:
            lower.append(f"`{name}={value!r}`: up to {most}")
    return f"{text} ({'; '.join(lower)})" if lower else text


def variant_section(name: str) -> list[str]:
    """docs/variants.md's section of one variant (markdown)."""
    variant = get_variant(name)
    n = sample_players(variant)
    lines = [f"## {variant.title} (`{variant.env_id}`)", ""]
    lines += [f"Players: {players_text(variant)}. {variant.summary}", ""]
    lines += [f"One episode is one {variant.episode}; rewards in {variant.unit_name}.", ""]
    lines += [textwrap.fill(" ".join(variant.rules.split()), WIDTH), ""]
    lines += ["Options (defaults after validation):", "", *options_table(variant), ""]
    lines += [actions_line(variant), ""]
    lines += [f"Observation layout with {n} players:", "", observation_table(variant, n), ""]
    return lines


def variant_doc(name: str) -> str:
    """A variant's whole documentation as plain text (a module docstring)."""
    variant = get_variant(name)
    n = sample_players(variant)
    rules = textwrap.fill(" ".join(variant.rules.split()), WIDTH)
    lines = [
        f"{variant.title} as a PettingZoo AEC environment: ``{variant.env_id}``.",
        "",
        variant.summary,
        "",
        f"Players: {players_text(variant).replace('`', '``')}. "
        f"One episode is one {variant.episode}; rewards in {variant.unit_name}.",
        "",
        "Rules:",
        "",
        rules,
        "",
        actions_line(variant).replace("`", "``"),
        "",
        f"Observation with {n} players (relative seat 0 is you, 1 the next seat clockwise;",
        "``env.unwrapped.observation_table()`` prints the layout for your table):",
        "",
        observation_table(variant, n),
    ]
    return "\n".join(lines) + "\n"
