"""Magnetic mirror descent (MMD) on top of PPO: a reverse-KL pull toward a magnet.

Sokota et al. 2023 ("A unified approach to reinforcement learning, quantal response
equilibria, and two-player zero-sum games") show that adding ``alpha * KL(pi || rho)``
toward a *magnet* policy ``rho`` (plus an entropy bonus) to a policy-gradient step
makes self-play converge to a regularised equilibrium instead of cycling; moving the
magnet slowly toward the current policy anneals the regularisation away, toward a Nash
equilibrium. Rudolph et al. 2025 ("Reevaluating policy gradient methods for
imperfect-information games") found PPO with this term, a large entropy bonus
(0.05-0.1), a small clip and a small learning rate competitive with CFR-style methods
on small poker games.

Here the magnet is a frozen copy of the policy network. The loss term, per decision,
is ``KL(pi || rho) = sum over legal a of pi(a) (log pi(a) - log rho(a))`` on the masked
distributions (:func:`magnet_kl`), weighted by ``ppo.magnet_coef``. Every
``ppo.magnet_every`` updates the magnet moves toward the current policy in parameter
space: ``rho <- (1 - magnet_step) * rho + magnet_step * pi`` (``magnet_step = 1``
replaces it with a copy). Its weights are part of the training state, so a resumed
run continues with the same magnet.
"""

from __future__ import annotations

import copy
from typing import Any

import torch

from agents.nets import PolicyNet, log_probs


def magnet_kl(logp: torch.Tensor, magnet_logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Per-row ``KL(pi || rho)`` of masked log-probabilities (illegal actions add 0)."""
    legal = mask.bool()
    terms = logp.exp() * (logp - magnet_logp)
    return torch.where(legal, terms, torch.zeros_like(terms)).sum(-1)


class Magnet:
    """The frozen magnet network and its refresh rule (see the module docstring)."""

    def __init__(self, net: PolicyNet, *, every: int, step: float) -> None:
        self.net = copy.deepcopy(net).eval()
        for p in self.net.parameters():
            p.requires_grad_(False)
        self.every = every
        self.step = step

    def log_probs(self, obs: torch.Tensor, mask: torch.Tensor, cands: torch.Tensor | None = None) -> torch.Tensor:
        """The magnet's masked log-probabilities (no gradient)."""
        with torch.no_grad():
            return log_probs(self.net.logits(obs, cands), mask)

    @torch.no_grad()
    def after_update(self, net: PolicyNet, update: int) -> None:
        """Move toward ``net`` every ``every`` updates (``update`` is 1-based)."""
        if update % self.every:
            return
        target = net.state_dict()
        for name, value in self.net.state_dict().items():
            if value.is_floating_point():
                value.lerp_(target[name], self.step)
            else:
                value.copy_(target[name])

    def state_dict(self) -> dict[str, Any]:
        """The magnet's weights, copied (for the training state)."""
        return {k: v.detach().clone() for k, v in self.net.state_dict().items()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.net.load_state_dict(state)
