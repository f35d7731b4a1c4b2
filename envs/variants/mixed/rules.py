"""Dealer's choice (``dealers_choice``): the deal passes round the table and the dealer
names the game. docs/rules.md section 9.

Rules as implemented:

* the table lists the games that may be dealt (``games``; default: every hand-based
  variant that seats the table, toy stud excepted: it is a game for exact solving on
  a twelve-card deck, not one a dealer calls; it may be listed). A listed Cowboy-family
  game is a whole game of many deals when it is chosen;
* the hand starts with the choice. ``choice="dealer"``: the player on the button
  names the game, a decision (actions ``choose_<game>``) that everyone sees;
  ``"rotate"``: the games in list order, ``hands_per_game`` hands each (default one
  orbit: as many hands as players), counted by the hand's number at the table;
  ``"random"``: uniform over the list, from the hand's seeded generator. Then the
  chosen game is played by its own rules from its first step, on the table's shuffled
  deck (toy stud: the deck's cards of its twelve, in the deck's order);
* one ``stakes`` option (:class:`~envs.variants.mixed.stakes.Stakes`) sets every game's
  antes, blinds and bets through one table (:mod:`envs.variants.mixed.stakes`), and the
  table's ``stack`` every game's stack, so a chip means the same in every game;
  ``game_options`` sets any other option of a listed game (``{"chowaha":
  {"betting": "pot_limit"}}``), each checked by its own variant;
* rewards are in big bets of the stakes in every game, and so are the observation's
  chip amounts.

Every game is built once, with the table (:func:`build_table`); a hand switches to the
chosen game's program (:meth:`~envs.engine.state.State.switch`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envs.engine.actions import BASE_NAMES
from envs.engine.events import Event, EventKind, Verb
from envs.engine.game import Game, Step
from envs.engine.options import (
    DEFAULT_STACK,
    OBSERVATION_OPTIONS,
    check_button,
    check_choice,
    check_int,
    quoted,
    resolve_stack,
)
from envs.engine.state import State
from envs.engine.variant import PotShare, Program, Variant
from envs.variants.mixed.stakes import Stakes, mapped_options

DEALER, ROTATE, RANDOM = "dealer", "rotate", "random"
CHOICES = (DEALER, ROTATE, RANDOM)
CHOOSE_PREFIX = "choose_"
CHOOSING = "dealer's choice"  # the street label while the button names the game
NOT_BY_DEFAULT = frozenset({"toy_stud"})  # listed only on purpose (see the module docstring)
DEFAULT_STAKES = Stakes()  # ante 0, small bet 2, big bet 4


@dataclass(frozen=True)
class DealersChoiceOptions:
    """Options of a dealer's choice table (docs/rules.md section 9).

    Attributes:
        games: the games that may be dealt, by name, in order (None: every hand-based
            game that seats the table, toy stud excepted).
        choice: ``"dealer"`` (the button names the game), ``"rotate"`` or ``"random"``.
        hands_per_game: with ``"rotate"``, hands of each game before the next (None:
            one orbit, as many as players).
        stakes: the table's stakes (a :class:`Stakes` or a dict of its fields).
        game_options: per game, options on top of the stakes (a dict of dicts; kept
            as sorted pairs so the options stay hashable).
        stack: chips per seat in every game with stacks (one int, one per seat, or
            None: unlimited); default 100 big bets.
        button: "rotate", "random" or a fixed seat (for every game).
    """

    games: tuple[str, ...] | None = None
    choice: str = DEALER
    hands_per_game: int | None = None
    stakes: Stakes = DEFAULT_STAKES
    game_options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    stack: int | tuple[int, ...] | str | None = DEFAULT_STACK
    button: int | str = "rotate"

    def __post_init__(self) -> None:
        object.__setattr__(self, "games", _checked_games(self.games))
        check_choice("choice", self.choice, CHOICES)
        check_int("hands_per_game", self.hands_per_game, 1, allow_none=True)
        if self.hands_per_game is not None and self.choice != ROTATE:
            raise ValueError(
                f"option hands_per_game={quoted(self.hands_per_game)} is only used with choice='rotate' "
                f"(choice={self.choice!r}): leave it out"
            )
        stakes = Stakes.of(self.stakes)
        object.__setattr__(self, "stakes", stakes)
        object.__setattr__(self, "game_options", _checked_game_options(self.game_options))
        if isinstance(self.stack, list):
            object.__setattr__(self, "stack", tuple(self.stack))
        resolve_stack(self, stakes.big_bet)
        check_button(self.button)


def _checked_games(games: Any) -> tuple[str, ...] | None:
    """None, or a non-empty sequence of distinct names (a tuple)."""
    if games is None:
        return None
    if isinstance(games, str) or not isinstance(games, Sequence) or not games:
        raise ValueError(
            f"option games={quoted(games)} is not allowed: expected a non-empty list of game names "
            "(or None for every game the table seats)"
        )
    for name in games:
        if not isinstance(name, str):
            raise ValueError(f"option games holds {quoted(name)}: expected game names such as 'razz'")
    twice = next((name for i, name in enumerate(games) if name in games[:i]), None)
    if twice is not None:
        raise ValueError(f"option games lists {quoted(twice)} twice: list each game once")
    return tuple(games)


def _checked_game_options(value: Any) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """Per-game options as sorted ``(game, ((option, value), ...))`` pairs, from a dict
    of dicts or the pairs themselves (lists too, as a record's JSON gives them)."""
    if isinstance(value, Mapping):
        items = list(value.items())
    elif isinstance(value, Sequence) and not isinstance(value, str) and all(_is_pair(i) for i in value):
        items = [tuple(i) for i in value]
    else:
        items = None
    if items is None or not all(isinstance(game, str) for game, _ in items):
        raise ValueError(
            f"option game_options={quoted(value)} is not allowed: expected a dict of game name -> "
            "dict of its options, e.g. {'chowaha': {'betting': 'pot_limit'}}"
        )
    out = []
    for game, options in sorted(items, key=lambda item: item[0]):
        if isinstance(options, Mapping):
            pairs = list(options.items())
        elif isinstance(options, Sequence) and not isinstance(options, str) and all(_is_pair(p) for p in options):
            pairs = [tuple(p) for p in options]
        else:
            raise ValueError(
                f"option game_options[{game!r}]={quoted(options)} is not allowed: expected a dict of option -> value"
            )
        if "button" in dict(pairs):
            raise ValueError(
                f"option game_options[{game!r}] sets button: the table's button option moves the button for every game"
            )
        observed = sorted(OBSERVATION_OPTIONS & set(dict(pairs)))
        if observed:
            raise ValueError(
                f"option game_options[{game!r}] sets {observed[0]}, an observation option of the game played alone: "
                "dealer's choice has one observation layout for every game"
            )
        out.append((game, tuple(sorted(((str(k), _frozen(v)) for k, v in pairs), key=lambda p: p[0]))))
    return tuple(out)


def _is_pair(item: Any) -> bool:
    return isinstance(item, (tuple, list)) and len(item) == 2


def _frozen(value: Any) -> Any:
    """Lists as tuples, at every depth (options are hashable; JSON gives lists)."""
    return tuple(_frozen(v) for v in value) if isinstance(value, (list, tuple)) else value


@dataclass
class MixedState:
    """The table's own state until the game is named: the chosen game's index."""

    chosen: int | None = None


# ---------------------------------------------------------------- the table
def default_games(catalog: Mapping[str, Variant], num_players: int, options: DealersChoiceOptions) -> list[str]:
    """Every hand-based game of the catalog that seats ``num_players`` with the table's
    options (toy stud excepted)."""
    names = []
    for name, variant in catalog.items():
        if variant.episode != "hand" or name in NOT_BY_DEFAULT:
            continue
        low, high = variant.seats
        if not low <= num_players <= high:
            continue
        if variant.check_players is not None:
            try:
                variant.check_players(variant.options(**game_kwargs(variant, options)), num_players)
            except ValueError:
                continue
        names.append(name)
    return names


def listed_games(catalog: Mapping[str, Variant], num_players: int, options: DealersChoiceOptions) -> list[str]:
    """The games the table deals, checked: known, seating this many players."""
    if options.games is None:
        return default_games(catalog, num_players, options)
    for name in options.games:
        if name not in catalog:
            raise ValueError(f"option games lists {quoted(name)}, which is not a game; games: {', '.join(catalog)}")
        low, high = catalog[name].seats
        if not low <= num_players <= high:
            seats = f"{low}" if low == high else f"{low} to {high}"
            raise ValueError(
                f"option games lists {name!r}, which seats {seats} players; the table has {num_players}: "
                "drop it from games or change the table size"
            )
    return list(options.games)


def game_kwargs(variant: Variant, options: DealersChoiceOptions) -> dict[str, Any]:
    """A listed game's options: the stakes table's, then its ``game_options``."""
    own = dict(dict(options.game_options).get(variant.name, ()))
    return {**mapped_options(variant, options.stakes, options.stack), **own}


def build_game(variant: Variant, num_players: int, options: DealersChoiceOptions) -> Game:
    """One listed game, with every problem named as the game's."""
    kwargs = game_kwargs(variant, options)
    try:
        game = variant.game(num_players, **kwargs)
    except ValueError as err:
        shown = ", ".join(f"{k}={quoted(v, 40)}" for k, v in kwargs.items())
        raise ValueError(f"{variant.name} at this table ({shown}): {err}") from None
    _check_same_chips(game, options, set(dict(dict(options.game_options).get(variant.name, ()))))
    return game


def _check_same_chips(game: Game, options: DealersChoiceOptions, overridden: set[str]) -> None:
    """What the stakes table cannot set must still agree with the table: a stack the
    game does not take as an option, and limit Chowaha's big bet."""
    stakes, o = options.stakes, game.options
    fixed = "stack" not in game.variant.option_names and "stack" not in overridden and hasattr(o, "stack")
    if fixed and o.stack != options.stack:
        raise ValueError(
            f"{game.name} takes no stack option: its stack is {o.stack} chips, the table's "
            f"stack={quoted(options.stack)}; leave the table's stack at its default or drop {game.name}"
        )
    blinds = {"small_blind", "big_blind"} & overridden
    if game.variant.family == "chowaha" and o.betting == "limit" and not blinds and 2 * o.big_blind != stakes.big_bet:
        raise ValueError(
            f"chowaha (limit) bets twice its big blind on the turn and river: the stakes' small_bet={stakes.small_bet} "
            f"makes that {2 * o.big_blind}, not big_bet={stakes.big_bet}; use big_bet = 2 * small_bet, "
            "another betting (game_options) or drop chowaha"
        )


def action_layout(games: Sequence[Game]) -> tuple[str, ...]:
    """The shared layout (every base action), the sized bets of any listed pot- or
    no-limit game, then one ``choose_<game>`` per game: an index means the same in
    every game."""
    sized = max((g.action_names[len(BASE_NAMES) :] for g in games), key=len)
    names = (*BASE_NAMES, *sized)
    for game in games:
        if game.action_names != names[: len(game.action_names)]:
            raise ValueError(
                f"{game.name}'s actions {game.action_names[len(BASE_NAMES) :]} do not fit the table's "
                f"{sized}: games with different bet sizes cannot share one action layout"
            )
    return (*names, *(CHOOSE_PREFIX + g.name for g in games))


def build_table(
    variant: Variant, num_players: int, options: DealersChoiceOptions, catalog: Mapping[str, Variant]
) -> Program:
    """Every listed game built once, and the one step that names the hand's game."""
    names = listed_games(catalog, num_players, options)
    stray = next((game for game, _ in options.game_options if game not in names), None)
    if stray is not None:
        raise ValueError(
            f"option game_options sets options of {quoted(stray)}, which this table does not deal; "
            f"its games: {', '.join(names)}"
        )
    games = tuple(build_game(catalog[name], num_players, options) for name in names)
    layout = action_layout(games)
    hands = options.hands_per_game if options.hands_per_game is not None else num_players
    first = len(layout) - len(games)
    step = ChooseGame(games=games, choice=options.choice, hands_per_game=hands, first_action=first)
    return Program((step,), options.stakes.big_bet, layout)


def pot_shares(options: DealersChoiceOptions) -> tuple[PotShare, ...]:
    """None of its own: each game's are its own (``view.game_options``)."""
    return ()


def check_players(options: DealersChoiceOptions, num_players: int, catalog: Mapping[str, Variant]) -> None:
    """Every listed game must seat the table (none listed: at least one must)."""
    if not listed_games(catalog, num_players, options):
        raise ValueError(f"no game seats {num_players} players: list games that do")


# ------------------------------------------------------------------ the step
@dataclass(frozen=True, kw_only=True)
class ChooseGame(Step):
    """Name the hand's game, then play it (:meth:`~envs.engine.state.State.switch`).

    ``choice="dealer"``: the button's decision (``choose_<game>``, public); otherwise
    the rotation (by ``State.hand``) or a draw from the state's generator, logged the
    same way without a decision.
    """

    games: tuple[Game, ...]
    choice: str
    hands_per_game: int
    first_action: int  # index of choose_<games[0]>
    contested_only = False

    def start(self, st: State) -> None:
        st.street_label = CHOOSING
        if self.choice == ROTATE:
            self._chosen(st, (st.hand // self.hands_per_game) % len(self.games), Verb.NONE)
        elif self.choice == RANDOM:
            self._chosen(st, int(st.rng.integers(len(self.games))), Verb.NONE)

    def actor(self, st: State) -> int | None:
        return st.button if st.family.chosen is None else None

    def legal(self, st: State) -> list[int]:
        return list(range(self.first_action, self.first_action + len(self.games)))

    def apply(self, st: State, action: int) -> None:
        self._chosen(st, action - self.first_action, Verb.CHOOSE)

    def finish(self, st: State) -> int | None:
        st.street_label = ""
        st.switch(self.games[st.family.chosen])
        return 0

    def _chosen(self, st: State, index: int, verb: Verb) -> None:
        st.family.chosen = index
        game = self.games[index]
        action = self.first_action + index
        st.log(Event(EventKind.CHOOSE, seat=st.button, action=action, text=game.variant.title, verb=verb))
