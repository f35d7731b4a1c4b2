"""Bots for Dealer's Choice: the interface, baseline bots, loading by spec, and the arena.

>>> import agents
>>> bot = agents.load("random", seed=0)
>>> result = agents.run_match("stud", ["random", "call"], deals=20, seed=1)
>>> len(result.hands)  # 20 deals x 2 rotations
40
"""

from agents.arena import MatchResult, Stat, mean_ci, play_hand, run_match
from agents.base import Agent, CallingStation, Policy, RandomAgent
from agents.loading import load

__all__ = [
    "Agent",
    "CallingStation",
    "MatchResult",
    "Policy",
    "RandomAgent",
    "Stat",
    "load",
    "mean_ci",
    "play_hand",
    "run_match",
]
