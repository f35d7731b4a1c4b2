"""Collection settings for the whole repository (tests and the doctests of the packages).

``envs/openspiel/game.py`` imports OpenSpiel, an optional extra: without it, its
doctests are not collected (the module is only imported by ``envs.openspiel.load_game``,
and tests/envs/test_openspiel.py skips itself with the reason).
"""

from __future__ import annotations

import importlib.util

collect_ignore = [] if importlib.util.find_spec("pyspiel") else ["envs/openspiel/game.py"]
