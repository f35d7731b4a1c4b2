"""One pass over the public tree for one seat: counterfactual values, vectorised.

The pass recurses over public nodes only (a betting node of a round, for each
continuation of the earlier rounds); at each it holds, for every up-card state of the
layer and every possible down card, the reach probability of both seats and returns
the seat's counterfactual value. Chance (the up cards) is a gather into the next layer
and a sum back. Terminal values need the opponent's reach only: a fold pays the
folder's chips against every opponent card but one's own; a showdown compares ranks
through a (ranks x ranks) sign matrix per state, minus the opponent holding one's own
card. No Python code ever runs per history or per information set.

Subclasses decide what the walking seat does at its own nodes: follow the policy
(:class:`ValueWalk`), pick the best action per information set (:class:`BestResponseWalk`)
or update regrets (``solvers/cfr.py``).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from solvers.toy import DECISION, END_LEAF, BetNode
from solvers.tree import PublicTree


class StrategySource(Protocol):
    """Where a walk reads action probabilities.

    ``strategy(k, j, h)`` is an (A, n_k, N) array for decision node ``j`` of round ``k``
    after continuation ``h``: the probabilities of the node's legal actions (ascending
    action index; action-major so each action's slice is contiguous) for the seat
    acting in each state, for each of its down cards.
    """

    def strategy(self, k: int, j: int, h: int) -> np.ndarray: ...


class Walk:
    """Counterfactual values of ``seat`` against ``source``'s strategy for the other seat."""

    needs_own_reach = False

    def __init__(self, tree: PublicTree, seat: int, source: StrategySource) -> None:
        self.tree = tree
        self.seat = seat
        self.source = source
        self.params = tree.params

    def run(self) -> float:
        """The seat's value in chips, summed over every deal (the chance weights)."""
        first = self.tree.layers[0]
        own = first.valid.copy() if self.needs_own_reach else None
        values = self._node(0, 0, self.tree.bet.root, own, first.valid.copy())
        return float(values.sum())

    # ------------------------------------------------------------ recursion
    def _node(self, k: int, h: int, node: BetNode, own: np.ndarray | None, opp: np.ndarray) -> np.ndarray:
        if node.kind == DECISION:
            return self._decision(k, h, node, own, opp)
        if node.kind == END_LEAF:
            if k == self.tree.num_rounds - 1:
                return self._showdown(k, h, node, opp)
            return self._next_round(k, h, node.end, own, opp)
        return self._fold(k, h, node, opp)

    def _decision(self, k: int, h: int, node: BetNode, own: np.ndarray | None, opp: np.ndarray) -> np.ndarray:
        layer = self.tree.layers[k]
        sigma = self.source.strategy(k, node.decision, h)
        mine, theirs = layer.seat_slices(self.seat, node.depth)
        children = []
        for a, child in enumerate(node.children):
            child_own = own
            if own is not None:
                child_own = own.copy()
                child_own[mine] *= sigma[a, mine]
            child_opp = opp.copy()
            child_opp[theirs] *= sigma[a, theirs]
            children.append(self._node(k, h, self.tree.bet.nodes[child], child_own, child_opp))
        values = np.empty_like(opp)
        theirs_total = values[theirs]
        theirs_total[...] = children[0][theirs]
        for c in children[1:]:
            theirs_total += c[theirs]
        own_part = None if own is None else own[mine]
        values[mine] = self.combine(k, node, h, mine, sigma[:, mine], [c[mine] for c in children], own_part)
        return values

    def combine(
        self,
        k: int,
        node: BetNode,
        h: int,
        mine: slice,
        sigma: np.ndarray,
        children: list[np.ndarray],
        own: np.ndarray | None,
    ) -> np.ndarray:
        """The seat's value at its own node from its children's values (subclasses).

        ``sigma`` is (A, n_mine, N), ``children`` one (n_mine, N) array per action and
        ``own`` the seat's reach (when ``needs_own_reach``), all over the states ``mine``.
        """
        raise NotImplementedError

    def _fold(self, k: int, h: int, node: BetNode, opp: np.ndarray) -> np.ndarray:
        """The folder loses what it put in, whatever the cards (bar the shared one)."""
        layer = self.tree.layers[k]
        folder_position = node.actor
        chips = self.params.ante + self.tree.prior[k][h] + node.units[folder_position] * self.params.bet_size(k)
        values = (opp.sum(axis=1, keepdims=True) - opp) * layer.weight_valid * chips
        # position 0 is seat 0 in the states [:split] and seat 1 in [split:]
        seat0_folded = slice(0, layer.split) if folder_position == 0 else slice(layer.split, layer.size)
        seat1_folded = slice(layer.split, layer.size) if folder_position == 0 else slice(0, layer.split)
        values[seat0_folded if self.seat == 0 else seat1_folded] *= -1.0
        return values

    def _showdown(self, k: int, h: int, node: BetNode, opp: np.ndarray) -> np.ndarray:
        """Win or lose the other seat's chips; ties split (equal chips, so no odd chip)."""
        layer = self.tree.layers[k]
        params = self.params
        chips = params.ante + self.tree.prior[k][h] + node.units[0] * params.bet_size(k)
        sign = self.tree.showdown_sign[self.seat]  # (R other, n, R own)
        n, r, s = layer.size, params.num_ranks, params.num_suits
        opp_cards = opp.reshape(n, r, s)
        opp_ranks = sum_last(opp_cards)  # (n, R)
        by_rank = sign[0] * opp_ranks[:, 0, None]  # against every card of the other seat ...
        for other in range(1, r):
            by_rank += sign[other] * opp_ranks[:, other, None]
        same_rank = self.tree.showdown_same_rank[self.seat]  # ... except the one we hold
        values = (by_rank[:, :, None] - same_rank[:, :, None] * opp_cards).reshape(n, r * s)
        values *= layer.weight_valid
        values *= chips
        return values

    def _next_round(self, k: int, h: int, end: int, own: np.ndarray | None, opp: np.ndarray) -> np.ndarray:
        """Deal the next up cards: gather reaches into the next layer, sum values back."""
        nxt = self.tree.layers[k + 1]
        assert nxt.parent is not None and nxt.parent_major is not None
        child_opp = opp[nxt.parent] * nxt.valid
        child_own = None if own is None else own[nxt.parent] * nxt.valid
        h_next = h * self.tree.num_ends + end
        values = self._node(k + 1, h_next, self.tree.bet.root, child_own, child_opp)
        grouped = values[nxt.parent_major].reshape(len(opp), nxt.children, opp.shape[1])
        return grouped.sum(axis=1)


class ValueWalk(Walk):
    """The seat follows the strategy too: the value of the policy profile."""

    def combine(self, k, node, h, mine, sigma, children, own):  # type: ignore[no-untyped-def]
        return expectation(sigma, children)


class BestResponseWalk(Walk):
    """The seat picks, per information set (state, down card), the best action."""

    def combine(self, k, node, h, mine, sigma, children, own):  # type: ignore[no-untyped-def]
        best = children[0].copy()
        for c in children[1:]:
            np.maximum(best, c, out=best)
        return best


def expectation(sigma: np.ndarray, children: list[np.ndarray]) -> np.ndarray:
    """``sum_a sigma[a] * children[a]`` with contiguous slices (faster than einsum here)."""
    total = sigma[0] * children[0]
    for a in range(1, len(children)):
        total += sigma[a] * children[a]
    return total


def sum_last(x: np.ndarray) -> np.ndarray:
    """Sum over a short last axis by adding slices (numpy reduces short axes slowly)."""
    total = x[..., 0].copy()
    for i in range(1, x.shape[-1]):
        total += x[..., i]
    return total
