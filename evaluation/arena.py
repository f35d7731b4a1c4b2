"""Head-to-head play with duplicate deals and honest statistics.

Duplicate play: every deal (a seeded deck and button) is replayed once for each
rotation of the lineup through the seats, so every bot holds every seat's cards and
the luck of the deal cancels. Results are counted per *duplicate set* (one deal, all
rotations); sets are independent, so the 95% confidence interval of a bot's mean
result is ``t * sd / sqrt(sets)`` over the per-set means, with ``t`` Student's 0.975
quantile for ``sets - 1`` degrees of freedom (12.71 for two sets, 2.26 for ten, 1.98
for a hundred; 1.96 only in the limit).

A lineup of k bots at an n-seat table places bot ``(i + shift) % k`` in seat ``i``;
when k does not divide n every shift is played (two bots at three seats: A-B-A and
B-A-B), so that each bot holds as many seat-hands as every other. Results are per
seat-hand, in the variant's unit (big bets, big blinds, or antes for the Cowboy games,
where one "hand" is a whole game and results are quoted per game, not per 100).

Every answer of a bot is checked: anything but a legal action as an int raises
:class:`~envs.policy.BotActionError` (an ``IllegalActionError``) naming the bot and
its seat, and a bot that raises or quits raises :class:`~envs.policy.BotError`.
``run_match(..., isolate=True)`` runs each bot in its own process (:mod:`evaluation.isolate`)
with a time limit per decision; there a failing bot forfeits the match instead
(``MatchResult.forfeit`` says who, where and why) and the caller carries on.
Bot programs (``cmd:`` and ``tcp://`` specs, :mod:`evaluation.external`) always run
apart and always forfeit that way; they get the start and end of every hand too.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import Policy, describe
from agents.loading import load
from envs.aec import DealersChoiceEnv
from envs.policy import BotActionError, BotError, Seating, blame
from envs.registry import make_raw
from evaluation.external import MATCH_TIMEOUT, ExternalBot, is_external
from evaluation.isolate import DECISION_TIMEOUT, IsolatedBot
from evaluation.mix import decision_mix
from evaluation.student_t import t_quantile


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


HUGE = 1e100  # results beyond this are summarised in units of the largest (squares would overflow)


def mean_ci(samples: Sequence[float], z: float | None = None, *, confidence: float = 0.95) -> Stat:
    """Mean and the half-width of its ``confidence`` interval (default 95%) from the
    sample sd (``n - 1``) and Student's t for ``n - 1`` degrees of freedom: the normal
    1.96 would make small samples' intervals too narrow (13% at ``n = 10``). ``z``
    forces a fixed multiplier instead (the old normal approximation: ``z=1.96``).

    Finite for any finite samples: Cowboy games without a ``match_cap`` can end with
    1e78 antes or more, whose squares overflow a float; such samples are divided by the
    largest magnitude first and the figures scaled back.

    >>> round(mean_ci([1.0, 2.0, 3.0, 4.0]).half_width, 4)  # 3.1824 * 1.2910 / 2
    2.0543
    >>> mean_ci([1e200, -1e200]).half_width > 1e200
    True
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence={confidence!r} is not allowed: expected a level strictly between 0 and 1")
    n = len(samples)
    if n == 0:
        return Stat(float("nan"), float("nan"), 0)
    scale = float(np.max(np.abs(samples)))
    if scale > HUGE:
        unit = mean_ci(np.asarray(samples, float) / scale, z, confidence=confidence)
        return Stat(unit.mean * scale, unit.half_width * scale, n)
    mean = float(np.mean(samples))
    if n == 1:
        return Stat(mean, float("inf"), 1)
    sd = float(np.std(samples, ddof=1))
    multiplier = z if z is not None else t_quantile(0.5 + confidence / 2, n - 1)
    return Stat(mean, multiplier * sd / math.sqrt(n), n)


@dataclass
class HandRecordLite:
    """One hand of a match: which bot sat where and what each seat won (units)."""

    deal: int
    rotation: int
    lineup: list[int]  # bot index per seat
    rewards: list[float]  # per seat, reward units
    decisions: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, action name, street)
    history: Any = None
    mix: list[Any] = field(default_factory=list)  # per seat: Counter of decisions (evaluation.mix)


@dataclass(frozen=True)
class Forfeit:
    """A match lost by a bot that failed (isolated play): who, where and what it did."""

    bot: int  # index among the match's bots
    name: str
    deal: int
    rotation: int
    seat: int
    reason: str  # the error's message: names the bot, its seat and what it did


