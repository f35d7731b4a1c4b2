"""What the batched collector records, on tensors: the privileged critic input, each
sequence's rewards, the training signal and GAE, vectorised over many sequences.

The batched collector stores every learner decision of a rollout in one flat tensor,
sorted by *sequence* (one learner seat in one episode, its decisions in order). These
are :func:`training.episodes.gae` and :func:`training.episodes.training_signal` for all
sequences at once: the sequences are laid out as the rows of a padded matrix and the
backward recursion runs over its columns (the longest sequence's length, a few dozen
decisions), so the cost does not grow with the number of sequences in Python.
"""

from __future__ import annotations

import torch

from training.episodes import CARDS, SIGNAL_KNEE

__all__ = ["privileged_rows", "sequence_gae", "sequence_rewards", "signal"]


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


def sequence_rewards(
    seq: torch.Tensor, final: torch.Tensor, chips: torch.Tensor | None, per_step: bool
) -> torch.Tensor:
    """Unscaled rewards (float64) of rows sorted by sequence: the final reward at each
    sequence's last row (:meth:`training.episodes.Trajectory.close`), or with
    ``per_step`` the chip changes of :func:`training.episodes.step_rewards`."""
    last = torch.ones_like(seq, dtype=torch.bool)
    last[:-1] = seq[1:] != seq[:-1]
    first = torch.ones_like(last)
    first[1:] = seq[1:] != seq[:-1]
    if not per_step:
        return torch.where(last, final, torch.zeros_like(final))
    assert chips is not None
    following = torch.cat([chips[1:], chips[-1:]])
    rewards = torch.where(last, final - chips, following - chips)
    return rewards + torch.where(first, chips, torch.zeros_like(chips))


def privileged_rows(cards: torch.Tensor, folded: torch.Tensor, seat: torch.Tensor) -> torch.Tensor:
    """:func:`training.episodes.privileged_cards` for rows of a batch's state: ``cards``
    ``[R, P, C]`` (-1 empty), ``folded`` ``[R, P]``, ``seat`` ``[R]`` -> ``[R, (P-1) * 52]``."""
    r, p, slots = cards.shape
    others = (seat.unsqueeze(1) + torch.arange(1, p, device=seat.device)) % p  # next seat first
    held = cards.gather(1, others.unsqueeze(2).expand(-1, -1, slots))
    valid = (held >= 0) & ~folded.gather(1, others).unsqueeze(2)
    offset = (torch.arange(p - 1, device=seat.device) * CARDS).view(1, -1, 1)
    spare = (p - 1) * CARDS
    index = torch.where(valid, held + offset, torch.full_like(held, spare)).reshape(r, -1)
    out = torch.zeros(r, spare + 1, device=seat.device)
    out.scatter_(1, index, 1.0)
    return out[:, :spare]
