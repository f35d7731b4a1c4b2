"""Proximal policy optimisation with action masking (one update over a rollout).

The loss is the usual clipped surrogate (Schulman et al. 2017, as in CleanRL's
``ppo.py``): per minibatch, ``policy_loss - ent_coef * entropy + vf_coef *
value_loss``, with the policy's log-probabilities and entropy taken under the
*masked* distribution (illegal actions have probability zero and add nothing to the
entropy), optional per-minibatch advantage normalisation, optional value clipping,
and early stop of the epoch loop when the approximate KL divergence passes
``target_kl``. Changes from the textbook version, each for a measured reason:

* **Separate gradient clipping** of the policy's parameters (``max_grad_norm``) and
  the value head's own (``max_value_grad_norm``). Heads-up poker returns are heavy
  tailed (median 5 big bets, 99th percentile 89), so the value gradient is an order
  of magnitude larger than the policy's; one global clip then scales the *policy*
  step down with it (it was cut to a fifth).
* **Normalised value targets** (``value_norm``, PopArt-style): the value head
  predicts ``(return - mean) / std`` with running statistics of the returns; when
  they move, the head's last layer is rescaled so that its predictions in reward
  units do not change (van Hasselt et al. 2016). The value loss stays on one scale
  while returns grow as the policy gets more aggressive.
* **Huber value loss** (``value_loss = "huber"``): a few huge pots no longer dominate
  the value fit.
* An optional **magnet** (``magnet_coef > 0``): ``+ magnet_coef * KL(pi || magnet)``,
  magnetic mirror descent for equilibrium learning (:mod:`training.magnet`).
* Optional **teachers** (``teacher_coef > 0``): ``+ teacher_coef * KL(teacher || pi)`` on
  the decisions of the games they teach, kickstarting (:mod:`training.teacher`).
* A **learning-rate floor** (:func:`linear_schedule`): the rate anneals to
  ``lr_floor * lr``, not to 0, so the end of a run still learns.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch
from torch.nn import functional

from agents.nets import PolicyNet, entropy, log_probs
from training.episodes import Batch
from training.magnet import Magnet, magnet_kl
from training.teacher import Teachers, teacher_kl

VALUE_LOSSES = ("mse", "huber")
VALUE_NORM_RATE = 0.1  # weight of each update's returns in the running mean and second moment
VALUE_NORM_MIN_STD = 1e-2


# One type for the [ppo] config section (its docs are train --help's) and ppo_update's argument.
@dataclass
class PPOSettings:
    """The PPO update (training.ppo)."""

    lr: float = 3e-4
    """Adam learning rate at the first update."""
    anneal_lr: bool = True
    """Decay the learning rate linearly over train.updates, down to ppo.lr_floor times ppo.lr."""
    lr_floor: float = 0.2
    """Fraction of ppo.lr left at the end of the schedule (0: anneal to 0, which freezes the end of a run)."""
    gamma: float = 1.0
    """Discount per decision of the same seat (rewards only arrive when the hand or game ends)."""
    gae_lambda: float = 0.95
    """GAE lambda over each seat's own decision sequence."""
    reward_scale: float = 0.1
    """Rewards are multiplied by this for GAE and the value loss, so that value errors stay near 1 when pots are
    worth tens of units (the policy's advantages are normalised anyway)."""
    epochs: int = 4
    """Passes over each rollout."""
    minibatch_size: int = 1024
    """Decisions per gradient step."""
    clip_coef: float = 0.2
    """PPO ratio clipping (and value clipping when clip_vloss is on)."""
    clip_vloss: bool = False
    """Clip the value update around the value used when acting."""
    ent_coef: float = 0.01
    """Weight of the entropy bonus (of the masked policy)."""
    vf_coef: float = 0.5
    """Weight of the value loss."""
    max_grad_norm: float = 0.5
    """Gradient-norm clipping of the policy's parameters (its torso and heads)."""
    max_value_grad_norm: float = 1.0
    """Gradient-norm clipping of the value head's own parameters, separate so that large value gradients do not
    scale the policy's step down."""
    value_loss: str = "huber"
    """Value loss: huber (delta 1 on normalised targets: a few huge pots do not dominate) or mse."""
    value_norm: bool = True
    """Normalise value targets by running statistics of the returns (PopArt-style: predictions are preserved when
    the statistics move)."""
    norm_adv: bool = True
    """Normalise advantages within each minibatch."""
    target_kl: float = 0.0
    """Stop an update's epochs early when the mean approximate KL of an epoch exceeds this (0: never)."""
    value_warmup: int = 0
    """Updates at the start of a run that fit the value head only (the policy stays as it is; 0: none): for a run
    started from an agent's weights (train.init_from), whose fresh value head would otherwise steer the first policy
    steps with advantages from random values."""
    magnet_coef: float = 0.0
    """Magnetic mirror descent (training.magnet): weight of the reverse KL(policy || magnet) added to the loss, with
    the magnet a frozen copy of the policy (0: off, plain PPO). For equilibrium learning in self-play; see
    configs/toy_stud_mmd.toml."""
    magnet_every: int = 10
    """magnet_coef > 0 only: move the magnet toward the current policy every this many updates."""
    magnet_step: float = 1.0
    """magnet_coef > 0 only: how far each move goes, in parameter space (1: the magnet becomes a copy of the policy)."""
    teachers: dict[str, str] = field(default_factory=dict)
    """Kickstarting (training.teacher), dealers_choice only: game -> a network of that game (for example {razz =
    "pretrained:razz"}) whose policy the learner is pulled toward on that game's decisions (needs ppo.teacher_coef)."""
    teacher_coef: float = 0.0
    """Weight of KL(teacher || policy), averaged over each taught game's decisions, then over the games (0: off)."""


