"""Simple rule-based bots for the evaluation tests (loadable as ``tests.evaluate.bots:Name``)."""

from __future__ import annotations

import gc
import os
import sys
import time
from collections import Counter
from typing import Any

import numpy as np

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


# ---------------------------------------------------------------- misbehaving bots
# For the arena's checks and isolated play (evaluation.isolate): each fails in one way,
# at its ``fail_at``-th decision (counted in its process), so that some hands are
# played first.
class _Misbehaving(Agent):
    fail_at = 1

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.decisions = 0

    def act(self, observation: Observation, view: PublicView) -> Any:
        self.decisions += 1
        if self.decisions >= self.fail_at:
            return self.misbehave(view)
        legal = view.legal_actions
        return CHECK_CALL if CHECK_CALL in legal else legal[0]

    def misbehave(self, view: PublicView) -> Any:
        raise NotImplementedError


class ReturnsNone(_Misbehaving):
    def misbehave(self, view: PublicView) -> Any:
        return None


class ReturnsNinetyNine(_Misbehaving):
    def misbehave(self, view: PublicView) -> Any:
        return 99


class ReturnsFloat(_Misbehaving):
    def misbehave(self, view: PublicView) -> Any:
        return 1.0


class ReturnsTrue(_Misbehaving):
    def misbehave(self, view: PublicView) -> Any:
        return True


class ReturnsNumpyInt(_Misbehaving):
    """Not a failure: numpy integers are ints."""

    def misbehave(self, view: PublicView) -> Any:
        return np.int64(view.legal_actions[0])


class Raises(_Misbehaving):
    fail_at = 25

    def misbehave(self, view: PublicView) -> Any:
        raise ValueError("the bot broke")


class Exits(_Misbehaving):
    def misbehave(self, view: PublicView) -> Any:
        sys.exit(0)


class Crashes(_Misbehaving):
    """Ends its process at once (in-process it would end the test run: isolated only)."""

    fail_at = 25

    def misbehave(self, view: PublicView) -> Any:
        os._exit(3)


class Hangs(_Misbehaving):
    """Never answers (isolated only)."""

    fail_at = 25

    def misbehave(self, view: PublicView) -> Any:
        while True:
            time.sleep(1)


class ExitsOnLoad(Agent):
    def __init__(self, seed: int | None = None) -> None:
        raise SystemExit(0)

    def act(self, observation: Observation, view: PublicView) -> int:
        return CHECK_CALL


class Chatty(Agent):
    """Prints at every decision: isolated, its output must not reach the report's stdout."""

    def act(self, observation: Observation, view: PublicView) -> int:
        print("chatty bot thinking")
        legal = view.legal_actions
        return CHECK_CALL if CHECK_CALL in legal else legal[0]


class Peeks(Agent):
    """Looks through the interpreter for the engine's state (the deck, every hidden
    card) and raises if it finds one: it does in-process, never when isolated."""

    def act(self, observation: Observation, view: PublicView) -> int:
        from envs.engine.state import State

        if any(isinstance(o, State) for o in gc.get_objects()):
            raise RuntimeError("found the engine's state")
        legal = view.legal_actions
        return CHECK_CALL if CHECK_CALL in legal else legal[0]
