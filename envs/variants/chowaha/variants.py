"""Chowaha as data (docs/rules.md section 6)."""

from __future__ import annotations

from dataclasses import fields

from envs.engine.cards import NUM_CARDS
from envs.engine.variant import Variant
from envs.variants.chowaha.pieces import chowaha_pieces
from envs.variants.chowaha.rules import (
    LAYOUT_SIZE,
    STREETS,
    ChowahaOptions,
    ChowahaState,
    build_chowaha,
    check_players,
    pot_shares,
)

CHOWAHA = Variant(
    name="chowaha",
    title="Chowaha",
    family="chowaha",
    seats=(2, (NUM_CARDS - LAYOUT_SIZE) // 2),
    options_cls=ChowahaOptions,
    option_names=frozenset(f.name for f in fields(ChowahaOptions)),
    build=build_chowaha,
    pieces=chowaha_pieces,
    pot_shares=pot_shares,
    streets=STREETS,
    unit_name="big blinds",
    check_players=check_players,
    seat_limits=(("hole_cards", 4),),
    family_state=ChowahaState,
    summary=(
        "Two hole cards, three flops, two turns and a river forming four boards; a hand is both hole "
        "cards plus three cards of one board; high-low eight-or-better, cards speak."
    ),
    rules="""\
Two or more players (``hole_cards=2``: up to 20; ``hole_cards=4``: up to 10;
``remaining_as_hole``: 2 to 20, the 40 non-layout cards shared out equally, ``40 % n``
left unused). Optional ``ante``, then blinds ``small_blind`` / ``big_blind`` left of
the button (heads-up the button posts the small blind, acts first before the flop and
last after it). Two hole cards face down; a layout of three flops (top, middle,
bottom), two turn cards (upper, lower) and a river. Four betting rounds: before the
flop (left of the big blind first, the big blind keeps its option), after the nine
flop cards, after the two turn cards, after the river (first live seat left of the
button first). Boards: 1 = top flop + upper turn + river, 2 = middle flop + upper
turn + river, 3 = middle flop + lower turn + river, 4 = bottom flop + lower turn +
river. A hand is exactly two hole cards plus three cards of one board; high and low
may use different boards. High-low eight-or-better, cards speak (``hi_lo=False``:
high only); each side pot is split separately, no qualifying low means high scoops,
the odd chip goes to the high half and within a tie to the first tied seat clockwise
from the button. Betting (``betting``): ``"limit"`` (default; the big blind is the
small bet, twice it the big bet on the turn and river, ``raise_cap`` counting the big
blind, lifted heads-up unless ``cap_heads_up``), ``"pot_limit"`` or ``"no_limit"``
(finite stacks, 100 big blinds by default; minimum bet the big blind, minimum raise
the largest full raise of the round; short all-ins do not reopen raising; sized bets
``bet_sizes`` as fractions of the pot after calling, and ``all_in`` in no limit).
Rewards in big blinds; the hand history names each shown player's best high and low
with its board and cards.""",
)
