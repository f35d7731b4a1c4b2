"""Environment ids, versions and the single ``make`` entry point.

Every registered variant (:data:`envs.variants.VARIANTS`) is an environment: its id is
the variant's name and version (``stud_v0``), its observation pieces come from the
variant, and its versioned PettingZoo module (``envs.stud_v0`` with ``env()`` and
``raw_env()``) is generated from it (:mod:`envs.modules`). ``make(name,
num_players=..., **options)`` builds any of them by name (``"stud"`` or ``"stud_v0"``).
Nothing here is a table to extend: a variant added to the registry is an environment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pettingzoo.utils import wrappers

from envs.aec import DealersChoiceEnv
from envs.engine.options import quoted
from envs.engine.variant import Variant
from envs.variants import VARIANTS


@dataclass(frozen=True)
class EnvSpec:
    """A registered environment: the variant and its versioned id."""

    variant: str
    version: int

    @property
    def env_id(self) -> str:
        """``stud_v0`` and so on."""
        return f"{self.variant}_v{self.version}"


ENV_SPECS: dict[str, EnvSpec] = {name: EnvSpec(name, v.version) for name, v in VARIANTS.items()}


def get_spec(name: str) -> EnvSpec:
    """Spec by variant name or versioned id; a clear error lists what exists."""
    base, _, version = name.rpartition("_v") if isinstance(name, str) else ("", "", "")
    spec = ENV_SPECS.get(name) if isinstance(name, str) else None
    if spec is None and version.isdigit():
        candidate = ENV_SPECS.get(base)
        spec = candidate if candidate is not None and candidate.version == int(version) else None
    if spec is None:
        known = ", ".join(s.env_id for s in ENV_SPECS.values())
        raise ValueError(f"unknown environment {quoted(name)}; known: {known}")
    return spec


def variant_of(name: str) -> Variant:
    """The variant behind a name or versioned id."""
    return VARIANTS[get_spec(name).variant]


def make_raw(name: str, num_players: int | None = None, **kwargs: Any) -> DealersChoiceEnv:
    """The unwrapped AEC env (fastest; no order checks). ``num_players`` defaults to
    the variant's fewest (two, three in the Cowboy family)."""
    variant = variant_of(name)
    n = variant.seats[0] if num_players is None else num_players
    return DealersChoiceEnv(variant, num_players=n, **kwargs)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the hot paths forwarded directly.

    The stock wrapper reaches every attribute through ``__getattr__``, which doubles
    the cost of a ``last()``/``step()`` cycle; the checks are the same.
    """

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset; the env counts as reset only once a reset succeeded (the stock wrapper
        marks it first, so a refused first reset left ``step`` failing obscurely)."""
        was_reset: bool = self._has_reset  # type: ignore[has-type]
        try:
            super().reset(seed=seed, options=options)
        except BaseException:
            self._has_reset = was_reset
            raise

    def _check_reset(self, name: str) -> None:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")

    def last(self, observe: bool = True) -> Any:
        self._check_reset("last()")
        return self.env.last(observe)

    @property
    def agent_selection(self) -> str:
        self._check_reset("agent_selection")
        return self.env.agent_selection

    @property
    def agents(self) -> list[str]:
        self._check_reset("agents")
        return self.env.agents

    @property
    def terminations(self) -> dict[str, bool]:
        self._check_reset("terminations")
        return self.env.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        self._check_reset("truncations")
        return self.env.truncations

    @property
    def rewards(self) -> dict[str, float]:
        self._check_reset("rewards")
        return self.env.rewards

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        self._check_reset("infos")
        return self.env.infos


def make(name: str, num_players: int | None = None, **kwargs: Any) -> Any:
    """The AEC env with the order-enforcing wrapper, as ``<variant>_v0.env()``."""
    return OrderEnforcing(make_raw(name, num_players, **kwargs))
