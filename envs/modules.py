"""The versioned PettingZoo modules (``envs.stud_v0`` ...), generated from the registry.

PettingZoo users write ``from envs import stud_v0`` and ``stud_v0.env()``. Those
modules are not files: a variant registered in :data:`envs.variants.VARIANTS` with
``version=k`` *is* the module ``envs.<name>_v<k>``. This finder builds it on first
import (and only then), with ``env()``, ``raw_env()`` and a docstring generated from
the variant object: its rules, its options, its actions and its observation table
(the same pieces that build the observation vector). A variant added to the registry
therefore gets its module, and its documentation, without writing either.

>>> import envs.stud_v0 as stud_v0
>>> stud_v0.env().metadata["name"]
'stud_v0'
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import re
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any

_VERSIONED = re.compile(r"^envs\.(?P<name>[a-z][a-z0-9_]*)_v(?P<version>\d+)$")


def versioned_variant(fullname: str) -> str | None:
    """The registered variant behind a module name such as ``envs.stud_v0`` (None if
    the name is not a registered variant's current version)."""
    match = _VERSIONED.match(fullname)
    if match is None:
        return None
    from envs.variants import VARIANTS

    variant = VARIANTS.get(match["name"])
    if variant is None or variant.version != int(match["version"]):
        return None
    return variant.name


class VersionedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and builds ``envs.<variant>_v<version>`` modules (see the module docstring)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if versioned_variant(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, origin="generated from envs.variants.VARIANTS")

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None  # the default module object

    def exec_module(self, module: types.ModuleType) -> None:
        name = versioned_variant(module.__name__)
        assert name is not None
        raw_env, env = env_functions(name)
        module.raw_env = raw_env  # type: ignore[attr-defined]
        module.env = env  # type: ignore[attr-defined]
        module.__doc__ = module_doc(name)
        module.__all__ = ["env", "raw_env"]  # type: ignore[attr-defined]


def env_functions(name: str) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``raw_env`` and ``env`` for a variant (module-level functions of its module, so
    they pickle by reference)."""
    from envs.registry import make, make_raw

    def raw_env(num_players: int | None = None, **kwargs: Any) -> Any:
        return make_raw(name, num_players, **kwargs)

    def env(num_players: int | None = None, **kwargs: Any) -> Any:
        return make(name, num_players, **kwargs)

    from envs.variants import get_variant

    module = f"envs.{get_variant(name).env_id}"
    for function, what in ((raw_env, "unwrapped"), (env, "order-enforcing")):
        function.__module__ = module
        function.__qualname__ = function.__name__
        function.__doc__ = f"The {what} {get_variant(name).env_id} AEC environment (``num_players`` seats, options)."
    return raw_env, env


def module_doc(name: str) -> str:
    """The generated docstring: rules, options, actions and observation table."""
    from envs.docs import variant_doc

    return variant_doc(name)


def install() -> None:
    """Put the finder first on ``sys.meta_path``, once (``import envs`` does this). First,
    so that a stale ``envs/stud_v0.py`` of an older install (an editable install's own
    finder would find it) never shadows the generated module; it answers every other
    name with a cheap pattern match."""
    if not any(isinstance(f, VersionedModules) for f in sys.meta_path):
        sys.meta_path.insert(0, VersionedModules())
