"""The heuristic's pot shares on tensors: what a sampled showdown is worth to the bot.

Row by row the arithmetic of :mod:`agents.heuristic.stud` and
:mod:`agents.heuristic.cowpie`, on ``[R, S, P]`` strengths from the torch evaluators
of :mod:`envs.batched.hands` (seats in absolute order; the bot is the acting seat,
seats not in the hand are masked out instead of left out):

* high, razz's low, toy stud's short hands: the bot's share of the best hand, ties
  shared (``best_share``);
* high-low: half to the best high and half to the best qualifying low, the high
  taking it all when nobody qualifies (``hilo_share``);
* the declaration: the chances of winning (or tying, unless the swing rule is
  ``outright``) high, low, and both ways (``chances``);
* Cowpie: every sampled hand, the bot's too, split by ``rank_splits``' score for
  the number of live opponents (the bot's own split once chosen), each half to the
  best hand of its kind (``cowpie_share``); and the split decision itself, the
  legal split of the best score (``best_split``).
"""

from __future__ import annotations

import functools

import numpy as np
import torch

from agents.heuristic.batched_values import lookup
from envs.batched.hands import TorchHands
from envs.engine.hands.tables import RANK_MASK, SUIT_SHIFT
from envs.variants.cowpie import five_card_percentiles, two_card_percentiles

__all__ = ["best_share", "best_split", "chances", "cowpie_share", "hilo_share", "split_scores"]

NUM_SPLITS = 21


def best_share(values: torch.Tensor, me: torch.Tensor, live: torch.Tensor) -> torch.Tensor:
    """``[R, S]`` the bot's fraction of one share: ``1 / ties`` when its value is the
    best of the live seats' (``values`` ``[R, S, P]``, ``me``/``live`` ``[R, P]``)."""
    v = torch.where(live.unsqueeze(1), values, -1)
    best = v.max(2).values
    ties = (v == best.unsqueeze(2)).sum(2)
    mine = (v * me.unsqueeze(1)).sum(2)
    return torch.where(mine == best, 1.0 / ties.double(), 0.0)


def hilo_share(high: torch.Tensor, low: torch.Tensor, me: torch.Tensor, live: torch.Tensor) -> torch.Tensor:
    """``[R, S]`` the split-pot share (qualified lows of 0 cannot win)."""
    hi = best_share(high, me, live)
    lo = best_share(low, me, live)
    best_low = torch.where(live.unsqueeze(1), low, -1).max(2).values
    return torch.where(best_low > 0, 0.5 * (hi + lo), hi)


def _wins(values: torch.Tensor, me: torch.Tensor, live: torch.Tensor, outright: bool, qualified: bool) -> torch.Tensor:
    """``[R, S]`` bool: the bot wins (or ties unless ``outright``) this direction
    (``wins_or_ties``: the others' best, 0 with nobody else in)."""
    others = torch.where(live.unsqueeze(1) & ~me.unsqueeze(1), values, 0).max(2).values
    mine = (values * me.unsqueeze(1)).sum(2)
    won = mine > others if outright else mine >= others
    return won & (mine > 0) if qualified else won


def chances(
    high: torch.Tensor, low: torch.Tensor, me: torch.Tensor, live: torch.Tensor, outright: bool, qualified: bool
) -> torch.Tensor:
    """``[R, 3]`` float64: P(win high), P(win low), P(win both) (``_chances``)."""
    p_high = _wins(high, me, live, False, False).double().mean(1)
    p_low = _wins(low, me, live, False, qualified).double().mean(1)
    both = _wins(high, me, live, outright, False) & _wins(low, me, live, outright, qualified)
    return torch.stack([p_high, p_low, both.double().mean(1)], 1)


@functools.cache
def _powered(device: torch.device, most: int) -> tuple[torch.Tensor, torch.Tensor]:
    """The percentile tables raised to ``k = 0 .. most`` (numpy's element-wise power,
    as the scalar bot computes them), as ``[most + 1, T]`` float64 on ``device``."""
    five = np.stack([five_card_percentiles() ** k for k in range(most + 1)])
    two = np.stack([two_card_percentiles() ** k for k in range(most + 1)])
    return torch.as_tensor(five, device=device), torch.as_tensor(two, device=device)


