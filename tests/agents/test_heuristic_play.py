"""Every bot plays only legal actions in every variant, player count and house rule
set; the heuristic beats the random bot in every variant over duplicate deals.

The default run is sized for CI (a few hundred hands per variant; a few seconds per
strength match); ``pytest -m slow`` runs ten times the hands and adds six-player
tables.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

import agents
import evaluation
from agents.base import Agent
from agents.heuristic import HeuristicAgent
from envs.engine.actions import DRAW_BASE, NUM_DRAWS, SPLIT_BASE
from envs.view import PublicView
from tests.envs.cases import OPTIONS, PLAYER_RANGE

COWBOY_FAMILY = ("cowboy", "cowgirl", "cowpattie")
HANDS = 240  # per variant in the default run (slow: 10x)


class Checked(Agent):
    """Wraps a bot: checks every action against the view and the mask, and counts the
    kinds of decision it made."""

    def __init__(self, bot: Any) -> None:
        super().__init__()
        self.bot = bot
        self.kinds: Counter[str] = Counter()
        self.name = bot.name

    def act(self, observation: dict[str, Any], view: PublicView) -> int:
        action = int(self.bot.act(observation, view))
        assert action in view.legal_actions, f"{self.name} chose {action}, legal {view.legal_names}"
        assert observation["action_mask"][action] == 1
        self.kinds[kind(action, view)] += 1
        return action

    def seed(self, seed: int | None) -> None:
        self.bot.seed(seed)


def kind(action: int, view: PublicView) -> str:
    """A decision's kind for coverage: the action name, with the 21 splits and the 32
    draws grouped, and the dummy's draw told apart."""
    if SPLIT_BASE <= action < DRAW_BASE:
        return "split"
    if DRAW_BASE <= action < DRAW_BASE + NUM_DRAWS:
        return "dummy_draw" if "dummy_cards" in view.extra else "draw"
    name = view.legal_names[view.legal_actions.index(action)]
    if name.startswith("choose_"):  # dealer's choice: the button names the game
        return "choose"
    return "sized_bet" if name.startswith("bet_") else name


# What the heuristic must have decided at least once over a variant's sweep.
EXPECTED = {
    "stud": {"bring_in", "raise", "check_call", "fold"},
    "razz": {"bring_in", "raise", "check_call", "fold"},
    "stud_hilo": {"bring_in", "raise", "check_call", "fold"},
    "stud_hilo_declare": {"raise", "check_call", "fold", "declare_low", "declare_high", "declare_both"},
    "cowpie": {"bring_in", "raise", "check_call", "fold", "split"},
    "chowaha": {"raise", "check_call", "fold", "sized_bet", "all_in"},
    "cowboy": {"stay", "fold", "draw", "dummy_draw", "declare_low", "declare_high"},
    "cowgirl": {"stay", "fold", "draw", "dummy_draw", "declare_low", "declare_high"},
    "cowpattie": {"stay", "fold", "declare_low", "declare_high"},
    "five_card_stud": {"bring_in", "raise", "check_call", "fold"},
    "toy_stud": {"raise", "check_call", "fold"},
    "dealers_choice": {"choose", "bring_in", "raise", "check_call", "fold", "sized_bet"},
}


def tables(variant: str) -> list[tuple[int, dict[str, Any]]]:
    """Every (player count, option set) of the env test cases. Cowboy games are kept
    short (``max_deals``) and their pots bounded (``match_cap``): calling stations
    never fold, so an uncapped pot doubles deal after deal."""
    low, high = PLAYER_RANGE[variant]
    out = []
    for n in range(low, high + 1):
        for options in OPTIONS[variant]:
            options = dict(options)
            if variant in COWBOY_FAMILY:
                options.setdefault("match_cap", 40)
                options["max_deals"] = min(int(options.get("max_deals", 6)), 6)
            out.append((n, options))
    return out


def sweep(variant: str, hands: int) -> list[Checked]:
    """Play about ``hands`` hands over every table with the three bots seated in turn."""
    bots = [Checked(HeuristicAgent()), Checked(agents.RandomAgent()), Checked(agents.CallingStation())]
    cases = tables(variant)
    per_table = max(1, math.ceil(hands / len(cases)))
    for i, (n, options) in enumerate(cases):
        seated = [bots[(i + s) % 3] for s in range(min(3, n))]  # rotate who sits (heads-up: two of them)
        evaluation.run_match(variant, seated, deals=per_table, num_players=n, seed=i, options=options, duplicate=False)
    return bots


@pytest.mark.parametrize("variant", sorted(PLAYER_RANGE))
def test_every_bot_plays_only_legal_actions(variant: str) -> None:
    heuristic, random_bot, calling = sweep(variant, HANDS)
    assert all(sum(b.kinds.values()) > 0 for b in (heuristic, random_bot, calling))
    assert EXPECTED[variant] <= set(heuristic.kinds), f"never decided: {EXPECTED[variant] - set(heuristic.kinds)}"


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(PLAYER_RANGE))
def test_every_bot_plays_only_legal_actions_long(variant: str) -> None:
    heuristic, _, _ = sweep(variant, 10 * HANDS)
    assert EXPECTED[variant] <= set(heuristic.kinds)


# Duplicate deals per strength match, sized so that the 95% interval sits well above
# zero (measured over seeds 0-5: 2.3 to 6.8 half-widths).
STRENGTH_DEALS = {
    "stud": 300,
    "razz": 300,
    "stud_hilo": 300,
    "stud_hilo_declare": 300,
    "cowpie": 250,
    "chowaha": 200,
    "cowboy": 200,
    "cowgirl": 200,
    "cowpattie": 150,
    "five_card_stud": 300,
}


def players(variant: str) -> int:
    """Heads-up where the variant allows it (three for the Cowboy family)."""
    return PLAYER_RANGE[variant][0]


@pytest.mark.parametrize("variant", sorted(STRENGTH_DEALS))
def test_heuristic_beats_random(variant: str) -> None:
    result = evaluation.run_match(
        variant, ["heuristic", "random"], deals=STRENGTH_DEALS[variant], num_players=players(variant), seed=11
    )
    heuristic = result.result(0)
    assert heuristic.low > 0, f"heuristic {heuristic} per 100 seat-hands ({result.unit_name})"


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(STRENGTH_DEALS))
def test_heuristic_beats_random_long(variant: str) -> None:
    result = evaluation.run_match(
        variant, ["heuristic", "random"], deals=8 * STRENGTH_DEALS[variant], num_players=players(variant), seed=12
    )
    assert result.result(0).low > 0


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(STRENGTH_DEALS))
def test_heuristic_beats_five_random_bots(variant: str) -> None:
    # Six-seat Cowboy games need a match cap for a meaningful interval: uncapped, the
    # pot doubles with every deal that three random stayers lose, and a few games of
    # millions of antes decide the mean (measured: +3e7 +- 6e7 antes per 100 games).
    options = {"match_cap": 20} if variant in COWBOY_FAMILY else None
    lineup = ["heuristic"] + ["random"] * 5
    result = evaluation.run_match(
        variant, lineup, deals=2 * STRENGTH_DEALS[variant], num_players=6, seed=13, options=options
    )
    assert result.result(0).low > 0
