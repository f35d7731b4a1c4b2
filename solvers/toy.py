"""Toy stud (docs/rules.md section 10): the rules as data, the cards, hand ranking and one
betting round as a small tree.

The game, as this module implements it:

* two seats; seat 0 holds the button and seat 1 sits left of it (the button alternates
  between hands in play; the solvers average over both seatings, see
  ``solvers/exploit.py``);
* a deck of ``ranks`` x ``suits`` (default ``"JQKA"`` x ``"cdh"``: 12 cards); an ante of
  ``ante`` chips from each seat;
* one card down and one up each, a betting round; then ``streets - 1`` more times one
  card up each and a betting round;
* no bring-in: the best showing hand (up cards only) acts first and may check; equal
  showing hands: seat 1 (left of the button) acts first;
* fixed limit: bets of ``small_bet`` in the first round and ``big_bet`` after;
  ``raise_cap`` bets and raises a round (2: a bet and one raise), also heads-up; a
  player may fold only when facing a bet;
* showdown: rank-only hands without straights or flushes. With three cards that is
  three of a kind > pair > high card; with four or five cards (``streets`` 3 or 4) two
  pair, full house and four of a kind rank as in docs/rules.md section 1. Hands compare by
  category, then rank by rank from the top (pairs before kickers); suits never break
  ties and equal hands split the pot. Heads-up, a showdown is reached only after a
  call, so both seats put in the same chips and a split never leaves an odd chip.

Cards here are toy indices ``rank_index * len(suits) + suit_index`` (ranks from the
lowest); :meth:`ToyParams.engine_card` gives the engine's ``rank * 4 + suit``.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

# The project's action layout (envs/engine/actions.py), repeated so that this package
# imports no env code (importing ``envs`` loads gymnasium); a test checks they agree.
FOLD = 0
CHECK_CALL = 1
RAISE = 3
NUM_ACTIONS = 4  # columns of a policy table: the layout prefix fold, check_call, bring_in, raise
ACTION_NAMES = ("fold", "check_call", "bring_in", "raise")

ENGINE_RANKS = "23456789TJQKA"
ENGINE_SUITS = "cdhs"
MAX_STREETS = 4
MAX_RAISE_CAP = 4

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, FULL_HOUSE, QUADS = range(6)
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "full house", "four of a kind")
_KEY_BASE = 16  # digit base of hand keys (ranks are < 13)


def quote(value: object, limit: int = 60) -> str:
    """``repr`` of user input, cut to ``limit`` characters so errors stay readable."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class ToyParams:
    """Options of ``toy_stud`` (docs/rules.md section 10), validated on construction.

    Ranks and suits are sets written as text; they are stored in the engine's order
    (``"AKQJ"`` becomes ``"JQKA"``) so equal games compare equal.
    """

    ranks: str = "JQKA"
    """Ranks in the deck, from ``23456789TJQKA`` (at least two)."""
    suits: str = "cdh"
    """Suits in the deck, from ``cdhs``."""
    streets: int = 2
    """Betting rounds: one after the down and first up card, one after each later up card (1..4)."""
    ante: int = 1
    """Chips each seat antes; results are reported in antes."""
    small_bet: int = 1
    """Bet and raise size of the first round."""
    big_bet: int = 2
    """Bet and raise size of every later round."""
    raise_cap: int = 2
    """Bets plus raises allowed in a round (2: a bet and one raise)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranks", _card_letters("ranks", self.ranks, ENGINE_RANKS, minimum=2))
        object.__setattr__(self, "suits", _card_letters("suits", self.suits, ENGINE_SUITS, minimum=1))
        _check_int("streets", self.streets, 1, MAX_STREETS)
        _check_int("ante", self.ante, 1, None)
        _check_int("small_bet", self.small_bet, 1, None)
        _check_int("big_bet", self.big_bet, 1, None)
        _check_int("raise_cap", self.raise_cap, 1, MAX_RAISE_CAP)
        needed = 2 * (1 + self.streets)
        if self.num_cards < needed:
            raise ValueError(
                f"toy_stud: a deck of {len(self.ranks)} ranks x {len(self.suits)} suits has {self.num_cards} cards; "
                f"streets={self.streets} deals {needed} (choose more ranks or suits, or fewer streets)"
            )

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> ToyParams:
        """Build from keyword options, naming any unknown option and the known ones."""
        known = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(f"unknown option {quote(unknown[0])} for toy_stud; known options: {', '.join(known)}")
        return cls(**options)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (saved with policies so a file names the game it was solved for)."""
        return dataclasses.asdict(self)

    @property
    def num_ranks(self) -> int:
        return len(self.ranks)

    @property
    def num_suits(self) -> int:
        return len(self.suits)

    @property
    def num_cards(self) -> int:
        return len(self.ranks) * len(self.suits)

    def bet_size(self, betting_round: int) -> int:
        """Chips of one bet in a round (0-based): the small bet first, the big bet after."""
        return self.small_bet if betting_round == 0 else self.big_bet

    def card_text(self, card: int) -> str:
        """``"Jc"`` for toy card 0 of the default deck."""
        rank, suit = divmod(int(card), self.num_suits)
        return self.ranks[rank] + self.suits[suit]

    def engine_card(self, card: int) -> int:
        """The engine's card int (``rank * 4 + suit`` in the 52-card deck)."""
        rank, suit = divmod(int(card), self.num_suits)
        return ENGINE_RANKS.index(self.ranks[rank]) * 4 + ENGINE_SUITS.index(self.suits[suit])

    def engine_cards(self) -> np.ndarray:
        """Engine card ints of every toy card, indexed by toy card."""
        return np.array([self.engine_card(c) for c in range(self.num_cards)], dtype=np.int16)


