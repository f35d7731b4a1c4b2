"""Stable-Baselines3 models as bots: a model trained on a Gymnasium env plays in the
arena (``evaluation.run_match``) or as an opponent of another Gymnasium env.

The Gymnasium env's observation is the AEC env's ``{"observation", "action_mask"}``
dict, so a model trained with ``gymnasium.make("DealersChoice/Stud-v0", ...)`` reads
the arena's observations unchanged. sb3-contrib's ``MaskablePPO`` is given the mask
(``predict(..., action_masks=...)``), so it only ever picks legal actions; a model
whose ``predict`` takes no mask (plain ``PPO``) is called without one, and an illegal
choice then raises in the environment (never remapped).

Nothing here imports Stable-Baselines3: any object with a compatible ``predict`` works.
"""

from __future__ import annotations

import inspect
from typing import Any

from agents.base import Agent, Observation
from envs.view import PublicView


class SB3Agent(Agent):
    """A bot over a Stable-Baselines3-style model.

    Args:
        model: anything with ``predict(observation, deterministic=..., [action_masks=...])``
            returning ``(action, state)``, such as ``MaskablePPO``.
        deterministic: take the most likely action (default). With ``False`` the model
            samples with its own torch generator, which the arena's per-hand seeding
            does not reach (seed torch yourself for reproducible matches).
        name: the name shown in match tables.
    """

    def __init__(self, model: Any, deterministic: bool = True, name: str = "sb3") -> None:
        super().__init__()
        self.model = model
        self.deterministic = deterministic
        self.name = name
        self._takes_mask = "action_masks" in inspect.signature(model.predict).parameters

    def act(self, observation: Observation, view: PublicView) -> int:
        kwargs: dict[str, Any] = {"deterministic": self.deterministic}
        if self._takes_mask:
            kwargs["action_masks"] = observation["action_mask"].astype(bool)
        action, _ = self.model.predict(observation, **kwargs)
        return int(action)

    def __repr__(self) -> str:
        return f"SB3Agent({type(self.model).__name__}, deterministic={self.deterministic})"
