"""Razz (seven-card stud for the lowest hand) as a PettingZoo AEC environment: ``razz_v0``.

Rules (RULES.md sections 1-2): dealt and bet as seven-card stud, but the *highest* up
card brings in (aces low, the king of spades highest) and on later streets the
*lowest* showing hand acts first (pairs count against). The best ace-to-five low wins:
aces low, straights and flushes ignored, pairs count against; ties split, odd chips to
the lowest card by suit. Options as ``stud_v0`` except ``open_pair_big_bet``.

Actions and observation: exactly as ``stud_v0`` (``Discrete(7)``; declare actions
always masked). See ``envs.stud_v0`` for the observation table.
"""

from envs.registry import env_functions

raw_env, env = env_functions("razz")
