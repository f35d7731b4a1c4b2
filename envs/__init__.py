"""Dealer's Choice: poker variants as multi-agent reinforcement-learning environments.

``envs.make("cowpie", num_players=3, ante=1)`` builds any variant's PettingZoo AEC
environment; ``envs.stud_v0.env()`` and friends are the versioned modules, generated
from the variant registry (:mod:`envs.modules`). Importing the package registers the
single-agent Gymnasium ids (``DealersChoice/Cowpie-v0`` ..., see ``docs/gymnasium.md``).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.2.0"


def make(name: str, num_players: int | None = None, **options: Any) -> Any:
    """The PettingZoo AEC environment of a variant (``"stud"`` or ``"stud_v0"``);
    ``num_players`` defaults to the variant's fewest."""
    from envs.registry import make as _make

    return _make(name, num_players, **options)


def make_raw(name: str, num_players: int | None = None, **options: Any) -> Any:
    """The unwrapped AEC environment (no order checks; fastest)."""
    from envs.registry import make_raw as _make_raw

    return _make_raw(name, num_players, **options)


def env_ids() -> list[str]:
    """Every registered PettingZoo environment id."""
    from envs.registry import ENV_SPECS

    return [spec.env_id for spec in ENV_SPECS.values()]


def gym_ids() -> list[str]:
    """Every registered Gymnasium id (``DealersChoice/Stud-v0`` ...)."""
    from envs.gym_registry import gym_ids as _gym_ids

    return _gym_ids()


def __getattr__(name: str) -> Any:
    """``envs.stud_v0`` without importing it first: the versioned modules are generated."""
    from envs.modules import versioned_variant

    if versioned_variant(f"envs.{name}") is None:
        raise AttributeError(f"module 'envs' has no attribute {name!r}")
    return importlib.import_module(f"envs.{name}")


# The versioned modules (envs.stud_v0 ...) are generated from the registry: their finder
# must be on sys.meta_path before anyone imports one.
from envs.modules import install as _install_modules  # noqa: E402

_install_modules()

# Gymnasium 1.x finds ids only in its registry, so importing the package registers them
# (cheap: string entry points, nothing built; idempotent). See envs/gym_registry.py.
from envs.gym_registry import register_gymnasium_envs  # noqa: E402

register_gymnasium_envs()
