"""The policy network of the baseline agents, and action masking.

One network serves every seat (parameter sharing): observations are already relative
to the seat that acts, so a seat's identity needs no input of its own. Heads:

* the policy's logits over the variant's whole action layout;
* a candidate scoring head (:class:`CandidateScorer`) that gives the logits of the
  combinatorial choices (declarations, Cowpie splits, Cowboy discard sets): every
  candidate's own feature row (:mod:`agents.candidates`) is scored by one shared MLP
  together with the torso's summary of the situation, so the network compares
  candidates it can see instead of learning what each slot index means;
* the value: the seat's expected reward (times the trainer's ``reward_scale``),
  predicted in normalised form (``value_mean`` / ``value_std``, kept by
  :mod:`training.ppo`) and optionally from a *privileged* input as well: the opponents'
  cards, which only the training critic sees.

By default the value head has its own MLP torso (``shared=False``, as in CleanRL's
PPO), and :func:`training.ppo.ppo_update` clips the gradients of the policy's and the
value's parameters separately. Both are needed: poker returns are noisy and large,
and under one global gradient-norm clip a large value gradient scales the policy's
step down (measured on the old stack: policy gradient norm 0.16, value 2.88, so the
policy step was cut to a fifth), whether or not the torsos are shared.
``shared=True`` halves the cost instead (and makes the value loss shape the policy's
features).

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

from agents.candidates import FEATURES as CANDIDATE_FEATURES
from agents.features import VERSION as FEATURES_VERSION
from agents.features import CardFeatures

MASKED_LOGIT = -1e9  # far below any real logit, finite so that 0 * logp stays 0
SCORER_WIDTH = 64  # hidden width of the candidate scoring head


class PolicyNet(nn.Module):
    """MLP torso(s), a policy head (logits), a candidate scoring head and a value head.

    Args:
        obs_size: length of the observation vector.
        num_actions: size of the variant's action space.
        hidden: widths of each torso's layers.
        shared: one torso for both heads (else one each).
        card_groups: card groups of the layout (:func:`agents.features.card_groups`)
            whose rank and suit counts are added to the input; empty for none.
        candidates: ``(lo, hi)`` action indices whose logits come from the candidate
            scoring head (:mod:`agents.candidates`), or None: every logit from the
            policy head.
        privileged: length of the privileged input of the value head (the opponents'
            cards, training only; 0 for none). The policy never reads it.
        value: build the value head (False: an acting-only network, as shipped).
    """

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden: Sequence[int] = (256, 256),
        shared: bool = False,
        card_groups: Sequence[tuple[str, Sequence[int]]] = (),
        *,
        candidates: tuple[int, int] | None = None,
        privileged: int = 0,
        value: bool = True,
    ) -> None:
        super().__init__()
        if obs_size < 1 or num_actions < 1 or not hidden or any(h < 1 for h in hidden):
            raise ValueError(
                f"PolicyNet needs obs_size, num_actions and every hidden width >= 1 and at least one hidden "
                f"layer; got obs_size={obs_size}, num_actions={num_actions}, hidden={list(hidden)}"
            )
        if candidates is not None and not 0 <= candidates[0] < candidates[1] <= num_actions:
            raise ValueError(f"candidate actions {candidates} do not fit {num_actions} actions")
        if privileged and (shared or not value):
            raise ValueError("a privileged value input needs a separate value torso (shared=False, value=True)")
        self.obs_size = obs_size
        self.num_actions = num_actions
        self.hidden = tuple(int(h) for h in hidden)
        self.shared = bool(shared)
        self.candidates = None if candidates is None else (int(candidates[0]), int(candidates[1]))
        self.privileged = int(privileged)
        self.has_value = bool(value)
        self.features = CardFeatures(obs_size, card_groups)
        width = obs_size + self.features.size
        self.torso = _mlp(width, self.hidden)
        self.policy = _init(nn.Linear(self.hidden[-1], num_actions), 0.01)  # near-uniform start
        self.scorer = None if self.candidates is None else CandidateScorer(self.hidden[-1])
        self.value_torso: nn.Sequential | None = None
        self.value: nn.Linear | None = None
        self.privileged_features = CardFeatures(self.privileged, privileged_groups(self.privileged))
        if self.has_value:
            value_width = width + self.privileged + self.privileged_features.size
            self.value_torso = None if self.shared else _mlp(value_width, self.hidden)
            self.value = _init(nn.Linear(self.hidden[-1], 1), 1.0)
        # PopArt-style normalisation of the value head's output (training.ppo keeps the
        # statistics and rescales the head so that its predictions do not jump)
        self.value_mean: torch.Tensor
        self.value_std: torch.Tensor
        self.register_buffer("value_mean", torch.zeros(()))
        self.register_buffer("value_std", torch.ones(()))

    def forward(
        self, obs: torch.Tensor, cands: torch.Tensor | None = None, priv: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits (batch, actions) and *normalised* values (batch,) of raw observations;
        ``cands`` (batch, hi - lo, FEATURES) and ``priv`` (batch, privileged) as built by
        the collector."""
        x = self._inputs(obs)
        h = self.torso(x)
        return self._logits(h, cands), self._value_head(x, h, priv)

    def logits(self, obs: torch.Tensor, cands: torch.Tensor | None = None) -> torch.Tensor:
        """The policy's logits only (what acting needs); it never reads privileged inputs."""
        return self._logits(self.torso(self._inputs(obs)), cands)

    def values(self, obs: torch.Tensor, priv: torch.Tensor | None = None) -> torch.Tensor:
        """The value estimates (batch,), in (scaled) reward units."""
        x = self._inputs(obs)
        h = self.torso(x) if self.shared else x
        return self._value_head(x, h, priv) * self.value_std + self.value_mean

    def _logits(self, h: torch.Tensor, cands: torch.Tensor | None) -> torch.Tensor:
        logits = self.policy(h)
        if self.scorer is None or cands is None:  # None: no decision here offers a candidate (they are masked)
            return logits
        lo, hi = self.candidates  # type: ignore[misc]
        scores = self.scorer(h, cands)
        return torch.cat([logits[:, :lo], scores, logits[:, hi:]], dim=1)

    def _value_head(self, x: torch.Tensor, h: torch.Tensor, priv: torch.Tensor | None) -> torch.Tensor:
        if self.value is None:
            raise ValueError("this network was saved without its value head (an acting-only agent)")
        if self.value_torso is None:
            return self.value(h).squeeze(-1)
        if self.privileged:
            if priv is None:
                raise ValueError(f"this value head needs the privileged input ({self.privileged} floats)")
            x = torch.cat([x, priv, self.privileged_features(priv)], dim=1)
        return self.value(self.value_torso(x)).squeeze(-1)

    def _inputs(self, obs: torch.Tensor) -> torch.Tensor:
        if self.features.size == 0:
            return symlog(obs)
        return torch.cat([symlog(obs), self.features(obs)], dim=1)

    def policy_parameters(self) -> list[nn.Parameter]:
        """The acting policy's parameters (its torso, the shared one included, and heads)."""
        value = set(self.value_parameters())
        return [p for p in self.parameters() if p not in value]

    def value_parameters(self) -> list[nn.Parameter]:
        """The value head's own parameters (its torso, unless shared, and its output layer)."""
        parts = [m for m in (self.value_torso, self.value) if m is not None]
        return [p for m in parts for p in m.parameters()]

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
            "candidates": None if self.candidates is None else list(self.candidates),
            "candidate_features": CANDIDATE_FEATURES,
            "privileged": self.privileged,
            "value": self.has_value,
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
        if arch.get("candidates") is not None and arch.get("candidate_features") != CANDIDATE_FEATURES:
            raise ValueError(
                f"the network scores {arch.get('candidate_features')!r} candidate features; this code computes "
                f"{CANDIDATE_FEATURES}"
            )
        hidden = [int(h) for h in arch["hidden"]]
        groups = [(str(name), [int(s) for s in starts]) for name, starts in arch["card_groups"]]
        cands = arch.get("candidates")
        return cls(
            int(arch["obs_size"]),
            int(arch["num_actions"]),
            hidden,
            shared=bool(arch["shared"]),
            card_groups=groups,
            candidates=None if cands is None else (int(cands[0]), int(cands[1])),
            privileged=int(arch.get("privileged", 0)),
            value=bool(arch.get("value", True)),
        )

    def acting_copy(self) -> PolicyNet:
        """A copy without the value head (what a shipped agent needs: half the size)."""
        arch = {**self.arch(), "value": False, "privileged": 0}
        net = PolicyNet.from_arch(arch)
        own = self.state_dict()
        net.load_state_dict({k: own[k] for k in net.state_dict()})
        return net


