"""The stud variants as data: streets, options and which hands win.

Seven-card stud (``stud``, ``razz``, ``stud_hilo``, ``stud_hilo_declare``), five-card
stud (``five_card_stud``) and ``toy_stud`` are the same rules (:mod:`.rules`) over
different street tuples and :class:`~.rules.StudKind` values. A new stud game is one
more object here.
"""

from __future__ import annotations

import functools
from dataclasses import replace

from envs.engine.options import OBSERVATION_OPTIONS
from envs.engine.variant import BIG, BRING_IN, DOWN, SMALL, UP, Street, Variant
from envs.engine.wild_options import WILD_OPTION_NAMES
from envs.variants.stud.pieces import stud_pieces
from envs.variants.stud.rules import (
    StudKind,
    StudOptions,
    ToyOptions,
    WildStudOptions,
    first_streets,
    stud_program,
    toy_deck,
)

SEVEN_CARD_STREETS = (
    Street(label="third street", deal=(DOWN, DOWN, UP), bet=SMALL, opener=BRING_IN),
    Street(label="fourth street", deal=(UP,), bet=SMALL, open_pair_big_bet=True),
    Street(label="fifth street", deal=(UP,), bet=BIG),
    Street(label="sixth street", deal=(UP,), bet=BIG),
    Street(label="seventh street", deal=(DOWN,), bet=BIG, community_when_short=True),
)
FIVE_CARD_STREETS = (
    Street(label="second street", deal=(DOWN, UP), bet=SMALL, opener=BRING_IN),
    Street(label="third street", deal=(UP,), bet=SMALL, open_pair_big_bet=True),
    Street(label="fourth street", deal=(UP,), bet=BIG),
    Street(label="fifth street", deal=(UP,), bet=BIG),
)
# Toy stud: five-card stud's first streets, with the big bet from the second round on.
TOY_STREETS = (
    FIVE_CARD_STREETS[0],
    replace(FIVE_CARD_STREETS[1], bet=BIG, open_pair_big_bet=False),
    FIVE_CARD_STREETS[2],
)

COMMON_OPTIONS = frozenset(
    {"ante", "bring_in", "small_bet", "big_bet", "raise_cap", "cap_heads_up", "burn_cards", "stack", "button"}
)
# Every stud game below also takes OBSERVATION_OPTIONS (StudOptions.up_by_street): they
# are not in COMMON_OPTIONS because Cowpie, which shares those, has no up_by_street piece.

SEVEN_CARD_RULES = """\
Two to eight players; an ante from everyone (``ante``, default 0). Third street: two
cards down and one up, dealt one at a time clockwise from the seat left of the
button; fourth to sixth street one card up each; seventh one card down. If the stub
holds fewer cards than players still in at seventh street (eight players who all
stay), one community card is dealt face up for everyone. ``burn_cards`` burns a card
before each street; burned cards are reused (in burn order) before a community card. Third street:
the lowest up card brings in (aces high, clubs < diamonds < hearts < spades; razz:
the highest, aces low, the king of spades highest), posting ``bring_in`` or
completing to the small bet, and cannot fold; completing is the opening bet.
``bring_in=None``: no forced bet, the highest up card (razz: lowest) acts first and
may check. Later streets: the best showing hand acts first (razz: the lowest, pairs
count against); ties to the first seat clockwise from the button. Fixed limit:
``small_bet`` on third and fourth street, ``big_bet`` from fifth; at most
``raise_cap`` bets and raises a street (no cap heads-up unless ``cap_heads_up``). A
finite ``stack`` plays all-ins for less with side pots. Ties split; odd chips to the
high half, within a tie to the highest card by suit (low half: the lowest card, aces
low). Rewards in big bets. House rule ``wild`` (docs/rules.md section 11): ``"joker"``
(a 53-card deck, the joker fully wild), ``"bug"`` (the joker is an ace or completes a
straight or a flush; in a low, the lowest rank missing) or ``"deuces"``; a wild card may
duplicate a card, so five of a kind tops straight flushes; in a low it is the lowest
rank missing. A face-up wild card never brings in and counts at its best value for the
best showing hand; for odd chips the joker's suit is below clubs.
``natural_beats_wild`` breaks an exact tie for the hand with fewer wild cards."""


def _stud(name: str, title: str, kind: StudKind, extra: frozenset[str], summary: str, rules: str) -> Variant:
    return Variant(
        name=name,
        title=title,
        family="stud",
        seats=(2, 8),
        options_cls=StudOptions,
        option_names=COMMON_OPTIONS | WILD_OPTION_NAMES | OBSERVATION_OPTIONS | extra,
        wild_options_cls=WildStudOptions,
        build=stud_program(kind),
        pieces=stud_pieces,
        pot_shares=kind.pot_shares,
        streets=SEVEN_CARD_STREETS,
        summary=summary,
        rules=rules,
    )


