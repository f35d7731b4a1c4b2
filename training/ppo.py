"""Proximal policy optimisation with action masking (one update over a rollout).

The loss is the usual clipped surrogate (Schulman et al. 2017, as in CleanRL's
``ppo.py``): per minibatch, ``policy_loss - ent_coef * entropy + vf_coef *
value_loss``, with the policy's log-probabilities and entropy taken under the
*masked* distribution (illegal actions have probability zero and add nothing to the
entropy), optional per-minibatch advantage normalisation, optional value clipping,
global gradient-norm clipping, and early stop of the epoch loop when the approximate
KL divergence passes ``target_kl``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from agents.nets import PolicyNet, entropy, log_probs
from training.rollout import Batch


@dataclass(frozen=True)
class PPOSettings:
    """The knobs of one update (``train.py``'s ``[ppo]`` section documents each)."""

    epochs: int = 4
    minibatch_size: int = 1024
    clip_coef: float = 0.2
    clip_vloss: bool = False
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    norm_adv: bool = True
    target_kl: float = 0.0  # 0: no early stop


def linear_schedule(lr: float, update: int, total: int, anneal: bool) -> float:
    """Learning rate for update ``update`` (1-based) of ``total``: linear decay to 0."""
    if not anneal:
        return lr
    return lr * max(0.0, 1.0 - (update - 1) / max(1, total))


def explained_variance(values: np.ndarray, returns: np.ndarray) -> float:
    """``1 - Var(returns - values) / Var(returns)``: 1 is a perfect value function,
    0 no better than a constant, negative worse (nan when the returns are constant)."""
    var = float(np.var(returns))
    return float("nan") if var == 0 else 1.0 - float(np.var(returns - values)) / var


def ppo_update(
    net: PolicyNet,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    settings: PPOSettings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """Run the epochs of minibatch updates; returns the loss statistics (means over
    the minibatches that ran, the KL and clip fraction of the last epoch)."""
    data = _tensors(batch)
    n = len(batch)
    sums: dict[str, float] = {}
    steps = 0
    stopped_early = 0.0
    net.train()
    for _ in range(settings.epochs):
        kls = []
        order = torch.from_numpy(rng.permutation(n))
        for start in range(0, n, settings.minibatch_size):
            mb = order[start : start + settings.minibatch_size]
            loss, parts = _minibatch_loss(net, data, mb, settings)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            parts["grad_norm"] = torch.nn.utils.clip_grad_norm_(net.parameters(), settings.max_grad_norm)
            optimizer.step()
            for key, value in parts.items():
                sums[key] = sums.get(key, 0.0) + float(value.detach())
            steps += 1
            kls.append(float(parts["approx_kl"]))
        if settings.target_kl > 0 and np.mean(kls) > settings.target_kl:
            stopped_early = 1.0
            break
    net.eval()
    stats = {k: v / max(steps, 1) for k, v in sums.items()}
    stats["explained_variance"] = explained_variance(batch.values, batch.returns)
    stats["minibatches"] = float(steps)
    stats["stopped_early"] = stopped_early
    return stats


def _tensors(batch: Batch) -> dict[str, torch.Tensor]:
    """The batch's arrays as tensors (shared memory, no copies)."""
    names = ("obs", "masks", "actions", "logps", "values", "advantages", "returns")
    return {name: torch.from_numpy(getattr(batch, name)) for name in names}


def _minibatch_loss(
    net: PolicyNet, data: dict[str, torch.Tensor], mb: torch.Tensor, settings: PPOSettings
) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The PPO loss of one minibatch (clipped surrogate on the masked policy, entropy
    bonus, value loss) and its parts for logging."""
    logits, values = net(data["obs"][mb])
    masks = data["masks"][mb]
    logp_all = log_probs(logits, masks)
    new_logp = logp_all.gather(1, data["actions"][mb].unsqueeze(1)).squeeze(1)
    logratio = new_logp - data["logps"][mb]
    ratio = logratio.exp()
    with torch.no_grad():
        approx_kl = ((ratio - 1) - logratio).mean()
        clipfrac = ((ratio - 1.0).abs() > settings.clip_coef).float().mean()
    adv = data["advantages"][mb]
    if settings.norm_adv and len(mb) > 1:
        adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    pg_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - settings.clip_coef, 1 + settings.clip_coef)).mean()
    v_loss = _value_loss(values, data["values"][mb], data["returns"][mb], settings)
    ent = entropy(logp_all, masks).mean()
    loss = pg_loss - settings.ent_coef * ent + settings.vf_coef * v_loss
    parts = {"policy_loss": pg_loss, "value_loss": v_loss, "entropy": ent, "approx_kl": approx_kl, "clipfrac": clipfrac}
    return loss, parts


def _value_loss(values: torch.Tensor, old: torch.Tensor, returns: torch.Tensor, settings: PPOSettings) -> torch.Tensor:
    """Half squared error; with ``clip_vloss`` the pessimistic max with a clipped
    value (the new value kept within ``clip_coef`` of the one used when acting)."""
    unclipped = (values - returns) ** 2
    if not settings.clip_vloss:
        return 0.5 * unclipped.mean()
    clipped = old + (values - old).clamp(-settings.clip_coef, settings.clip_coef)
    return 0.5 * torch.max(unclipped, (clipped - returns) ** 2).mean()
