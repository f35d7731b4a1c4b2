"""The public tree of toy stud: every deal of up cards, round by round, as numpy arrays.

A public node is (round ``k``, the up cards dealt so far, the continuations of the
earlier rounds ``h``, a node of the round's betting tree). The up cards of round ``k``
form a *layer*: an array of ``n_k`` states, each with its two seats' up cards. The
solvers loop over the few betting nodes and continuations in Python and handle every
state of a layer, and every private down card, in one numpy operation; that is what
makes an exact best response over millions of information sets take a second.

Within a layer, states where seat 0 acts first come first (``split`` marks the end of
that block), so "the states where seat p acts at this node" is a contiguous slice.

A tree is either the *full* game (every ordered pair of first up cards) or its
*canonical* reduction: suits are interchangeable (hands are rank-only), so first up
cards that differ by a permutation of suits have identical subgames up to relabelling
the cards. The canonical tree keeps one representative of each class with its class
size as a chance weight; CFR runs there, and :func:`expansion` maps any canonical
array back onto the full tree, where exploitability is measured.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from solvers.toy import BetRound, ToyParams, hand_keys, perm_count


@dataclass
class Layer:
    """The up-card states of one betting round (index ``k``: ``k + 1`` up cards each)."""

    ups: np.ndarray
    """(n, 2, k + 1) toy cards: ``ups[c, seat, i]`` is seat's up card of round i."""
    first: np.ndarray
    """(n,) seat acting first this round (best showing hand; ties: seat 1)."""
    split: int
    """States ``[:split]`` have seat 0 acting first, ``[split:]`` seat 1."""
    valid: np.ndarray
    """(n, N) float: 1 where a card may be a down card (it is not an up card)."""
    weight_valid: np.ndarray
    """(n, N) chance probability of each deal through a state (times class size), times ``valid``."""
    root: np.ndarray
    """(n,) index of the round-0 ancestor."""
    root_weight: np.ndarray
    """(n,) size of the round-0 ancestor's suit class (1 in the full tree)."""
    down_cards: np.ndarray
    """(n, V) the cards that may be a down card, ascending (V = N minus the up cards)."""
    parent: np.ndarray | None = None
    """(n,) index of the parent state in the previous layer."""
    parent_major: np.ndarray | None = None
    """(n,) gather order that groups states by parent (``children`` per parent)."""
    children: int = 0
    """States per parent state (ordered pairs of new up cards)."""

    @property
    def size(self) -> int:
        return len(self.ups)

    def seat_slices(self, seat: int, depth: int) -> tuple[slice, slice]:
        """(states where ``seat`` acts at a betting depth, states where the other seat acts)."""
        first_block = slice(0, self.split)
        second_block = slice(self.split, self.size)
        acts_in_first_block = (seat ^ (depth % 2)) == 0
        return (first_block, second_block) if acts_in_first_block else (second_block, first_block)


