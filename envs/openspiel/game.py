"""The OpenSpiel game and state of a variant (this module imports ``pyspiel``; nothing
imports it at module level: :func:`envs.openspiel.load_game` does, when called).

An OpenSpiel state holds an immutable :class:`~envs.openspiel.position.Position`
(shared by clones: OpenSpiel clones a Python state by deep-copying its attributes),
which makes every card dealt a chance node. See docs/openspiel.md.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from envs.engine.cards import format_card
from envs.engine.game import Game
from envs.engine.history import hand_history
from envs.engine.options import quoted
from envs.engine.state import State
from envs.engine.variant import Variant
from envs.openspiel import PREFIX
from envs.openspiel.bounds import game_bounds
from envs.openspiel.params import specification, to_options, to_params
from envs.openspiel.position import Position, TransitionCache
from envs.openspiel.views import TensorView, information_state_string
from envs.variants import VARIANTS

NUM_CARDS = 52  # chance outcomes are card ints (a drawn button is a seat below 52)


class DealersChoiceState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state of a variant (sequential moves, explicit chance)."""

    def __init__(self, game: DealersChoiceGame) -> None:
        super().__init__(game)
        self._position: Position | None = None  # dealt on first use: OpenSpiel clones via new states

    @property
    def position(self) -> Position:
        """Where the state is (see :class:`~envs.openspiel.position.Position`)."""
        if self._position is None:
            self._position = self.get_game().start
        return self._position

    @position.setter
    def position(self, value: Position) -> None:
        self._position = value

    @property
    def engine(self) -> State | None:
        """The engine's state (at a chance node: the hand as dealt so far, not playable)."""
        return self.position.engine

    def current_player(self) -> int:
        position = self.position
        if position.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        if position.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        assert position.engine is not None and position.engine.current_seat is not None
        return position.engine.current_seat

    def _legal_actions(self, player: int) -> list[int]:
        engine = self.position.engine
        if self.position.is_chance or engine is None or engine.current_seat != player:
            return []
        return sorted(engine.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.position.outcomes
        if outcomes is None:
            raise ValueError("chance_outcomes() at a decision node")
        p = 1.0 / len(outcomes)
        return [(o, p) for o in outcomes]

    def _apply_action(self, action: int) -> None:
        self.position = self.get_game().transitions.child(self.position, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.position.button is None:
                return f"button player_{action}"
            return f"deal {format_card(action)}"
        engine = self.position.engine
        if engine is not None and engine.current_seat == player and action in engine.legal_actions():
            legal = engine.legal_actions()
            return engine.legal_labels()[legal.index(action)]
        names = self.position.game.action_names
        return names[action] if 0 <= action < len(names) else str(action)

    def is_terminal(self) -> bool:
        return self.position.is_terminal

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.position.game.num_players
        assert self.position.engine is not None
        return self.position.engine.rewards()

    def __str__(self) -> str:
        engine = self.position.engine
        text = "(the button is not drawn yet)" if engine is None else hand_history(engine)
        if self.position.outcomes is not None:
            text += f"\n(chance: {len(self.position.outcomes)} outcomes)"
        return text


class Observer:
    """OpenSpiel's Python observer: information states (``perfect_recall=True``) and
    observations (False) of one seat (see :mod:`envs.openspiel.views`)."""

    def __init__(self, game: Game, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {quoted(dict(params))}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                "only a player's own view is supported: IIGObservationType(public_info=True, "
                f"private_info=SINGLE_PLAYER); got {iig_obs_type}"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.view = TensorView(game)
        self.tensor = np.zeros(self.view.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DealersChoiceState, player: int) -> None:
        self.tensor[:] = self.view.vector(state.position.engine, player)

    def string_from(self, state: DealersChoiceState, player: int) -> str:
        if self.perfect_recall:
            memo = state.position.memo
            key = ("information_state_string", player)
            if key not in memo:
                memo[key] = information_state_string(state.position.engine, player)
            return str(memo[key])
        return self.view.text(state.position.engine, player)


class DealersChoiceGame(pyspiel.Game):  # type: ignore[misc]
    """A variant with its options as an OpenSpiel game (see :func:`envs.openspiel.load_game`).

    Each variant has its own subclass (:func:`game_class`) that sets ``variant``:
    OpenSpiel registers a game by its class.
    """

    variant: Variant

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        variant = self.variant
        players, options = to_options(variant, params or {})
        self.engine_game = variant.game(players, **options)
        random_button = getattr(self.engine_game.options, "button", None) == "random"
        bounds = game_bounds(self.engine_game, random_button=random_button)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine_game.num_actions,
            max_chance_outcomes=NUM_CARDS,
            num_players=players,
            min_utility=bounds.min_utility,
            max_utility=bounds.max_utility,
            utility_sum=0.0,
            max_game_length=bounds.max_game_length,
        )
        super().__init__(game_type(variant), info, to_params(variant, players, options))
        self.bounds = bounds
        self.transitions = TransitionCache()  # see its docstring; set maxsize=0 to turn it off
        self._start: Position | None = None

    @property
    def start(self) -> Position:
        """Every new state's position (one object, so cached transitions apply to all)."""
        if self._start is None:
            self._start = Position.start(self.engine_game)
        return self._start

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        """Pickle as the variant and its parameters (pyspiel would rebuild the C++ side
        only, by name, and only where the game is registered)."""
        return rebuild, (self.variant.name, dict(self.get_parameters()))

    def new_initial_state(self) -> DealersChoiceState:
        return DealersChoiceState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None) -> Observer:
        return Observer(self.engine_game, iig_obs_type, params)


@functools.cache
def game_type(variant: Variant) -> pyspiel.GameType:
    """The OpenSpiel game type of a variant (sequential, explicit chance, zero-sum)."""
    low, high = variant.seats
    return pyspiel.GameType(
        short_name=PREFIX + variant.name,
        long_name=f"Dealer's Choice: {variant.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=specification(variant),
    )


def rebuild(name: str, params: dict[str, Any]) -> DealersChoiceGame:
    """A pickled game again (registered, as :func:`envs.openspiel.load_game` does)."""
    variant = VARIANTS[name]
    register(variant)
    return game_class(variant)(params)


def class_name(variant: Variant) -> str:
    """``StudGame``, ``ToyStudGame``..."""
    return "".join(part.title() for part in variant.name.split("_")) + "Game"


@functools.cache
def game_class(variant: Variant) -> type[DealersChoiceGame]:
    """The variant's game class (OpenSpiel registers classes: a registered function or
    ``functools.partial`` makes the interpreter abort at exit)."""
    return type(class_name(variant), (DealersChoiceGame,), {"variant": variant, "__module__": __name__})


def register(variant: Variant) -> str:
    """Register the variant with OpenSpiel (once) and return its short name, so that
    ``pyspiel.load_game("dealers_choice_toy_stud(ranks=KA)")`` works too."""
    name = PREFIX + variant.name
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type(variant), game_class(variant))
    return name
