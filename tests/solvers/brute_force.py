"""Brute force for toy stud: plain Python over every full history, for cross-checks only.

Written from docs/rules.md section 10 without the solvers' tree, layers or tables: it deals
every ordered sequence of cards, plays every betting sequence, and finds a best
response the textbook way (per information set, the action maximising the sum over its
histories of chance x opponent reach x value). Exponential, so only for tiny decks.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from solvers.toy import ToyParams

FOLD, CALL, RAISE = 0, 1, 3
Action = tuple[int, int, int, int]  # (round, seat, action, chips)


@functools.cache
def showing_strength(ranks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Count pattern (trips > two pair > pair > none), then ranks by count and rank."""
    counts: dict[int, int] = defaultdict(int)
    for r in ranks:
        counts[r] += 1
    ordered = sorted(((n, r) for r, n in counts.items()), reverse=True)
    return tuple(n for n, _ in ordered), tuple(r for _, r in ordered)


@dataclass(frozen=True)
class Spot:
    """Where a hand stands after a history: whose turn, chips, or the end."""

    round: int
    actor: int  # -1: the hand is over
    contrib: tuple[int, int]  # chips in the pot from each seat, antes included
    round_contrib: tuple[int, int]
    bets: int
    acted: int
    folder: int  # -1 unless someone folded