class PublicTree:
    """All layers of a toy stud game, plus what the betting needs per round.

    Build with ``PublicTree(params)`` (full game) or ``PublicTree(params, canonical=True)``.
    """

    def __init__(self, params: ToyParams, *, canonical: bool = False) -> None:
        self.params = params
        self.canonical = canonical
        self.bet = BetRound(params.raise_cap)
        self.num_ends = len(self.bet.ends)
        ups, weights = _first_ups(params, canonical)
        self.layers: list[Layer] = [self._layer(0, ups, weights, parent=None)]
        for k in range(1, params.streets):
            self.layers.append(self._child_layer(k))
        self.prior = [self._prior_chips(k) for k in range(params.streets)]
        self.showdown_sign, self.showdown_same_rank = self._showdown_signs()

    # ------------------------------------------------------------ construction
    def _layer(self, k: int, ups: np.ndarray, root_weight: np.ndarray, parent: np.ndarray | None) -> Layer:
        """Sort states by who acts first and attach validity and chance weights."""
        first = _first_to_act(ups, self.params)
        order = np.argsort(first, kind="stable")
        ups, first, root_weight = ups[order], first[order], root_weight[order]
        n_cards = self.params.num_cards
        valid = np.ones((len(ups), n_cards))
        np.put_along_axis(valid, ups.reshape(len(ups), -1).astype(np.int64), 0.0, axis=1)
        deal_probability = 1.0 / perm_count(n_cards, 2 * (k + 1) + 2)
        down = np.nonzero(valid)[1].reshape(len(ups), -1)
        layer = Layer(
            ups=ups,
            first=first,
            split=int(np.count_nonzero(first == 0)),
            valid=valid,
            weight_valid=valid * (root_weight * deal_probability)[:, None],
            root=np.arange(len(ups)) if parent is None else np.zeros(0, dtype=np.int64),
            root_weight=root_weight,
            down_cards=down.astype(np.int16),
        )
        if parent is not None:
            layer.parent = parent[order]
            layer.parent_major = np.argsort(order, kind="stable")
        return layer

    def _child_layer(self, k: int) -> Layer:
        """Every ordered pair of new up cards below every state of the previous layer."""
        prev = self.layers[k - 1]
        rest = prev.down_cards.astype(np.int64)  # cards not yet face up
        pairs = np.array(list(itertools.permutations(range(rest.shape[1]), 2)))
        new = rest[:, pairs]  # (n_prev, M, 2)
        n_prev, m = new.shape[:2]
        ups = np.concatenate([np.repeat(prev.ups[:, None], m, axis=1), new[..., None]], axis=-1)
        ups = ups.reshape(n_prev * m, 2, k + 1).astype(np.int16)
        parent = np.repeat(np.arange(n_prev), m)
        root_weight = prev.root_weight[parent]
        layer = self._layer(k, ups, root_weight, parent)
        layer.children = m
        layer.root = prev.root[layer.parent]
        return layer

    def _prior_chips(self, k: int) -> np.ndarray:
        """(H_k,) chips each seat put in before round ``k`` (antes excluded), per continuation."""
        prior = np.zeros(1, dtype=np.int64)
        for i in range(k):
            ends = np.array([e.units[0] for e in self.bet.ends]) * self.params.bet_size(i)
            prior = (prior[:, None] + ends[None, :]).reshape(-1)
        return prior

    def _showdown_signs(self) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """Per seat p: ``sign[p][r2, c, r]``, the sign of p's hand with down rank r against
        the other seat's with down rank r2 in last-round state c, laid out so each r2 is
        one contiguous (n, R) slice; and ``same[p][c, r]`` = ``sign[p][r, c, r]``."""
        last = self.layers[-1]
        r = self.params.num_ranks
        ranks = (last.ups // self.params.num_suits).astype(np.int64)  # (n, 2, K)
        downs = np.broadcast_to(np.arange(r)[None, None, :, None], (last.size, 2, r, 1))
        hands = np.concatenate([np.broadcast_to(ranks[:, :, None, :], (last.size, 2, r, ranks.shape[2])), downs], -1)
        keys = hand_keys(hands, r)  # (n, 2, R)
        sign0 = np.sign(keys[:, 0, :, None] - keys[:, 1, None, :]).astype(np.float64)  # (n, R0, R1)
        signs = [sign0, -sign0.transpose(0, 2, 1)]  # (n, own rank, other's rank) per seat
        by_other = [np.ascontiguousarray(s.transpose(2, 0, 1)) for s in signs]
        same = [np.ascontiguousarray(np.diagonal(s, axis1=1, axis2=2)) for s in signs]
        return by_other, same

    # ------------------------------------------------------------ queries
    @property
    def num_rounds(self) -> int:
        return len(self.layers)

    def histories(self, k: int) -> int:
        """Continuations of the earlier rounds before round ``k``."""
        return self.num_ends**k

    def decode_history(self, k: int, h: int) -> list[int]:
        """The end leaf of each earlier round for continuation index ``h`` of round ``k``."""
        ends = []
        for _ in range(k):
            h, end = divmod(h, self.num_ends)
            ends.append(end)
        return ends[::-1]

    def ancestors(self, k: int) -> np.ndarray:
        """(n_k, k + 1) index of each state's ancestor in rounds 0..k."""
        cols = [np.arange(self.layers[k].size)]
        for i in range(k, 0, -1):
            parent = self.layers[i].parent
            assert parent is not None  # every layer after the first has one
            cols.append(parent[cols[-1]])
        return np.stack(cols[::-1], axis=1)

    def keys(self, k: int) -> np.ndarray:
        """(n_k,) one integer per state encoding its up cards (for lookups between trees)."""
        flat = self.layers[k].ups.reshape(self.layers[k].size, -1).astype(np.int64)
        code = np.zeros(len(flat), dtype=np.int64)
        for i in range(flat.shape[1]):
            code = code * self.params.num_cards + flat[:, i]
        return code


def _first_to_act(ups: np.ndarray, params: ToyParams) -> np.ndarray:
    """Seat acting first: the better showing hand; equal hands: seat 1 (left of the button)."""
    ranks = (ups // params.num_suits).astype(np.int64)
    keys = hand_keys(ranks, params.num_ranks)
    return np.where(keys[:, 0] > keys[:, 1], 0, 1).astype(np.int8)


def suit_permutations(params: ToyParams) -> np.ndarray:
    """(P, N) each permutation of suits as a map of toy cards."""
    s = params.num_suits
    cards = np.arange(params.num_cards)
    rank, suit = cards // s, cards % s
    return np.array([rank * s + np.array(p)[suit] for p in itertools.permutations(range(s))], dtype=np.int64)


def _first_ups(params: ToyParams, canonical: bool) -> tuple[np.ndarray, np.ndarray]:
    """Round-0 up cards (n, 2, 1) and their class sizes (all 1 for the full game)."""
    pairs = np.array(list(itertools.permutations(range(params.num_cards), 2)), dtype=np.int64)
    if not canonical:
        return pairs[:, :, None].astype(np.int16), np.ones(len(pairs))
    reps = canonical_pairs(pairs, params)
    uniq, counts = np.unique(reps, axis=0, return_counts=True)
    return uniq[:, :, None].astype(np.int16), counts.astype(np.float64)


def canonical_pairs(pairs: np.ndarray, params: ToyParams) -> np.ndarray:
    """The smallest image of each (a, b) card pair under every suit permutation."""
    perms = suit_permutations(params)
    images = perms[:, pairs]  # (P, n, 2)
    codes = images[..., 0] * params.num_cards + images[..., 1]
    best = codes.argmin(axis=0)
    return images[best, np.arange(len(pairs))]


def expansion(full: PublicTree, canon: PublicTree) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per round, (canonical state of each full state, its card map (n, N)).

    A full state's subgame equals its canonical state's after renaming the cards with
    the suit permutation that makes its first up cards canonical, so a canonical array
    ``a[c', d]`` reads on the full tree as ``a[index[c], card_map[c, d]]``.
    """
    perms = suit_permutations(full.params)
    first = full.layers[0].ups[:, :, 0].astype(np.int64)
    images = perms[:, first]
    codes = images[..., 0] * full.params.num_cards + images[..., 1]
    root_perm = perms[codes.argmin(axis=0)]  # (n_0, N)
    maps = []
    for k in range(full.num_rounds):
        layer = full.layers[k]
        card_map = root_perm[layer.root]
        mapped = np.take_along_axis(card_map, layer.ups.reshape(layer.size, -1).astype(np.int64), axis=1)
        code = np.zeros(layer.size, dtype=np.int64)
        for i in range(mapped.shape[1]):
            code = code * full.params.num_cards + mapped[:, i]
        canon_keys = canon.keys(k)
        order = np.argsort(canon_keys)
        pos = np.searchsorted(canon_keys, code, sorter=order)
        index = order[np.minimum(pos, len(order) - 1)]
        if not np.array_equal(canon_keys[index], code):
            raise AssertionError("a full state has no canonical image")  # a bug, not bad input
        maps.append((index, card_map))
    return maps
