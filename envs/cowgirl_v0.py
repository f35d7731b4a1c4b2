"""Cowgirl as a PettingZoo AEC environment: ``cowgirl_v0`` (three to seven players).

Rules, actions and observation: as ``cowboy_v0`` (see :mod:`envs.cowboy_v0` and
:mod:`envs.variants.cowboy`), except the draw: each player who stays may discard and
draw at most one card (``max_draw=1``, no ace rule), and so may the dummy, whose draw
the first folded seat clockwise from the button chooses.
"""

from envs.registry import env_functions

raw_env, env = env_functions("cowgirl")
