"""Upper bounds OpenSpiel needs before a game is played: how long a game can last, how
many chance nodes it can meet and how much a player can win or lose.

OpenSpiel's ``GameInfo`` requires them (its own tests check every simulated game
against them), and every variant gets a bound that holds, derived from its program
and options rather than from a table of numbers:

* **decisions**: a betting round lets every seat act once, then once more after each
  action that raises the bet to match (a full bet or raise, an all-in for less, the
  bring-in): at most ``n + (raises + n + 1) * (n - 1)``, with ``raises`` the full bets
  and raises a round can hold (the raise cap when it always applies, else the deepest
  stack over the round's smallest bet). Any other step that asks for decisions
  (declarations, Cowpie splits, Cowboy's stay, draw and dummy rounds) asks each seat
  at most once. A Cowboy game repeats its program once per deal, up to ``max_deals``.
* **chance nodes**: every card dealt is one; a hand deals each card at most twice (a
  burned card may come back at seventh street), a Cowboy deal at most five cards per
  player, five more per player drawn, and ten for the dummy and its draw. One more
  when the button is drawn by chance.
* **utilities**: with finite stacks a seat loses at most its stack and wins at most
  the others' stacks; with unlimited stacks (limit betting only) a seat puts in at
  most its ante and ``(raise_cap + 1)`` of the largest bet per round; a Cowboy game's
  chips never pass :func:`~envs.variants.cowboy.rules.chip_bound`. In reward units.

A game that has no bound (unlimited stacks and no raise cap heads-up: two players could
raise forever) cannot be an OpenSpiel game and is refused with a ``ValueError`` naming
the options that would bound it. Bounds beyond what OpenSpiel stores (a C ``int``) are
clipped to ``2**31 - 1``: only stacks of hundreds of millions of bets come near it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from envs.engine.betting import LIMIT, Betting
from envs.engine.game import Game, Step
from envs.engine.options import stacks_for
from envs.variants.cowboy.rules import chip_bound

INT_LIMIT = 2**31 - 1  # OpenSpiel keeps game lengths in a C int
HAND_SIZE = 5  # cards in a Cowboy hand (and the dummy's)


@dataclass(frozen=True)
class Bounds:
    """What OpenSpiel's ``GameInfo`` needs to know in advance (see the module docstring)."""

    max_decisions: int
    max_chance_nodes: int
    min_utility: float
    max_utility: float

    @property
    def max_game_length(self) -> int:
        """OpenSpiel's ``max_game_length``: it also bounds the chance nodes of a history
        for a Python game, so it covers both."""
        return min(max(self.max_decisions, self.max_chance_nodes), INT_LIMIT)


def game_bounds(game: Game, *, random_button: bool) -> Bounds:
    """The bounds of ``game`` (one OpenSpiel episode: a hand, or a whole Cowboy game)."""
    n = game.num_players
    stacks = stacks_for(getattr(game.options, "stack", None), n)
    finite = [s for s in stacks if s is not None]
    deepest = max(finite) if len(finite) == n else None
    passes = _PASSES.get(game.variant.family, _one_pass)(game)
    per_pass = sum(_step_decisions(step, n, deepest, game) for step in game.program)
    cards = _PASS_CARDS.get(game.variant.family, _hand_cards)(game)
    low, high = _UTILITY.get(game.variant.family, _hand_utility)(game, finite, deepest)
    return Bounds(
        max_decisions=min(passes * per_pass, INT_LIMIT),
        max_chance_nodes=min(passes * cards + int(random_button), INT_LIMIT),
        min_utility=low,
        max_utility=high,
    )


def _step_decisions(step: Step, n: int, deepest: int | None, game: Game) -> int:
    """Most decisions one pass through ``step`` can ask for."""
    if isinstance(step, Betting):
        raises = _full_raises(step, n, deepest, game)
        return n + (raises + n + 1) * (n - 1)
    asks = type(step).actor is not Step.actor
    return n if asks else 0


def _full_raises(step: Betting, n: int, deepest: int | None, game: Game) -> int:
    """Most full bets and raises one betting round can hold."""
    rules = step.rules
    always_capped = rules.structure == LIMIT and rules.raise_cap is not None and rules.cap_heads_up
    by_chips = None if deepest is None else deepest // step.unit + 1  # each full raise adds a bet at least
    if always_capped:
        assert rules.raise_cap is not None
        return rules.raise_cap if by_chips is None else min(rules.raise_cap, by_chips)
    if by_chips is None:
        raise ValueError(
            f"{game.name} with stack=None and no raise cap heads-up has no longest game (two players may raise "
            "forever), which OpenSpiel needs: give a finite stack, or raise_cap with cap_heads_up=True"
        )
    return by_chips


def _hand_utility(game: Game, finite: list[int], deepest: int | None) -> tuple[float, float]:
    """Finite stacks: lose at most one's stack, win at most the others'. Unlimited
    (limit betting): an ante plus ``raise_cap + 1`` of the largest bet per round."""
    n, unit = game.num_players, game.unit
    if deepest is not None:
        return -deepest / unit, (sum(finite) - min(finite)) / unit
    rounds = [step for step in game.program if isinstance(step, Betting)]
    largest = max([step.unit for step in rounds] + [getattr(game.options, "big_bet", 0)])
    cap = max((step.rules.raise_cap or 0) for step in rounds) if rounds else 0
    most = getattr(game.options, "ante", 0) + len(rounds) * (cap + 1) * largest
    return -most / unit, (n - 1) * most / unit


def _hand_cards(game: Game) -> int:
    return 2 * len(game.deck)


def _one_pass(game: Game) -> int:
    return 1


def _cowboy_deals(game: Game) -> int:
    return int(game.options.max_deals)


def _cowboy_cards(game: Game) -> int:
    return 2 * HAND_SIZE * game.num_players + 2 * HAND_SIZE


def _cowboy_utility(game: Game, finite: list[int], deepest: int | None) -> tuple[float, float]:
    o = game.options
    chips = chip_bound(game.num_players, o.ante, o.match_cap, o.max_deals)
    return -chips / game.unit, chips / game.unit


# Families whose episode is not one pass through a hand's program (the Cowboy games
# repeat it once per deal) or whose deals differ from dealing a deck once.
_PASSES: dict[str, Callable[[Game], int]] = {"cowboy": _cowboy_deals}
_PASS_CARDS: dict[str, Callable[[Game], int]] = {"cowboy": _cowboy_cards}
_UTILITY: dict[str, Callable[[Game, list[int], int | None], tuple[float, float]]] = {"cowboy": _cowboy_utility}
