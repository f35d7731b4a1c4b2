"""Cowboy as a PettingZoo AEC environment: ``cowboy_v0`` (three to seven players).

Rules (RULES.md section 5; :mod:`envs.variants.cowboy` has every detail). One episode
is a whole game, deal after deal. Each deal: antes (``ante``; everyone on the first
deal, then the players who folded the previous one); five cards face down; one round
from the seat left of the button where each player stays or folds, seeing earlier
choices. Nobody stays: the pot carries and everyone antes again. One stays: it takes
the pot and the game ends. Two stay: they split it and the game ends
(``two_stay="showdown"`` plays the deal out instead, with no match payments). Three or
more: the draw (discard up to ``max_draw`` = 3, or ``ace_draw`` = 4 keeping an ace;
discards of earlier players are reshuffled when the stub runs out), a secret
declaration of low, high or both revealed together, the showdown (high half to the
best high declarer, ace-to-five low half to the best low declarer, ``low_rule``,
``swing_rule``), the dummy (``dummy``: when a seat folded, a dummy hand whose draw the
first folded seat clockwise from the button chooses; a winner it beats takes nothing),
and every stayer who won nothing pays the pot (``match_cap``). The payments are the
next deal's pot. ``max_deals`` (100) truncates: the pot is returned in equal shares.
Rewards: net chips over the game, in antes; they sum to exactly zero. Chips are exact
ints and stacks unlimited: with no ``match_cap`` pots can multiply by ``n + 1`` each
deal, so a ``max_deals`` that could take any chip count past 10**150 is refused with a
``ValueError`` naming the largest allowed (165 at seven players, 248 at three, with the
default ante; far more with a ``match_cap``).

Actions (``Discrete(61)``): 0 ``fold`` and 60 ``stay`` in the stay round; 28..59
``discard_...`` (``28 + mask``, bit i = the card at sorted position i, lowest first)
in the draw and the dummy's draw; 4-6 ``declare_low/high/both``. Others are always
masked.

Observation (``n`` players; relative seat 0 is you, 1 the next seat clockwise; chip
amounts are ``sign(x) * ln(1 + |x|)`` of ``x`` antes: 0 is 0, one ante 0.69, ten antes
2.40, 1e78 antes 180, so small pots stay distinct and every reachable one is finite):

================  ========================  ======================================
piece             size                      contents
================  ========================  ======================================
``hand``          5 x 52                    your five cards, lowest first (draw positions)
``dummy``         5 x 52                    the dummy, only while you choose its draw
``stays``         2n                        per relative seat: stayed, folded (this deal)
``draws``         6 (n + 1)                 per relative seat, then the dummy: cards drawn 0..5
``declarations``  3n                        low/high/both: yours at once, others after the reveal
``chips``         2 + n                     pot, match payment, net chips of each relative seat
                                            (signed log of antes)
``deal``          5                         deal / max_deals, phase: stay, draw, declare, dummy
``position``      n                         one-hot distance clockwise from the button
``showdowns``     3 (58n + 54)              last three showdowns: per seat hand, declaration,
                                            won high, won low, paid (log of antes); dummy;
                                            present; deals ago
================  ========================  ======================================

``env.unwrapped.observation_table()`` prints the exact offsets for a given ``n``.
"""

from envs.registry import env_functions

raw_env, env = env_functions("cowboy")
