"""Dealer's Choice: the command layer on top of the library.

The library is the packages beside this one (``envs``, ``agents``, ``evaluation``,
``training``, ``solvers``); this package only holds the ``dealers-choice`` console
command (:mod:`dealers_choice.cli`), which dispatches each subcommand to the library
module that implements it. Nothing in the library imports this package.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dealers-choice")
except PackageNotFoundError:  # a checkout used without installing it
    __version__ = "0+unknown"
