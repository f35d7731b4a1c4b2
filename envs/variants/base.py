"""What a variant is: data (name, seats, options) plus a builder of its step program."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from envs.engine.options import build_options, check_button, check_int, quoted, stacks_for
from envs.engine.state import Game, Step


@dataclass(frozen=True)
class Program:
    """What a variant's builder returns for a set of options."""

    steps: tuple[Step, ...]
    unit: int
    action_names: tuple[str, ...]


@dataclass(frozen=True)
class Variant:
    """A poker variant.

    Attributes:
        name: registry name (``"stud"``); environments add a version (``stud_v0``).
        title: human name.
        family: module that builds it ("stud", "cowpie", "cowboy", "chowaha").
        seats: (fewest, most) players.
        options_cls: frozen dataclass of options, validated in ``__post_init__``.
        option_names: the options this variant accepts (others are an error).
        build: makes the program for (variant, players, options).
        check_players: extra player-count check given the options (Chowaha's deck).
        defaults: this variant's own defaults for shared options (Cowgirl's draw limit).
        rules: the rules in one paragraph, for docs and ``render``.
    """

    name: str
    title: str
    family: str
    seats: tuple[int, int]
    options_cls: type
    option_names: frozenset[str]
    build: Callable[[Variant, int, Any], Program]
    check_players: Callable[[Any, int], None] | None = None
    defaults: dict[str, Any] = field(default_factory=dict)
    rules: str = ""

    def options(self, **kwargs: Any) -> Any:
        """Validated options (defaults filled in) from keyword arguments."""
        unknown = sorted(set(kwargs) - self.option_names)
        if unknown:
            raise ValueError(
                f"unknown option {quoted(unknown[0])} for {self.name}; "
                f"known options: {', '.join(sorted(self.option_names))}"
            )
        return build_options(self.options_cls, self.name, {**self.defaults, **kwargs})

    def game(self, num_players: int, **kwargs: Any) -> Game:
        """A :class:`Game` of this variant for ``num_players`` with options."""
        low, high = self.seats
        check_int("num_players", num_players, low, high)
        options = self.options(**kwargs)
        stacks_for(getattr(options, "stack", None), num_players)  # one stack per seat, if a sequence
        check_button(getattr(options, "button", "rotate"), num_players)
        if self.check_players is not None:
            self.check_players(options, num_players)
        program = self.build(self, num_players, options)
        return Game(
            variant=self,
            num_players=num_players,
            options=options,
            program=program.steps,
            unit=program.unit,
            action_names=program.action_names,
        )
