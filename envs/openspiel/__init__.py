"""Every variant as an OpenSpiel game, so that OpenSpiel's algorithms (CFR,
exploitability, best responses, MCCFR, search...) run on our rules::

    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    from envs.openspiel import load_game

    game = load_game("toy_stud", ranks="KA", streets=1)
    exploitability.nash_conv(game, policy.UniformRandomPolicy(game))

OpenSpiel (``pip install 'dealers-choice[openspiel]'``, the ``open_spiel`` package) is
an optional dependency: this package imports ``pyspiel`` only when a function here is
called, and says how to install it when it is missing. Design, limitations and
examples: docs/openspiel.md.

Dealer's choice (``dealers_choice``) is not an OpenSpiel game yet: its bounds would be
the largest of its games', and ``choice="random"`` draws the game from the engine's
generator, not at a chance node. :func:`load_game` says so.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from envs.engine.variant import Variant
from envs.openspiel.params import PLAYERS, to_params
from envs.variants import VARIANTS, get_variant

PREFIX = "dealers_choice_"  # OpenSpiel short names: dealers_choice_toy_stud
INSTALL = "pip install 'dealers-choice[openspiel]'  (or: pip install open_spiel)"


def _game_module() -> ModuleType:
    """:mod:`envs.openspiel.game`, which needs ``pyspiel``; a clear error without it."""
    try:
        importlib.import_module("pyspiel")
    except ImportError as err:
        raise ImportError(f"OpenSpiel interop needs the optional dependency open_spiel: {INSTALL}") from err
    return importlib.import_module("envs.openspiel.game")


def load_game(name: str, **options: Any) -> Any:
    """The OpenSpiel game (a ``pyspiel.Game``) of the variant ``name`` (``"toy_stud"``,
    or its OpenSpiel name ``"dealers_choice_toy_stud"``).

    ``players`` sets the number of players (default: the variant's fewest); every
    other keyword is a variant option (``ranks="KA"``, ``stack=None``...), checked as
    the engine checks it. The button is seat 0, or a seat given by the ``button``
    option; ``button="random"`` draws it at a chance node. The variant is also
    registered with OpenSpiel, so ``pyspiel.load_game("dealers_choice_toy_stud(ranks=KA)")``
    works afterwards; every option has an OpenSpiel parameter form
    (:mod:`envs.openspiel.params`), so ``pyspiel.load_game(str(game))`` is the same game.

    Raises:
        ImportError: OpenSpiel is not installed (the message says how to install it).
        ValueError: an unknown variant or option, a bad value, a game without a
            longest length (unlimited stacks with no raise cap heads-up), or dealer's
            choice (no OpenSpiel form yet).
    """
    variant = get_variant(name[len(PREFIX) :] if isinstance(name, str) and name.startswith(PREFIX) else name)
    if not has_openspiel_form(variant):
        raise ValueError(
            f"{variant.name} has no OpenSpiel form yet (its game is named during the hand); "
            f"load one of its games instead: {', '.join(v.name for v in VARIANTS.values() if has_openspiel_form(v))}"
        )
    module = _game_module()
    module.register(variant)
    players = options.pop(PLAYERS, variant.seats[0])
    return module.game_class(variant)(to_params(variant, players, options))


def has_openspiel_form(variant: Variant) -> bool:
    """Whether the variant can be an OpenSpiel game (every one but dealer's choice)."""
    return variant.family != "mixed"


def register_all() -> list[str]:
    """Register every variant that has an OpenSpiel form; returns their OpenSpiel names."""
    module = _game_module()
    return [module.register(variant) for variant in VARIANTS.values() if has_openspiel_form(variant)]


__all__ = ["PREFIX", "has_openspiel_form", "load_game", "register_all"]
