"""The policy network of the baseline agents, and action masking.

One network serves every seat (parameter sharing): observations are already relative
to the seat that acts, so a seat's identity needs no input of its own. The network
has two heads: the policy's logits over the variant's whole action layout, and the
value (the seat's expected reward, times the trainer's ``reward_scale``). By default
each head has its own MLP torso (as in CleanRL's PPO): poker returns are noisy and
large, and a shared torso lets the value loss's gradients drown the policy's under
global gradient clipping; ``shared=True`` halves the cost instead.

Masking happens on the logits, before any softmax: an illegal action's logit becomes
:data:`MASKED_LOGIT`, its probability underflows to exactly zero, and
``torch.multinomial`` never draws a zero-probability category. The tests sample
thousands of times and check that.

Inputs go through ``symlog(x) = sign(x) * log1p(|x|)``: one-hot cards stay small and
positive, while chip amounts (pots and stacks of 100 big bets, or Cowboy pots that
double deal after deal) are compressed, so no input scaling needs to be learned or
stored with the checkpoint. Rank and suit counts of the card groups
(:mod:`agents.features`) are appended to them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch
from torch import nn

from agents.features import VERSION as FEATURES_VERSION
from agents.features import CardFeatures

MASKED_LOGIT = -1e9  # far below any real logit, finite so that 0 * logp stays 0


class PolicyNet(nn.Module):
    """MLP torso(s), a policy head (logits) and a value head.

    Args:
        obs_size: length of the observation vector.
        num_actions: size of the variant's action space.
        hidden: widths of each torso's layers.
        shared: one torso for both heads (else one each).
        card_groups: card groups of the layout (:func:`agents.features.card_groups`)
            whose rank and suit counts are added to the input; empty for none.
    """

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: Sequence[int] = (256, 256),
        shared: bool = False,
        card_groups: Sequence[tuple[str, Sequence[int]]] = (),
    ) -> None:
        super().__init__()
        if obs_size < 1 or num_actions < 1 or not hidden or any(h < 1 for h in hidden):
            raise ValueError(
                f"PolicyNet needs obs_size, num_actions and every hidden width >= 1 and at least one hidden "
                f"layer; got obs_size={obs_size}, num_actions={num_actions}, hidden={list(hidden)}"
            )
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.hidden = tuple(int(h) for h in hidden)
        self.shared = bool(shared)
        self.features = CardFeatures(obs_size, card_groups)
        width = obs_size + self.features.size
        self.torso = _mlp(width, self.hidden)
        self.value_torso = None if self.shared else _mlp(width, self.hidden)
        self.policy = _init(nn.Linear(self.hidden[-1], num_actions), 0.01)  # near-uniform start
        self.value = _init(nn.Linear(self.hidden[-1], 1), 1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (batch, actions) and values (batch,), for raw observation vectors."""
        x = self._inputs(obs)
        h = self.torso(x)
        v = h if self.value_torso is None else self.value_torso(x)
        return self.policy(h), self.value(v).squeeze(-1)

    def logits(self, obs: torch.Tensor) -> torch.Tensor:
        """The policy's logits only (what acting needs)."""
        return self.policy(self.torso(self._inputs(obs)))

    def values(self, obs: torch.Tensor) -> torch.Tensor:
        """The value head only, (batch,)."""
        x = self._inputs(obs)
        return self.value(self.torso(x) if self.value_torso is None else self.value_torso(x)).squeeze(-1)

    def _inputs(self, obs: torch.Tensor) -> torch.Tensor:
        if self.features.size == 0:
            return symlog(obs)
        return torch.cat([symlog(obs), self.features(obs)], dim=1)

    def arch(self) -> dict[str, Any]:
        """Everything needed to rebuild this network (stored in checkpoints)."""
        return {
            "class": "PolicyNet",
            "obs_size": self.obs_size,
            "num_actions": self.num_actions,
            "hidden": list(self.hidden),
            "shared": self.shared,
            "card_groups": [[name, list(starts)] for name, starts in self.features.groups],
            "card_features_version": FEATURES_VERSION,
            "input_transform": "symlog",
        }

    @classmethod
    def from_arch(cls, arch: dict[str, Any]) -> PolicyNet:
        """Rebuild from :meth:`arch`; a description of another network is an error."""
        if arch.get("class") != "PolicyNet" or arch.get("input_transform") != "symlog":
            raise ValueError(f"unsupported network architecture {arch!r}; this version builds PolicyNet (symlog)")
        if arch.get("card_features_version") != FEATURES_VERSION:
            raise ValueError(
                f"the network was trained on card features version {arch.get('card_features_version')!r}; "
                f"this code computes version {FEATURES_VERSION}"
            )
        hidden = [int(h) for h in arch["hidden"]]
        groups = [(str(name), [int(s) for s in starts]) for name, starts in arch["card_groups"]]
        return cls(
            int(arch["obs_size"]), int(arch["num_actions"]), hidden, shared=bool(arch["shared"]), card_groups=groups
        )


def symlog(x: torch.Tensor) -> torch.Tensor:
    """``sign(x) * log(1 + |x|)``: the input transform."""
    return torch.sign(x) * torch.log1p(x.abs())


def _mlp(width: int, hidden: Sequence[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for h in hidden:
        layers += [_init(nn.Linear(width, h), math.sqrt(2)), nn.ReLU()]
        width = h
    return nn.Sequential(*layers)


def _init(layer: nn.Linear, gain: float) -> nn.Linear:
    """Orthogonal weights and zero bias (the usual PPO initialisation)."""
    nn.init.orthogonal_(layer.weight, gain)
    nn.init.zeros_(layer.bias)
    return layer


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal action (mask 0 / False) set to :data:`MASKED_LOGIT`.

    A row without any legal action is a caller's bug (nobody is to act there) and is
    refused rather than turned into a uniform choice among illegal actions.
    """
    legal = mask.bool()
    if not bool(legal.any(dim=-1).all()):
        raise ValueError("an action mask has no legal action: only the seat to act has a non-zero mask")
    return torch.where(legal, logits, torch.full_like(logits, MASKED_LOGIT))


def log_probs(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of every action under the masked policy."""
    return torch.log_softmax(masked_logits(logits, mask), dim=-1)


def entropy(logp: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Entropy per row of the masked policy (masked actions contribute exactly 0)."""
    p = logp.exp()
    return -(torch.where(mask.bool(), p * logp, torch.zeros_like(logp))).sum(-1)


def choose(
    logits: torch.Tensor,
    mask: torch.Tensor,
    *,
    greedy: bool = False,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Actions (sampled, or the most likely legal one) and their log-probabilities."""
    logp = log_probs(logits, mask)
    if greedy:  # noqa: SIM108 (two different operations read better apart)
        actions = logp.argmax(dim=-1)
    else:
        actions = torch.multinomial(logp.exp(), 1, generator=generator).squeeze(-1)
    return actions, logp.gather(-1, actions.unsqueeze(-1)).squeeze(-1)