@dataclass
class MatchResult:
    """Everything a match produced."""

    names: list[str]
    hands: list[HandRecordLite]
    sets: int
    unit_name: str
    per: int = 100  # results are quoted per this many hands (1: per Cowboy game)
    mix_totals: list[Counter[str]] = field(default_factory=list)  # per bot, when hands' mixes were summed
    forfeit: Forfeit | None = None  # the first failure of a bot, which lost the match (its hands are partial)

    def fold_mix(self, keep_decisions: bool = False) -> None:
        """Sum the hands' decision counters per bot into ``mix_totals`` and drop them
        (and, unless kept, the per-hand decision lists): long matches stay small."""
        totals: list[Counter[str]] = [Counter() for _ in self.names]
        for h in self.hands:
            for seat, counter in enumerate(h.mix):
                totals[h.lineup[seat]].update(counter)
            h.mix = []
            if not keep_decisions:
                h.decisions = []
        self.mix_totals = totals

    @property
    def rate_label(self) -> str:
        """``"big bets per 100 hands"``, ``"antes per game"``..."""
        return rate_label(self.unit_name, self.per)

    @classmethod
    def merge(cls, parts: Sequence[MatchResult]) -> MatchResult:
        """One result from matches over disjoint deal ranges (in deal order)."""
        if not parts:
            raise ValueError("nothing to merge: no match results")
        first = parts[0]
        hands = sorted((h for p in parts for h in p.hands), key=lambda h: (h.deal, h.rotation))
        sets = len({h.deal for h in hands})
        merged = cls(names=list(first.names), hands=hands, sets=sets, unit_name=first.unit_name, per=first.per)
        forfeits = [p.forfeit for p in parts if p.forfeit is not None]
        merged.forfeit = min(forfeits, key=lambda f: (f.deal, f.rotation), default=None)
        if all(p.mix_totals for p in parts):
            merged.mix_totals = [Counter() for _ in first.names]
            for p in parts:
                for total, counts in zip(merged.mix_totals, p.mix_totals, strict=True):
                    total.update(counts)
        return merged

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

    def result(self, bot: int, scale: float | None = None) -> Stat:
        """Mean result of a bot per ``scale`` seat-hands (default ``per``: 100 hands, or
        one Cowboy game), with its 95% CI over duplicate sets."""
        scale = self.per if scale is None else scale
        stat = mean_ci(self.per_set()[:, bot].tolist())
        return Stat(stat.mean * scale, stat.half_width * scale, stat.n)

    def win_rate(self, bot: int) -> float:
        """Fraction of the bot's seat-hands with a positive result."""
        wins = [h.rewards[s] > 0 for h in self.hands for s, b in enumerate(h.lineup) if b == bot]
        return float(np.mean(wins)) if wins else float("nan")


SEATINGS = ("rotate", "permute")
MAX_SEATINGS = 720  # replays of one deal; beyond this "permute" is a mistake, not a plan


def lineups(num_bots: int, num_players: int, duplicate: bool, seating: str = "rotate") -> list[list[int]]:
    """Bot index per seat for each replay of one deal.

    Compositions put bot ``(i + shift) % num_bots`` in seat ``i``, one per shift that
    gives a new multiset of seats (only one when the bots divide the table evenly).
    ``seating="rotate"`` turns each composition through every seat; ``"permute"``
    plays every distinct ordering (for three or more players: who sits to whose left
    changes too). Repeated lineups are dropped. Without duplicate play only the first
    lineup is returned (``run_match`` then cycles through them deal by deal).
    """
    if not 1 <= num_bots <= num_players:
        raise ValueError(f"{num_bots} bots cannot share {num_players} seats: need 1..{num_players} bots")
    if seating not in SEATINGS:
        raise ValueError(f"seating={seating!r} is not allowed: expected one of {', '.join(map(repr, SEATINGS))}")
    out: dict[tuple[int, ...], None] = {}
    for shift in range(num_bots):
        base = [(i + shift) % num_bots for i in range(num_players)]
        if seating == "rotate":
            orders = (base[-r:] + base[:-r] if r else list(base) for r in range(num_players))
        else:
            orders = (list(p) for p in itertools.permutations(base))
        for order in orders:
            out.setdefault(tuple(order), None)
            if len(out) > MAX_SEATINGS:
                raise ValueError(f"seating={seating!r} gives over {MAX_SEATINGS} lineups per deal; use 'rotate'")
        if not duplicate:
            break
    rows = [list(r) for r in out]
    return rows if duplicate else rows[:1]


