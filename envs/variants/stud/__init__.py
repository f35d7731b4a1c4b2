"""The stud family: seven-card stud, razz, stud high-low, declare, five-card stud and
toy stud (rules in :mod:`.rules`, the variants as data in :mod:`.variants`, the
observation pieces in :mod:`.pieces`)."""

from envs.variants.stud.rules import (
    StudKind,
    StudOptions,
    ToyOptions,
    best_showing,
    betting_rounds,
    high_share,
    showing_key,
)
from envs.variants.stud.variants import (
    FIVE_CARD_STREETS,
    FIVE_CARD_STUD,
    RAZZ,
    SEVEN_CARD_STREETS,
    STUD,
    STUD_HILO,
    STUD_HILO_DECLARE,
    TOY_STREETS,
    TOY_STUD,
    VARIANTS,
)

__all__ = [
    "FIVE_CARD_STREETS",
    "FIVE_CARD_STUD",
    "RAZZ",
    "SEVEN_CARD_STREETS",
    "STUD",
    "STUD_HILO",
    "STUD_HILO_DECLARE",
    "TOY_STREETS",
    "TOY_STUD",
    "VARIANTS",
    "StudKind",
    "StudOptions",
    "ToyOptions",
    "best_showing",
    "betting_rounds",
    "high_share",
    "showing_key",
]
