"""``HeuristicStyle``: the knobs of the heuristic bot, and its named presets.

One heuristic with different knobs gives a population of training opponents that
play differently (a learner that only meets one fixed bot learns to exploit that
bot). Every knob is a number with a documented meaning; the presets are

==============  ==========================================================================
preset          plays
==============  ==========================================================================
``default``     the heuristic as documented in ``docs/agents.md`` (the historic constants)
``tight``       folds more: raises only strong hands, needs a margin over the pot odds
                to call, counts fewer future bets, stays less often in the Cowboy games
``loose``       calls wider: calls below the pot odds, counts more future bets, stays
                more often in the Cowboy games
``aggressive``  raise-happy: raises and bets with less, sizes up sooner, bluffs (bets
                or raises a hand below its raising threshold) with a seeded frequency
==============  ==========================================================================

A spec names a style: a preset, ``knob=value`` overrides, or a preset followed by
overrides (``tight,bluff=0.05``); :func:`parse_style` reads it as data, never code,
and an unknown knob or a bad value is an error that names it and lists what is
allowed.

>>> parse_style("tight").raise_edge
0.4
>>> parse_style("raise_edge=0.1,call_margin=0.0").raise_edge
0.1
>>> parse_style("").label
'default'
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from envs.engine.record import quoted

Bounds = tuple[float, float]


@dataclass(frozen=True, kw_only=True)
class HeuristicStyle:
    """How the heuristic turns its equity into actions (``docs/agents.md``).

    Attributes:
        raise_edge: bet or raise at equity ``fair + raise_edge * (1 - fair)``, where
            ``fair = 1 / (live opponents + 1)`` (heads-up default 0.625); the stud
            bring-in is completed on the same threshold.
        strong_edge: pot- and no-limit sizes jump to the largest bet up to the pot at
            ``fair + strong_edge * (1 - fair)``; at least ``raise_edge``.
        call_margin: share of the pot after the call that calling must win beyond
            break-even: call when ``equity * (pot + to_call) - to_call + implied >=
            call_margin * (pot + to_call)``. Positive is tighter, negative calls
            hands that the pot odds say to fold.
        implied_bets: bets per player and betting round still to come that a call is
            credited with when the equity is above a fair share (implied odds).
        max_raises: in limit games, stop re-raising once a street's bet reaches this
            many bets (two strong bots would raise forever otherwise) ...
        nuts: ... unless the equity is at least this; also the all-in threshold in
            no-limit games.
        bluff: chance of betting or raising (half-pot size where sizes exist) with a
            hand below the raising threshold instead of checking, calling, folding or
            posting the bring-in; drawn from the bot's seeded generator.
        both_at: least chance of winning both ways for a ``both`` declaration
            (stud high-low declare, the Cowboy family).
        stay_guess: Cowboy family: the chance that each seat still to choose stays.
        stay_margin: Cowboy family: stay when the expected value of staying is above
            ``stay_margin`` pots (0: any positive value; positive is tighter).
    """

    raise_edge: float = 0.25
    strong_edge: float = 0.5
    call_margin: float = 0.0
    implied_bets: float = 1.0
    max_raises: int = 6
    nuts: float = 0.9
    bluff: float = 0.0
    both_at: float = 0.5
    stay_guess: float = 0.5
    stay_margin: float = 0.0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "max_raises":
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RAISES_LIMIT:
                    raise ValueError(
                        f"heuristic knob max_raises={quoted(value)} is not allowed: "
                        f"expected an int in 1..{MAX_RAISES_LIMIT}"
                    )
                continue
            low, high = BOUNDS[f.name]
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not math.isfinite(value) or not low <= value <= high:
                raise ValueError(
                    f"heuristic knob {f.name}={quoted(value)} is not allowed: expected a number in [{low}, {high}]"
                )
        if self.strong_edge < self.raise_edge:
            raise ValueError(
                f"heuristic knob strong_edge={self.strong_edge!r} is not allowed: "
                f"expected at least raise_edge={self.raise_edge!r} (sizes grow with the equity)"
            )

    @property
    def label(self) -> str:
        """The preset's name when the knobs are exactly a preset's, else the knobs that
        differ from the default as ``knob=value`` pairs (for names and logs)."""
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        changed = [f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if _differs(self, f.name)]
        return ",".join(changed)


def _differs(style: HeuristicStyle, name: str) -> bool:
    return bool(getattr(style, name) != getattr(DEFAULT_STYLE, name))


MAX_RAISES_LIMIT = 100
BOUNDS: dict[str, Bounds] = {
    "raise_edge": (0.0, 1.0),
    "strong_edge": (0.0, 1.0),
    "call_margin": (-1.0, 1.0),
    "implied_bets": (0.0, 10.0),
    "nuts": (0.0, 1.0),
    "bluff": (0.0, 1.0),
    "both_at": (0.0, 1.0),
    "stay_guess": (0.0, 1.0),
    "stay_margin": (-1.0, 1.0),
}
KNOBS = tuple(f.name for f in dataclasses.fields(HeuristicStyle))

DEFAULT_STYLE = HeuristicStyle()
PRESETS: dict[str, HeuristicStyle] = {
    "default": DEFAULT_STYLE,
    "tight": HeuristicStyle(
        raise_edge=0.4, strong_edge=0.6, call_margin=0.05, implied_bets=0.5, both_at=0.6, stay_margin=0.15
    ),
    "loose": HeuristicStyle(call_margin=-0.08, implied_bets=2.0, stay_margin=-0.15),
    "aggressive": HeuristicStyle(raise_edge=0.1, strong_edge=0.3, bluff=0.15, both_at=0.4, stay_margin=-0.05),
}


def parse_style(text: str) -> HeuristicStyle:
    """A style from ``"preset"``, ``"knob=value,..."`` or ``"preset,knob=value,..."``.

    An empty text is the default style. Values are numbers (``max_raises`` an int);
    the text is only ever read as data.
    """
    if not isinstance(text, str):
        raise ValueError(f"a heuristic style must be a string, got {type(text).__name__}")
    items = [item.strip() for item in text.split(",")] if text.strip() else []
    base = DEFAULT_STYLE
    overrides: dict[str, Any] = {}
    for position, item in enumerate(items):
        if "=" not in item:
            if position != 0 or item not in PRESETS:
                raise ValueError(_bad_item(item, text, position))
            base = PRESETS[item]
            continue
        name, _, raw = (part.strip() for part in item.partition("="))
        if name not in KNOBS:
            raise ValueError(
                f"unknown heuristic knob {quoted(name)} in {quoted(text)}; valid knobs: {', '.join(KNOBS)}"
            )
        if name in overrides:
            raise ValueError(f"heuristic knob {name!r} is given twice in {quoted(text)}")
        overrides[name] = _number(name, raw)
    return dataclasses.replace(base, **overrides)


def _bad_item(item: str, text: str, position: int) -> str:
    presets = ", ".join(PRESETS)
    if position == 0:
        return (
            f"{quoted(item)} in heuristic style {quoted(text)} is neither a preset ({presets}) "
            f"nor knob=value; valid knobs: {', '.join(KNOBS)}"
        )
    return f"{quoted(item)} in heuristic style {quoted(text)} is not knob=value (a preset may only come first)"


def _number(name: str, raw: str) -> int | float:
    """A knob's value: an int for ``max_raises``, else a float."""
    try:
        return int(raw) if name == "max_raises" else float(raw)
    except ValueError:
        expected = "an int" if name == "max_raises" else "a number"
        raise ValueError(f"heuristic knob {name}={quoted(raw)} is not {expected}") from None


__all__ = ["DEFAULT_STYLE", "KNOBS", "PRESETS", "HeuristicStyle", "parse_style"]
