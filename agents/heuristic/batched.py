"""``BatchedHeuristic``: :class:`~agents.heuristic.HeuristicAgent` at every table of a
batch at once, on tensors (the batched-bot contract of :mod:`agents.batched`).

For the variants the batched engine plays (the stud family: ``stud``, ``razz``,
``stud_hilo``, ``stud_hilo_declare``, ``five_card_stud``, ``toy_stud``; and
``cowpie``), every seat count and every :class:`~agents.heuristic.style.HeuristicStyle`,
each table's seat to act decides as the scalar bot does from the same view:

* betting: Monte Carlo equity (:mod:`agents.heuristic.batched_deal` samples the
  unseen cards consistent with what the seat sees, ``samples`` per decision;
  :mod:`agents.heuristic.batched_equity` values them on the torch evaluators of
  :mod:`envs.batched.hands`), then the pot-odds and style rules
  (:mod:`agents.heuristic.batched_rules`); a bluff coin per decision when the style
  bluffs;
* the declaration (``stud_hilo_declare``): from the chances of winning each way;
* Cowpie's split: the legal split of the best ``rank_splits`` score (no sampling).

Equal in distribution, not draw for draw: the scalar bot draws from a numpy
generator, this one from its own ``torch.Generator`` on the batch's device (seeded by
``seed``), so the same seed gives other samples, but every decision is the same
function of a sample of the same law (``tests/agents/test_batched_heuristic.py``
compares the two on fixed situations). It reads only what the seat to act sees.

On the CPU only the tables of ``rows`` are worked on (one host check picks them);
on a GPU every table is, with no host synchronisation (``sync_free``).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from agents.heuristic import DEFAULT_SAMPLES, MIN_SAMPLES, NoHeuristicError
from agents.heuristic.batched_deal import DealRules, TorchDeal, deal_plan, fill_hands, live_first, sample_pool
from agents.heuristic.batched_equity import best_share, best_split, chances, cowpie_share, hilo_share
from agents.heuristic.batched_rules import bet_facts, choose_bets, choose_declarations
from agents.heuristic.batched_values import assignment, high_values, low_values
from agents.heuristic.style import DEFAULT_STYLE, HeuristicStyle, parse_style
from envs.batched.hands import TorchHands, torch_hands
from envs.batched.table import TableBatch
from envs.engine.actions import DECLARE_LOW, SPLIT_BASE
from envs.engine.hands import low_threshold

__all__ = ["BatchedHeuristic", "Estimate"]

FAMILIES = ("stud", "cowpie")
CHUNK_HANDS = {"cpu": 1 << 16, "cuda": 1 << 22}  # hands (samples x seats) valued per chunk: memory bound
COWPIE_CHUNK_SHARE = 4  # Cowpie values 21 splits per hand: smaller chunks stay in cache (measured)
NUM_SPLITS = 21


@dataclass(frozen=True)
class Estimate:
    """The Monte Carlo outcome of each table (``[B]`` / ``[B, 3]`` float64; rows not
    estimated hold 0).

    Attributes:
        equity: the expected pot share betting counts (the scalar ``equity``).
        chances: P(win high), P(win low), P(win both): declaring tables only.
    """

    equity: torch.Tensor
    chances: torch.Tensor


class BatchedHeuristic:
    """The heuristic bot for every table of ``batch`` (see the module docstring).

    Args:
        batch: the tables it will play (its variant, seats and options; other
            batches of the same game are accepted by ``act``).
        style: a :class:`HeuristicStyle` or a style spec (``"default"``,
            ``"tight"``, ``"tight,bluff=0.05"``...), as ``HeuristicAgent``.
        seed: seed of its ``torch.Generator`` on the batch's device.
        samples: Monte Carlo samples per decision (the scalar default 256).
        sync_free: compute every table (no host synchronisation); default on for
            cuda, off for the CPU (there only the tables of ``rows`` are computed).
        check: check every chosen action against the legal mask (a host sync);
            default on for the CPU.
    """

    def __init__(
        self,
        batch: TableBatch,
        *,
        style: HeuristicStyle | str = DEFAULT_STYLE,
        seed: int = 0,
        samples: int = DEFAULT_SAMPLES,
        sync_free: bool | None = None,
        check: bool | None = None,
    ) -> None:
        if not isinstance(batch, TableBatch):
            raise ValueError(f"BatchedHeuristic needs a TableBatch, got {type(batch).__name__}")
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < MIN_SAMPLES:
            raise ValueError(f"samples={samples!r} is not allowed: expected an int >= {MIN_SAMPLES}")
        if isinstance(style, str):
            style = parse_style("" if style == "default" else style)
        if not isinstance(style, HeuristicStyle):
            raise ValueError(f"style must be a HeuristicStyle or a style spec string, got {type(style).__name__}")
        game = batch.game
        if game.variant.family not in FAMILIES:
            raise NoHeuristicError(f"no batched heuristic for {game.name} (family {game.variant.family!r})")
        self.game, self.style, self.samples = game, style, samples
        self.name = "heuristic" if style == DEFAULT_STYLE else f"heuristic:{style.label}"
        self.device = batch.device
        self.sync_free = self.device.type != "cpu" if sync_free is None else sync_free
        self.check = self.device.type == "cpu" if check is None else check
        self.generator = torch.Generator(device=self.device)
        self.generator.manual_seed(seed)
        self.hands: TorchHands = torch_hands(self.device)
        self.rules = DealRules.of(batch)
        self.last_street = len(game.variant.streets_for(game.options)) - 1
        self.way = _way(batch)
        chunk = CHUNK_HANDS.get(self.device.type, CHUNK_HANDS["cuda"])
        self.chunk_hands = chunk // COWPIE_CHUNK_SHARE if self.way == "cowpie" else chunk
        qualifier = getattr(game.options, "low_qualifier", None)
        self.threshold = 0 if qualifier is None else low_threshold(qualifier)
        self.qualified = qualifier is not None
        self.outright = batch.spec.swing_outright
        self.most_opponents = batch.num_players - 1
        self.split_game = batch.spec.split

    def seed(self, seed: int) -> None:
        """Restart the generator (the same seed replays the same decisions)."""
        self.generator.manual_seed(seed)

    def __repr__(self) -> str:
        style = "" if self.style == DEFAULT_STYLE else f", style={self.style.label!r}"
        return f"BatchedHeuristic({self.game.name}, samples={self.samples}{style})"

    # ------------------------------------------------------------------ acting
    def act(self, batch: TableBatch, rows: torch.Tensor) -> torch.Tensor:
        """``[B]`` int64 actions of every table's seat to act; used where ``rows``."""
        self._check_inputs(batch, rows)
        legal = batch.legal_mask()
        declaring = legal[:, DECLARE_LOW] if batch.spec.declare else torch.zeros_like(rows)
        splitting = legal[:, SPLIT_BASE : SPLIT_BASE + NUM_SPLITS].any(1) if self.split_game else torch.zeros_like(rows)
        tables = self._tables(rows & ~splitting)
        estimate = self._estimate(batch, tables)
        luck = None
        if self.style.bluff > 0:
            luck = torch.rand(len(tables), generator=self.generator, device=self.device)
        facts = bet_facts(batch, tables, self.last_street)
        bets = choose_bets(legal[tables], facts, estimate.equity[tables], self.style, luck)
        declared = choose_declarations(estimate.chances[tables], self.style.both_at)
        chosen = torch.where(declaring[tables], declared, bets)
        actions = torch.zeros(batch.num_tables, dtype=torch.long, device=self.device)
        actions[tables] = chosen
        if self.split_game:
            actions = torch.where(splitting, self._splits(batch, legal), actions)
        if self.check:
            self._check_legal(batch, legal, rows, actions)
        return actions

    def estimate(self, batch: TableBatch, rows: torch.Tensor) -> Estimate:
        """The Monte Carlo outcome of every table of ``rows`` (tests and diagnostics:
        ``act`` draws the same numbers for its own estimate)."""
        self._check_inputs(batch, rows)
        return self._estimate(batch, self._tables(rows))

    def _tables(self, rows: torch.Tensor) -> torch.Tensor:
        """The tables to work on: ``rows``' on the CPU, every table sync-free."""
        if self.sync_free:
            return torch.arange(len(rows), device=self.device)
        return rows.nonzero().squeeze(1)

    def _estimate(self, batch: TableBatch, tables: torch.Tensor) -> Estimate:
        """The outcome of ``tables``, a chunk at a time. On the CPU the tables are taken
        in order of the cards they draw and only the seats in the hand are valued, so
        a chunk of heads-up pots is not drawn and valued as deep as a six-way pot."""
        b = batch.num_tables
        equity = torch.zeros(b, dtype=torch.float64, device=self.device)
        both = torch.zeros(b, 3, dtype=torch.float64, device=self.device)
        if not self.sync_free and len(tables):
            tables = tables[deal_plan(batch, self.rules, tables).need.argsort(dim=0, descending=True, stable=True)]
        per_chunk = max(1, self.chunk_hands // (self.samples * batch.num_players))
        for start in range(0, len(tables), per_chunk):
            part = tables[start : start + per_chunk]
            deal = deal_plan(batch, self.rules, part)
            if not self.sync_free:
                deal = live_first(deal, int(deal.live.sum(1).max()))
            count = self._count(deal)
            drawn = sample_pool(deal, self.samples, count, self.generator)
            equity[part], both[part] = self._outcome(batch, deal, drawn)
        return Estimate(equity, both)

    def _count(self, deal: TorchDeal) -> int:
        """Cards to draw per sample: the most any row needs (one host read on the
        CPU; sync-free: the most a row can ever need)."""
        if not self.sync_free:
            return int(deal.need.max()) if len(deal.need) else 0
        return self.rules.most_needed(deal.known.shape[1])

    def _outcome(self, batch: TableBatch, deal: TorchDeal, drawn: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(equity ``[R]``, chances ``[R, 3]``) of the sampled deals ``drawn`` ``[R, S, K]``."""
        me, live, h = deal.me, deal.live, self.hands
        none = torch.zeros(len(me), 3, dtype=torch.float64, device=self.device)
        if self.way in ("cowpie", "short"):
            cards = fill_hands(deal, drawn)
            if self.way == "short":
                return best_share(h.short_value(cards), me, live).mean(1), none
            own = batch.state.chosen[deal.tables].gather(1, deal.seat.unsqueeze(1)).squeeze(1)
            share = cowpie_share(h, cards, deal.down, me, live, own, self.most_opponents)
            return share.mean(1), none
        share = assignment(deal, drawn.shape[2])
        if self.way == "low":
            return best_share(low_values(h, deal, drawn, share), me, live).mean(1), none
        high = high_values(h, deal, drawn, share)
        if self.way == "high":
            return best_share(high, me, live).mean(1), none
        low = low_values(h, deal, drawn, share, self.threshold)
        both = chances(high, low, me, live, self.outright, self.qualified) if batch.spec.declare else none
        return hilo_share(high, low, me, live).mean(1), both

    def _splits(self, batch: TableBatch, legal: torch.Tensor) -> torch.Tensor:
        """Cowpie's split of every table's seat to act (deterministic)."""
        s = batch.state
        seat = s.actor.clamp(min=0)
        index = torch.arange(batch.num_tables, device=self.device)
        cards, down = s.cards[index, seat], ~s.up[index, seat]
        opponents = (~s.folded).sum(1) - 1
        allowed = legal[:, SPLIT_BASE : SPLIT_BASE + NUM_SPLITS]
        choice = best_split(self.hands, cards, down, allowed, opponents, self.most_opponents)
        return SPLIT_BASE + choice

    # ------------------------------------------------------------------ checks
    def _check_inputs(self, batch: TableBatch, rows: torch.Tensor) -> None:
        if not isinstance(batch, TableBatch) or batch.game.name != self.game.name:
            raise ValueError(f"{self!r} plays {self.game.name} tables, got {batch!r}")
        if batch.num_players != self.most_opponents + 1 or batch.game.options != self.game.options:
            raise ValueError(f"{self!r} was built for other seats or options than this batch's")
        if batch.device != self.device:
            raise ValueError(f"{self!r} runs on {self.device}, the batch is on {batch.device}")
        if not isinstance(rows, torch.Tensor) or rows.dtype != torch.bool or rows.shape != (batch.num_tables,):
            raise ValueError(f"rows must be a bool tensor of shape ({batch.num_tables},)")
        if rows.device != self.device:
            raise ValueError(f"rows on {rows.device}, the batch is on {self.device}")

    def _check_legal(self, batch: TableBatch, legal: torch.Tensor, rows: torch.Tensor, actions: torch.Tensor) -> None:
        """A rule that chose an illegal action is a bug: say so, never remap."""
        ok = legal.gather(1, actions.clamp(0, legal.shape[1] - 1).unsqueeze(1)).squeeze(1) & (actions >= 0)
        bad = rows & ~ok & ~batch.state.done
        if bool(bad.any()):
            t = int(bad.nonzero()[0, 0])
            names = [batch.game.action_names[a] for a in legal[t].nonzero().squeeze(1).tolist()]
            raise RuntimeError(f"{self!r} chose action {int(actions[t])} at table {t}, not among the legal {names}")


def _way(batch: TableBatch) -> str:
    """How betting counts the pot (``stud._bet_way``): Cowpie's halves, toy stud's
    short hands, razz's unqualified low, high, or high-low."""
    if batch.spec.split:
        return "cowpie"
    hands = [share.hand for share in batch.game.variant.pot_shares(batch.game.options)]
    if hands == ["short"]:
        return "short"
    if hands == ["low"]:
        return "low"
    return "high" if "low" not in hands else "hilo"
