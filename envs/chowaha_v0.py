"""Chowaha as a PettingZoo AEC environment: ``chowaha_v0``.

Rules (RULES.md sections 1 and 6; details in ``envs.variants.chowaha``): two or more
players (``hole_cards=2``: up to 20; ``hole_cards=4``: up to 10; ``remaining_as_hole``:
2 to 20, the 40 non-layout cards shared out equally, ``40 % n`` left unused). Optional
``ante``, then blinds ``small_blind`` / ``big_blind`` left of the button (heads-up the
button posts the small blind, acts first before the flop and last after it). Two hole
cards face down; a layout of three flops (top, middle, bottom), two turn cards (upper,
lower) and a river. Four betting rounds: before the flop (left of the big blind
first, the big blind keeps its option), after the nine flop cards, after the two turn
cards, after the river (first live seat left of the button first). Boards: 1 = top
flop + upper turn + river, 2 = middle flop + upper turn + river, 3 = middle flop +
lower turn + river, 4 = bottom flop + lower turn + river. A hand is exactly two hole
cards plus three cards of one board; high and low may use different boards.
High-low eight-or-better, cards speak (``hi_lo=False``: high only); each side pot is
split separately, no qualifying low means high scoops, the odd chip goes to the high
half and within a tie to the first tied seat clockwise from the button.

Betting (``betting``): ``"limit"`` (default; the big blind is the small bet, twice it
the big bet on the turn and river, ``raise_cap`` counting the big blind, lifted
heads-up unless ``cap_heads_up``), ``"pot_limit"`` or ``"no_limit"`` (finite stacks:
``stack=None`` means 100 big blinds; minimum bet the big blind, minimum raise the
largest full raise of the round; short all-ins do not reopen raising). Rewards in big
blinds.

Actions: limit ``Discrete(4)``: 0 ``fold`` (only facing a bet), 1 ``check_call``,
2 ``bring_in`` (always masked), 3 ``raise`` (bet or raise one unit). Pot and no limit
use the shared layout up to index 60 (masked) then one ``bet_<f>_pot`` per
``bet_sizes`` entry (default ``(0.5, 1.0)``: 61 ``bet_0.5_pot``, 62 ``bet_1_pot``: raise
by that fraction of the pot after calling; pot limit caps at the stack) and, no limit
only, ``all_in`` last; 3 ``raise`` is the minimum bet or raise.

Observation (``n`` players; relative seat 0 is you, 1 the next seat clockwise):

================  ==================  ==============================================
piece             size                contents
================  ==================  ==============================================
``hole_cards``    52                  your hole cards, multi-hot
``community``     12 x 52             one slot per layout position: top flop 1-3,
                                      middle flop 1-3, bottom flop 1-3, upper turn,
                                      lower turn, river
``betting``       5                   pot, to call, current bet, minimum bet of the
                                      round, full bets+raises / cap
``chips``         2n                  per relative seat: committed, stack behind
                                      (0 = unlimited)
``street``        4                   one-hot preflop, flop, turn, river
``position``      n                   one-hot distance clockwise from the button
``in_hand``       2n                  per relative seat: not folded, all-in
``history``       4 x n x 4 x 7       street x seat x lap: fold/check/call/bring-in/
                                      bet/raise, the seat's bet this street after it
``shown``         n x 52              hole cards shown at the showdown
================  ==================  ==============================================

All amounts are in big blinds. ``env.unwrapped.observation_table()`` prints the exact
offsets for a given ``n``; the hand history (``infos[agent]["history"]``) names each
shown player's best high and low with its board and cards.
"""

from envs.registry import env_functions

raw_env, env = env_functions("chowaha")
