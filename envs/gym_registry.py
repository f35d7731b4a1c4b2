"""Gymnasium ids for every variant: ``DealersChoice/<CamelCase>-v<version>``.

The ids are derived from :data:`envs.registry.ENV_SPECS`, so a variant added there is
registered with Gymnasium too. ``import envs`` calls :func:`register_gymnasium_envs`
because Gymnasium 1.x loads no plugins from package entry points: ``gymnasium.make``
only finds ids that some import has written into its registry. Registering is cheap (nine dict entries
with *string* entry points: nothing is built or imported until ``gymnasium.make``)
and idempotent (an id already registered with the same entry point and kwargs is left
alone, so re-importing or calling it again never triggers Gymnasium's "overriding"
warning). ``gymnasium.make("envs:DealersChoice/Stud-v0")`` also works without an
explicit ``import envs`` (Gymnasium imports the module before the name lookup).

>>> gym_id("stud_hilo_declare")
'DealersChoice/StudHiloDeclare-v0'
>>> variant_of("DealersChoice/StudHilo-v0")
'stud_hilo'
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from envs.engine.options import quoted
from envs.registry import ENV_SPECS, get_spec

NAMESPACE = "DealersChoice"
ENTRY_POINT = "envs.gym_env:DealersChoiceGymEnv"


def camel_case(variant: str) -> str:
    """``stud_hilo_declare`` -> ``StudHiloDeclare``."""
    return "".join(part.capitalize() for part in variant.split("_"))


def gym_id(variant: str) -> str:
    """The Gymnasium id of a variant (by name or PettingZoo id such as ``cowpie_v0``)."""
    spec = get_spec(variant)
    return f"{NAMESPACE}/{camel_case(spec.variant)}-v{spec.version}"


def gym_ids() -> list[str]:
    """Every Gymnasium id this package registers, in registry order."""
    return [gym_id(spec.variant) for spec in ENV_SPECS.values()]


def variant_of(env_id: str) -> str:
    """The variant name behind a Gymnasium id; a clear error lists the known ids."""
    for spec in ENV_SPECS.values():
        if gym_id(spec.variant) == env_id:
            return spec.variant
    raise ValueError(f"unknown Gymnasium id {quoted(env_id)}; known: {', '.join(gym_ids())}")


def register_gymnasium_envs() -> list[str]:
    """Register (or confirm) every variant with Gymnasium; returns the ids.

    Safe to call any number of times. An id registered by someone else with a
    different entry point is overwritten (Gymnasium warns about that itself)."""
    ids = []
    for spec in ENV_SPECS.values():
        env_id = gym_id(spec.variant)
        kwargs = {"variant": spec.variant}
        existing = registry.get(env_id)
        if existing is None or existing.entry_point != ENTRY_POINT or existing.kwargs != kwargs:
            register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs)
        ids.append(env_id)
    return ids
