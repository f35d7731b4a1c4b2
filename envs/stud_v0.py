"""Seven-card stud high as a PettingZoo AEC environment: ``stud_v0``.

Rules (RULES.md sections 1-2): two to eight players, ante (``ante``), two cards down
and one up, then three streets with one card up and a last card down, a betting round
after each. The lowest up card brings in (``bring_in``; aces high, suits clubs <
diamonds < hearts < spades), posting the bring-in or completing to the small bet;
later streets the best showing hand acts first. Fixed limit ``small_bet`` /
``big_bet`` with ``raise_cap`` (lifted heads-up unless ``cap_heads_up``);
``open_pair_big_bet``; ``burn_cards``; a community card when eight players stay to
seventh street; finite ``stack`` with side pots. Best five-card hand wins; ties split,
odd chips to the highest card by suit. Rewards in big bets.

Actions (``Discrete(7)``): 0 ``fold`` (only facing a bet), 1 ``check_call``,
2 ``bring_in``, 3 ``raise`` (complete / bet / raise one unit), 4-6 ``declare_*``
(used by ``stud_hilo_declare`` only; always masked here).

Observation (``n`` players; relative seat 0 is you, 1 the next seat clockwise):

==============  ==================  ============================================
piece           size                contents
==============  ==================  ============================================
``own_cards``   7 x 53              your cards in dealt order: one-hot card, face-up flag
``up_cards``    (n-1) x 52          others' face-up cards by relative seat, kept after folds
``community``   52                  the community card (eight players, deck short)
``betting``     5                   pot, to call, current bet, bet unit, bets+raises / cap
``chips``       2n                  per relative seat: committed, stack behind (0 = unlimited)
``street``      5                   one-hot third .. seventh street
``position``    n                   one-hot distance clockwise from the button
``in_hand``     2n                  per relative seat: not folded, all-in
``history``     5 x n x 4 x 7       street x seat x lap: fold/check/call/bring-in/bet/raise, amount
``shown``       n x 52              cards shown at the showdown
==============  ==================  ============================================

All amounts are in big bets. ``env.unwrapped.observation_table()`` prints the exact
offsets for a given ``n``.
"""

from envs.registry import env_functions

raw_env, env = env_functions("stud")