def linear_schedule(lr: float, update: int, total: int, anneal: bool, floor: float = 0.0) -> float:
    """Learning rate for update ``update`` (1-based) of ``total``: linear decay from
    ``lr`` to ``floor * lr``.

    >>> linear_schedule(1.0, 1, 10, True, floor=0.2), round(linear_schedule(1.0, 11, 10, True, floor=0.2), 3)
    (1.0, 0.2)
    """
    if not anneal:
        return lr
    progress = min(1.0, (update - 1) / max(1, total))
    return lr * (floor + (1.0 - floor) * (1.0 - progress))


def decision_schedule(lr: float, done: int, budget: int, anneal: bool, floor: float = 0.0) -> float:
    """Learning rate for an update that starts after ``done`` of ``budget`` learner
    decisions (``train.decisions``): :func:`linear_schedule` over decisions, so runs
    whose updates hold different numbers of decisions anneal alike.

    >>> decision_schedule(1.0, 0, 100, True, floor=0.2), round(decision_schedule(1.0, 50, 100, True, floor=0.2), 3)
    (1.0, 0.6)
    """
    if not anneal:
        return lr
    progress = min(1.0, done / max(1, budget))
    return lr * (floor + (1.0 - floor) * (1.0 - progress))


def explained_variance(values: np.ndarray, returns: np.ndarray) -> float:
    """``1 - Var(returns - values) / Var(returns)``: 1 is a perfect value function,
    0 no better than a constant, negative worse (nan when the returns are constant)."""
    var = float(np.var(returns))
    return float("nan") if var == 0 else 1.0 - float(np.var(returns - values)) / var


@torch.no_grad()
def update_value_norm(net: PolicyNet, returns: np.ndarray, rate: float = VALUE_NORM_RATE) -> None:
    """Move the value statistics toward this rollout's returns and rescale the value
    head's output layer so that its predictions (in reward units) stay the same."""
    assert net.value is not None
    old_mean, old_std = float(net.value_mean), float(net.value_std)
    old_second = old_std**2 + old_mean**2
    mean = (1 - rate) * old_mean + rate * float(np.mean(returns))
    second = (1 - rate) * old_second + rate * float(np.mean(np.square(returns)))
    std = max(float(np.sqrt(max(second - mean**2, 0.0))), VALUE_NORM_MIN_STD)
    net.value.weight.mul_(old_std / std)
    net.value.bias.mul_(old_std).add_(old_mean - mean).div_(std)
    net.value_mean.fill_(mean)
    net.value_std.fill_(std)


