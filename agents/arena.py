"""Head-to-head play with duplicate deals and honest statistics.

Duplicate play: every deal (a seeded deck and button) is replayed once for each
rotation of the lineup through the seats, so every bot holds every seat's cards and
the luck of the deal cancels. Results are counted per *duplicate set* (one deal, all
rotations); sets are independent, so the 95% confidence interval of a bot's mean
result is ``1.96 * sd / sqrt(sets)`` over the per-set means.

A lineup of k bots at an n-seat table places bot ``i % k`` in seat ``i``; results are
per seat-hand, in the variant's unit (big bets, big blinds, or antes for the Cowboy
games, where one "hand" is a whole game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import Policy, describe
from agents.loading import load
from envs.aec import DealersChoiceEnv
from envs.registry import make_raw


@dataclass(frozen=True)
class Stat:
    """A mean with its 95% confidence interval over ``n`` independent samples."""

    mean: float
    half_width: float
    n: int

    @property
    def low(self) -> float:
        """Lower end of the interval."""
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        """Upper end of the interval."""
        return self.mean + self.half_width

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.half_width:.3f}"


def mean_ci(samples: Sequence[float], z: float = 1.96) -> Stat:
    """Mean and normal-approximation 95% half-width (sample sd, n - 1)."""
    n = len(samples)
    if n == 0:
        return Stat(float("nan"), float("nan"), 0)
    mean = float(np.mean(samples))
    if n == 1:
        return Stat(mean, float("inf"), 1)
    sd = float(np.std(samples, ddof=1))
    return Stat(mean, z * sd / math.sqrt(n), n)


@dataclass
class HandRecordLite:
    """One hand of a match: which bot sat where and what each seat won (units)."""

    deal: int
    rotation: int
    lineup: list[int]  # bot index per seat
    rewards: list[float]  # per seat, reward units
    decisions: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, action name, street)
    history: Any = None


@dataclass
class MatchResult:
    """Everything a match produced."""

    names: list[str]
    hands: list[HandRecordLite]
    sets: int
    unit_name: str

    def per_set(self) -> np.ndarray:
        """(sets, bots): each bot's mean result per seat-hand in each duplicate set."""
        k = len(self.names)
        rows = {deal: i for i, deal in enumerate(sorted({h.deal for h in self.hands}))}
        totals = np.zeros((len(rows), k))
        counts = np.zeros((len(rows), k))
        for h in self.hands:
            for seat, bot in enumerate(h.lineup):
                totals[rows[h.deal], bot] += h.rewards[seat]
                counts[rows[h.deal], bot] += 1
        return totals / np.maximum(counts, 1)

    def result(self, bot: int, scale: float = 100.0) -> Stat:
        """Mean result of a bot per 100 seat-hands (``scale``), with its 95% CI."""
        stat = mean_ci(self.per_set()[:, bot].tolist())
        return Stat(stat.mean * scale, stat.half_width * scale, stat.n)

    def win_rate(self, bot: int) -> float:
        """Fraction of the bot's seat-hands with a positive result."""
        wins = [h.rewards[s] > 0 for h in self.hands for s, b in enumerate(h.lineup) if b == bot]
        return float(np.mean(wins)) if wins else float("nan")


def lineups(num_bots: int, num_players: int, duplicate: bool) -> list[list[int]]:
    """Bot index per seat for each rotation of one deal."""
    base = [i % num_bots for i in range(num_players)]
    if not duplicate:
        return [base]
    return [base[-r:] + base[:-r] if r else list(base) for r in range(num_players)]


def play_hand(
    env: DealersChoiceEnv,
    bots: Sequence[Policy],
    seed: int,
    button: int,
    record_decisions: bool = False,
) -> tuple[list[float], list[tuple[int, str, str]]]:
    """Play one hand (or game) with ``bots[seat]`` in each seat; rewards per seat."""
    env.reset(seed=seed, options={"button": button})
    for bot in bots:
        if hasattr(bot, "reset"):
            bot.reset()
    state = env.state
    assert state is not None
    decisions: list[tuple[int, str, str]] = []
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        agent = env.possible_agents[seat]
        action = bots[seat].act(env.observe(agent), env.public_view(agent))
        if record_decisions:
            decisions.append((seat, env.action_names[int(action)], state.street_label))
        env.step(int(action))
    return list(state.rewards()), decisions


def run_match(
    variant: str,
    bots: Sequence[str | Policy],
    deals: int,
    *,
    num_players: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    options: dict[str, Any] | None = None,
    record_decisions: bool = False,
    keep_histories: bool = False,
    deal_range: range | None = None,
    on_hand: Callable[[HandRecordLite], None] | None = None,
) -> MatchResult:
    """Play ``deals`` duplicate sets (or single hands with ``duplicate=False``).

    Deal ``d`` uses deck seed ``seed * 1_000_003 + d`` and button ``d % n``; each bot's
    own randomness is reseeded per hand, so a match is reproducible and any range of
    deals can be played separately (``deal_range``) with identical results.
    """
    n = num_players or len(bots)
    policies = [load(b, seed=seed + i) if isinstance(b, str) else b for i, b in enumerate(bots)]
    env = make_raw(variant, n, **(options or {}))
    names = [b if isinstance(b, str) else describe(b) for b in bots]
    hands: list[HandRecordLite] = []
    for deal in deal_range if deal_range is not None else range(deals):
        deal_seed = seed * 1_000_003 + deal
        for rotation, lineup in enumerate(lineups(len(policies), n, duplicate)):
            seated = [policies[i] for i in lineup]
            for s, bot in enumerate(seated):
                if hasattr(bot, "seed"):
                    bot.seed(hash((deal_seed, rotation, s)) & 0x7FFFFFFF)
            rewards, decisions = play_hand(env, seated, deal_seed, deal % n, record_decisions)
            record = HandRecordLite(deal, rotation, lineup, rewards, decisions)
            if keep_histories:
                record.history = env.state
            if on_hand is not None:
                on_hand(record)
            hands.append(record)
    return MatchResult(names=names, hands=hands, sets=len({h.deal for h in hands}), unit_name=unit_name(env))


def unit_name(env: DealersChoiceEnv) -> str:
    """What one reward unit is in this variant."""
    return {"cowboy": "antes", "chowaha": "big blinds"}.get(env.variant.family, "big bets")
