"""Environment ids, versions and the single ``make`` entry point.

Every variant has a versioned PettingZoo module (``envs.stud_v0`` ...) with ``env()``
and ``raw_env()``; ``make(name, num_players=..., **options)`` builds any of them by
name (``"stud"`` or ``"stud_v0"``). The registry is a plain dict below: adding a
variant is one line, and importing a module registers nothing by side effect.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pettingzoo.utils import wrappers

from envs.aec import DealersChoiceEnv, PieceBuilder
from envs.engine.options import quoted
from envs.observation import (
    Betting,
    Chips,
    Community,
    Declarations,
    History,
    InHand,
    OwnCards,
    Piece,
    Position,
    Shown,
    Street,
    UpCards,
)
from envs.pieces_chowaha import chowaha_pieces
from envs.pieces_cowboy import cowboy_pieces
from envs.pieces_cowpie import cowpie_pieces
from envs.variants.stud import STREET_NAMES


def stud_pieces(game: Any) -> list[Piece]:
    """Observation pieces of the stud family (and Cowpie's betting part)."""
    n = game.num_players
    pieces: list[Piece] = [
        OwnCards(7),
        UpCards(n),
        Community(1),
        Betting(game.options.raise_cap),
        Chips(n),
        Street(STREET_NAMES),
        Position(n),
        InHand(n),
        History(len(STREET_NAMES), n),
    ]
    if "swing_rule" in game.variant.option_names:
        pieces.append(Declarations(n))
    pieces.append(Shown(n))
    return pieces


@dataclass(frozen=True)
class EnvSpec:
    """A registered environment: variant name, version and observation pieces."""

    variant: str
    version: int
    pieces: PieceBuilder

    @property
    def env_id(self) -> str:
        """``stud_v0`` and so on."""
        return f"{self.variant}_v{self.version}"


ENV_SPECS: dict[str, EnvSpec] = {
    spec.variant: spec
    for spec in (
        EnvSpec("stud", 0, stud_pieces),
        EnvSpec("razz", 0, stud_pieces),
        EnvSpec("stud_hilo", 0, stud_pieces),
        EnvSpec("stud_hilo_declare", 0, stud_pieces),
        EnvSpec("cowpie", 0, cowpie_pieces),
        EnvSpec("chowaha", 0, chowaha_pieces),
        EnvSpec("cowboy", 0, cowboy_pieces),
        EnvSpec("cowgirl", 0, cowboy_pieces),
        EnvSpec("cowpattie", 0, cowboy_pieces),
    )
}


def get_spec(name: str) -> EnvSpec:
    """Spec by variant name or versioned id; a clear error lists what exists."""
    base, _, version = name.partition("_v")
    spec = ENV_SPECS.get(name) or (ENV_SPECS.get(base) if version.isdigit() else None)
    if spec is None or (version.isdigit() and int(version) != spec.version):
        known = ", ".join(s.env_id for s in ENV_SPECS.values())
        raise ValueError(f"unknown environment {quoted(name)}; known: {known}")
    return spec


def make_raw(name: str, num_players: int = 2, **kwargs: Any) -> DealersChoiceEnv:
    """The unwrapped AEC env (fastest; no order checks)."""
    spec = get_spec(name)
    return DealersChoiceEnv(spec.variant, spec.pieces, num_players=num_players, version=spec.version, **kwargs)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with the hot paths forwarded directly.

    The stock wrapper reaches every attribute through ``__getattr__``, which doubles
    the cost of a ``last()``/``step()`` cycle; the checks are the same.
    """

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Reset; the env counts as reset only once a reset succeeded (the stock wrapper
        marks it first, so a refused first reset left ``step`` failing obscurely)."""
        was_reset = self._has_reset
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


def make(name: str, num_players: int = 2, **kwargs: Any) -> Any:
    """The AEC env with the order-enforcing wrapper, as ``<variant>_v0.env()``."""
    return OrderEnforcing(make_raw(name, num_players, **kwargs))


def env_functions(name: str) -> tuple[Callable[..., DealersChoiceEnv], Callable[..., Any]]:
    """``raw_env`` and ``env`` for a versioned module."""

    def raw_env(num_players: int = 2, **kwargs: Any) -> DealersChoiceEnv:
        return make_raw(name, num_players, **kwargs)

    def env(num_players: int = 2, **kwargs: Any) -> Any:
        return make(name, num_players, **kwargs)

    raw_env.__doc__ = f"The unwrapped {name} AEC environment."
    env.__doc__ = f"The {name} AEC environment (order-enforcing wrapper)."
    return raw_env, env
