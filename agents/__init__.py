"""Bots for Dealer's Choice: the interface, baseline bots, the heuristic, trained
agents (the network they run and its checkpoints) and loading any of them by spec.

Matches between bots are :mod:`evaluation`'s (``evaluation.run_match``); training is
:mod:`training`'s.

>>> import agents
>>> bot = agents.load("random", seed=0)
>>> bot.name
'random'
"""

from agents.base import Agent, CallingStation, Policy, RandomAgent
from agents.loading import load

__all__ = ["Agent", "CallingStation", "Policy", "RandomAgent", "load"]