def play_hand(
    env: DealersChoiceEnv,
    bots: Sequence[Policy] | Seating,
    seed: int,
    button: int,
    record_decisions: bool = False,
    *,
    names: Sequence[str] | None = None,
    hand: int | None = None,
) -> tuple[list[float], list[tuple[int, str, str]]]:
    """Play one hand (or game) with ``bots[seat]`` in each seat; rewards per seat.
    ``hand``: the hand's number at the table (default: the env's count), which a
    rotation of games follows (dealer's choice with ``choice="rotate"``).

    Each answer must be a legal action as an int: anything else raises
    :class:`BotActionError`, a bot that raises or quits :class:`BotError`, both naming
    the bot (``names[seat]``, default its ``name``) and its seat.
    """
    seating = bots if isinstance(bots, Seating) else Seating(bots, names)
    env.reset(seed=seed, options={"button": button} if hand is None else {"button": button, "hand": hand})
    seating.reset()
    state = env.state
    assert state is not None
    decisions: list[tuple[int, str, str]] = []
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        agent = env.possible_agents[seat]
        view = env.public_view(agent)
        action = seating.act(seat, env.observe(agent), view, labels=state.legal_labels(), state=state.describe())
        if record_decisions:
            decisions.append((seat, env.action_names[action], state.street_label))
        env.step(action)
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
    seating: str = "rotate",
    isolate: bool = False,
    decision_timeout: float = DECISION_TIMEOUT,
    forfeit: bool | None = None,
    names: Sequence[str] | None = None,
    match_timeout: float = MATCH_TIMEOUT,
) -> MatchResult:
    """Play ``deals`` duplicate sets (or single hands with ``duplicate=False``).

    Deal ``d`` uses deck seed ``seed * 1_000_003 + d``, button ``d % n`` and is the
    table's hand ``d`` (a rotation of games deals by it); each bot's
    own randomness is reseeded per hand, so a match is reproducible and any range of
    deals can be played separately (``deal_range``) with identical results. Without
    duplicate play deal ``d`` is played once, by the ``d``-th lineup in turn.
    ``record_decisions`` also fills each hand's ``mix`` (see :mod:`evaluation.mix`).

    ``isolate``: every bot (a spec string) runs in its own process, is handed only its
    observation and view, and has ``decision_timeout`` seconds per decision. ``forfeit``
    (default: ``isolate``): a bot that fails loses the match: play stops and the result
    holds the hands played so far and :class:`Forfeit`; otherwise the
    :class:`~envs.policy.BotError` or ``BotActionError`` is raised. Errors name
    the bots by ``names`` (default: their specs, or their ``name``).

    Bot programs (``cmd:``, ``tcp://``) have ``decision_timeout`` per decision and
    ``match_timeout`` seconds of answering in the match, isolated or not, and a match
    with one forfeits by default.
    """
    n = num_players or len(bots)
    table = lineups(len(bots), n, True, seating)
    env = make_raw(variant, n, **(options or {}))  # bad options fail here, before any bot starts
    labels = _labels(names if names is not None else bots)
    limits = (decision_timeout, match_timeout)
    policies = _isolated(bots, seed, limits) if isolate else _loaded(bots, seed, limits)
    if forfeit is None:
        forfeit = isolate or any(isinstance(b, ExternalBot) for b in policies)
    match = _Match(env, policies, labels, seed, record_decisions, keep_histories, on_hand)
    lost: Forfeit | None = None
    try:
        for deal in deal_range if deal_range is not None else range(deals):
            rotations = enumerate(table) if duplicate else [(deal % len(table), table[deal % len(table)])]
            for rotation, lineup in rotations:
                try:
                    match.play(deal, rotation, lineup)
                except (BotError, BotActionError) as err:
                    if not forfeit:
                        raise
                    lost = Forfeit(lineup[err.seat], labels[lineup[err.seat]], deal, rotation, err.seat, str(err))
                    break
            if lost is not None:
                break
    finally:
        for bot, given in zip(policies, bots, strict=True):
            # started here: stopped here (the runner reuses its own)
            if bot is not given and (isolate or isinstance(bot, ExternalBot)):
                bot.close()
    hands = match.hands
    sets = len({h.deal for h in hands})
    names = [b if isinstance(b, str) else describe(b) for b in bots]
    result = MatchResult(names=names, hands=hands, sets=sets, unit_name=unit_name(env), per=per_hands(env))
    result.forfeit = lost
    return result


