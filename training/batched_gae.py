"""GAE and the training signal on tensors, vectorised over many decision sequences.

The batched collector stores every learner decision of a rollout in one flat tensor,
sorted by *sequence* (one learner seat in one episode, its decisions in order). These
are :func:`training.episodes.gae` and :func:`training.episodes.training_signal` for all
sequences at once: the sequences are laid out as the rows of a padded matrix and the
backward recursion runs over its columns (the longest sequence's length, a few dozen
decisions), so the cost does not grow with the number of sequences in Python.
"""

from __future__ import annotations

import torch

from training.episodes import SIGNAL_KNEE

__all__ = ["sequence_gae", "signal"]


def signal(scaled: torch.Tensor, knee: float = SIGNAL_KNEE) -> torch.Tensor:
    """:func:`training.episodes.training_signal` elementwise: unchanged up to ``knee`` in
    size, then ``knee * (1 + ln(|r| / knee))`` with the sign kept."""
    size = scaled.abs()
    squashed = knee * (1.0 + torch.log(torch.clamp(size, min=knee) / knee))
    return torch.where(size <= knee, scaled, torch.copysign(squashed, scaled))


def sequence_gae(
    seq: torch.Tensor, rewards: torch.Tensor, values: torch.Tensor, gamma: float, lam: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Advantages and returns (float32) of rows sorted by sequence id ``seq`` (each
    sequence's rows contiguous and in decision order, each ending its episode), as
    :func:`training.episodes.gae` gives them per sequence."""
    n = len(seq)
    if n == 0:
        empty = values.new_zeros(0)
        return empty, empty
    first = torch.ones(n, dtype=torch.bool, device=seq.device)
    first[1:] = seq[1:] != seq[:-1]
    row_of = torch.cumsum(first.long(), 0) - 1  # the sequence's row in the padded matrix
    starts = torch.nonzero(first).squeeze(1)
    pos = torch.arange(n, device=seq.device) - starts[row_of]
    s, length = len(starts), int(pos.max()) + 1
    grid = torch.zeros(s, length + 1, device=seq.device)  # one spare column: next value 0 after the end
    r, v = grid.clone(), grid.clone()
    valid = torch.zeros(s, length + 1, dtype=torch.bool, device=seq.device)
    r[row_of, pos] = rewards.float()
    v[row_of, pos] = values.float()
    valid[row_of, pos] = True
    adv = torch.zeros(s, length, device=seq.device)
    last = torch.zeros(s, device=seq.device)
    for t in range(length - 1, -1, -1):
        delta = r[:, t] + gamma * v[:, t + 1] - v[:, t]
        last = torch.where(valid[:, t], delta + gamma * lam * last, torch.zeros_like(last))
        adv[:, t] = last
    advantages = adv[row_of, pos]
    return advantages, advantages + values.float()
