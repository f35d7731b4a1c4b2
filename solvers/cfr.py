"""Tabular CFR+ and discounted CFR on the vectorised public tree of toy stud.

Both update the seats alternately (seat 0's regrets, then seat 1's against seat 0's new
strategy) and average the iterates with weights growing like ``t ** gamma``:

* ``cfr+``: regrets floored at zero after every update (Tammelin 2014), linear
  averaging by default (``gamma=1``);
* ``dcfr``: discounted CFR (Brown and Sandholm 2019): after iteration ``t`` positive
  regrets are multiplied by ``t**alpha / (t**alpha + 1)``, negative ones by
  ``t**beta / (t**beta + 1)``; the recommended ``alpha=1.5, beta=0, gamma=2``.

By default CFR runs on the canonical tree (one deal of first up cards per class of
suit permutations, ``solvers/tree.py``): the iterates of CFR from the uniform strategy
are the same on suit-permuted deals, so nothing is lost, and the work drops about
five-fold. :meth:`CFRSolver.average_policy` expands the result onto the full game,
where :meth:`CFRSolver.exploitability` measures it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.exploit import Exploitability, exploitability
from solvers.infosets import InfoSets, NodeArrays
from solvers.policy import NodeSource, TabularPolicy
from solvers.toy import BetNode, ToyParams, quote
from solvers.tree import PublicTree, expansion
from solvers.walk import Walk, expectation

SCHEMES = ("cfr+", "dcfr")
_FLOOR = 1e-250


@dataclass(frozen=True)
class CFRConfig:
    """How CFR updates and averages (see the module docstring)."""

    scheme: str = "dcfr"
    """``dcfr`` (default) or ``cfr+``."""
    alpha: float = 1.5
    """DCFR: discount exponent of positive regrets."""
    beta: float = 0.0
    """DCFR: discount exponent of negative regrets."""
    gamma: float | None = None
    """Average-strategy weight exponent: iteration t weighs t**gamma (default 2 for dcfr, 1 for cfr+)."""
    canonical: bool = True
    """Solve the suit-canonical tree (exact and faster) rather than the full one."""

    def __post_init__(self) -> None:
        if self.scheme not in SCHEMES:
            raise ValueError(f"CFR scheme {quote(self.scheme)} is not allowed: expected one of {', '.join(SCHEMES)}")
        for name in ("alpha", "beta", "gamma"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
                raise ValueError(f"CFR {name}={quote(value)} is not allowed: expected a number >= 0")

    @property
    def average_exponent(self) -> float:
        if self.gamma is not None:
            return float(self.gamma)
        return 2.0 if self.scheme == "dcfr" else 1.0


def normalise(sums: NodeArrays) -> NodeArrays:
    """Per-node action weights (reach-weighted sums) as probabilities; uniform where a
    state's weights are all zero (never reached). Shared by CFR's average strategy and
    :mod:`solvers.average`."""
    out: NodeArrays = []
    for per_node in sums:
        row = []
        for arr in per_node:
            total = arr.sum(axis=1, keepdims=True)
            row.append(np.divide(arr, total, out=np.full_like(arr, 1.0 / arr.shape[1]), where=total > 0))
        out.append(row)
    return out


class CFRSolver:
    """Regrets and average strategy for every information set, updated in place."""

    def __init__(self, params: ToyParams, config: CFRConfig | None = None) -> None:
        self.params = params
        self.config = config or CFRConfig()
        self.tree = PublicTree(params, canonical=self.config.canonical)
        self.regrets = self._zeros()
        self.average = self._zeros()
        self.current = self._zeros()  # regret matching of ``regrets``, refreshed where they change
        for per_node in self.current:
            for arr in per_node:
                arr += 1.0 / arr.shape[1]
        self.iteration = 0
        self._full: PublicTree | None = None
        self._infosets: InfoSets | None = None

    def _zeros(self) -> NodeArrays:
        tree, n_cards = self.tree, self.params.num_cards
        return [
            [np.zeros((tree.histories(k), len(node.actions), layer.size, n_cards)) for node in tree.bet.decisions]
            for k, layer in enumerate(tree.layers)
        ]

    # ------------------------------------------------------------ iterating
    def strategy(self, k: int, j: int, h: int) -> np.ndarray:
        """Current strategy (regret matching; uniform where no regret is positive)."""
        return self.current[k][j][h]

    def refresh(self, regrets: np.ndarray, out: np.ndarray) -> None:
        """Regret matching into ``out``; the tiny floor makes all-zero regrets uniform
        without a branch and is far below any regret that matters."""
        positive = regrets if self.config.scheme == "cfr+" else np.maximum(regrets, 0.0)
        total = positive[0] + len(positive) * _FLOOR
        for a in range(1, len(positive)):
            total += positive[a]
        np.divide(positive + _FLOOR, total, out=out)

    def iterate(self, iterations: int = 1) -> None:
        """Run iterations: each updates seat 0, then seat 1."""
        for _ in range(iterations):
            self.iteration += 1
            for seat in (0, 1):
                _CFRWalk(self, seat).run()

    def discount(self, regrets: np.ndarray) -> None:
        """Apply the scheme's regret floor or discount to one node's updated regrets."""
        if self.config.scheme == "cfr+":
            np.maximum(regrets, 0.0, out=regrets)
            return
        t = float(self.iteration)
        pos = t**self.config.alpha / (t**self.config.alpha + 1.0)
        neg = t**self.config.beta / (t**self.config.beta + 1.0)
        regrets *= neg  # then positive ones by pos / neg more (neg > 0 always)
        np.multiply(regrets, pos / neg, out=regrets, where=regrets > 0)

    # ------------------------------------------------------------ results
    def average_nodes(self) -> NodeArrays:
        """The normalised average strategy on the solver's tree (uniform where never reached)."""
        return normalise(self.average)

    def full_tree(self) -> PublicTree:
        if self._full is None:
            self._full = self.tree if not self.tree.canonical else PublicTree(self.params)
        return self._full

    def average_full_nodes(self) -> NodeArrays:
        """The average strategy as per-node arrays of the full game."""
        nodes = self.average_nodes()
        if not self.tree.canonical:
            return nodes
        maps = expansion(self.full_tree(), self.tree)
        return [
            [arr[:, :, index[:, None], card_map] for arr in per_node]
            for per_node, (index, card_map) in zip(nodes, maps, strict=True)
        ]

    def average_policy(self) -> TabularPolicy:
        """The average strategy as a table over every information set of the full game."""
        if self._infosets is None:
            self._infosets = InfoSets(self.full_tree())
        table = self._infosets.from_nodes(self.average_full_nodes())
        return TabularPolicy(self.params, table, infosets=self._infosets)

    def exploitability(self, *, with_values: bool = False) -> Exploitability:
        """Exact NashConv of the average strategy, measured on the full game."""
        return exploitability(NodeSource(self.average_full_nodes()), self.full_tree(), with_values=with_values)


class _CFRWalk(Walk):
    """One seat's pass: values from the current strategies, then that seat's updates."""

    needs_own_reach = True

    def __init__(self, solver: CFRSolver, seat: int) -> None:
        super().__init__(solver.tree, seat, solver)
        self.solver = solver
        self.weight = float(solver.iteration) ** solver.config.average_exponent

    def combine(  # type: ignore[override]
        self,
        k: int,
        node: BetNode,
        h: int,
        mine: slice,
        sigma: np.ndarray,
        children: list[np.ndarray],
        own: np.ndarray,
    ) -> np.ndarray:
        value = expectation(sigma, children)
        j, solver = node.decision, self.solver
        regrets = solver.regrets[k][j][h][:, mine]
        for a, child in enumerate(children):
            regrets[a] += child - value
        solver.discount(regrets)
        solver.average[k][j][h][:, mine] += (self.weight * own) * sigma
        solver.refresh(regrets, out=solver.current[k][j][h][:, mine])  # after its last use as ``sigma``
        return value
