"""Every information set of toy stud, in a stable order, with descriptors for policies.

An information set is what the seat to act knows: its seat (0 holds the button), its
down card, every up card, and every betting action so far. The full public tree
(``PublicTree(params)``) lists them as *segments*: for each round ``k``, each decision
node ``j`` of the betting round (preorder: the round's first action is ``j = 0``) and
each continuation ``h`` of the earlier rounds, the rows are the layer's states in
order, and within a state the possible down cards in ascending toy-card order. The
index of an information set is its row number in that order; it depends only on the
parameters, so a table saved for one game loads for the same game anywhere.

A policy table has one row per information set and :data:`~solvers.toy.NUM_ACTIONS`
columns in the project's action layout (0 fold, 1 check/call, 2 bring-in, never legal
here, 3 bet/raise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solvers.toy import ACTION_NAMES, CHECK_CALL, NUM_ACTIONS, ToyParams
from solvers.tree import PublicTree

NodeArrays = list[list[np.ndarray]]
"""Per round k, per decision node j: an (H_k, A_j, n_k, N) array over a tree's states."""


@dataclass
class InfoSetBatch:
    """Descriptors of a batch of information sets, one row each (numpy columns).

    Cards are the engine's ints (``rank * 4 + suit``, ``envs/engine/cards.py``); -1 pads.
    Actions are listed in the order they were taken, over all rounds so far.
    """

    params: ToyParams
    index: np.ndarray
    """(B,) information-set index."""
    seat: np.ndarray
    """(B,) seat to act: 0 holds the button, 1 sits left of it."""
    betting_round: np.ndarray
    """(B,) round, 0-based (five-card stud's second street is round 0)."""
    down: np.ndarray
    """(B,) the seat's down card."""
    own_up: np.ndarray
    """(B, streets) the seat's up cards in the order dealt."""
    opp_up: np.ndarray
    """(B, streets) the other seat's up cards."""
    num_actions: np.ndarray
    """(B,) betting actions so far."""
    action_round: np.ndarray
    """(B, L) round of each action."""
    action_seat: np.ndarray
    """(B, L) seat that took it."""
    action: np.ndarray
    """(B, L) its index in the action layout: 1 check or call, 3 bet or raise."""
    action_chips: np.ndarray
    """(B, L) chips it put in (0 for a check; a call the amount called; a raise call plus bet)."""
    to_call: np.ndarray
    """(B,) chips the seat must add to call (0: it may check)."""
    pot: np.ndarray
    """(B,) chips in the pot, antes included."""
    legal: np.ndarray
    """(B, 4) legal actions in the layout (fold only when facing a bet)."""

    def __len__(self) -> int:
        return len(self.index)

    def records(self) -> list[dict[str, Any]]:
        """One readable dict per row (cards as text, actions as (round, seat, kind, chips))."""
        names = {self.params.engine_card(c): self.params.card_text(c) for c in range(self.params.num_cards)}
        out = []
        for i in range(len(self)):
            k = int(self.betting_round[i])
            acts: list[tuple[int, int, str, int]] = []
            for a in range(int(self.num_actions[i])):
                kind = _kind(int(self.action[i, a]), int(self.action_chips[i, a]), acts, int(self.action_round[i, a]))
                acts.append(
                    (int(self.action_round[i, a]), int(self.action_seat[i, a]), kind, int(self.action_chips[i, a]))
                )
            out.append(
                {
                    "index": int(self.index[i]),
                    "seat": int(self.seat[i]),
                    "betting_round": k,
                    "down": names[int(self.down[i])],
                    "own_up": [names[int(c)] for c in self.own_up[i, : k + 1]],
                    "opp_up": [names[int(c)] for c in self.opp_up[i, : k + 1]],
                    "actions": acts,
                    "to_call": int(self.to_call[i]),
                    "pot": int(self.pot[i]),
                    "legal": [ACTION_NAMES[a] for a in np.flatnonzero(self.legal[i])],
                }
            )
        return out


def _kind(action: int, chips: int, earlier: list[tuple[int, int, str, int]], betting_round: int) -> str:
    """check / call / bet / raise: what a layout index meant given the round so far."""
    bet_before = any(r == betting_round and k in ("bet", "raise") for r, _, k, _ in earlier)
    if action == CHECK_CALL:
        return "call" if chips else "check"
    return "raise" if bet_before else "bet"


