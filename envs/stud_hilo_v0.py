"""Seven-card stud high-low, eight-or-better, cards speak: ``stud_hilo_v0``.

Rules (RULES.md sections 1-2): dealt and bet as seven-card stud high. At the showdown
half of each pot goes to the best high hand and half to the best low hand of five
unpaired cards eight or lower (``low_qualifier``, default 8; ``None`` for no
qualifier); a player may use different cards for each and win both. With no
qualifying low the high hand takes the whole pot. The odd chip of a pot goes to the
high half; within a tied half, to the highest (high) or lowest (low) card by suit.

Actions and observation: exactly as ``stud_v0``. See ``envs.stud_v0``.
"""

from envs.registry import env_functions

raw_env, env = env_functions("stud_hilo")
