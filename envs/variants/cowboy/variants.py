"""Cowboy, Cowgirl and Cowpattie as data (docs/rules.md section 5): one family, three draws."""

from __future__ import annotations

from typing import Any

from envs.engine.variant import Variant
from envs.engine.wild_options import WILD_OPTION_NAMES
from envs.variants.cowboy.pieces import cowboy_pieces
from envs.variants.cowboy.rules import COMMON_OPTIONS, CowboyOptions, WildCowboyOptions, build_cowboy, pot_shares
from envs.variants.cowboy.state import CowboyState, facts_from_data, public_facts

RULES = """\
Three to seven players; one episode is a whole game, deal after deal. Each deal:
antes (``ante``; everyone on the first deal, then the players who folded the previous
one); five cards face down, kept sorted (draw positions 0..4 are the lowest .. highest
card); one round from the seat left of the button where each player stays or folds,
seeing earlier choices. Nobody stays: the pot carries and everyone antes again. One
stays: it takes the pot and the game ends. Two stay: they split it and the game ends
(``two_stay="showdown"`` plays the deal out instead, with no match payments). Three or
more: the draw (DRAW; discards of earlier players are reshuffled when the stub runs
out), a secret declaration of low, high or both revealed together, the showdown (high
half to the best high declarer, ace-to-five low half to the best low declarer,
``low_rule`` "a5" or "a5_8"; a both-declarer must win or tie both ways, ``swing_rule``),
the dummy (``dummy``: when a seat folded, a dummy hand DUMMY; a winner it beats takes
nothing and pays), and every stayer who won nothing pays the pot (``match_cap`` caps
one payment). The payments are the next deal's pot. ``max_deals`` (100) truncates: the
pot is returned in equal shares. Rewards: net chips over the game, in antes; they sum
to exactly zero. Chips are exact ints and stacks unlimited: with no ``match_cap`` pots
can multiply by ``n + 1`` each deal, so a ``max_deals`` that could take any chip count
past 10**150 is refused with a ``ValueError`` naming the largest allowed. House rule
``wild`` (docs/rules.md section 11): ``"joker"`` or ``"bug"`` (a 53-card deck; the
discards reshuffled with it) or ``"deuces"``; wild cards make the best high (five of a
kind on top) and, as the lowest rank missing, the best low, for the players and the
dummy alike; ``natural_beats_wild`` breaks an exact tie for the hand with fewer wild
cards. Only a natural ace counts for ``ace_draw``."""


def _cowboy(name: str, title: str, defaults: dict[str, Any], extra: frozenset[str], draw: str, dummy: str) -> Variant:
    summary = f"Five-card draw ({draw}), stay or fold, declare low, high or both in secret; whoever stays"
    return Variant(
        name=name,
        title=title,
        family="cowboy",
        seats=(3, 7),
        options_cls=CowboyOptions,
        option_names=COMMON_OPTIONS | WILD_OPTION_NAMES | extra,
        wild_options_cls=WildCowboyOptions,
        defaults=defaults,
        build=build_cowboy,
        pieces=cowboy_pieces,
        pot_shares=pot_shares,
        episode="game",
        unit_name="antes",
        view_extras=public_facts,
        extras_from_data=facts_from_data,
        family_state=CowboyState,
        summary=summary + " and wins nothing matches the pot; deal after deal.",
        rules=RULES.replace("DRAW", draw).replace("DUMMY", dummy),
    )


COWBOY = _cowboy(
    "cowboy",
    "Cowboy",
    {"max_draw": 3, "ace_draw": 4},
    frozenset({"ace_draw"}),
    "discard up to ``max_draw`` = 3 cards, or ``ace_draw`` = 4 keeping an ace",
    "whose draw, under the players' rules, the first folded seat clockwise from the button chooses",
)
COWGIRL = _cowboy(
    "cowgirl",
    "Cowgirl",
    {"max_draw": 1},
    frozenset(),
    "discard at most one card, ``max_draw`` = 1",
    "whose draw of at most one card the first folded seat clockwise from the button chooses",
)
COWPATTIE = _cowboy(
    "cowpattie",
    "Cowpattie",
    {"max_draw": 0},
    frozenset(),
    "no draw, ``max_draw`` = 0",
    "with no draw",
)

VARIANTS = (COWBOY, COWGIRL, COWPATTIE)
