"""What a variant is: one object that describes a game completely.

A :class:`Variant` holds everything that differs between games: its streets as
keyword data (what is dealt, face up or down, the bet size, who opens), its options
(a validated dataclass and the defaults this variant changes), the builder of its
step program, its observation pieces, the public facts a bot may read about its
family's state, how its pots are shared, its reward unit and what one episode is.
Every table that used to be keyed by a variant's name (environment ids, the
versioned modules, the heuristic, the arena's units) is derived from these objects:
adding a game is adding one object to the registry (:mod:`envs.variants`).

The type lives in the engine (a variant's *instances* live in ``envs/variants``), so
the engine never imports upward.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from envs.engine.game import Game, Step
from envs.engine.observation import Piece, Tracker
from envs.engine.options import build_options, check_button, check_int, quoted, stacks_for
from envs.engine.wild_options import WILD_OPTION_NAMES, deck_with_wild, refuse_wild, wants_wild

if TYPE_CHECKING:
    from envs.engine.state import State

DOWN, UP = False, True  # a dealt card's face
SMALL, BIG = "small", "big"  # a limit betting round's bet size
BRING_IN, BEST_SHOWING = "bring_in", "best_showing"  # who opens a stud round
AFTER_BIG_BLIND, AFTER_BUTTON = "after_big_blind", "after_button"  # who opens a blind game's round
OPENERS = (BRING_IN, BEST_SHOWING, AFTER_BIG_BLIND, AFTER_BUTTON)
EPISODES = ("hand", "game")


@dataclass(frozen=True, kw_only=True)
class Street:
    """One dealing round and the betting round after it, as data.

    Attributes:
        label: its name in histories and observations ("third street").
        deal: each card dealt to every live player this street, in order: face up
            (``UP``) or down (``DOWN``).
        community: the shared positions turned face up this street (Chowaha's layout).
        bet: ``SMALL`` or ``BIG``: the limit bet size of the betting round.
        opener: ``BRING_IN`` (the forced-bet round: lowest up card brings in, or the
            highest acts first without a bring-in), ``BEST_SHOWING``, or in blind
            games ``AFTER_BIG_BLIND`` / ``AFTER_BUTTON``.
        open_pair_big_bet: with the ``open_pair_big_bet`` option, an open pair
            showing makes this round's bets big bets.
        community_when_short: when the stub cannot give every live player a card,
            one community card is dealt face up for everyone instead (stud's seventh).
    """

    label: str
    deal: tuple[bool, ...] = ()
    community: tuple[str, ...] = ()
    bet: str = SMALL
    opener: str = BEST_SHOWING
    open_pair_big_bet: bool = False
    community_when_short: bool = False

    def __post_init__(self) -> None:
        if self.bet not in (SMALL, BIG):
            raise ValueError(f"street {self.label!r}: bet={self.bet!r} is not allowed: expected 'small' or 'big'")
        if self.opener not in OPENERS:
            raise ValueError(f"street {self.label!r}: opener={self.opener!r} is not allowed: expected one of {OPENERS}")


@dataclass(frozen=True, kw_only=True)
class PotShare:
    """One part of every pot, described for bots (the engine's ``Share`` computes it).

    Attributes:
        name: ``"high"``, ``"low"``, ``"five-card"``, ``"two-card"``.
        hand: how the hand is ranked: ``"high"``, ``"low"`` (ace-to-five),
            ``"two_card"`` (Cowpie's two-card hand).
        qualifier: a low must be this rank or better (8: eight-or-better); None: none.
        declared: only players who declared this way (or both) compete for it.
    """

    name: str
    hand: str
    qualifier: int | None = None
    declared: bool = False


@dataclass(frozen=True)
class Program:
    """What a variant's builder returns for a set of options."""

    steps: tuple[Step, ...]
    unit: int
    action_names: tuple[str, ...]


def _full_deck(options: Any) -> tuple[int, ...]:
    return tuple(range(52))


@dataclass(frozen=True, kw_only=True, eq=False)
class Variant:
    """A poker variant, whole.

    Attributes:
        name: registry name (``"stud"``); the env id adds the version (``stud_v0``).
        title: human name.
        family: the family whose rules and hooks it uses ("stud", "cowpie", "cowboy",
            "chowaha"); the heuristic and other per-family code look it up by this.
        seats: (fewest, most) players.
        version: environment version (``stud_v0``); bump it when observations change.
        options_cls: frozen dataclass of options, validated in ``__post_init__``.
        option_names: the options this variant accepts (others are an error).
        defaults: this variant's own defaults for shared options (Cowgirl's draw).
        streets: the dealing and betting rounds (every street the variant can have).
        active_streets: the streets a game plays given its options (toy stud's
            length is an option); default: all of ``streets``.
        build: makes the step program for (variant, players, options).
        pieces: the observation pieces of a game of this variant.
        pot_shares: how each pot is shared, for bots (given the options).
        episode: ``"hand"`` or ``"game"`` (a Cowboy game of many deals).
        unit_name: what one reward unit is ("big bets", "big blinds", "antes").
        rules: the rules as implemented, in prose (docs, module docstrings).
        summary: the rules in one sentence.
        deck: the cards in play for the options (default: all 52).
        view_extras: public family facts for a seat's view (Cowboy's phase, stays).
        extras_from_data: rebuilds those facts from plain data (views sent to bots in
            other processes); None when they are plain already.
        check_players: extra player-count check given the options (Chowaha's deck).
        seat_limits: option settings that lower the most players (Chowaha's
            ``hole_cards=4``), for the documentation: ``(("hole_cards", 4),)``.
        family_state: makes the typed per-family part of a fresh state.
        observer: makes the tracker that turns a state's events into observations
            from the game's pieces (default: :class:`~envs.engine.observation.Tracker`;
            dealer's choice embeds the game in play's own tracker).
        wild_options_cls: the options class with the wild-card house rule
            (docs/rules.md section 11: ``options_cls`` plus ``wild`` and
            ``natural_beats_wild``), built only when one of them is not its default;
            None: the variant has no wild cards (Chowaha, toy stud).
    """

    name: str
    title: str
    family: str
    seats: tuple[int, int]
    options_cls: type
    option_names: frozenset[str]
    build: Callable[[Variant, int, Any], Program]
    pieces: Callable[[Game], list[Piece]]
    pot_shares: Callable[[Any], tuple[PotShare, ...]]
    version: int = 0
    defaults: Mapping[str, Any] = field(default_factory=dict)
    streets: tuple[Street, ...] = ()
    active_streets: Callable[[Any], tuple[Street, ...]] | None = None
    episode: str = "hand"
    unit_name: str = "big bets"
    rules: str = ""
    summary: str = ""
    deck: Callable[[Any], tuple[int, ...]] = _full_deck
    view_extras: Callable[[State, int], dict[str, Any]] | None = None
    extras_from_data: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    check_players: Callable[[Any, int], None] | None = None
    seat_limits: tuple[tuple[str, Any], ...] = ()
    family_state: Callable[[], Any] | None = None
    observer: Callable[[Game, list[Piece]], Tracker] | None = None
    wild_options_cls: type | None = None

    def __post_init__(self) -> None:
        if self.episode not in EPISODES:
            raise ValueError(f"variant {self.name!r}: episode={self.episode!r} is not allowed: expected {EPISODES}")
        low, high = self.seats
        if not 2 <= low <= high:
            raise ValueError(f"variant {self.name!r}: seats={self.seats!r} must be (fewest, most) with 2 <= fewest")

    def most_players(self, **options: Any) -> int:
        """The most players a table with these options allows (its player check decides)."""
        low, high = self.seats
        checked = self.options(**options)
        for n in range(high, low - 1, -1):
            try:
                if self.check_players is not None:
                    self.check_players(checked, n)
            except ValueError:
                continue
            return n
        raise ValueError(f"{self.name} allows no player count with options {options}")

    def streets_for(self, options: Any) -> tuple[Street, ...]:
        """The streets a game with these options plays."""
        return self.streets if self.active_streets is None else self.active_streets(options)

    def tracker(self, game: Game, pieces: list[Piece] | None = None) -> Tracker:
        """The observation tracker of a game of this variant over ``pieces`` (default:
        ``self.pieces(game)``; pass the list you show in docs so offsets agree)."""
        pieces = self.pieces(game) if pieces is None else pieces
        if self.observer is not None:
            return self.observer(game, pieces)
        return Tracker(pieces, game.num_players, game.unit)

    @property
    def env_id(self) -> str:
        """``stud_v0`` and so on."""
        return f"{self.name}_v{self.version}"

    def options(self, **kwargs: Any) -> Any:
        """Validated options (defaults filled in) from keyword arguments."""
        unknown = sorted(set(kwargs) - self.option_names)
        if unknown and unknown[0] in WILD_OPTION_NAMES and self.wild_options_cls is None:
            raise refuse_wild(self.name, unknown[0], kwargs[unknown[0]])
        if unknown:
            raise ValueError(
                f"unknown option {quoted(unknown[0])} for {self.name}; "
                f"known options: {', '.join(sorted(self.option_names))}"
            )
        if self.wild_options_cls is not None and wants_wild(kwargs):
            return build_options(self.wild_options_cls, self.name, {**self.defaults, **kwargs})
        plain = {k: v for k, v in kwargs.items() if k not in WILD_OPTION_NAMES}  # the defaults
        return build_options(self.options_cls, self.name, {**self.defaults, **plain})

    def game(self, num_players: int, **kwargs: Any) -> Game:
        """A :class:`~envs.engine.game.Game` of this variant for ``num_players``."""
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
            deck=deck_with_wild(self.deck(options), options),
            pot_shares=self.pot_shares(options),
            streets=self.streets_for(options),
        )
