"""Candidate features and Cowpie split regrets for the batched collector, on the host,
for the few decisions that need them.

A candidate-scoring network (:mod:`agents.candidates`) needs, at a declaration or a
Cowpie split, one feature row per candidate: Monte Carlo chances computed from the
acting seat's :class:`~envs.engine.view.PublicView`. Those decisions are rare (one per
seat and hand), so instead of a torch form of every estimate the collector rebuilds
the hand of each such table in the scalar engine (its deck, button and decisions, as
:meth:`envs.batched.table.TableBatch.record` does), takes the seat's public view and
calls the scalar :func:`~agents.candidates.candidate_features` on it: the same rows
the scalar collector computes, by construction. The Cowpie ``split_regret`` statistic
is read from the same replayed state.

Cost: one read of the "does any table need candidates" flag per step and network
(on a GPU that is a host synchronisation at every step of such a variant), then a
scalar replay and the Monte Carlo per row that needs it, as in the scalar collector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import torch

from agents.candidates import FEATURES, candidate_features
from envs.engine.actions import DRAW_BASE, SPLIT_BASE
from envs.engine.state import State
from envs.engine.view import public_view

if TYPE_CHECKING:
    from envs.batched.table import TableBatch

__all__ = ["HostCandidates", "replay"]


def replay(batch: TableBatch, table: int) -> State:
    """The scalar state of ``table``'s hand in progress (its deck, button and decisions)."""
    s = batch.state
    n = int(s.n_decisions[table])
    if n > batch.record_limit:
        raise ValueError(f"table {table}'s hand took {n} decisions, more than record_limit={batch.record_limit}")
    st = batch.game.new_state(0, button=int(s.button[table]), deck=s.deck[table].tolist(), hand=int(s.hand[table]))
    for action in s.decisions[table, :n].tolist():
        st.apply(int(action))
    return st


class HostCandidates:
    """Candidate rows of a batch's tables (see the module docstring).

    Args:
        batch: the collector's batch (with a ``record_limit`` that holds whole hands).
        slots: ``(lo, hi)`` candidate action indices of the networks.
        samples: Monte Carlo deals per candidate decision.
    """

    def __init__(self, batch: TableBatch, slots: tuple[int, int], samples: int) -> None:
        self.batch, self.slots, self.samples = batch, slots, samples
        self.rng = np.random.default_rng(0)

    def needed(self, mask: torch.Tensor) -> torch.Tensor:
        """Per row of ``mask`` ``[R, A]``: is a candidate action legal?"""
        lo, hi = self.slots
        return mask[:, lo:hi].any(1)

    def rows(self, tables: list[int], seats: list[int]) -> np.ndarray:
        """``[len(tables), hi - lo, FEATURES]`` candidate rows of those tables' seats to act."""
        lo, hi = self.slots
        out = np.zeros((len(tables), hi - lo, FEATURES), np.float32)
        for k, (table, seat) in enumerate(zip(tables, seats, strict=True)):
            view = public_view(replay(self.batch, table), seat)
            out[k] = candidate_features(view, self.slots, self.rng, self.samples)
        return out


def split_regrets(batch: TableBatch, tables: list[int], seats: list[int], actions: list[int]) -> list[float]:
    """Score of the best Cowpie split minus the chosen one's, per decision
    (:func:`training.rollout.split_regret` on the replayed state)."""
    from envs.variants.cowpie import split_scores

    out = []
    for table, seat, action in zip(tables, seats, actions, strict=True):
        st = replay(batch, table)
        opponents = max(1, st.live_count() - 1)
        scores = split_scores(np.array(st.cards[seat]), ~np.array(st.up[seat]), opponents)
        out.append(float(scores.max() - scores[action - SPLIT_BASE]))
    return out


def split_rows(mask: torch.Tensor) -> torch.Tensor:
    """Rows of ``mask`` that are Cowpie split decisions."""
    return mask[:, SPLIT_BASE:DRAW_BASE].any(1)
