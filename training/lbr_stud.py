"""Local best response (LBR) for heads-up stud games and Cowpie, against a network (or random, call).

The full-size counterpart of :mod:`training.lbr` (read its docstring for the rule): at
each of its decisions the LBR player

* builds the opponent's *range*: the ordered holdings of its face-down cards
  consistent with what LBR sees, each weighted by the opponent policy's probability of
  every action it took this hand at the observation it would have had with that
  holding (:mod:`training.lbr_range`: the hand replayed on the batched engine, one
  table per holding). Seven-card stud: every one of the (at most 2,256) ordered pairs
  of down cards on 3rd to 6th street; on 7th street (three down cards, about 60,000
  orders) ``max_holdings`` of them drawn uniformly from LBR's generator;
* computes its *equity* against the range, its share of the pot at showdown (a tie
  counts half, each share of a hi-lo pot its half), over the cards still to come:
  every runout when there are at most ``runouts`` of them (7th street: one), otherwise
  ``runouts`` runouts per holding drawn uniformly from LBR's generator, valued with the
  batched engine's torch evaluator (:mod:`envs.batched.hands`);
* takes the best one-step value against folding now, exactly the rule of
  :mod:`training.lbr`: fold 0; check/call (or post the bring-in) ``equity * pot - (1 -
  equity) * cost``; bet/raise ``fold_p * pot + (1 - fold_p) * (equity' * (pot + r) - (1
  - equity') * cost')``, ``cost'`` what the raise puts in (``to_call + r`` in the toy's
  words), ``r`` what the opponent must then call, ``fold_p`` the range's chance of
  folding to it (the opponent's policy at the observation after the raise, per
  holding) and ``equity'`` the equity against the part that does not fold. It folds
  only when both other values are negative, and raises only when that beats calling;
  only legal actions are considered, never remapped.

Stud high-low with a declaration (``stud_hilo_declare``) adds one decision after the
last betting round. There LBR replays the hand once per holding *and* pair of
declarations (nine tables per holding) to the showdown on the batched engine, so its
result for every pair is the engine's own payout (swing rule included). The opponent's
chance of each declaration with each holding is its policy at its declaration: read
from the observation tensor, or, for a network that scores its declarations from the
public view (the shipped agent's candidate head, :mod:`agents.candidates`), from the
opponent's view with that holding (:func:`opponent_views`). LBR declares the choice
with the best expected result against the range. Its betting decisions before the
declaration value the showdown as stud high-low does (the cards speak, each half to
its best hand): one-step lookahead has no model of the declarations still to come.
This is LBR's own approximation, like its call-down assumption: its result against
the opponent is a lower bound on the opponent's exploitability whatever rule it plays.

Cowpie adds a secret split after the last betting round (the default rules only:
illegal splits masked, no betting after the splits). At its split LBR replays the hand
once per holding to the opponent's split, reads the opponent's chance of each of the 21
splits with that holding (from the observation, or from the view with the holding's own
legal splits for the shipped agent's candidate head), and takes the legal split with the
largest expected share of the pot against the range: half to the better five-card hand
and half to the better two-card hand, from the strengths the engine computed for every
split. Its betting decisions value the showdown with both hands split by the heuristic's
score (``envs.variants.cowpie.rank_splits`` against one opponent), LBR's own
approximation again.

LBR's generator is the bot's own (``seed``: the arena reseeds it every hand), so a
match replays exactly. :func:`lbr_match` plays LBR against the opponent on fresh
duplicate deals (both seat orders per deal, :func:`evaluation.arena.run_match`), greedy
and sampled where the opponent is a network, and reports big bets per 100 hands with a
95% interval; ``dealers-choice lbr stud pretrained:stud --deals 200 --seed 7`` lands here.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import torch

from agents.base import Agent, Observation
from agents.heuristic.batched_equity import cowpie_share
from agents.loading import load
from agents.neural import NeuralAgent
from agents.probabilities import ProbabilityFunction, probability_function, view_probability_function
from envs.batched.hands import TorchHands, torch_hands
from envs.engine.actions import BASE_NAMES, BRING_IN, CHECK_CALL, FOLD, NUM_SPLITS, RAISE, SPLIT_BASE
from envs.view import PublicView
from evaluation.arena import run_match
from training.evaluation import one_thread
from training.lbr_range import ALL_PAIRS, DECLARATIONS, OpponentRange, Replay, SecretChoices, Situation

__all__ = ["VARIANTS", "Choice", "Decision", "StudLBR", "decide", "lbr_match", "showdown_equity"]

VARIANTS = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "cowpie")  # heads-up stud games
RUNOUTS = 16  # runouts per holding when they are too many to enumerate
Made = TypeVar("Made", "Decision", "Choice")


@dataclass(frozen=True)
class Decision:
    """One LBR decision and what it was made from.

    Attributes:
        action: the chosen legal action.
        values: one-step values of fold, check/call, bring-in and raise (NaN: illegal).
        equity: against the whole range.
        fold_p: the range's chance of folding to a raise (NaN: no raise legal).
        replay: the range (holdings, weights, fold probabilities).
        equities: ``[H]`` LBR's equity against each holding.
    """

    action: int
    values: np.ndarray
    equity: float
    fold_p: float
    replay: Replay
    equities: torch.Tensor


@dataclass(frozen=True)
class Choice:
    """One LBR secret choice (a declaration, a Cowpie split): the chosen action, the
    expected result of each choice against the range (declarations: low, high, both, in
    the variant's unit; splits: the share of the pot, NaN where illegal), and the range."""

    action: int
    values: np.ndarray
    found: SecretChoices


# ------------------------------------------------------------------ equity
def _share_values(hands: TorchHands, share: Any, cards: torch.Tensor) -> torch.Tensor:
    if share.hand == "high":
        return hands.high_value(cards)
    if share.hand == "low":
        return hands.low_value(cards, share.threshold)
    if share.hand == "short":
        return hands.short_value(cards)
    raise ValueError(f"the {share.hand!r} share has no LBR equity (heads-up stud games only)")


def showdown_equity(hands: TorchHands, shares: Sequence[Any], own: torch.Tensor, opp: torch.Tensor) -> torch.Tensor:
    """LBR's share of the pot (float64, ``[...]``) when ``own`` meets ``opp`` (whole
    hands ``[..., slots]``): each share with a qualifying hand takes an equal part of
    the pot, won, halved on a tie or lost; a pot nobody qualifies for is chopped.
    Odd chips are ignored."""
    won = torch.zeros(own.shape[:-1], dtype=torch.float64)
    active = torch.zeros_like(won)
    for share in shares:
        a, b = _share_values(hands, share, own), _share_values(hands, share, opp)
        live = (a > 0) | (b > 0)
        won = won + torch.where(live, (a > b).double() + 0.5 * (a == b).double(), 0.0)
        active = active + live.double()
    return torch.where(active > 0, won / active.clamp(min=1.0), 0.5)


def equities(
    lbr_range: OpponentRange,
    hands: TorchHands,
    situation: Situation,
    holdings: np.ndarray,
    *,
    runouts: int,
    generator: torch.Generator,
) -> torch.Tensor:
    """``[H]`` LBR's equity against each holding over the cards to come (module docstring)."""
    slots = lbr_range.spec.slots
    unseen = torch.from_numpy(lbr_range.unseen(situation))
    held = torch.from_numpy(holdings)
    rest = unseen.expand(len(held), -1)[~(unseen.view(1, -1, 1) == held.unsqueeze(1)).any(2)]
    rest = rest.view(len(held), -1)  # [H, r] the cards that can still come
    need_own, need_opp = slots - len(situation.own), slots - len(situation.opp)
    need, r = need_own + need_opp, rest.shape[1]
    count = math.comb(r, need_own) * math.comb(r - need_own, need_opp)
    if count <= runouts:
        picks = torch.tensor(list(_runouts(r, need_own, need_opp)), dtype=torch.int64).view(count, need)
        drawn = rest[:, picks]  # [H, M, need]
    else:
        keys = torch.rand(len(held), runouts, r, generator=generator)
        drawn = rest.unsqueeze(1).expand(-1, runouts, -1).gather(2, keys.argsort(2)[..., :need])
    m = drawn.shape[1]
    own = torch.tensor(situation.own, dtype=torch.int64).expand(len(held), m, -1)
    opp_known = torch.tensor(situation.opp_up, dtype=torch.int64).expand(len(held), -1)
    opp = torch.cat([opp_known, held], 1).unsqueeze(1).expand(-1, m, -1)
    mine = torch.cat([own, drawn[..., :need_own]], 2)
    theirs = torch.cat([opp, drawn[..., need_own:]], 2)
    if lbr_range.spec.split:
        return cowpie_equity(hands, slot_faces(lbr_range.spec), situation, mine, theirs).mean(1)
    return showdown_equity(hands, lbr_range.spec.shares, mine, theirs).mean(1)


def slot_faces(spec: Any) -> tuple[bool, ...]:
    """Whether each of a seat's cards is dealt face up, in dealt order (the deal stages')."""
    return tuple(face for stage in spec.stages if stage.kind == "deal" for face in stage.deal)


def cowpie_equity(
    hands: TorchHands, faces: Sequence[bool], situation: Situation, mine: torch.Tensor, theirs: torch.Tensor
) -> torch.Tensor:
    """``[H, M]`` LBR's share of a Cowpie pot when its seven cards ``mine`` meet
    ``theirs`` (``[H, M, 7]``: LBR's in dealt order; the opponent's up cards, then the
    holding, then the cards to come). Before the splits are made nobody's is known, so
    LBR values the showdown with both hands split as the heuristic splits them, by
    ``envs.variants.cowpie.rank_splits``' score against one opponent
    (:func:`agents.heuristic.batched_equity.cowpie_share`): its own approximation, like
    the call-down, which leaves its result a lower bound whatever split it assumes."""
    dealt = len(situation.opp)
    their_faces = [True] * len(situation.opp_up) + [False] * len(situation.down_slots) + list(faces[dealt:])
    down = ~torch.tensor([list(faces), their_faces]).expand(len(mine), -1, -1)
    cards = torch.stack([mine, theirs], 2)  # [H, M, 2, 7], LBR first
    me = torch.tensor([True, False]).expand(len(mine), -1)
    no_split = torch.full((len(mine),), -1, dtype=torch.int64)
    return cowpie_share(hands, cards, down, me, torch.ones_like(me), no_split, most=1)


def _runouts(r: int, need_own: int, need_opp: int) -> Any:
    """Every runout as positions into the remaining cards: LBR's, then the opponent's."""
    for mine in itertools.combinations(range(r), need_own):
        left = [i for i in range(r) if i not in mine]
        for theirs in itertools.combinations(left, need_opp):
            yield (*mine, *theirs)


# ------------------------------------------------------------------ the rule
def decide(situation: Situation, replay: Replay, equity_of: torch.Tensor, bring_in: int) -> Decision:
    """The one-step rule of the module docstring on a computed range."""
    weights = replay.posterior()
    legal = set(situation.legal)
    pot = float(situation.pot)
    values = np.full(4, np.nan)
    if FOLD in legal:
        values[FOLD] = 0.0
    equity = float(weights @ equity_of)
    for passive, cost in ((CHECK_CALL, situation.to_call), (BRING_IN, bring_in)):
        if passive in legal:
            values[passive] = equity * pot - (1.0 - equity) * cost
    fold_p = float("nan")
    if RAISE in legal and replay.fold is not None:
        fold_p = float(weights @ replay.fold)
        stay = weights * (1.0 - replay.fold)
        eq2 = float(stay @ equity_of / stay.sum()) if float(stay.sum()) > 0 else equity
        r, cost = float(replay.raise_to_call), float(replay.raise_cost)
        values[RAISE] = fold_p * pot + (1.0 - fold_p) * (eq2 * (pot + r) - (1.0 - eq2) * cost)
    return Decision(_choose(values), values, equity, fold_p, replay, equity_of)


def _choose(values: np.ndarray) -> int:
    """Call (or bring in) unless a raise beats it; fold only below zero."""
    passive = [a for a in (CHECK_CALL, BRING_IN) if not np.isnan(values[a])]
    if not passive:
        if np.isnan(values[RAISE]):
            raise ValueError("LBR has neither a passive action nor a raise here (not a betting decision)")
        best = RAISE
    else:
        best = passive[0]
        if not np.isnan(values[RAISE]) and values[RAISE] > values[best]:
            best = RAISE
    if not np.isnan(values[FOLD]) and values[best] < 0.0:
        best = FOLD
    return best


# ------------------------------------------------------------------ the bot
class StudLBR(Agent):
    """The LBR player against one opponent policy (module docstring).

    Args:
        variant: a heads-up stud game with a batched form (``VARIANTS``; ``toy_stud`` too).
        opponent: the bot it best-responds to (its probabilities are read on tensors).
        options: the table's options.
        max_holdings: ordered holdings enumerated up to this many, else sampled.
        runouts: runouts per holding, enumerated when there are at most this many.
        seed: LBR's generator (the arena reseeds it every hand).
        policy: the opponent's probabilities, when not read from ``opponent`` (a
            scripted opponent's, in tests).
    """

    name = "lbr"

    def __init__(
        self,
        variant: str,
        opponent: Any,
        *,
        options: dict[str, Any] | None = None,
        max_holdings: int = ALL_PAIRS,
        runouts: int = RUNOUTS,
        seed: int | None = None,
        policy: ProbabilityFunction | None = None,
    ) -> None:
        super().__init__(seed)
        if runouts < 1:
            raise ValueError(f"runouts={runouts} is not allowed: expected at least 1")
        self.declarer = view_probability_function(opponent) if policy is None else None
        policy = probability_function(opponent) if policy is None else policy
        self.range = OpponentRange(variant, policy, options=options, max_holdings=max_holdings)
        check_splits(variant, self.range.spec)
        self.hands = torch_hands("cpu")
        self.runouts = runouts
        self.decisions, self.seconds = 0, 0.0

    def decide(self, situation: Situation) -> Decision:
        """The decision at ``situation``, with its range, equities and values."""
        start = time.perf_counter()
        generator = torch.Generator().manual_seed(int(self.rng.integers(1 << 62)))
        holdings = self.range.holdings(situation, self.rng)
        replay = self.range.replay(situation, holdings)
        with one_thread():
            eq = equities(self.range, self.hands, situation, holdings, runouts=self.runouts, generator=generator)
        return self._counted(start, decide(situation, replay, eq, self.range.spec.bring_in))

    def declare(self, situation: Situation, view: PublicView | None = None) -> Choice:
        """The declaration with the best expected result against the range, each
        holding declaring as the opponent's policy would with it (module docstring).
        ``view``: LBR's, needed when the opponent scores its declarations from its view."""
        start = time.perf_counter()
        holdings = self.range.holdings(situation, self.rng)
        found = self.range.declarations(situation, holdings, self._view_chances(view, situation, holdings))
        values = found.values().numpy()
        return self._counted(start, Choice(DECLARATIONS[int(np.argmax(values))], values, found))

    def split(self, situation: Situation, view: PublicView | None = None) -> Choice:
        """Cowpie: the legal split with the largest expected share of the pot against
        the range, each holding splitting as the opponent's policy would with it.
        ``view``: LBR's, needed when the opponent scores its splits from its view."""
        start = time.perf_counter()
        holdings = self.range.holdings(situation, self.rng)
        found = self.range.splits(situation, holdings, self._view_chances(view, situation, holdings))
        legal = [a - SPLIT_BASE for a in situation.legal]
        values = np.full(NUM_SPLITS, np.nan)
        values[legal] = found.values().numpy()[legal]
        return self._counted(start, Choice(SPLIT_BASE + int(np.nanargmax(values)), values, found))

    def _view_chances(
        self, view: PublicView | None, situation: Situation, holdings: np.ndarray
    ) -> ProbabilityFunction | None:
        """The opponent's probabilities at its secret choice when it scores the choices
        from its public view: each holding's view (:func:`opponent_views`, its legal
        choices read from its replayed table's mask); None for a policy on tensors."""
        if self.declarer is None:
            return None
        if view is None:
            raise ValueError("this opponent scores its declarations and splits from its view: pass LBR's view too")
        declarer, seed = self.declarer, int(self.rng.integers(1 << 62))

        def chances(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
            return declarer(obs, mask, views=opponent_views(view, situation, holdings, mask), seed=seed)

        return chances

    def _counted(self, start: float, made: Made) -> Made:
        """``made`` (a decision or a secret choice), counted with the seconds it took."""
        self.decisions += 1
        self.seconds += time.perf_counter() - start
        return made

    def act(self, observation: Observation, view: PublicView) -> int:
        situation = Situation.of_view(view)
        if set(situation.legal) == set(DECLARATIONS):
            return self.declare(situation, view).action
        if all(SPLIT_BASE <= a < SPLIT_BASE + NUM_SPLITS for a in situation.legal):
            return self.split(situation, view).action
        return self.decide(situation).action


def opponent_views(
    view: PublicView, situation: Situation, holdings: np.ndarray, masks: torch.Tensor | None = None
) -> list[PublicView]:
    """The opponent's view at its secret choice with each holding: LBR's view of the
    same moment seen from the other seat, its own cards its up cards with the holding in
    its face-down slots, its legal actions those of ``masks`` (``[H, A]``, each
    holding's replayed table; a Cowpie split's legality depends on the cards) or else
    LBR's. Events are left out: LBR's log holds LBR's own face-down cards, and before
    the showdown nothing in it changes what a declaration or a split is worth."""
    up = tuple(c >= 0 for c in situation.opp)
    views = []
    for i, held in enumerate(holdings.tolist()):
        cards = list(situation.opp)
        for slot, c in zip(situation.down_slots, held, strict=True):
            cards[slot] = c
        legal = view.legal_actions if masks is None else tuple(int(a) for a in torch.nonzero(masks[i]).flatten())
        names = tuple(BASE_NAMES[a] for a in legal)
        views.append(
            dataclasses.replace(
                view, seat=situation.opponent, own_cards=tuple(cards), own_up=up,
                legal_actions=legal, legal_names=names, events=(),
            )
        )  # fmt: skip
    return views


def check_splits(variant: str, spec: Any) -> None:
    """LBR's Cowpie covers the default split rules: illegal splits masked (under
    ``forfeit`` a chosen split could win nothing, which its shares do not model) and no
    betting round after the splits (its replay cannot step the opponent's secret split)."""
    stages = [s.kind for s in spec.stages]
    if "split" not in stages:
        return
    if any(s.forfeit for s in spec.stages):
        raise ValueError(f"{variant}: LBR covers illegal_split='mask' (the default), not 'forfeit'")
    if "bet" in stages[stages.index("split") :]:
        raise ValueError(f"{variant}: LBR covers betting before the splits only, not bet_after_split=true")


# ------------------------------------------------------------------ the match
def check_inputs(variant: str, num_players: int, deals: int) -> None:
    """Clear errors before anything is loaded."""
    if variant not in VARIANTS:
        raise ValueError(f"LBR has no form for {variant!r}; it covers toy_stud (exact) and {', '.join(VARIANTS)}")
    if num_players != 2:
        raise ValueError(f"--num-players {num_players} is not allowed: local best response is heads-up only (2)")
    if deals < 2:
        raise ValueError(f"--deals {deals} is not allowed: a 95% interval needs at least 2 deals")


def _opponent(spec: str, variant: str, options: dict[str, Any], greedy: bool) -> Any:
    if spec == "uniform":  # toy_stud's tabular policy, not a bot
        raise ValueError(
            f"'uniform' is a toy_stud table; on {variant} the bot uniform over the legal actions is 'random'"
        )
    bot = load(spec, seed=0, variant=variant, num_players=2, options=options, greedy=greedy)
    probability_function(bot)  # an unsupported bot fails here, before any hand
    return bot


def lbr_match(
    variant: str,
    spec: str,
    *,
    deals: int,
    seed: int,
    options: dict[str, Any] | None = None,
    max_holdings: int = ALL_PAIRS,
    runouts: int = RUNOUTS,
    progress: bool = True,
    num_players: int = 2,
) -> dict[str, Any]:
    """LBR against ``spec`` on ``deals`` duplicate deals of seed ``seed``, per mode (a
    network: greedy and sampled; another bot: as it plays), in big bets per 100 hands."""
    check_inputs(variant, num_players, deals)
    options = dict(options or {})
    first = _opponent(spec, variant, options, greedy=True)
    modes = ("greedy", "sampled") if isinstance(first, NeuralAgent) else ("as_is",)
    start = time.perf_counter()
    results: dict[str, Any] = {}
    for mode in modes:
        opponent = first if mode != "sampled" else _opponent(spec, variant, options, greedy=False)
        results[mode] = _play(variant, spec, opponent, mode, deals, seed, options, max_holdings, runouts, progress)
    return {
        "variant": variant,
        "num_players": 2,
        "policy": spec,
        "options": options,
        "deals": deals,
        "seed": seed,
        "max_holdings": max_holdings,
        "runouts": runouts,
        "unit": "big bets per 100 hands",
        "results": results,
        "seconds": time.perf_counter() - start,
    }


def _play(
    variant: str,
    spec: str,
    opponent: Any,
    mode: str,
    deals: int,
    seed: int,
    options: dict[str, Any],
    max_holdings: int,
    runouts: int,
    progress: bool,
) -> dict[str, Any]:
    from tqdm import tqdm

    lbr = StudLBR(variant, opponent, options=options, max_holdings=max_holdings, runouts=runouts)
    bar = tqdm(total=2 * deals, desc=f"lbr vs {spec} ({mode})", unit="hand", disable=not progress, file=sys.stderr)
    began = time.perf_counter()
    try:
        with one_thread():  # batches of a few thousand tables: extra threads only contend
            match = run_match(variant, [lbr, opponent], deals, seed=seed, options=options,
                              names=["lbr", spec], on_hand=lambda _: bar.update(1))  # fmt: skip
    finally:
        bar.close()
    stat = match.result(0)
    return {
        "mean": stat.mean,
        "ci95": stat.half_width,
        "low": stat.low,
        "high": stat.high,
        "sets": stat.n,
        "hands": len(match.hands),
        "lbr_decisions": lbr.decisions,
        "seconds_per_decision": lbr.seconds / max(lbr.decisions, 1),
        "seconds": time.perf_counter() - began,
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as text."""
    lines = [
        f"{report['variant']} heads-up: local best response against {report['policy']}",
        f"{report['deals']:,} duplicate deals (both seat orders), seed {report['seed']}; "
        f"holdings up to {report['max_holdings']:,}, runouts {report['runouts']} per holding",
    ]
    for mode, r in report["results"].items():
        lines.append(
            f"  {mode:8s} LBR {r['mean']:+8.2f} ± {r['ci95']:.2f} {report['unit']}  "
            f"({r['hands']:,} hands, {r['lbr_decisions']:,} LBR decisions, {r['seconds_per_decision']:.2f} s each)"
        )
    lines.append(f"seconds {report['seconds']:.1f}")
    return "\n".join(lines)
