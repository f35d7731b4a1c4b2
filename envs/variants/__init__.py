"""Every variant, by name: the one registry.

Each family package (``stud``, ``cowpie``, ``cowboy``, ``chowaha``) describes its
variants as :class:`~envs.engine.variant.Variant` objects; this module lists them.
Dealer's choice (``mixed``) is a table over every game listed before it.
Everything keyed by a variant elsewhere (environment ids, the versioned
``envs.<name>_v<k>`` modules, Gymnasium ids, documentation) is derived from here, so
adding a variant is adding its object to a family and its name to this tuple.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from envs.engine.game import Game
from envs.engine.options import quoted
from envs.engine.record import HandRecord, RecordFormatError
from envs.engine.replay import record_inputs, replay_record
from envs.engine.state import State
from envs.engine.variant import Variant
from envs.variants import chowaha, cowboy, cowpie, mixed, stud

GAMES: dict[str, Variant] = {
    v.name: v
    for v in (
        stud.STUD,
        stud.RAZZ,
        stud.STUD_HILO,
        stud.STUD_HILO_DECLARE,
        cowpie.COWPIE,
        chowaha.CHOWAHA,
        *cowboy.VARIANTS,
        stud.FIVE_CARD_STUD,
        stud.TOY_STUD,
    )
}
DEALERS_CHOICE = mixed.dealers_choice(GAMES)  # a table that deals any of the games above
VARIANTS: dict[str, Variant] = {**GAMES, DEALERS_CHOICE.name: DEALERS_CHOICE}


def get_variant(name: str) -> Variant:
    """The variant called ``name``; a clear error lists the known ones."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {quoted(name)}; known variants: {', '.join(VARIANTS)}") from None


def make_game(name: str, num_players: int, **options: Any) -> Game:
    """A game of the named variant: ``make_game("razz", 4, ante=1)``."""
    return get_variant(name).game(num_players, **options)


def replay(
    record: HandRecord, *, key: bytes | None = None, on_decision: Callable[[State], None] | None = None
) -> State:
    """Play a recorded hand again on the game its record describes and check every card,
    stack, option, action and payoff (see :func:`~envs.engine.replay.replay_record`).

    Raises:
        RecordFormatError: the record names an unknown variant or options that build no game.
        RecordMismatchError: the replay disagrees with the record.
    """
    try:
        variant = get_variant(record.variant)
    except ValueError as err:
        raise RecordFormatError(f"variant: {err}") from None
    try:
        game = variant.game(record.num_players, **record_inputs(record, variant.option_names))
    except ValueError as err:
        raise RecordFormatError(f"options: the record's game cannot be built: {err}") from None
    return replay_record(record, game, key=key, on_decision=on_decision)
