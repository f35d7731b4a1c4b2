"""Every variant, by name. Adding a variant is one line here (and one env module)."""

from __future__ import annotations

from typing import Any

from envs.engine.options import quoted
from envs.engine.state import Game
from envs.variants.base import Variant
from envs.variants.chowaha import CHOWAHA
from envs.variants.cowboy import COWBOY, COWGIRL, COWPATTIE
from envs.variants.cowpie import COWPIE
from envs.variants.stud import RAZZ, STUD, STUD_HILO, STUD_HILO_DECLARE

VARIANTS: dict[str, Variant] = {
    v.name: v for v in (STUD, RAZZ, STUD_HILO, STUD_HILO_DECLARE, COWPIE, COWBOY, COWGIRL, COWPATTIE, CHOWAHA)
}


def get_variant(name: str) -> Variant:
    """The variant called ``name``; a clear error lists the known ones."""
    try:
        return VARIANTS[name]
    except KeyError:
        raise ValueError(f"unknown variant {quoted(name)}; known variants: {', '.join(VARIANTS)}") from None


def make_game(name: str, num_players: int, **options: Any) -> Game:
    """A game of the named variant: ``make_game("razz", 4, ante=1)``."""
    return get_variant(name).game(num_players, **options)