STUD = _stud(
    "stud",
    "Seven-card stud",
    StudKind(),
    frozenset({"open_pair_big_bet"}),
    "Seven-card stud high: two down and one up, three more up, one down; best five-card hand wins.",
    SEVEN_CARD_RULES
    + " The best five-card high hand wins. ``open_pair_big_bet``: an open pair showing on fourth street"
    " makes that round's bets big bets.",
)
RAZZ = _stud(
    "razz",
    "Razz",
    StudKind(low_game=True),
    frozenset(),
    "Seven-card stud for the lowest ace-to-five hand; high card brings in, lowest board acts first.",
    SEVEN_CARD_RULES + " The best ace-to-five low wins: aces low, straights and flushes ignored, pairs count against.",
)
STUD_HILO = _stud(
    "stud_hilo",
    "Seven-card stud high-low eight-or-better",
    StudKind(hi_lo=True),
    frozenset({"low_qualifier"}),
    "Seven-card stud, pot split between the best high and the best eight-or-better low; cards speak.",
    SEVEN_CARD_RULES + " Cards speak: half the pot to the best high hand, half to the best ace-to-five low"
    " of ``low_qualifier`` (8) or better; without a qualifying low the high hand takes the whole pot.",
)
STUD_HILO_DECLARE = _stud(
    "stud_hilo_declare",
    "Seven-card stud high-low with a declaration",
    StudKind(hi_lo=True, declare=True),
    frozenset({"low_qualifier", "swing_rule"}),
    "Seven-card stud high-low where everyone declares low, high or both in secret before the showdown.",
    SEVEN_CARD_RULES + " After the last betting round every player still in declares low, high or both in"
    " secret; the choices are revealed together. The high half goes to the best high hand among high and both"
    " declarers, the low half to the best qualifying low among low and both declarers; if nobody can take one"
    " half the other takes the pot. A both-declarer must win or tie both ways (``swing_rule``: 'win_or_tie';"
    " 'outright': ties lose too) or is out of both halves.",
)

FIVE_CARD_STUD = Variant(
    name="five_card_stud",
    title="Five-card stud",
    family="stud",
    seats=(2, 10),
    options_cls=StudOptions,
    option_names=COMMON_OPTIONS | WILD_OPTION_NAMES | OBSERVATION_OPTIONS | {"open_pair_big_bet"},
    wild_options_cls=WildStudOptions,
    build=stud_program(StudKind(spare_burns=True)),
    pieces=stud_pieces,
    pot_shares=StudKind(spare_burns=True).pot_shares,
    streets=FIVE_CARD_STREETS,
    summary="Five-card stud: one card down and one up, three more up; best five-card hand wins.",
    rules="""\
Two to ten players; an ante from everyone (``ante``). Second street: one card down and
one up, dealt one at a time clockwise from the seat left of the button; third, fourth
and fifth street one card up each; a betting round after each (four rounds). Second
street: the lowest up card brings in (aces high, clubs < diamonds < hearts < spades),
posting ``bring_in`` or completing to the small bet, and cannot fold;
``bring_in=None``: no forced bet, the highest up card acts first and may check. From
third street on the best showing hand acts first; ties to the first seat clockwise
from the button. Fixed limit: ``small_bet`` on second and third street, ``big_bet`` on
fourth and fifth, ``raise_cap`` (no cap heads-up unless ``cap_heads_up``);
``open_pair_big_bet``: an open pair showing on third street makes that round's bets
big bets. ``burn_cards`` burns a card before each street, but only from cards the hand
cannot need: ten players always get their five cards. The best five-card high hand
wins; ties split, odd chips to the highest card by suit. Finite ``stack``: all-ins for
less and side pots. Rewards in big bets. House rule ``wild`` (``"joker"``, ``"bug"``,
``"deuces"``) and ``natural_beats_wild`` as seven-card stud (docs/rules.md section 11).""",
)

TOY_STUD = Variant(
    name="toy_stud",
    title="Toy stud",
    family="stud",
    seats=(2, 2),
    options_cls=ToyOptions,
    option_names=frozenset({"ranks", "suits", "streets", "ante", "small_bet", "big_bet", "raise_cap", "button"})
    | OBSERVATION_OPTIONS,
    defaults={"ante": 1, "bring_in": None, "small_bet": 1, "big_bet": 2, "raise_cap": 2, "cap_heads_up": True},
    build=stud_program(StudKind(short_hands=True)),
    pieces=stud_pieces,
    pot_shares=StudKind(short_hands=True).pot_shares,
    streets=TOY_STREETS,
    active_streets=functools.partial(first_streets, streets=TOY_STREETS),
    deck=toy_deck,
    summary="Two-player stud on a small deck (12 cards by default), small enough to solve exactly.",
    rules="""\
Two players; a deck of the ranks ``ranks`` (default "JQKA") in the suits ``suits``
(default "cdh"): 12 cards. An ante of ``ante`` (1) each. One card down and one up, a
betting round; one more card up each, a betting round (``streets``: 2; 3 adds a third
up card and round; 1 plays only the first). No bring-in: the best showing hand acts
first and may check (ties: the player left of the button). Bets ``small_bet`` (1) in
the first round and ``big_bet`` (2) after; at most ``raise_cap`` (2: a bet and one
raise) bets and raises a round, also heads-up. Hands of fewer than five cards rank
three of a kind > two pair > pair > high card, then rank by rank from the top; no
straights or flushes; suits never break ties; ties split the pot. Rewards in big bets
(``big_bet`` chips).""",
)

VARIANTS = (STUD, RAZZ, STUD_HILO, STUD_HILO_DECLARE, FIVE_CARD_STUD, TOY_STUD)