class InfoSets:
    """The stable enumeration of a game's information sets (see the module docstring)."""

    def __init__(self, tree: PublicTree) -> None:
        if tree.canonical:
            raise ValueError("information sets are enumerated on the full tree, not the canonical one")
        self.tree = tree
        self.params = tree.params
        self.segments: list[tuple[int, int, int]] = []
        sizes = []
        for k, layer in enumerate(tree.layers):
            for j in range(len(tree.bet.decisions)):
                for h in range(tree.histories(k)):
                    self.segments.append((k, j, h))
                    sizes.append(layer.size * layer.down_cards.shape[1])
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.count = int(self.offsets[-1])
        self._ancestors = [tree.ancestors(k) for k in range(tree.num_rounds)]
        self._engine_cards = self.params.engine_cards()

    # ------------------------------------------------------------ tables
    def segment_slice(self, s: int) -> slice:
        return slice(int(self.offsets[s]), int(self.offsets[s + 1]))

    def to_nodes(self, table: np.ndarray) -> NodeArrays:
        """(count, 4) table -> per-node arrays of the legal actions' probabilities."""
        tree = self.tree
        nodes: NodeArrays = []
        for k, layer in enumerate(tree.layers):
            per_node = []
            for j, node in enumerate(tree.bet.decisions):
                width = len(node.actions)
                arr = np.full((tree.histories(k), width, layer.size, self.params.num_cards), 1.0 / width)
                rows = np.arange(layer.size)[:, None]
                for h in range(tree.histories(k)):
                    block = table[self.segment_slice(self._segment(k, j, h))]
                    block = block.reshape(layer.size, -1, NUM_ACTIONS)[:, :, list(node.actions)]
                    arr[h][:, rows, layer.down_cards] = block.transpose(2, 0, 1)
                per_node.append(arr)
            nodes.append(per_node)
        return nodes

    def from_nodes(self, nodes: NodeArrays, dtype: Any = np.float64) -> np.ndarray:
        """Per-node arrays (full tree) -> the (count, 4) table."""
        table = np.zeros((self.count, NUM_ACTIONS), dtype=dtype)
        for s, (k, j, h) in enumerate(self.segments):
            layer = self.tree.layers[k]
            node = self.tree.bet.decisions[j]
            block = nodes[k][j][h][:, np.arange(layer.size)[:, None], layer.down_cards]  # (A, n, V)
            table[self.segment_slice(s), list(node.actions)] = block.transpose(1, 2, 0).reshape(-1, len(node.actions))
        return table

    def legal_mask(self) -> np.ndarray:
        """(count, 4) bool: the legal actions of every information set."""
        mask = np.zeros((self.count, NUM_ACTIONS), dtype=bool)
        for s, (_, j, _) in enumerate(self.segments):
            mask[self.segment_slice(s), list(self.tree.bet.decisions[j].actions)] = True
        return mask

    def seats(self) -> np.ndarray:
        """(count,) the seat owning each information set."""
        out = np.empty(self.count, dtype=np.int8)
        for s, (k, j, _) in enumerate(self.segments):
            layer = self.tree.layers[k]
            depth = self.tree.bet.decisions[j].depth
            out[self.segment_slice(s)] = np.repeat(layer.first ^ (depth % 2), layer.down_cards.shape[1])
        return out

    def _segment(self, k: int, j: int, h: int) -> int:
        per_round = [len(self.tree.bet.decisions) * self.tree.histories(i) for i in range(k)]
        return sum(per_round) + j * self.tree.histories(k) + h

    # ------------------------------------------------------------ descriptors
    def batch(self, start: int, stop: int) -> InfoSetBatch:
        """Descriptors of information sets ``start .. stop - 1``."""
        if not 0 <= start <= stop <= self.count:
            raise ValueError(f"information sets {start}..{stop} out of range 0..{self.count}")
        parts = []
        first_seg = int(np.searchsorted(self.offsets, start, side="right")) - 1
        s = first_seg
        while s < len(self.segments) and self.offsets[s] < stop:
            lo = max(start, int(self.offsets[s])) - int(self.offsets[s])
            hi = min(stop, int(self.offsets[s + 1])) - int(self.offsets[s])
            parts.append(self._segment_batch(s, lo, hi))
            s += 1
        return _concat(self.params, parts, self._max_actions())

    def _max_actions(self) -> int:
        longest = max(len(n.path) for n in self.tree.bet.nodes)
        return self.params.streets * longest

    def _segment_batch(self, s: int, lo: int, hi: int) -> dict[str, np.ndarray]:
        k, j, h = self.segments[s]
        tree, layer = self.tree, self.tree.layers[k]
        node = tree.bet.decisions[j]
        rows = np.arange(lo, hi)
        per_state = layer.down_cards.shape[1]
        state, down = rows // per_state, layer.down_cards[rows // per_state, rows % per_state]
        seat = layer.first[state] ^ (node.depth % 2)
        ups = layer.ups[state].astype(np.int64)  # (B, 2, k + 1)
        own = np.take_along_axis(ups, seat[:, None, None].astype(np.int64), axis=1)[:, 0]
        opp = np.take_along_axis(ups, (1 - seat)[:, None, None].astype(np.int64), axis=1)[:, 0]
        history = self._history(k, j, h, state)
        units = node.units
        bet = self.params.bet_size(k)
        prior = int(tree.prior[k][h])
        return {
            "index": self.offsets[s] + rows,
            "seat": seat.astype(np.int8),
            "betting_round": np.full(len(rows), k, dtype=np.int8),
            "down": self._engine_cards[down],
            "own_up": self._engine_cards[own],
            "opp_up": self._engine_cards[opp],
            **history,
            "to_call": np.full(len(rows), abs(units[0] - units[1]) * bet, dtype=np.int64),
            "pot": np.full(len(rows), 2 * (self.params.ante + prior) + (units[0] + units[1]) * bet, dtype=np.int64),
            "legal": np.broadcast_to(np.isin(np.arange(NUM_ACTIONS), node.actions), (len(rows), NUM_ACTIONS)).copy(),
        }

    def _history(self, k: int, j: int, h: int, state: np.ndarray) -> dict[str, np.ndarray]:
        """Every action so far: earlier rounds' end leaves, then the path to node j."""
        tree = self.tree
        paths = [tree.bet.ends[e].path for e in tree.decode_history(k, h)] + [tree.bet.decisions[j].path]
        rounds: list[np.ndarray] = []
        seats: list[np.ndarray] = []
        actions: list[np.ndarray] = []
        chips: list[np.ndarray] = []
        anc = self._ancestors[k][state]
        for i, path in enumerate(paths):
            first = tree.layers[i].first[anc[:, i]]
            for position, action, put_in in path:
                rounds.append(np.full(len(state), i))
                seats.append(first ^ position)
                actions.append(np.full(len(state), action))
                chips.append(np.full(len(state), put_in * self.params.bet_size(i)))
        width = len(rounds)

        def as_columns(cols: list[np.ndarray]) -> np.ndarray:
            return np.stack(cols, axis=1) if width else np.zeros((len(state), 0), np.int64)

        return {
            "num_actions": np.full(len(state), width, dtype=np.int64),
            "action_round": as_columns(rounds),
            "action_seat": as_columns(seats),
            "action": as_columns(actions),
            "action_chips": as_columns(chips),
        }


def _concat(params: ToyParams, parts: list[dict[str, np.ndarray]], width: int) -> InfoSetBatch:
    """Stack segment pieces, padding per-action and per-card columns with -1."""
    columns: dict[str, np.ndarray] = {}
    for name, cols in _COLUMNS.items():
        size = {"cards": params.streets, "actions": width, "legal": NUM_ACTIONS}.get(cols, 0)
        arrays = [p[name] for p in parts]
        if cols in ("cards", "actions"):
            arrays = [np.pad(a.astype(np.int64), ((0, 0), (0, size - a.shape[1])), constant_values=-1) for a in arrays]
        empty = np.zeros((0, size) if size else 0, dtype=bool if name == "legal" else np.int64)
        columns[name] = np.concatenate(arrays) if arrays else empty
    return InfoSetBatch(params=params, **columns)


_COLUMNS = {  # column -> what its second axis holds ("" for none)
    **dict.fromkeys(("index", "seat", "betting_round", "down", "num_actions", "to_call", "pot"), ""),
    **dict.fromkeys(("own_up", "opp_up"), "cards"),
    **dict.fromkeys(("action_round", "action_seat", "action", "action_chips"), "actions"),
    "legal": "legal",
}
