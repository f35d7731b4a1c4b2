"""The opponent's range in a heads-up stud hand, replayed on the batched engine.

Local best response (:mod:`training.lbr_stud`) needs, at each of its decisions, the
opponent's probability of every action it took this hand *at the observation it would
have had* with each holding of down cards it might hold. This module computes them
exactly, by replaying the hand:

* :class:`Situation` is what the LBR seat knows, read from its public view: its own
  cards, the opponent's cards in dealt order (face-down ones unknown), the button, the
  betting so far (every action with its seat) and the chips;
* a *holding* is an ordered tuple of cards for the opponent's face-down slots so far:
  ordered, since the observation puts each card in its own slot and a network need not
  read ``(a, b)`` and ``(b, a)`` alike, so each order is its own deal of equal prior;
* :meth:`OpponentRange.replay` stacks one deck per holding (LBR's cards and the up
  cards where they were dealt, the holding in the opponent's face-down slots, the
  unseen rest anywhere else), deals them as one batch of tables
  (:mod:`envs.batched.table`) and steps the hand's public actions through every table
  at once. Each table's observation for the opponent is then exactly what the env
  would have shown it with that holding (the tests compare it with the real one), and
  the opponent's policy (:mod:`agents.probabilities`) gives the probability of what it
  did, one forward pass per opponent decision for all holdings. Optionally LBR's raise
  is stepped too, giving the opponent's fold probability facing it, per holding;
* :meth:`OpponentRange.declarations` (stud high-low with a declaration) replays nine
  tables per holding, one per pair of declarations, to the showdown: the opponent's
  declaration chances at its own declaration and LBR's result for every pair;
* :meth:`OpponentRange.splits` (Cowpie) replays one table per holding to the
  opponent's split: its chance of each split, and LBR's share of the pot for every
  pair of splits from the tables' five- and two-card strengths.

Where a card lies in the deck depends only on the button heads-up (every street deals
both seats, since a fold ends the hand), so the deck positions of each seat's slots are
read once per button from a hand dealt from an unshuffled deck.

Holdings: every ordered holding when there are at most ``max_holdings`` of them (the
default, 2,256 = 48 x 47, covers two down cards on every street of seven-card stud),
otherwise ``max_holdings`` drawn uniformly with replacement from the caller's generator
(seven-card stud's 7th street: three down cards, about 60,000 orders). Drawn uniformly,
they stand for the uniform prior, so the Bayes weights need no correction.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from agents.probabilities import ProbabilityFunction
from envs.batched.table import BatchStep, TableBatch, make
from envs.engine.actions import BRING_IN, CHECK_CALL, DECLARE_LOW, FOLD, NUM_SPLITS, RAISE, SPLIT_BASE
from envs.engine.events import EventKind
from envs.view import PublicView
from training.evaluation import one_thread

__all__ = ["ALL_PAIRS", "DECLARATIONS", "OpponentRange", "Replay", "ReplayError", "SecretChoices", "Situation"]

DECLARATIONS = [DECLARE_LOW, DECLARE_LOW + 1, DECLARE_LOW + 2]  # low, high, both
ALL_PAIRS = 48 * 47  # ordered pairs of down cards on seven-card stud's 3rd street (the most)


class ReplayError(RuntimeError):
    """The replayed hand left the real one (a bug, never a property of the opponent)."""


@dataclass(frozen=True)
class Situation:
    """What the LBR seat knows at one of its decisions.

    Attributes:
        seat: the LBR seat (heads-up: the opponent is ``1 - seat``).
        button: the hand's button.
        own: LBR's cards in dealt order.
        opp: the opponent's cards in dealt order, -1 where dealt face down.
        actions: every betting action so far as ``(seat, action index)``, in order.
        legal: LBR's legal actions now.
        pot: chips in the pot now.
        to_call: what LBR must put in to check or call.
    """

    seat: int
    button: int
    own: tuple[int, ...]
    opp: tuple[int, ...]
    actions: tuple[tuple[int, int], ...]
    legal: tuple[int, ...]
    pot: int
    to_call: int

    @classmethod
    def of_view(cls, view: PublicView) -> Situation:
        """The situation of the view's seat, from its own cards and its event log."""
        if view.num_players != 2:
            raise ValueError(f"local best response is heads-up only; this table has {view.num_players} players")
        opp = 1 - view.seat
        dealt = [e for e in view.events if e.kind == EventKind.DEAL and e.seat == opp]
        return cls(
            seat=view.seat,
            button=view.button,
            own=tuple(view.own_cards),
            opp=tuple(e.cards[0] if e.up else -1 for e in dealt),
            actions=tuple((e.seat, e.action) for e in view.events if e.kind == EventKind.ACTION),
            legal=tuple(view.legal_actions),
            pot=view.pot,
            to_call=view.to_call,
        )

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def down_slots(self) -> list[int]:
        """The opponent's face-down slots so far."""
        return [j for j, c in enumerate(self.opp) if c < 0]

    @property
    def opp_up(self) -> list[int]:
        return [c for c in self.opp if c >= 0]