class BruteGame:
    """Toy stud rules over explicit deals ``(down0, down1, up0_r0, up1_r0, up0_r1, ...)``."""

    def __init__(self, params: ToyParams) -> None:
        self.params = params
        self.rank = [c // params.num_suits for c in range(params.num_cards)]
        self.cards_dealt = 2 + 2 * params.streets
        self.engine = [params.engine_card(c) for c in range(params.num_cards)]
        self.spot = functools.lru_cache(maxsize=None)(self._spot)  # type: ignore[method-assign]

    def deals(self) -> list[tuple[int, ...]]:
        return list(itertools.permutations(range(self.params.num_cards), self.cards_dealt))

    def ups(self, deal: tuple[int, ...], seat: int, rnd: int) -> list[int]:
        return [deal[2 + 2 * i + seat] for i in range(rnd + 1)]

    def first_actor(self, deal: tuple[int, ...], rnd: int) -> int:
        s0 = showing_strength(tuple(sorted(self.rank[c] for c in self.ups(deal, 0, rnd))))
        s1 = showing_strength(tuple(sorted(self.rank[c] for c in self.ups(deal, 1, rnd))))
        return 0 if s0 > s1 else 1  # equal showing hands: seat 1, left of the button

    def _spot(self, deal: tuple[int, ...], history: tuple[Action, ...]) -> Spot:
        ante = self.params.ante
        contrib, rnd_c, bets, acted, rnd = [ante, ante], [0, 0], 0, 0, 0
        actor = self.first_actor(deal, 0)
        for _, seat, action, chips in history:
            contrib[seat] += chips
            rnd_c[seat] += chips
            acted += 1
            if action == FOLD:
                return Spot(rnd, -1, (contrib[0], contrib[1]), (rnd_c[0], rnd_c[1]), bets, acted, seat)
            if action == RAISE:
                bets += 1
            closes = action == CALL and (chips > 0 or acted >= 2)
            if closes:
                rnd += 1
                if rnd == self.params.streets:
                    return Spot(rnd - 1, -1, (contrib[0], contrib[1]), (0, 0), 0, 0, -1)
                rnd_c, bets, acted = [0, 0], 0, 0
                actor = self.first_actor(deal, rnd)
            else:
                actor = 1 - seat
        return Spot(rnd, actor, (contrib[0], contrib[1]), (rnd_c[0], rnd_c[1]), bets, acted, -1)

    def legal(self, spot: Spot) -> list[tuple[int, int]]:
        """(action, chips) pairs."""
        size = self.params.small_bet if spot.round == 0 else self.params.big_bet
        me, other = spot.actor, 1 - spot.actor
        owe = spot.round_contrib[other] - spot.round_contrib[me]
        moves = [(FOLD, 0), (CALL, owe)] if owe else [(CALL, 0)]
        if spot.bets < self.params.raise_cap:
            moves.append((RAISE, owe + size))
        return moves

    def payoff(self, deal: tuple[int, ...], spot: Spot, seat: int) -> float:
        """Net chips of ``seat`` in antes at the end of a hand."""
        if spot.folder >= 0:
            won = spot.contrib[spot.folder]
            return (-won if spot.folder == seat else won) / self.params.ante
        hands = []
        for s in (0, 1):
            ranks = [self.rank[deal[s]]] + [self.rank[c] for c in self.ups(deal, s, self.params.streets - 1)]
            hands.append(showing_strength(tuple(sorted(ranks))))
        assert spot.contrib[0] == spot.contrib[1]  # a showdown follows a call: no odd chip
        if hands[0] == hands[1]:
            return 0.0
        wins = hands[seat] > hands[1 - seat]
        return (spot.contrib[1 - seat] if wins else -spot.contrib[seat]) / self.params.ante

    def key(self, deal: tuple[int, ...], history: tuple[Action, ...], seat: int) -> tuple:
        """What ``seat`` knows: its down card, every up card, the betting (engine cards)."""
        spot = self.spot(deal, history)
        e = self.engine.__getitem__
        own = tuple(e(c) for c in self.ups(deal, seat, spot.round))
        opp = tuple(e(c) for c in self.ups(deal, 1 - seat, spot.round))
        return (seat, e(deal[seat]), own, opp, history)


Policy = Callable[[tuple], dict[int, float]]  # information-set key -> action probabilities


class BruteSolver:
    """Values and best responses by recursion over histories."""

    def __init__(self, game: BruteGame, policy: Policy) -> None:
        self.game = game
        self.policy = policy
        self.chance = 1.0 / len(game.deals())

    def children(self, deal: tuple[int, ...], history: tuple[Action, ...]) -> list[tuple[int, tuple[Action, ...]]]:
        spot = self.game.spot(deal, history)
        return [(a, (*history, (spot.round, spot.actor, a, chips))) for a, chips in self.game.legal(spot)]

    def policy_value(self, seat: int) -> float:
        """Expected net antes of ``seat`` when both seats follow the policy."""
        return sum(self.chance * self._value(d, (), seat) for d in self.game.deals())

    def best_response_value(self, seat: int) -> float:
        """Best response of ``seat`` to the policy of the other seat."""
        groups: dict[tuple, list[tuple[tuple[int, ...], tuple[Action, ...], float]]] = defaultdict(list)
        for deal in self.game.deals():
            self._collect(deal, (), seat, self.chance, groups)
        best: dict[tuple, int] = {}

        @functools.cache
        def value(deal: tuple[int, ...], history: tuple[Action, ...]) -> float:
            spot = self.game.spot(deal, history)
            if spot.actor < 0:
                return self.game.payoff(deal, spot, seat)
            kids = self.children(deal, history)
            if spot.actor == seat:
                key = self.game.key(deal, history, seat)
                if key not in best:
                    totals = {}
                    for a, child in kids:
                        step = child[-1]  # the same action and chips in every history of the set
                        totals[a] = sum(w * value(d, (*h, step)) for d, h, w in groups[key])
                    best[key] = max(totals, key=lambda a: totals[a])
                return value(deal, next(c for a, c in kids if a == best[key]))
            probs = self.policy(self.game.key(deal, history, spot.actor))
            return sum(probs[a] * value(deal, child) for a, child in kids)

        return sum(self.chance * value(d, ()) for d in self.game.deals())

    def _collect(
        self,
        deal: tuple[int, ...],
        history: tuple[Action, ...],
        seat: int,
        weight: float,
        groups: dict[tuple, list[tuple[tuple[int, ...], tuple[Action, ...], float]]],
    ) -> None:
        """Every history of ``seat``'s information sets with chance x opponent reach."""
        spot = self.game.spot(deal, history)
        if spot.actor < 0 or weight == 0.0:
            return
        kids = self.children(deal, history)
        if spot.actor == seat:
            groups[self.game.key(deal, history, seat)].append((deal, history, weight))
            for _, child in kids:
                self._collect(deal, child, seat, weight, groups)
            return
        probs = self.policy(self.game.key(deal, history, spot.actor))
        for a, child in kids:
            self._collect(deal, child, seat, weight * probs[a], groups)

    def _value(self, deal: tuple[int, ...], history: tuple[Action, ...], seat: int) -> float:
        spot = self.game.spot(deal, history)
        if spot.actor < 0:
            return self.game.payoff(deal, spot, seat)
        probs = self.policy(self.game.key(deal, history, spot.actor))
        return sum(probs[a] * self._value(deal, child, seat) for a, child in self.children(deal, history))


def descriptor_keys(batch) -> list[tuple]:  # type: ignore[no-untyped-def]
    """The brute force's information-set key of every row of an ``InfoSetBatch``."""
    keys = []
    for i in range(len(batch)):
        k, n = int(batch.betting_round[i]), int(batch.num_actions[i])
        actions = tuple(
            (int(batch.action_round[i, a]), int(batch.action_seat[i, a]), int(batch.action[i, a]),
             int(batch.action_chips[i, a]))
            for a in range(n)
        )  # fmt: skip
        own = tuple(int(c) for c in batch.own_up[i, : k + 1])
        opp = tuple(int(c) for c in batch.opp_up[i, : k + 1])
        keys.append((int(batch.seat[i]), int(batch.down[i]), own, opp, actions))
    return keys


def table_policy(table, keys: list[tuple]) -> Policy:  # type: ignore[no-untyped-def]
    """A brute-force policy reading rows of a (count, 4) table by key."""
    row_of = {key: i for i, key in enumerate(keys)}
    return lambda key: dict(enumerate(table[row_of[key]].tolist()))
