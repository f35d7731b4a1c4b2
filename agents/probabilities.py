"""A bot's action probabilities at many decisions at once, from observation tensors.

Range-based tools (local best response, :mod:`training.lbr_stud`) ask the opponent's
policy how likely each of its actions was at thousands of hypothetical decisions (one
per holding it might have), whose observations come from the batched engine as one
``[B, O]`` tensor. :func:`probability_function` turns a bot into a function of that
tensor and the ``[B, A]`` legal masks, exactly matching what the bot samples from:

* :class:`~agents.neural.NeuralAgent`: the network's masked softmax in one forward
  pass; a greedy agent is the one-hot of its most likely legal action (what
  ``choose(greedy=True)`` plays);
* :class:`~agents.base.RandomAgent`: uniform over the legal actions;
* :class:`~agents.base.CallingStation`: check/call, else the bring-in, else stay, else
  uniform over the legal actions but fold and raise (its ``act``, as a distribution).

Other bots (the heuristic, a user's class) have no probabilities on tensors: the
function raises :class:`NoProbabilitiesError`, which names the bots that do, rather
than guessing a distribution from sampled actions.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import torch

from agents.base import CallingStation, RandomAgent
from agents.batched import calm_mask
from agents.candidates import needs_candidates
from agents.nets import log_probs
from agents.neural import NeuralAgent
from envs.engine.actions import BRING_IN, CHECK_CALL, STAY
from envs.view import PublicView

__all__ = [
    "NoProbabilitiesError",
    "ProbabilityFunction",
    "ViewProbabilityFunction",
    "probability_function",
    "view_probability_function",
]

ProbabilityFunction = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
"""``(observations [B, O] float32, legal masks [B, A] bool) -> [B, A] float64``."""

ViewProbabilityFunction = Callable[[torch.Tensor, torch.Tensor, Sequence[PublicView], int], torch.Tensor]
"""``(observations, legal masks, each decision's public view, seed) -> [B, A] float64``."""

SUPPORTED = "a trained network (pretrained:<variant>, a checkpoint), random or call"


class NoProbabilitiesError(ValueError):
    """A bot whose action probabilities cannot be read on observation tensors."""


def probability_function(bot: Any) -> ProbabilityFunction:
    """The batched probabilities of ``bot`` (module docstring), or NoProbabilitiesError."""
    if isinstance(bot, NeuralAgent):
        return _network(bot)
    if isinstance(bot, CallingStation):
        return _calling_station
    if isinstance(bot, RandomAgent):
        return _uniform
    name = getattr(bot, "name", type(bot).__name__)
    raise NoProbabilitiesError(
        f"the bot {name!r} ({type(bot).__name__}) has no action probabilities on observation tensors; "
        f"supported: {SUPPORTED}"
    )


def _uniform(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    legal = mask.double()
    return legal / legal.sum(1, keepdim=True).clamp(min=1.0)


def _calling_station(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``CallingStation.act`` as a distribution: the first legal of check/call, the
    bring-in and stay, else uniform over the legal actions but fold and raise."""
    out = _uniform(obs, calm_mask(mask))
    for preferred in (STAY, BRING_IN, CHECK_CALL):  # the last written wins: check_call first
        if preferred < mask.shape[1]:
            hot = torch.nn.functional.one_hot(torch.tensor(preferred), mask.shape[1]).double()
            out = torch.where(mask[:, preferred : preferred + 1], hot.expand_as(out), out)
    return out


def _network(agent: NeuralAgent) -> ProbabilityFunction:
    net = agent.net

    def probabilities(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        if net.candidates is not None and bool(needs_candidates(mask.numpy(), net.candidates).any()):
            raise NoProbabilitiesError(
                "this network scores candidate choices (declarations, splits, draws) from the public view; "
                "its probabilities at such decisions cannot be read from observation tensors"
            )
        with torch.inference_mode():
            logp = log_probs(net.logits(obs.float()), mask).double()
        return as_played(agent, logp.exp())

    return probabilities


def view_probability_function(bot: Any) -> ViewProbabilityFunction | None:
    """The probabilities of a network that scores candidate choices (a declaration) from
    the public view, at those decisions too: given each decision's view, exactly what the
    network samples from (greedy: the one-hot of its most likely legal action). None for
    any other bot (:func:`probability_function` covers it).

    The candidate features are Monte Carlo estimates drawn from the bot's generator, so
    a copy of the bot draws them, from a generator seeded by each call's ``seed``: asking
    never moves the generator of the bot that plays, and the same call gives the same
    answer (a caller that draws ``seed`` from its own reseeded generator replays)."""
    if not isinstance(bot, NeuralAgent) or bot.net.candidates is None:
        return None
    asked = copy.copy(bot)

    def probabilities(obs: torch.Tensor, mask: torch.Tensor, views: Sequence[PublicView], seed: int) -> torch.Tensor:
        asked.seed(seed)
        rows = [{"observation": o, "action_mask": m} for o, m in zip(obs.numpy(), mask.numpy(), strict=True)]
        return as_played(bot, torch.from_numpy(asked.action_probabilities(rows, views)))

    return probabilities


def as_played(agent: NeuralAgent, probs: torch.Tensor) -> torch.Tensor:
    """The masked policy's ``[B, A]`` probabilities as the agent plays them: themselves
    when it samples, the one-hot of the most likely legal action when it is greedy."""
    if not agent.greedy:
        return probs
    return torch.nn.functional.one_hot(probs.argmax(1), probs.shape[1]).double()
