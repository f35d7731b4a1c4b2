"""Simple rule-based bots for the evaluation tests (loadable as ``tests.evaluate.bots:Name``)."""

from __future__ import annotations

from collections import Counter

from agents.base import Agent, Observation, legal_of
from envs.engine.actions import BRING_IN, CHECK_CALL, RAISE, STAY
from envs.engine.cards import rank_of
from envs.view import PublicView


class PairRaiser(Agent):
    """Raises whenever it holds a pair or better among its own cards, otherwise checks
    or calls; never folds a betting round. Other choices (declare, split, draw) are
    random. Clearly stronger than a uniformly random bot at stud (random folds a third
    of the time it faces a bet and raises junk)."""

    name = "pair_raiser"

    def act(self, observation: Observation, view: PublicView) -> int:
        legal = [int(a) for a in legal_of(observation, view)]
        paired = max(Counter(rank_of(c) for c in view.own_cards).values(), default=0) >= 2
        if paired and RAISE in legal:
            return RAISE
        for action in (CHECK_CALL, BRING_IN, STAY):
            if action in legal:
                return action
        return legal[int(self.rng.integers(len(legal)))]