def ppo_update(
    net: PolicyNet,
    optimizer: torch.optim.Optimizer,
    batch: Batch,
    settings: PPOSettings,
    rng: np.random.Generator,
    *,
    magnet: Magnet | None = None,
    teachers: Teachers | None = None,
    train_policy: bool = True,
) -> dict[str, float]:
    """Run the epochs of minibatch updates; returns the loss statistics (means over
    the minibatches that ran, the KL and clip fraction of the last epoch). With
    ``settings.magnet_coef > 0`` the ``magnet`` is required (magnetic mirror descent), with
    ``settings.teacher_coef > 0`` the ``teachers`` (kickstarting).
    ``train_policy=False`` (``ppo.value_warmup``) steps the value head's own parameters
    only: the policy's get no gradient, so Adam leaves them (and their moments) as
    they are, a shared torso included."""
    if settings.magnet_coef > 0 and magnet is None:
        raise ValueError("ppo.magnet_coef > 0 needs a magnet network (training.magnet.Magnet)")
    if settings.teacher_coef > 0 and teachers is None:
        raise ValueError("ppo.teacher_coef > 0 needs the teachers (training.teacher.Teachers)")
    if settings.value_norm:
        update_value_norm(net, batch.returns)
    device = net.value_mean.device  # the update runs where the learner is (train.device)
    data = _tensors(batch, net, device)
    if settings.teacher_coef > 0:
        assert teachers is not None
        data["teacher_logp"], data["taught"] = teachers.log_probs(data["obs"], data["masks"])
    n = len(batch)
    policy_params, value_params = net.policy_parameters(), net.value_parameters()
    sums: dict[str, float] = {}
    steps = 0
    stopped_early = 0.0
    net.train()
    for _ in range(settings.epochs):
        kls = []
        order = torch.from_numpy(rng.permutation(n)).to(device)  # drawn on the host: every device, same order
        for start in range(0, n, settings.minibatch_size):
            mb = order[start : start + settings.minibatch_size]
            loss, parts = _minibatch_loss(net, data, mb, settings, magnet, teachers)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            if not train_policy:
                for p in policy_params:
                    p.grad = None
            parts["grad_norm"] = torch.nn.utils.clip_grad_norm_(policy_params, settings.max_grad_norm)
            if value_params:
                parts["value_grad_norm"] = torch.nn.utils.clip_grad_norm_(value_params, settings.max_value_grad_norm)
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
    stats["value_norm_mean"] = float(net.value_mean)
    stats["value_norm_std"] = float(net.value_std)
    return stats


def _tensors(batch: Batch, net: PolicyNet, device: torch.device) -> dict[str, torch.Tensor]:
    """The batch's arrays as tensors on ``device`` (on the CPU: shared memory, no copies;
    on a GPU: one copy per rollout, not per minibatch); values and returns normalised by
    the value statistics."""
    names = ("obs", "masks", "actions", "logps", "advantages")
    data = {name: torch.from_numpy(getattr(batch, name)) for name in names}
    mean, std = float(net.value_mean), float(net.value_std)
    data["values"] = torch.from_numpy((batch.values - mean) / std)
    data["returns"] = torch.from_numpy((batch.returns - mean) / std)
    if batch.cands is not None:
        data["cands"] = torch.from_numpy(batch.cands)
    if batch.priv is not None:
        data["priv"] = torch.from_numpy(batch.priv)
    return {name: tensor.to(device) for name, tensor in data.items()}


def _minibatch_loss(
    net: PolicyNet,
    data: dict[str, torch.Tensor],
    mb: torch.Tensor,
    settings: PPOSettings,
    magnet: Magnet | None = None,
    teachers: Teachers | None = None,
) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """The PPO loss of one minibatch (clipped surrogate on the masked policy, entropy
    bonus, value loss, the magnet's reverse KL and the teachers' KL when on) and its
    parts for logging."""
    cands = data["cands"][mb] if "cands" in data else None
    priv = data["priv"][mb] if "priv" in data else None
    logits, values = net(data["obs"][mb], cands, priv)
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
    if settings.magnet_coef > 0:
        assert magnet is not None  # checked by ppo_update
        kl = magnet_kl(logp_all, magnet.log_probs(data["obs"][mb], masks, cands), masks).mean()
        loss = loss + settings.magnet_coef * kl
        parts["magnet_kl"] = kl
    if settings.teacher_coef > 0:
        assert teachers is not None  # checked by ppo_update
        kl = teacher_kl(data["teacher_logp"][mb], logp_all, masks, data["taught"][mb], len(teachers.members))
        loss = loss + settings.teacher_coef * kl
        parts["teacher_kl"] = kl
    return loss, parts


def _value_loss(values: torch.Tensor, old: torch.Tensor, returns: torch.Tensor, settings: PPOSettings) -> torch.Tensor:
    """Half squared error (or Huber, delta 1, in normalised units); with ``clip_vloss``
    the pessimistic max with a clipped value (the new value kept within ``clip_coef``
    of the one used when acting)."""

    def err(v: torch.Tensor) -> torch.Tensor:
        if settings.value_loss == "huber":
            return functional.huber_loss(v, returns, reduction="none", delta=1.0)
        return 0.5 * (v - returns) ** 2

    unclipped = err(values)
    if not settings.clip_vloss:
        return unclipped.mean()
    clipped = old + (values - old).clamp(-settings.clip_coef, settings.clip_coef)
    return torch.max(unclipped, err(clipped)).mean()