def posterior(weights: torch.Tensor) -> torch.Tensor:
    """Normalised Bayes weights; uniform when the policy never plays this way (as the
    tabular LBR does: nothing better is known)."""
    total = weights.sum()
    if float(total) > 0:
        return weights / total
    return torch.full_like(weights, 1.0 / len(weights))


@dataclass
class Replay:
    """What one replay found, one entry per holding.

    Attributes:
        holdings: ``[H, d]`` the ordered holdings.
        weights: ``[H]`` float64 product of the opponent's probabilities of its actions
            (unnormalised Bayes weights from a uniform deal).
        fold: ``[H]`` float64 the opponent's fold probability facing LBR's raise now
            (None: not asked, or no raise is legal).
        raise_cost: chips LBR puts in by raising.
        raise_to_call: what the opponent must then put in to call.
        observations: with ``keep_observations``: the ``[H, O]`` observation and mask of
            every opponent decision, in order.
    """

    holdings: np.ndarray
    weights: torch.Tensor
    fold: torch.Tensor | None = None
    raise_cost: int = 0
    raise_to_call: int = 0
    observations: list[tuple[torch.Tensor, torch.Tensor]] = field(default_factory=list)

    def posterior(self) -> torch.Tensor:
        """:func:`posterior` of the weights."""
        return posterior(self.weights)


@dataclass
class SecretChoices:
    """What a replay at LBR's secret choice found (a declaration, a Cowpie split), one
    entry per holding; ``C`` choices (3 declarations, 21 splits).

    Attributes:
        holdings: ``[H, d]`` the ordered holdings.
        weights: ``[H]`` unnormalised Bayes weights, as :class:`Replay`'s.
        chances: ``[H, C]`` the opponent's probability of each choice with that holding
            (declarations: low, high, both).
        result: ``[H, C, C]`` what LBR gets when it chooses ``i`` and the opponent ``j``
            (``result[:, i, j]``): declarations, its result of the hand in the variant's
            unit; splits, its share of the pot (the pot no longer changes).
    """

    holdings: np.ndarray
    weights: torch.Tensor
    chances: torch.Tensor
    result: torch.Tensor

    def values(self) -> torch.Tensor:
        """``[C]`` LBR's expected result of each choice against the range."""
        return torch.einsum("h,hj,hij->i", posterior(self.weights), self.chances, self.result)