def _card_letters(name: str, value: Any, alphabet: str, *, minimum: int) -> str:
    """Validate a set of rank or suit letters and return it in ``alphabet`` order."""
    if not isinstance(value, str):
        raise ValueError(f"option {name}={quote(value)} is not allowed: expected letters from {alphabet!r}")
    letters = value.strip()
    wrong = sorted(set(letters) - set(alphabet))
    if wrong:
        raise ValueError(f"option {name}={quote(value)} is not allowed: {wrong[0]!r} is not one of {alphabet!r}")
    if len(set(letters)) != len(letters):
        raise ValueError(f"option {name}={quote(value)} is not allowed: a letter appears twice")
    if len(letters) < minimum:
        raise ValueError(f"option {name}={quote(value)} is not allowed: expected at least {minimum} of {alphabet!r}")
    return "".join(sorted(letters, key=alphabet.index))


def _check_int(name: str, value: Any, low: int, high: int | None) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        allowed = f"an int in {low}..{high}" if high is not None else f"an int >= {low}"
        raise ValueError(f"option {name}={quote(value)} is not allowed: expected {allowed}")


# ------------------------------------------------------------------ hand ranking
def hand_key(ranks: tuple[int, ...] | list[int]) -> int:
    """Comparable strength of rank-only cards: category, then ranks by count and rank.

    >>> hand_key([3, 3, 0]) > hand_key([2, 2, 1]) > hand_key([3, 2, 1])
    True
    """
    counts: dict[int, int] = {}
    for r in ranks:
        counts[int(r)] = counts.get(int(r), 0) + 1
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    pattern = [n for n, _ in groups]
    key = _category(pattern)
    for i in range(5):
        key = key * _KEY_BASE + (groups[i][1] + 1 if i < len(groups) else 0)
    return key


def _category(pattern: list[int]) -> int:
    second = pattern[1] if len(pattern) > 1 else 0
    if pattern[0] >= 4:
        return QUADS
    if pattern[0] == 3:
        return FULL_HOUSE if second >= 2 else TRIPS
    if pattern[0] == 2:
        return TWO_PAIR if second == 2 else PAIR
    return HIGH_CARD


