"""The heuristic's betting and declaration rules on tensors, one row per table.

:func:`choose_bets` is :func:`agents.heuristic.betting.choose_bet` and
:func:`choose_declarations` is :func:`agents.heuristic.stud.choose_declaration`,
the same comparisons in the same float64 arithmetic selected with ``torch.where``.
The batched engine plays fixed-limit betting only, so a raise is always ``raise``
(the scalar rule's pot-sized and all-in choices exist only in pot- and no-limit games).

:class:`BetFacts` is what a seat knows of the betting, read from the batch's state
exactly as :func:`envs.engine.view.public_view` reads the scalar state (the pot, the
call, the bet, the unit, live opponents, the rounds still to come).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from agents.heuristic.style import HeuristicStyle
from envs.batched.table import TableBatch
from envs.engine.actions import BRING_IN, CHECK_CALL, DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW, FOLD, RAISE

__all__ = ["BetFacts", "bet_facts", "choose_bets", "choose_declarations"]


@dataclass(frozen=True)
class BetFacts:
    """The public betting facts of each table's seat to act (``[R]`` each; chips int64).

    Attributes:
        pot: chips in the middle; to_call: chips the seat owes; current_bet: the
        street's bet; bet_unit: its limit bet; opponents: live opponents;
        rounds_left: betting rounds after this one.
    """

    pot: torch.Tensor
    to_call: torch.Tensor
    current_bet: torch.Tensor
    bet_unit: torch.Tensor
    opponents: torch.Tensor
    rounds_left: torch.Tensor


def bet_facts(batch: TableBatch, tables: torch.Tensor, last_street: int) -> BetFacts:
    """The facts of the tables ``tables`` (an index tensor) for their seats to act."""
    s = batch.state
    seat = s.actor[tables].clamp(min=0).unsqueeze(1)
    current = s.current_bet[tables]
    to_call = (current - s.contrib[tables].gather(1, seat).squeeze(1)).clamp(min=0)
    return BetFacts(
        pot=s.committed[tables].sum(1),
        to_call=to_call,
        current_bet=current,
        bet_unit=s.bet_unit[tables],
        opponents=(~s.folded[tables]).sum(1) - 1,
        rounds_left=(last_street - s.street[tables]).clamp(min=0),
    )


def thresholds(opponents: torch.Tensor, style: HeuristicStyle) -> tuple[torch.Tensor, torch.Tensor]:
    """(raise, strong) equity thresholds (``betting.thresholds``), float64."""
    fair = 1.0 / (opponents.clamp(min=1) + 1).double()
    return fair + style.raise_edge * (1 - fair), fair + style.strong_edge * (1 - fair)


def call_values(facts: BetFacts, equity: torch.Tensor, style: HeuristicStyle) -> torch.Tensor:
    """Expected chips of calling (``betting.call_value``), float64."""
    pot = (facts.pot + facts.to_call).double()
    edge = equity * (facts.opponents + 1).double() - 1
    future = style.implied_bets * facts.rounds_left.double() * facts.bet_unit.double()
    return equity * pot - facts.to_call.double() + future * edge.clamp(min=0.0)


def choose_bets(
    legal: torch.Tensor,
    facts: BetFacts,
    equity: torch.Tensor,
    style: HeuristicStyle,
    luck: torch.Tensor | None = None,
) -> torch.Tensor:
    """``[R]`` betting actions (``choose_bet``) from the legal masks ``[R, A]`` and the
    float64 equities; ``luck`` ``[R]`` uniform numbers when the style bluffs."""
    raise_at, _strong_at = thresholds(facts.opponents, style)
    bluffing = torch.zeros_like(equity, dtype=torch.bool) if luck is None else luck < style.bluff
    can_bring_in, can_raise_now = legal[:, BRING_IN], legal[:, RAISE]
    strong = equity >= raise_at
    bring_in = torch.where(can_raise_now & (strong | bluffing), RAISE, BRING_IN)
    unit = facts.bet_unit.clamp(min=1)
    war = (facts.current_bet >= style.max_raises * unit) & (equity < style.nuts)
    can_raise = can_raise_now & ~war
    call_ok = call_values(facts, equity, style) >= style.call_margin * (facts.pot + facts.to_call).double()
    passive = torch.where((facts.to_call <= 0) | call_ok, CHECK_CALL, torch.where(legal[:, FOLD], FOLD, CHECK_CALL))
    betting = torch.where(can_raise & (strong | bluffing), RAISE, passive)
    return torch.where(can_bring_in, bring_in, betting).long()


def choose_declarations(outcome: torch.Tensor, both_at: float) -> torch.Tensor:
    """``[R]`` declarations from ``[R, 3]`` chances (``choose_declaration``)."""
    p_high, p_low, p_both = outcome.unbind(1)
    both = (p_both >= both_at) & (p_both >= torch.maximum(p_high, p_low) / 2)
    half = torch.where(p_low > p_high, DECLARE_LOW, DECLARE_HIGH)
    return torch.where(both, DECLARE_BOTH, half).long()