def _labels(bots: Sequence[Any]) -> list[str]:
    """Names for errors (the spec, or the bot's ``name``), ``#2`` on a repeat: they say which copy."""
    names: list[str] = []
    for b in bots:
        base = b if isinstance(b, str) else describe(b)
        copies = sum(1 for m in names if m == base or m.startswith(f"{base}#"))
        names.append(base if copies == 0 else f"{base}#{copies + 1}")
    return names


def _external(spec: str, seed: int, limits: tuple[float, float]) -> ExternalBot:
    """A bot program; its session starts at its first hand."""
    return ExternalBot(spec, seed=seed, timeout=limits[0], match_timeout=limits[1])


def _loaded(bots: Sequence[str | Policy], seed: int, limits: tuple[float, float]) -> list[Any]:
    return [
        (_external(b, seed + i, limits) if is_external(b) else load(b, seed=seed + i)) if isinstance(b, str) else b
        for i, b in enumerate(bots)
    ]


def _isolated(bots: Sequence[str | Policy], seed: int, limits: tuple[float, float]) -> list[Any]:
    """One process per bot; started all before play, so a bot that cannot load fails first."""
    if not all(isinstance(b, str) for b in bots):
        raise ValueError("isolate=True needs bot specs (strings): a bot object already lives in this process")
    started: list[Any] = []
    try:
        for i, spec in enumerate(bots):
            spec = str(spec)
            isolated = IsolatedBot(spec, seed=seed + i, timeout=limits[0]) if not is_external(spec) else None
            started.append(isolated or _external(spec, seed + i, limits))
    except BaseException:
        for bot in started:
            bot.close()
        raise
    return started


@dataclass
class _Match:
    """One match's table and bots: plays one seating of one deal at a time."""

    env: DealersChoiceEnv
    policies: Sequence[Any]
    names: list[str]
    seed: int
    record_decisions: bool
    keep_histories: bool
    on_hand: Callable[[HandRecordLite], None] | None
    hands: list[HandRecordLite] = field(default_factory=list)

    def play(self, deal: int, rotation: int, lineup: list[int]) -> None:
        env, n = self.env, self.env.game.num_players
        deal_seed = self.seed * 1_000_003 + deal
        seating = Seating([self.policies[i] for i in lineup], [self.names[i] for i in lineup])
        seating.seed([hash((deal_seed, rotation, s)) & 0x7FFFFFFF for s in range(n)])
        hooked = self._hooked(lineup)
        for bot, name, seats in hooked:
            with blame(name, seats[0]):
                bot.hand_starts(env, deal=deal, seating=rotation, seats=seats, button=deal % n)
        # every seating of a deal is one hand of the table: the same game in a rotation
        rewards, decisions = play_hand(env, seating, deal_seed, deal % n, self.record_decisions, hand=deal)
        for bot, name, seats in hooked:
            with blame(name, seats[0]):
                bot.hand_ends(env, seats, rewards)
        record = HandRecordLite(deal, rotation, lineup, rewards, decisions)
        if self.record_decisions:
            record.mix = decision_mix(env.state)
        if self.keep_histories:
            record.history = env.state
        if self.on_hand is not None:
            self.on_hand(record)
        self.hands.append(record)

    def _hooked(self, lineup: list[int]) -> list[tuple[Any, str, list[int]]]:
        """The bots told of each hand's start and end (bot programs), once each, with
        their name and seats."""
        found: dict[int, tuple[Any, str, list[int]]] = {}
        for seat, index in enumerate(lineup):
            bot = self.policies[index]
            if hasattr(bot, "hand_starts"):
                found.setdefault(id(bot), (bot, self.names[index], []))[2].append(seat)
        return list(found.values())


def unit_name(env: DealersChoiceEnv) -> str:
    """What one reward unit is in this variant (the variant says: ``Variant.unit_name``)."""
    return env.variant.unit_name


def rate_label(unit: str, per: int) -> str:
    """How results are quoted: ``"big bets per 100 hands"``, ``"antes per game"``."""
    return f"{unit} per game" if per == 1 else f"{unit} per {per} hands"


def per_hands(env: DealersChoiceEnv) -> int:
    """Results are quoted per 100 hands, or per game where one episode is a whole game
    of many deals (``Variant.episode``: the Cowboy family)."""
    return 1 if env.variant.episode == "game" else 100
