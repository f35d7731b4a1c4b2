"""The bot interface, and the two simplest bots.

A bot is anything with ``act(observation, view) -> action``: ``observation`` is the
environment's dict (``"observation"`` vector and ``"action_mask"``), ``view`` the
:class:`~envs.view.PublicView` of the same public information as Python values
(cards, pot, legal action names). Subclass :class:`Agent` to get the optional hooks
(``reset``, ``seed`` and the batched ``act_batch``) for free.

A bot must return one of the legal actions (``view.legal_actions``, or the indices
where the mask is 1); the environment raises an error on anything else. The protocol
itself (:class:`~envs.policy.Policy`) belongs to the env layer, which takes bots
without importing this package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE, STAY
from envs.policy import Observation, Policy, describe
from envs.view import PublicView

__all__ = ["Agent", "CallingStation", "Observation", "Policy", "RandomAgent", "describe", "legal_of"]


class Agent(ABC):
    """Base class for bots: implement ``act``; override the hooks you need."""

    name = "agent"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, observation: Observation, view: PublicView) -> int:
        """Choose a legal action."""

    def act_batch(self, observations: Sequence[Observation], views: Sequence[PublicView]) -> list[int]:
        """Many tables at once (override for batched inference)."""
        return [self.act(o, v) for o, v in zip(observations, views, strict=True)]

    def reset(self) -> None:  # noqa: B027 (optional hook, empty by default)
        """A new hand (or game) starts."""

    def seed(self, seed: int | None) -> None:
        """Reseed the bot's own randomness (the arena does this for reproducibility)."""
        self.rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def legal_of(observation: Observation, view: PublicView | None) -> np.ndarray:
    """Legal action indices, from the view or else from the mask."""
    if view is not None and view.legal_actions:
        return np.asarray(view.legal_actions)
    return np.flatnonzero(observation["action_mask"])


class RandomAgent(Agent):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: Observation, view: PublicView) -> int:
        legal = legal_of(observation, view)
        return int(legal[self.rng.integers(len(legal))])

    def action_probabilities(self, observations: Sequence[Observation], views: Sequence[PublicView]) -> np.ndarray:
        """(B, actions): uniform over each decision's legal actions (what ``act`` samples)."""
        out = np.zeros((len(observations), len(observations[0]["action_mask"]) if observations else 0))
        for row, (obs, view) in enumerate(zip(observations, views, strict=True)):
            legal = legal_of(obs, view)
            out[row, legal] = 1.0 / len(legal)
        return out


class CallingStation(Agent):
    """Never folds, never raises: checks or calls (posts the bring-in, stays in the
    Cowboy games); other decisions (declare, split, draw) are made at random."""

    name = "call"

    def act(self, observation: Observation, view: PublicView) -> int:
        legal = legal_of(observation, view)
        for preferred in (CHECK_CALL, BRING_IN, STAY):
            if preferred in legal:
                return preferred
        choices = [int(a) for a in legal if a not in (FOLD, RAISE)] or [int(a) for a in legal]
        return choices[int(self.rng.integers(len(choices)))]