class OpponentRange:
    """Holdings and their Bayes weights for one variant's heads-up tables.

    Args:
        variant: a stud-family variant with a batched form (``stud``, ``razz``...).
        policy: the opponent's batched probabilities (:mod:`agents.probabilities`).
        options: the table's options (as ``envs.make`` takes them).
        max_holdings: enumerate every ordered holding up to this many, else sample.
    """

    def __init__(
        self,
        variant: str,
        policy: ProbabilityFunction,
        *,
        options: dict[str, object] | None = None,
        max_holdings: int = ALL_PAIRS,
    ) -> None:
        if max_holdings < 1:
            raise ValueError(f"max_holdings={max_holdings} is not allowed: expected at least 1")
        self.variant, self.policy, self.options = variant, policy, dict(options or {})
        self.max_holdings = max_holdings
        probe = make(variant, 1, 2, auto_reset=False, **self.options)
        self.spec = probe.spec
        self.deck = np.array(self.spec.deck, dtype=np.int64)
        self._positions: dict[int, np.ndarray] = {}
        self._batches: dict[int, TableBatch] = {}

    # ------------------------------------------------------------ the deck
    def positions(self, button: int) -> np.ndarray:
        """``[2, slots]`` the deck position of each seat's ``j``-th card (module docstring)."""
        if button not in self._positions:
            st = self.spec.game.new_state(0, button=button, deck=self.deck.tolist())
            while not st.is_over:
                legal = st.legal_actions()
                st.apply(next((a for a in (CHECK_CALL, BRING_IN, DECLARE_LOW) if a in legal), legal[0]))  # a split
            where = {int(c): i for i, c in enumerate(self.deck)}
            self._positions[button] = np.array([[where[int(c)] for c in st.cards[s]] for s in range(2)])
        return self._positions[button]

    def unseen(self, situation: Situation) -> np.ndarray:
        """The cards LBR has not seen (sorted): the opponent's down cards and the stub."""
        seen = set(situation.own) | set(situation.opp_up)
        return np.array([c for c in self.deck if c not in seen], dtype=np.int64)

    def holdings(self, situation: Situation, rng: np.random.Generator) -> np.ndarray:
        """``[H, d]`` ordered holdings of the opponent's down slots (module docstring)."""
        cards, d = self.unseen(situation), len(situation.down_slots)
        count = math.perm(len(cards), d)
        if count <= self.max_holdings:
            return np.array(list(itertools.permutations(cards.tolist(), d)), dtype=np.int64).reshape(count, d)
        keys = rng.random((self.max_holdings, len(cards)))
        return cards[np.argsort(keys, axis=1)[:, :d]]

    def decks(self, situation: Situation, holdings: np.ndarray) -> np.ndarray:
        """``[H, D]`` one stacked deck per holding (module docstring)."""
        pos = self.positions(situation.button)
        me, opp = situation.seat, situation.opponent
        base = np.full(len(self.deck), -1, dtype=np.int64)
        base[pos[me, : len(situation.own)]] = situation.own
        up = [j for j, c in enumerate(situation.opp) if c >= 0]
        base[pos[opp, up]] = situation.opp_up
        decks = np.repeat(base[None], len(holdings), axis=0)
        decks[:, pos[opp, situation.down_slots]] = holdings
        unseen = self.unseen(situation)
        rest = unseen[None].repeat(len(holdings), 0)[~(unseen[None, :, None] == holdings[:, None, :]).any(2)]
        free = np.flatnonzero(decks[0] < 0)
        decks[:, free] = rest.reshape(len(holdings), len(free))
        return decks

    # ------------------------------------------------------------ the replay
    def _batch(self, size: int) -> TableBatch:
        if size not in self._batches:
            self._batches[size] = make(self.variant, size, 2, auto_reset=False, **self.options)
        return self._batches[size]

    def replay(
        self,
        situation: Situation,
        holdings: np.ndarray,
        *,
        ask_raise: bool = True,
        keep_observations: bool = False,
    ) -> Replay:
        """Step the hand's actions through one table per holding (module docstring);
        ``ask_raise``: then LBR's raise too, where legal, for the fold probabilities."""
        with one_thread():  # a few thousand tables: extra threads only contend on a busy machine
            return self._replay(situation, holdings, ask_raise, keep_observations)

    def _hand_so_far(
        self, situation: Situation, holdings: np.ndarray, copies: int = 1, seen: list[Any] | None = None
    ) -> tuple[TableBatch, BatchStep, torch.Tensor]:
        """Deal ``copies`` tables per holding (copy ``k`` of holding ``i`` is table
        ``k * H + i``) and step the hand's actions through them all; returns the batch,
        its last step and the ``[H]`` Bayes weights (read from the first copy).
        ``seen`` collects the opponent's observations and masks at its decisions."""
        h, n = len(holdings), copies * len(holdings)
        batch = self._batch(n)
        decks = torch.from_numpy(np.tile(self.decks(situation, holdings), (copies, 1)))
        step = batch.reset(seed=0, decks=decks, buttons=torch.full((n,), situation.button))
        weights = torch.ones(h, dtype=torch.float64)
        for seat, action in situation.actions:
            self._expect(step.seat, seat, "the hand's next action")
            if seat == situation.opponent:
                obs, mask = step.observation[:h], step.action_mask[:h]
                weights = weights * self.policy(obs, mask)[:, action]
                if seen is not None:
                    seen.append((obs.clone(), mask.clone()))
            step = batch.step(torch.full((n,), action, dtype=torch.int64))
        return batch, step, weights

    def _replay(self, situation: Situation, holdings: np.ndarray, ask_raise: bool, keep_observations: bool) -> Replay:
        h, me, opp = len(holdings), situation.seat, situation.opponent
        out = Replay(holdings=holdings, weights=torch.ones(h, dtype=torch.float64))
        seen = out.observations if keep_observations else None
        batch, step, out.weights = self._hand_so_far(situation, holdings, seen=seen)
        self._expect(step.seat, me, "LBR's decision")
        if ask_raise and RAISE in situation.legal:
            s = batch.state
            before = int(s.committed[0, me])
            step = batch.step(torch.full((h,), RAISE, dtype=torch.int64))
            self._expect(step.seat, opp, "the opponent's answer to LBR's raise")
            s = batch.state
            out.raise_cost = int(s.committed[0, me]) - before
            out.raise_to_call = int(s.current_bet[0]) - int(s.contrib[0, opp])
            out.fold = self.policy(step.observation, step.action_mask)[:, FOLD]
        return out

    def declarations(
        self, situation: Situation, holdings: np.ndarray, chances: ProbabilityFunction | None = None
    ) -> SecretChoices:
        """At LBR's declaration (stud high-low with a declaration): the range, the
        opponent's declaration probabilities per holding, and LBR's result for every
        pair of declarations, by playing each pair to the showdown on the engine.
        ``chances``: the opponent's probabilities at its declaration, for the ``[H]``
        holdings in order, when not the range's policy (a network that scores its
        declarations from the public view: :mod:`training.lbr_stud`)."""
        with one_thread():
            return self._declarations(situation, holdings, chances or self.policy)

    def _declarations(
        self, situation: Situation, holdings: np.ndarray, chances_of: ProbabilityFunction
    ) -> SecretChoices:
        h, me, opp = len(holdings), situation.seat, situation.opponent
        pairs = len(DECLARATIONS) ** 2  # copy k of each holding: LBR declares k // 3, the opponent k % 3
        batch, step, weights = self._hand_so_far(situation, holdings, copies=pairs)
        block = torch.arange(pairs).repeat_interleave(h)
        choice = {me: DECLARE_LOW + block // len(DECLARATIONS), opp: DECLARE_LOW + block % len(DECLARATIONS)}
        chances = torch.zeros(h, len(DECLARATIONS), dtype=torch.float64)
        for _ in range(2):  # the two declarations, in the engine's order (each is secret)
            seat = int(step.seat[0])
            self._expect(step.seat, seat, "a declaration")
            if seat == opp:  # what it sees cannot depend on LBR's secret choice: the first block's
                chances = chances_of(step.observation[:h], step.action_mask[:h])[:, DECLARATIONS]
            step = batch.step(choice[seat])
        if not bool(step.done.all()):
            raise ReplayError("replay out of step: the hand did not end after both declarations")
        result = step.rewards[:, me].double().view(len(DECLARATIONS), len(DECLARATIONS), h).permute(2, 0, 1)
        return SecretChoices(holdings, weights, chances, result)

    def splits(
        self, situation: Situation, holdings: np.ndarray, chances: ProbabilityFunction | None = None
    ) -> SecretChoices:
        """At LBR's Cowpie split: the range, the opponent's chance of each of the 21
        splits per holding, and LBR's share of the pot for every pair of splits: half
        to the better five-card hand and half to the better two-card hand, a tie
        halving a half (odd chips ignored), from the strengths the replayed tables
        computed for every split. ``chances`` as in :meth:`declarations`."""
        with one_thread():
            return self._splits(situation, holdings, chances or self.policy)

    def _splits(self, situation: Situation, holdings: np.ndarray, chances_of: ProbabilityFunction) -> SecretChoices:
        h, me, opp = len(holdings), situation.seat, situation.opponent
        batch, step, weights = self._hand_so_far(situation, holdings)
        splits = slice(SPLIT_BASE, SPLIT_BASE + NUM_SPLITS)
        first = int(step.seat[0])
        self._expect(step.seat, first, "a split")
        if first == me:  # LBR splits first: any legal split, since the opponent cannot see it
            step = batch.step(step.action_mask[:, splits].double().argmax(1) + SPLIT_BASE)
        self._expect(step.seat, opp, "the opponent's split")
        chances = chances_of(step.observation[:h], step.action_mask[:h])[:, splits].double()
        s = batch.state
        five = _beats(s.split_five[:h, me], s.split_five[:h, opp])
        two = _beats(s.split_two[:h, me], s.split_two[:h, opp])
        return SecretChoices(holdings, weights, chances, 0.5 * (five + two))

    @staticmethod
    def _expect(seats: torch.Tensor, seat: int, what: str) -> None:
        if not bool((seats == seat).all()):
            raise ReplayError(f"replay out of step at {what}: seat {seat} expected, the tables have {seats.unique()}")


def _beats(mine: torch.Tensor, theirs: torch.Tensor) -> torch.Tensor:
    """``[H, C, C]`` float64: 1 where LBR's strength of choice ``i`` beats the
    opponent's of choice ``j``, 0.5 on a tie, 0 below (``mine``, ``theirs`` ``[H, C]``)."""
    diff = mine.unsqueeze(2) - theirs.unsqueeze(1)
    return (diff > 0).double() + 0.5 * (diff == 0).double()
