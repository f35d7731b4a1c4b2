"""Dealer's choice as data: a table over a catalog of games (docs/rules.md section 9).

The registry (:mod:`envs.variants`) passes every other variant it holds as the
catalog, so a game added to the registry can be dealt at a dealer's choice table with
no change here.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from envs.engine.cards import DECK, DECK_WITH_JOKER
from envs.engine.state import State
from envs.engine.variant import Variant
from envs.variants.mixed.pieces import choose_step, mixed_pieces, mixed_tracker
from envs.variants.mixed.rules import (
    DealersChoiceOptions,
    MixedState,
    build_table,
    check_players,
    pot_shares,
)

RULES = """\
The home game this project is named after: one table, many games. Two to twenty
players; the games that may be dealt are listed (``games``; default: every game dealt
one hand at a time that seats the table: stud, razz, stud_hilo and stud_hilo_declare
up to eight players, cowpie up to seven, five_card_stud up to ten, chowaha up to
twenty; toy_stud, a game for exact solving on twelve cards, only when listed; a listed
Cowboy game is played as a whole game when chosen, so one episode is a hand or, then, a
game). Each hand starts with the choice:
``choice="dealer"`` (default): the player on the button names the game (actions
``choose_<game>``), a decision everyone sees; ``"rotate"``: the list in order,
``hands_per_game`` hands each (default one orbit); ``"random"``: uniform over the list
from the hand's seeded generator. The chosen game is then played by its own rules on
the table's shuffled deck. Stakes are common to every game: one ``stakes`` option
(ante 0, small bet 2, big bet 4 by default) sets the stud games' ante, bring-in (half
the small bet), small and big bets; toy stud's ante (the bring-in when the stakes'
ante is 0); Chowaha's ante and blinds (half the small bet and the small bet: its limit
big bet, twice the big blind, must then be the big bet); the Cowboy ante (half the
small bet). The table's ``stack`` (default 100 big bets) is every stud game's and
Chowaha's stack; the Cowboy family plays with unlimited stacks. ``game_options`` sets
any other option of a listed game (``{"chowaha": {"betting": "pot_limit"}}``), the
button excepted. Rewards and the observation's chip amounts are in big bets of the
stakes."""


def _facts(st: State, seat: int) -> dict[str, Any]:
    """The table's public facts for a seat's view: the games it deals, in order."""
    return {"games": tuple(g.name for g in choose_step(st.game).games)}


def table_deck(options: DealersChoiceOptions) -> tuple[int, ...]:
    """The table's cards: the 52, and the joker when a listed game deals it (its
    ``game_options`` set ``wild="joker"`` or ``"bug"``, docs/rules.md section 11); a
    game without it plays with the joker set aside, like toy stud's unused cards."""
    jokers = any(dict(own).get("wild") in ("joker", "bug") for _, own in options.game_options)
    return DECK_WITH_JOKER if jokers else DECK


def dealers_choice(catalog: Mapping[str, Variant]) -> Variant:
    """The dealer's choice variant over ``catalog`` (name -> variant)."""
    games = dict(catalog)
    return Variant(
        name="dealers_choice",
        title="Dealer's choice",
        family="mixed",
        seats=(2, max(v.seats[1] for v in games.values())),
        options_cls=DealersChoiceOptions,
        option_names=frozenset({"games", "choice", "hands_per_game", "stakes", "game_options", "stack", "button"}),
        build=functools.partial(build_table, catalog=games),
        pieces=mixed_pieces,
        pot_shares=pot_shares,
        check_players=functools.partial(check_players, catalog=games),
        deck=table_deck,
        family_state=MixedState,
        view_extras=_facts,
        observer=mixed_tracker,
        summary=(
            "One table, many games: the dealer (or a rotation, or chance) names each hand's game; "
            "common stakes, one observation and action layout for every game."
        ),
        rules=RULES,
    )
