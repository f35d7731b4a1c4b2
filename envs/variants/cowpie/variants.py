"""Cowpie as data (docs/rules.md section 4)."""

from __future__ import annotations

from envs.engine.variant import Variant
from envs.engine.wild_options import WILD_OPTION_NAMES
from envs.variants.cowpie.pieces import cowpie_pieces
from envs.variants.cowpie.rules import (
    STREETS,
    CowpieOptions,
    CowpieState,
    WildCowpieOptions,
    active_streets,
    build_cowpie,
    pot_shares,
)
from envs.variants.stud.variants import COMMON_OPTIONS

COWPIE = Variant(
    name="cowpie",
    title="Cowpie",
    family="cowpie",
    seats=(2, 7),
    options_cls=CowpieOptions,
    option_names=COMMON_OPTIONS | WILD_OPTION_NAMES | {"open_pair_big_bet", "illegal_split", "bet_after_split"},
    wild_options_cls=WildCowpieOptions,
    build=build_cowpie,
    pieces=cowpie_pieces,
    pot_shares=pot_shares,
    streets=STREETS,
    active_streets=active_streets,
    family_state=CowpieState,
    summary=(
        "Seven-card stud where each player splits their cards into a five-card and a two-card hand "
        "(a face-down card in each, the five ranking higher); the best of each takes half the pot."
    ),
    rules="""\
Two to seven players, dealt and bet exactly as seven-card stud high (``ante``,
``bring_in``, ``small_bet`` / ``big_bet``, ``raise_cap``, ``cap_heads_up``,
``open_pair_big_bet``, ``burn_cards``, ``stack``, ``button``). After the last betting
round every remaining player, in turn from the seat left of the button, splits their
seven cards into a five-card hand and a two-card hand by choosing the two cards of the
two-card hand. Each hand must hold at least one face-down card and the five-card hand
must rank higher than the two-card hand (a category comparison; pair against pair by
the pair's rank; no pair against no pair by the top two cards; equal top cards count
as higher for the five-card hand, which has kickers). ``illegal_split="mask"``
(default) offers only legal splits; ``"forfeit"`` offers all 21, and an illegal split
wins neither half (a pot whose players all split illegally is chopped among them).
Splits are secret until everyone has split, then revealed together;
``bet_after_split=True`` adds a betting round at the big bet between the splits and
the reveal (the best showing hand opens). Each pot, side pots included, is halved: the
best five-card hand takes one half, the best two-card hand (any pair beats any unpaired
hand; pairs by rank; unpaired by the higher card, then the lower; no straights or
flushes) the other; one player may scoop. The odd chip of a pot goes to the five-card
half; within a tied half, to the tied player with the highest card by suit. Rewards in
big bets. ``envs.variants.cowpie.rank_splits(cards, down)`` lists the legal splits
best first. House rule ``wild`` (``"joker"``, ``"bug"``, ``"deuces"``; docs/rules.md
section 11): each hand of a split is valued as its wild cards make it (a wild card
pairs the other card of the two-card hand, two wild cards are a pair of aces, the bug
is an ace there), and the split rules apply at those values; ``natural_beats_wild``
breaks an exact tie for the hand with fewer wild cards.""",
)
