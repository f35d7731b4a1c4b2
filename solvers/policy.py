"""Policies for toy stud: uniform, tabular (saved as ``.npz``), or any callable.

A *tabular policy* is one row of action probabilities per information set, in the
order of :class:`~solvers.infosets.InfoSets`, with the columns of the project's action
layout. It covers both seats, so it is one agent's whole strategy.

A *callable policy* is the hook for everything else (the heuristic, a trained network):
``fn(batch: InfoSetBatch) -> (len(batch), 4) probabilities``. :func:`tabulate` queries it
over every information set in batches and checks each answer. An adapter from
``agents.load`` specs only has to turn each descriptor row into the toy_stud env's
observation and action mask for that seat (stack the deck with the row's cards, replay
its actions) and return the agent's probabilities.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from solvers.infosets import InfoSetBatch, InfoSets, NodeArrays
from solvers.toy import NUM_ACTIONS, ToyParams, quote
from solvers.tree import PublicTree

FORMAT = "dealers-choice/toy_stud-tabular-policy/v1"
PolicyFn = Callable[[InfoSetBatch], np.ndarray]
TOLERANCE = 1e-4  # probabilities this close to a distribution are renormalised; further off is an error


class UniformSource:
    """Every legal action equally likely (computed per node, never stored per information set)."""

    def __init__(self, tree: PublicTree) -> None:
        self.tree = tree
        self._cache: dict[tuple[int, int], np.ndarray] = {}

    def strategy(self, k: int, j: int, h: int) -> np.ndarray:
        if (k, j) not in self._cache:
            width = len(self.tree.bet.decisions[j].actions)
            shape = (width, self.tree.layers[k].size, self.tree.params.num_cards)
            self._cache[(k, j)] = np.full(shape, 1.0 / width)
        return self._cache[(k, j)]


class NodeSource:
    """Per-node arrays (``NodeArrays``) on the tree being walked."""

    def __init__(self, nodes: NodeArrays) -> None:
        self.nodes = nodes

    def strategy(self, k: int, j: int, h: int) -> np.ndarray:
        return self.nodes[k][j][h]


class TabularPolicy:
    """Action probabilities for every information set of one game (both seats)."""

    def __init__(self, params: ToyParams, table: np.ndarray, *, infosets: InfoSets | None = None) -> None:
        self.params = params
        self.infosets = infosets if infosets is not None else InfoSets(PublicTree(params))
        self.table = check_table(np.asarray(table, dtype=np.float64), self.infosets)

    @classmethod
    def uniform(cls, params: ToyParams, *, infosets: InfoSets | None = None) -> TabularPolicy:
        infosets = infosets if infosets is not None else InfoSets(PublicTree(params))
        legal = infosets.legal_mask()
        return cls(params, legal / legal.sum(axis=1, keepdims=True), infosets=infosets)

    def source(self) -> NodeSource:
        """The policy as per-node arrays of the full tree, ready for a walk."""
        return NodeSource(self.infosets.to_nodes(self.table))

    def save(self, path: str | Path, **metadata: Any) -> Path:
        """Write ``.npz``: the format tag, the game's parameters, the table (float32) and metadata."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        header = {"format": FORMAT, "game": "toy_stud", "params": self.params.to_dict(), "metadata": metadata}
        np.savez_compressed(path, header=np.array(json.dumps(header)), table=self.table.astype(np.float32))
        return path

    @classmethod
    def load(cls, path: str | Path, params: ToyParams | None = None) -> TabularPolicy:
        """Read a saved policy; ``params`` (when given) must be the game it was saved for."""
        header, table = read_policy_file(path)
        saved = ToyParams(**header["params"])
        if params is not None and saved != params:
            raise ValueError(
                f"policy file {quote(str(path))} was saved for toy_stud {_diff(saved, params)}; "
                "pass the same --option values it was solved with"
            )
        return cls(saved, table.astype(np.float64))


def read_policy_file(path: str | Path) -> tuple[dict[str, Any], np.ndarray]:
    """Header and table of a policy file, with clear errors for anything else."""
    try:
        with np.load(Path(path), allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            table = np.array(data["table"])
    except FileNotFoundError:
        raise ValueError(f"policy file {quote(str(path))} does not exist") from None
    except (OSError, KeyError, ValueError) as err:
        raise ValueError(f"{quote(str(path))} is not a toy_stud policy file ({type(err).__name__})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        found = header.get("format") if isinstance(header, dict) else None
        raise ValueError(f"{quote(str(path))} has format {quote(found)}; expected {FORMAT!r}")
    return header, table


def _diff(saved: ToyParams, wanted: ToyParams) -> str:
    a, b = saved.to_dict(), wanted.to_dict()
    parts = [f"{k}={a[k]!r} (asked: {b[k]!r})" for k in a if a[k] != b[k]]
    return ", ".join(parts)


def check_table(table: np.ndarray, infosets: InfoSets) -> np.ndarray:
    """A table must be (count, 4), finite, non-negative, zero on illegal actions and sum
    to one; sums within ``TOLERANCE`` are renormalised (float32 files), others rejected."""
    expected = (infosets.count, NUM_ACTIONS)
    if table.shape != expected:
        raise ValueError(f"policy table has shape {table.shape}; this game needs {expected}")
    bad = np.asarray(~np.isfinite(table).all(axis=1) | (table < 0).any(axis=1))
    _refuse(bad, "has a negative or non-finite probability", infosets)
    legal = infosets.legal_mask()
    illegal = np.asarray((np.where(legal, 0.0, table) > TOLERANCE).any(axis=1))
    _refuse(illegal, "puts probability on an illegal action", infosets)
    table = np.where(legal, table, 0.0)
    sums = table.sum(axis=1)
    _refuse(np.abs(sums - 1.0) > TOLERANCE, "does not sum to 1", infosets)
    return table / sums[:, None]


def _refuse(bad: np.ndarray, what: str, infosets: InfoSets) -> None:
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        record = infosets.batch(first, first + 1).records()[0]
        raise ValueError(f"policy row {first} {what} ({int(bad.sum())} rows in all); first: {record}")


def tabulate(infosets: InfoSets, fn: PolicyFn, *, batch_size: int = 65536, progress: bool = False) -> TabularPolicy:
    """Query a callable policy over every information set (in batches) into a table."""
    table = np.zeros((infosets.count, NUM_ACTIONS))
    starts = range(0, infosets.count, batch_size)
    if progress:
        from tqdm import tqdm

        starts = tqdm(starts, desc="policy", unit="batch")
    for start in starts:
        stop = min(start + batch_size, infosets.count)
        answer = np.asarray(fn(infosets.batch(start, stop)), dtype=np.float64)
        expected = (stop - start, NUM_ACTIONS)
        if answer.shape != expected:
            raise ValueError(
                f"policy answered shape {answer.shape} for {expected[0]} information sets; expected {expected}"
            )
        table[start:stop] = answer
    return TabularPolicy(infosets.params, table, infosets=infosets)