class CandidateScorer(nn.Module):
    """One shared head that scores every candidate row: an MLP over the candidate's
    features and a projection of the policy torso's output (the situation)."""

    def __init__(self, torso_width: int, width: int = SCORER_WIDTH) -> None:
        super().__init__()
        self.context = _init(nn.Linear(torso_width, width), 1.0)
        self.features = _init(nn.Linear(CANDIDATE_FEATURES, width), math.sqrt(2))
        self.out = nn.Sequential(nn.ReLU(), _init(nn.Linear(width, width), math.sqrt(2)), nn.ReLU())
        self.score = _init(nn.Linear(width, 1), 0.01)

    def forward(self, h: torch.Tensor, cands: torch.Tensor) -> torch.Tensor:
        """(batch, slots) scores of ``cands`` (batch, slots, features) in the situation ``h``."""
        joint = self.context(h).unsqueeze(1) + self.features(cands)
        return self.score(self.out(joint)).squeeze(-1)


def privileged_groups(size: int) -> list[tuple[str, list[int]]]:
    """Card groups of a privileged input: one 52-card block per opponent."""
    return [(f"opponent_{k + 1}", [52 * k]) for k in range(size // 52)]


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
    """Orthogonal weights and zero bias (the usual PPO initialisation).

    The orthogonal matrix comes from a QR decomposition whose last bits depend on
    torch's thread count; it runs on one thread, so that a seed gives the same network
    on any machine and after an earlier run in the process changed the count."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        nn.init.orthogonal_(layer.weight, gain)
    finally:
        torch.set_num_threads(threads)
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