def category_of(key: int) -> str:
    """Name of the category of a :func:`hand_key`."""
    return CATEGORY_NAMES[key // _KEY_BASE**5]


@functools.lru_cache(maxsize=16)
def key_table(num_ranks: int, num_cards: int) -> np.ndarray:
    """``hand_key`` of every tuple of ``num_cards`` ranks, indexed by the tuple read as a
    base-``num_ranks`` number (so numpy can rank many hands with one lookup)."""
    keys = [hand_key(t) for t in itertools.product(range(num_ranks), repeat=num_cards)]
    return np.array(keys, dtype=np.int64)


def hand_keys(ranks: np.ndarray, num_ranks: int) -> np.ndarray:
    """Vectorised :func:`hand_key` over the last axis of an int array of ranks."""
    width = ranks.shape[-1]
    code = np.zeros(ranks.shape[:-1], dtype=np.int64)
    for i in range(width):
        code = code * num_ranks + ranks[..., i]
    return key_table(num_ranks, width)[code]


# ------------------------------------------------------------------ betting round
FOLD_LEAF, END_LEAF, DECISION = "fold", "end", "decision"


@dataclass(frozen=True)
class BetNode:
    """One node of a betting round. Positions: 0 acts first this round, 1 second."""

    index: int
    depth: int
    """Actions taken so far this round; position ``depth % 2`` acts here."""
    kind: str
    """``decision``, ``fold`` (a leaf: the player who acted last folded) or ``end`` (the round closed)."""
    units: tuple[int, int]
    """Bets each position put in this round, in units of the round's bet."""
    path: tuple[tuple[int, int, int], ...]
    """(position, action, units put in) of every action so far this round."""
    actions: tuple[int, ...] = ()
    """Legal actions at a decision node, ascending (the layout's indices)."""
    children: tuple[int, ...] = ()
    """Node index after each action."""
    decision: int = -1
    """Index among the round's decision nodes (policy tables are per decision node)."""
    end: int = -1
    """Index among the round's end leaves (the continuation into the next round)."""

    @property
    def actor(self) -> int:
        """Position acting here (decision nodes) or who just acted (leaves: depth - 1)."""
        return self.depth % 2 if self.kind == DECISION else (self.depth - 1) % 2


class BetRound:
    """The betting tree of one heads-up limit round with a cap; the same every round.

    Why a tree of its own: every public node of the game is (up cards, earlier rounds'
    continuations, a node of this tree), so the solvers loop over these few nodes and
    vectorise over everything else.
    """

    def __init__(self, raise_cap: int) -> None:
        self.raise_cap = raise_cap
        self.nodes: list[BetNode] = []
        self.decisions: list[BetNode] = []
        self.ends: list[BetNode] = []
        self._build(depth=0, units=(0, 0), path=())
        self.root = self.nodes[0]

    def _build(self, *, depth: int, units: tuple[int, int], path: tuple[tuple[int, int, int], ...]) -> int:
        index, decision = len(self.nodes), len(self.decisions)
        placeholder = BetNode(index, depth, DECISION, units, path)  # replaced once the children exist
        self.nodes.append(placeholder)
        self.decisions.append(placeholder)  # preorder: the root is decision 0
        pos = depth % 2
        facing = units[1 - pos] - units[pos]
        bets = max(units)
        moves: list[tuple[int, int, str]] = []  # action, units put in, leaf kind ("" = a decision follows)
        if facing:
            moves.append((FOLD, 0, FOLD_LEAF))
            moves.append((CHECK_CALL, facing, END_LEAF))
        else:  # a check closes the round once the other player has checked
            moves.append((CHECK_CALL, 0, END_LEAF if depth >= 1 else ""))
        if bets < self.raise_cap:
            moves.append((RAISE, facing + 1, ""))
        children = []
        for action, put_in, leaf in moves:
            new_units = (units[0] + put_in, units[1]) if pos == 0 else (units[0], units[1] + put_in)
            new_path = (*path, (pos, action, put_in))
            if leaf:
                children.append(self._leaf(leaf, depth + 1, new_units, new_path))
            else:
                children.append(self._build(depth=depth + 1, units=new_units, path=new_path))
        node = BetNode(
            index,
            depth,
            DECISION,
            units,
            path,
            actions=tuple(m[0] for m in moves),
            children=tuple(children),
            decision=decision,
        )
        self.nodes[index] = self.decisions[decision] = node
        return index

    def _leaf(self, kind: str, depth: int, units: tuple[int, int], path: tuple[tuple[int, int, int], ...]) -> int:
        end = len(self.ends) if kind == END_LEAF else -1
        node = BetNode(len(self.nodes), depth, kind, units, path, end=end)
        self.nodes.append(node)
        if kind == END_LEAF:
            self.ends.append(node)
        return node.index

    def decisions_by_position(self) -> tuple[int, int]:
        """Decision nodes where position 0 and position 1 act."""
        even = sum(1 for n in self.decisions if n.depth % 2 == 0)
        return even, len(self.decisions) - even


def perm_count(n: int, k: int) -> int:
    """Ordered selections of ``k`` of ``n`` items."""
    return int(np.prod(np.arange(n - k + 1, n + 1, dtype=object))) if k else 1


def info_set_counts(params: ToyParams) -> dict[str, Any]:
    """Information sets of each seat, per round and in all, by formula (no tree built).

    An information set is (seat, own down card, every up card, the betting so far); a
    round with ``n`` ordered up-card deals, ``H`` earlier continuations and ``V`` possible
    down cards holds ``n * H * V`` of them per decision node, half of whose decision
    nodes belong to each seat whoever acts first.
    """
    bet = BetRound(params.raise_cap)
    first, second = bet.decisions_by_position()
    if first != second:  # never for this betting structure; the per-seat split below relies on it
        raise AssertionError(f"decision nodes by position differ: {first} != {second}")
    n_cards = params.num_cards
    per_round = []
    for k in range(params.streets):
        dealt = 2 * (k + 1)
        states = perm_count(n_cards, dealt)
        per_round.append(states * len(bet.ends) ** k * (n_cards - dealt) * first)
    return {"per_seat": sum(per_round), "per_seat_by_round": per_round, "total": 2 * sum(per_round)}
