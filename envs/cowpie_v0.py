"""Cowpie as a PettingZoo AEC environment: ``cowpie_v0``.

Rules (RULES.md section 4): two to seven players, dealt and bet exactly as seven-card
stud high (``stud_v0``: ``ante``, ``bring_in``, ``small_bet`` / ``big_bet``,
``raise_cap``, ``cap_heads_up``, ``open_pair_big_bet``, ``burn_cards``, ``stack``,
``button``). After the last betting round every remaining player, in turn from the
seat left of the button, splits their seven cards into a five-card hand and a two-card
hand by choosing the two cards of the two-card hand. Each hand must hold at least one
face-down card and the five-card hand must rank higher than the two-card hand (a
category comparison; pair against pair by the pair's rank; no pair against no pair by
the top two cards; equal top cards count as higher for the five-card hand, which has
kickers). ``illegal_split="mask"`` (default) offers only legal splits; ``"forfeit"``
offers all 21, and an illegal split wins neither half (a pot whose players all split
illegally is chopped among them). Splits are secret until everyone has split, then
revealed together; ``bet_after_split=True`` adds a betting round at the big bet
between the splits and the reveal (the best showing hand opens). Each pot, side pots
included, is halved: the best five-card hand takes one half, the best two-card hand
(any pair beats any unpaired hand; pairs by rank; unpaired by the higher card, then the
lower; no straights or flushes) the other; one player may scoop. The odd chip of a pot
goes to the five-card half; within a tied half, to the tied player with the highest
card by suit. Rewards in big bets.

Actions (``Discrete(28)``): 0 ``fold``, 1 ``check_call``, 2 ``bring_in``, 3 ``raise``
as in ``stud_v0``; 4-6 ``declare_*`` (always masked); 7-27 ``split_i_j``: cards ``i`` and
``j`` (0-6, positions in dealt order, the ``own_cards`` slots) form the two-card hand
(``envs.engine.actions.split_action(i, j)``). ``infos[agent]["legal_actions"]`` names
the legal splits by their cards, e.g. ``split_As_9d``. For a heuristic,
``envs.variants.cowpie.rank_splits(cards, down)`` lists the legal splits best first.

Observation (``n`` players; relative seat 0 is you, 1 the next seat clockwise):

==============  ==================  ============================================
piece           size                contents
==============  ==================  ============================================
``own_cards``   7 x 53              your cards in dealt order: one-hot card, face-up flag
                                    (a dealt card without the flag is face down)
``up_cards``    (n-1) x 52          others' face-up cards by relative seat, kept after folds
``community``   52                  always zero in Cowpie (kept for the stud layout)
``betting``     5                   pot, to call, current bet, bet unit, bets+raises / cap
``chips``       2n                  per relative seat: committed, stack behind (0 = unlimited)
``street``      6 (7)               one-hot third .. seventh street, split, (after the split)
``position``    n                   one-hot distance clockwise from the button
``in_hand``     2n                  per relative seat: not folded, all-in
``history``     5 (6) x n x 4 x 7   street x seat x lap: fold/check/call/bring-in/bet/raise,
                                    amount; the sixth street is the round after the split
``splits``      n x 105             per relative seat: two-card hand (52 multi-hot),
                                    five-card hand (52 multi-hot), split legal; yours once
                                    you split, the others' at the reveal
``shown``       n x 52              cards shown at the showdown
==============  ==================  ============================================

Sizes in brackets apply with ``bet_after_split=True``. All amounts are in big bets.
``env.unwrapped.observation_table()`` prints the exact offsets for a given ``n``.
"""

from envs.registry import env_functions

raw_env, env = env_functions("cowpie")