def split_scores(
    five: torch.Tensor, two: torch.Tensor, legal: torch.Tensor, opponents: torch.Tensor, most: int
) -> torch.Tensor:
    """``rank_splits``' score of each split (``[..., 21]``; -1 where illegal) against
    ``opponents`` (``[R]``, broadcast over the middle dimensions)."""
    five_power, two_power = _powered(five.device, most)
    k = opponents.clamp(1, most).view(-1, *([1] * (five.dim() - 1)))
    score = (
        lookup(five_power.view(-1), k * five_power.shape[1] + five)
        + lookup(two_power.view(-1), k * two_power.shape[1] + two)
    ) / 2
    return torch.where(legal, score, -1.0)


def cowpie_splits(
    hands: TorchHands, cards: torch.Tensor, down: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``TorchHands.cowpie_splits`` (five, two, legal of the 21 splits), the same
    arithmetic with its table lookups through :func:`lookup` (several times faster on
    the CPU than the advanced indexing there)."""
    c = cards.clamp(min=0)
    keys = lookup(hands.card_keys[5], c)
    total = keys.sum(-1, keepdim=True)
    sub = total - keys[..., hands.split_i] - keys[..., hands.split_j]
    flush = lookup(hands.flush_suit, sub >> SUIT_SHIFT) >= 0
    rank_part = sub & RANK_MASK
    five = torch.where(flush, lookup(hands.flush5, rank_part), lookup(hands.high[5], rank_part)).long()
    ranks = c >> 2
    two_index = ranks[..., hands.split_i] * 13 + ranks[..., hands.split_j]
    two = lookup(hands.two_strength, two_index)
    pattern = (down.long() << torch.arange(7, device=cards.device)).sum(-1)
    down_ok = lookup(
        hands.down_ok.view(-1), (pattern * NUM_SPLITS).unsqueeze(-1) + torch.arange(NUM_SPLITS, device=cards.device)
    )
    legal = (lookup(hands.five_keys, five) >= lookup(hands.two_keys, two_index)) & down_ok
    return five, two, legal


def best_split(
    hands: TorchHands,
    cards: torch.Tensor,
    down: torch.Tensor,
    allowed: torch.Tensor,
    opponents: torch.Tensor,
    most: int,
) -> torch.Tensor:
    """``[R]`` split index 0..20: the legal and ``allowed`` split of the best score,
    ties to the lowest index (``choose_split``); -1 when there is none."""
    five, two, legal = cowpie_splits(hands, cards, down)
    score = split_scores(five, two, legal, opponents, most)
    ok = legal & allowed
    choice = torch.where(ok, score, -2.0).argmax(1)
    return torch.where(ok.any(1), choice, -1)


def cowpie_share(
    hands: TorchHands,
    cards: torch.Tensor,
    down: torch.Tensor,
    me: torch.Tensor,
    live: torch.Tensor,
    own_split: torch.Tensor,
    most: int,
) -> torch.Tensor:
    """``[R, S]`` the bot's Cowpie share of sampled hands ``cards`` ``[R, S, P, 7]``:
    every hand split by the score, the bot's by ``own_split`` (``[R]``) once chosen."""
    five, two, legal = cowpie_splits(hands, cards, down.unsqueeze(1).expand_as(cards))
    opponents = live.sum(1) - 1
    score = split_scores(five, two, legal, opponents, most)
    choice = score.argmax(3, keepdim=True)  # every hand has a legal split
    fixed = me.unsqueeze(1).unsqueeze(3) & (own_split >= 0).view(-1, 1, 1, 1)
    choice = torch.where(fixed, own_split.clamp(min=0).view(-1, 1, 1, 1), choice)
    ok = legal.gather(3, choice).squeeze(3)
    chosen_five = torch.where(ok, five.gather(3, choice).squeeze(3), 0)
    chosen_two = torch.where(ok, two.gather(3, choice).squeeze(3), 0)
    return 0.5 * (best_share(chosen_five, me, live) + best_share(chosen_two, me, live))
