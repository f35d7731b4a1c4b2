"""The average of a learner's iterates on toy stud, as one exact policy.

A learner's checkpoints are behaviour policies ``pi_1 .. pi_T``. Their average in the
sense that the literature reports (and that CFR's convergence is stated for) is not the
mean of the action probabilities per information set: it is the policy that plays each
iterate with probability ``w_t`` for the whole hand. By Kuhn's theorem that mixture is
realised by one behaviour policy, each information set's probabilities weighted by the
seat's own reach under each iterate::

    avg(I) = sum_t w_t * own_reach_t(I) * pi_t(I) / sum_t w_t * own_reach_t(I)

(uniform where no iterate reaches ``I``). Against any fixed opponent its value is the
weighted mean of the iterates' values, which the tests check. One value walk per seat
and iterate accumulates the weighted own reaches, as CFR accumulates its average.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solvers.cfr import normalise
from solvers.infosets import InfoSets, NodeArrays
from solvers.policy import NodeSource, TabularPolicy
from solvers.tree import PublicTree
from solvers.walk import StrategySource, Walk, expectation

__all__ = ["ReachAverage", "average_policy"]


class _AccumulateWalk(Walk):
    """The walking seat follows ``source``; its own nodes gather ``weight * own * sigma``."""

    needs_own_reach = True

    def __init__(self, tree: PublicTree, seat: int, source: StrategySource, sums: NodeArrays, weight: float) -> None:
        super().__init__(tree, seat, source)
        self.sums, self.weight = sums, weight

    def combine(self, k, node, h, mine, sigma, children, own):  # type: ignore[no-untyped-def]
        self.sums[k][node.decision][h][:, mine] += (self.weight * own) * sigma
        return expectation(sigma, children)


class ReachAverage:
    """Running reach-weighted average of policies on the full tree of one toy game
    (add iterates one at a time; memory is one policy's node arrays)."""

    def __init__(self, infosets: InfoSets) -> None:
        self.infosets = infosets
        self.tree = infosets.tree
        n_cards = self.tree.params.num_cards
        self.sums: NodeArrays = [
            [
                np.zeros((self.tree.histories(k), len(node.actions), layer.size, n_cards))
                for node in self.tree.bet.decisions
            ]
            for k, layer in enumerate(self.tree.layers)
        ]
        self.count = 0

    def add(self, policy: TabularPolicy, weight: float = 1.0) -> None:
        """Fold one iterate in with weight ``weight`` (> 0)."""
        if not weight > 0:
            raise ValueError(f"an iterate's weight must be > 0, got {weight!r}")
        if policy.params != self.tree.params:
            raise ValueError(f"the iterate is a policy of {policy.params}, not of {self.tree.params}")
        source = NodeSource(self.infosets.to_nodes(policy.table))
        for seat in (0, 1):
            _AccumulateWalk(self.tree, seat, source, self.sums, weight).run()
        self.count += 1

    def nodes(self) -> NodeArrays:
        """The normalised average as per-node arrays (uniform where never reached)."""
        if not self.count:
            raise ValueError("no iterate was added")
        return normalise(self.sums)

    def policy(self) -> TabularPolicy:
        """The average as a table over every information set."""
        return TabularPolicy(self.tree.params, self.infosets.from_nodes(self.nodes()), infosets=self.infosets)


def average_policy(policies: Sequence[TabularPolicy], weights: Sequence[float] | None = None) -> TabularPolicy:
    """The reach-weighted average of ``policies`` (equal weights by default) on their game."""
    if not policies:
        raise ValueError("average_policy needs at least one policy")
    weights = [1.0] * len(policies) if weights is None else list(weights)
    if len(weights) != len(policies):
        raise ValueError(f"{len(policies)} policies but {len(weights)} weights")
    average = ReachAverage(policies[0].infosets)
    for policy, weight in zip(policies, weights, strict=True):
        average.add(policy, weight)
    return average.policy()
