"""Dealer's choice by a committee of specialists (``agents.load("specialists")``).

One network trained on every game of the dealer's choice table (``pretrained:dealers_choice``)
sees each game a seventh as often as a specialist sees its own, and plays the games
whose specialists are strongest worse than they do (README, "One agent for every
game"). The committee is the other way to play the mixed game: every hand is played by
the shipped specialist of the game in play (``pretrained:<game>``), seated through
:class:`SpecialistSeat`, and only the button's choice of game is left to a chooser: by
default :class:`VerdictChooser`, which names the game whose specialist won most from the
heuristic in its own shipped verdict (the generalist network, whose choice head was
trained at this table, named declare 70% of the time, the game its specialist wins
least; measured in the README).

A game with no specialist for the table's size is played by the heuristic, which plays
every game of the table natively; :meth:`SpecialistCommittee.members` says who plays
what. The committee plays only the table it was built for, the generalist's (its players
and options): elsewhere it raises a ``ValueError`` at its first decision rather than seat a network at a table
it was not trained for.

Specialists read their game's own observation, which the table's vector holds without
loss at the game's index map (:func:`envs.variants.mixed.index_maps`), and play the
mixed table's version of their game (``strict_options=False``). Chip amounts are in big
bets of the table's stakes, each stud game's own unit at the default stakes but twice
Chowaha's (big blinds), and Chowaha's stack there is 400 (its specialist was trained
at 200), so the Chowaha specialist plays a table a little off its own.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.heuristic.mixed import game_view
from envs.policy import Observation
from envs.registry import make_raw
from envs.variants.mixed import CHOOSE_PREFIX, index_maps
from envs.view import PublicView

__all__ = ["SpecialistCommittee", "SpecialistSeat", "VerdictChooser", "Wrapped", "listed_games"]

VARIANT = "dealers_choice"


def listed_games(table: Any) -> list[str]:
    """The games a dealer's choice env deals (its ``choose_<game>`` actions)."""
    return [a.removeprefix(CHOOSE_PREFIX) for a in table.action_names if a.startswith(CHOOSE_PREFIX)]


class Wrapped:
    """A bot around another (``bot``): the optional hooks go to the bot inside."""

    bot: Any

    def seed(self, seed: int | None) -> None:
        if hasattr(self.bot, "seed"):
            self.bot.seed(seed)

    def reset(self) -> None:
        if hasattr(self.bot, "reset"):
            self.bot.reset()


class SpecialistSeat(Wrapped):
    """A single-game agent seated at a dealer's choice table that deals its game: it
    gets the game's own observation (the table's vector at the game's index map), the
    game's own action mask (the table's first actions) and the game's own view."""

    def __init__(self, bot: Any, game: str, table_env: Any) -> None:
        self.bot = bot
        self.game = game
        self.places = index_maps(table_env.game)[game]
        self.actions = make_raw(game, table_env.game.num_players).game.num_actions
        self.name = getattr(bot, "name", type(bot).__name__)

    def act(self, observation: Observation, view: PublicView) -> int:
        own = {
            "observation": np.asarray(observation["observation"])[self.places],
            "action_mask": np.asarray(observation["action_mask"])[: self.actions],
        }
        return int(self.bot.act(own, game_view(view)))


class VerdictChooser:
    """Names, on the button, the listed game whose member won most from the heuristic
    in its own shipped verdict (``edges``: big bets per 100 hands; 0 for a game the
    heuristic plays); ties go to the first listed. The verdicts were measured on their
    own deals, before and apart from any match this chooser plays."""

    def __init__(self, edges: dict[str, float], action_names: list[str]) -> None:
        self.edges = dict(edges)
        self.names = list(action_names)
        self.name = "verdicts"

    def act(self, observation: Observation, view: PublicView) -> int:
        legal = [a for a in view.legal_actions if self.names[a].startswith(CHOOSE_PREFIX)]
        if not legal:
            raise ValueError(f"the verdict chooser names games only; legal here: {list(view.legal_names)}")
        return max(legal, key=lambda a: (self.edges.get(self.names[a].removeprefix(CHOOSE_PREFIX), 0.0), -a))


class SpecialistCommittee:
    """Each hand of a dealer's choice table played by its game's member.

    ``agents.load("specialists", seed=..., greedy=...)`` builds one from the shipped
    agents (:func:`agents.loading.committee`); this class only routes.

    Args:
        chooser: the bot that names the game on the button (``agents.load`` gives a
            :class:`VerdictChooser`, or with ``chooser="pretrained:dealers_choice"`` the
            generalist network, whose choice head was trained at this table).
        seats: every listed game's member: a :class:`SpecialistSeat` or a bot that
            plays the mixed table natively (the heuristic).
        layout: the table (the generalist's: two players, default options).
        greedy: whether the networks were loaded greedy (for the name only).
    """

    def __init__(self, chooser: Any, seats: dict[str, Any], layout: Any, *, greedy: bool = False) -> None:
        if getattr(layout, "variant", None) != VARIANT:
            raise ValueError(f"the committee plays a {VARIANT} table, not {layout!r}")
        table = make_raw(VARIANT, layout.num_players, **layout.env_kwargs)
        games = listed_games(table)
        if sorted(seats) != sorted(games):
            raise ValueError(f"the committee needs a member for each listed game {games}, got {sorted(seats)}")
        self.chooser, self.layout, self.greedy = chooser, layout, greedy
        self.games, self.seats = games, dict(seats)
        self.name = "specialists" if not greedy else "specialists(greedy)"

    def check_table(self, variant: str | None, num_players: int | None, options: dict[str, Any] | None) -> None:
        """Refuse a table other than the committee's own (``agents.load``'s table arguments)."""
        layout = self.layout
        asked = (variant or VARIANT, num_players or layout.num_players, options)
        other_options = options is not None and options != layout.env_kwargs
        if asked[0] != VARIANT or asked[1] != layout.num_players or other_options:
            raise ValueError(
                f"the committee plays the {VARIANT} table it was built for, the generalist's ({layout.num_players} "
                f"players, options {layout.env_kwargs or 'default'}), not {asked[0]} with {asked[1]} players and "
                f"options {options}: name no --players or --option and it is seated there"
            )

    def members(self) -> dict[str, str]:
        """Who plays each game: ``pretrained:<game>`` or ``heuristic``."""
        return {g: f"pretrained:{g}" if isinstance(s, SpecialistSeat) else "heuristic" for g, s in self.seats.items()}

    def act(self, observation: Observation, view: PublicView) -> int:
        if view.variant != VARIANT or view.num_players != self.layout.num_players:
            raise ValueError(
                f"the committee plays {VARIANT} with {self.layout.num_players} players, "
                f"not {view.variant} with {view.num_players}"
            )
        if not view.game or view.game == view.variant:  # the button names the game
            return int(self.chooser.act(observation, view))
        seat = self.seats.get(view.game)
        if seat is None:
            raise ValueError(f"the table deals {view.game!r}, which is not among its listed games {self.games}")
        return int(seat.act(observation, view))

    def seed(self, seed: int | None) -> None:
        for member in (self.chooser, *self.seats.values()):
            if hasattr(member, "seed"):
                member.seed(seed)

    def reset(self) -> None:
        for member in (self.chooser, *self.seats.values()):
            if hasattr(member, "reset"):
                member.reset()

    def __repr__(self) -> str:
        return f"SpecialistCommittee(greedy={self.greedy}, members={self.members()})"
