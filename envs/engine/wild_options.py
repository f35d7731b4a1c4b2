"""The wild-card house rule as options (docs/rules.md section 11).

A variant that allows wild cards names a second options class (``wild_options_cls``:
its own options plus ``wild`` and ``natural_beats_wild``, checked by
:func:`check_wild`). :meth:`~envs.engine.variant.Variant.options` builds that class
only when a wild-card option differs from its default, so a game without wild cards
has exactly the options object (records, histories, layouts) it always had.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envs.engine.cards import JOKER
from envs.engine.hands.wild import WILD_OPTIONS, WildRules
from envs.engine.options import check_bool, check_choice, quoted

WILD_OPTION_NAMES = frozenset({"wild", "natural_beats_wild"})
WILD_DEFAULTS = {"wild": "none", "natural_beats_wild": False}
WILD_VARIANTS_TEXT = (
    "the stud family (stud, razz, stud_hilo, stud_hilo_declare, five_card_stud), cowpie "
    "and the Cowboy family (cowboy, cowgirl, cowpattie)"
)


def check_wild(wild: Any, natural_beats_wild: Any) -> None:
    """``wild`` one of ``WILD_OPTIONS``; ``natural_beats_wild`` a bool that only means
    something with wild cards (so it is refused without them rather than ignored)."""
    check_choice("wild", wild, WILD_OPTIONS)
    check_bool("natural_beats_wild", natural_beats_wild)
    if natural_beats_wild and wild == "none":
        raise ValueError(
            "option natural_beats_wild=True is not allowed with wild='none': it breaks ties between hands "
            "made with and without wild cards, so it needs wild='joker', 'bug' or 'deuces'"
        )


def refuse_wild(variant: str, name: str, value: Any) -> ValueError:
    """The error for a wild-card option given to a variant that has none."""
    return ValueError(
        f"option {name}={quoted(value)} is not allowed for {variant}: wild cards are a house rule of "
        f"{WILD_VARIANTS_TEXT} only (docs/rules.md section 11)"
    )


def wants_wild(kwargs: dict[str, Any]) -> bool:
    """Whether the options ask for anything but the wild-card defaults."""
    return any(name in kwargs and not _is_default(name, kwargs[name]) for name in WILD_OPTION_NAMES)


def _is_default(name: str, value: Any) -> bool:
    default = WILD_DEFAULTS[name]
    return type(value) is type(default) and value == default


def wild_rules(options: Any) -> WildRules | None:
    """The rule a game's options set, or None for a game without wild cards."""
    wild = getattr(options, "wild", "none")
    if wild == "none":
        return None
    return WildRules(wild, getattr(options, "natural_beats_wild", False))


def uses_joker(options: Any) -> bool:
    """Whether the deck holds the joker (53 cards): ``wild="joker"`` or ``"bug"``."""
    return getattr(options, "wild", "none") in ("joker", "bug")


def deck_with_wild(deck: tuple[int, ...], options: Any) -> tuple[int, ...]:
    """The variant's deck, plus the joker when the options deal it."""
    return (*deck, JOKER) if uses_joker(options) else deck


def wild_options_class(base: type, name: str, module: str) -> type:
    """``base`` plus ``wild`` and ``natural_beats_wild`` (checked after ``base``'s own
    checks), named ``name`` in ``module`` so that pickle finds it there."""

    @dataclass(frozen=True)
    class WithWild(base):  # type: ignore[misc]
        wild: str = "none"
        natural_beats_wild: bool = False

        def __post_init__(self) -> None:
            super().__post_init__()
            check_wild(self.wild, self.natural_beats_wild)

    WithWild.__name__ = WithWild.__qualname__ = name
    WithWild.__module__ = module
    WithWild.__doc__ = f"{base.__name__} plus the wild-card house rule (docs/rules.md section 11)."
    return WithWild
