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
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

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
        ValueError: an unknown variant or option, a bad value, or a game without a
            longest length (unlimited stacks with no raise cap heads-up).
    """
    module = _game_module()
    variant = get_variant(name[len(PREFIX) :] if isinstance(name, str) and name.startswith(PREFIX) else name)
    module.register(variant)
    players = options.pop(PLAYERS, variant.seats[0])
    return module.game_class(variant)(to_params(variant, players, options))


def register_all() -> list[str]:
    """Register every variant with OpenSpiel; returns their OpenSpiel names."""
    module = _game_module()
    return [module.register(variant) for variant in VARIANTS.values()]


__all__ = ["PREFIX", "load_game", "register_all"]
