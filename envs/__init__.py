"""Dealer's Choice: poker variants as multi-agent reinforcement-learning environments.

``envs.make("cowpie", num_players=3, ante=1)`` builds any variant's PettingZoo AEC
environment; ``envs.stud_v0.env()`` and friends are the per-variant modules. Importing
the package registers the single-agent Gymnasium ids (``DealersChoice/Cowpie-v0`` ...,
see ``docs/gymnasium.md``).
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def make(name: str, num_players: int = 2, **options: Any) -> Any:
    """The PettingZoo AEC environment of a variant (``"stud"`` or ``"stud_v0"``)."""
    from envs.registry import make as _make

    return _make(name, num_players, **options)


def make_raw(name: str, num_players: int = 2, **options: Any) -> Any:
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


# Gymnasium 1.x finds ids only in its registry, so importing the package registers them
# (cheap: string entry points, nothing built; idempotent). See envs/gym_registry.py.
from envs.gym_registry import register_gymnasium_envs  # noqa: E402

register_gymnasium_envs()
