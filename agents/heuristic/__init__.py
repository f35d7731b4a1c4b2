"""``HeuristicAgent``: one rule-based bot for every variant and every decision.

The bot reads the :class:`~envs.view.PublicView` (never the observation vector) and
hands it to its variant's family module, looked up in ``DECIDERS`` by
``view.variant``:

==============================================  =========================================
variants                                        module
==============================================  =========================================
stud, razz, stud_hilo, stud_hilo_declare        :mod:`agents.heuristic.stud`
cowpie                                          :mod:`agents.heuristic.cowpie`
cowboy, cowgirl, cowpattie                      :mod:`agents.heuristic.cowboy`
chowaha                                         :mod:`agents.heuristic.chowaha`
==============================================  =========================================

A variant missing from ``DECIDERS`` is an error (:class:`NoHeuristicError`), never a
silent random bot: a new variant must come with its heuristic. Every decision is a
function of the bot's seed and the view (the Monte Carlo samples come from the bot's
own generator, reseeded by the arena every hand), so matches replay exactly.

>>> import agents
>>> result = agents.run_match("razz", ["heuristic", "random"], deals=4, seed=3)
>>> len(result.hands)
8
"""

from __future__ import annotations

from collections.abc import Callable

from agents.base import Agent, Observation
from agents.heuristic import chowaha, cowboy, cowpie, stud
from agents.heuristic.equity import Context
from envs.view import PublicView

Decider = Callable[[PublicView, Context], int]

DECIDERS: dict[str, Decider] = {
    "stud": stud.decide,
    "razz": stud.decide,
    "stud_hilo": stud.decide,
    "stud_hilo_declare": stud.decide,
    "cowpie": cowpie.decide,
    "cowboy": cowboy.decide,
    "cowgirl": cowboy.decide,
    "cowpattie": cowboy.decide,
    "chowaha": chowaha.decide,
}
DEFAULT_SAMPLES = 256
MIN_SAMPLES = 16


class NoHeuristicError(ValueError):
    """The heuristic bot has no rules for this variant."""


class HeuristicAgent(Agent):
    """Monte Carlo equity, pot odds and per-variant rules (see ``docs/agents.md``).

    Args:
        seed: seed of the bot's generator (the arena reseeds it every hand).
        samples: Monte Carlo samples per decision (at least ``MIN_SAMPLES``); more is
            steadier and slower.
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None, samples: int = DEFAULT_SAMPLES) -> None:
        super().__init__(seed)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < MIN_SAMPLES:
            raise ValueError(f"samples={samples!r} is not allowed: expected an int >= {MIN_SAMPLES}")
        self.samples = samples

    def act(self, observation: Observation, view: PublicView) -> int:
        """The variant's rule for this decision; always one of ``view.legal_actions``."""
        if not isinstance(view, PublicView):
            raise ValueError("HeuristicAgent needs the PublicView (env.public_view(agent)); got " + repr(type(view)))
        if not view.legal_actions:
            raise ValueError(f"player_{view.seat} is not to act: the view has no legal actions")
        decide = decider(view.variant)
        action = int(decide(view, Context(self.rng, self.samples)))
        if action not in view.legal_actions:  # a bug in a rule: say so, never remap
            raise RuntimeError(
                f"heuristic for {view.variant} chose action {action}, not among the legal {view.legal_names}"
            )
        return action

    def __repr__(self) -> str:
        return f"HeuristicAgent(samples={self.samples})"


def decider(variant: str) -> Decider:
    """The decision function of a variant; a clear error when there is none."""
    try:
        return DECIDERS[variant]
    except KeyError:
        known = ", ".join(sorted(DECIDERS))
        raise NoHeuristicError(f"no heuristic for variant {variant!r}; variants with one: {known}") from None


__all__ = ["DECIDERS", "HeuristicAgent", "NoHeuristicError", "decider"]
