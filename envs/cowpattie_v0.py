"""Cowpattie as a PettingZoo AEC environment: ``cowpattie_v0`` (three to seven players).

Rules, actions and observation: as ``cowboy_v0`` (see :mod:`envs.cowboy_v0` and
:mod:`envs.variants.cowboy`), except that there is no draw (``max_draw=0``): after the
stay round the players declare at once, the dummy is dealt and shown without a draw,
so the ``dummy`` piece stays empty, ``draws`` stays zero and the discard actions are
never legal.
"""

from envs.registry import env_functions

raw_env, env = env_functions("cowpattie")
