"""Differential test against PokerKit: the same cards to the same seats and the same
actions give the same payoffs, for seven-card stud, razz and stud eight-or-better.

PokerKit numbers players from the seat left of the button and always caps a street at
four bets, so our hands use ``cap_heads_up=True`` here. Chip sizes are multiples of 60
so that halves and most ties divide evenly; hands whose split leaves odd chips (where
PokerKit's odd-chip rule differs from ours by design) are skipped and counted.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.cards import format_card
from envs.engine.state import State
from envs.variants import make_game

pokerkit = pytest.importorskip("pokerkit")
# PokerKit warns when told which card to deal; dealing our cards is the point here.
pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt:UserWarning")

GAMES = {
    "stud": "FixedLimitSevenCardStud",
    "razz": "FixedLimitRazz",
    "stud_hilo": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
}
CHIPS = {"ante": 0, "bring_in": 60, "small_bet": 120, "big_bet": 240}
AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def _our_hand(name: str, n: int, seed: int, stack: int | None) -> State:
    game = make_game(name, n, cap_heads_up=True, stack=stack, **CHIPS)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng, button=int(rng.integers(n)))
    while not state.is_over:
        legal = state.legal_actions()
        weights = np.array([0.15 if a == FOLD else 1.0 for a in legal])  # long hands, many showdowns
        state.apply(legal[int(rng.choice(len(legal), p=weights / weights.sum()))])
    return state


def _has_odd_chips(state: State) -> bool:
    """Awards that are not equal divisions (odd chips) follow our rule, not PokerKit's."""
    return state.odd_chips


def _pokerkit_payoffs(name: str, state: State, stack: int) -> list[int]:
    n, button = state.n, state.button
    to_pk = {(button + 1 + i) % n: i for i in range(n)}
    cls = getattr(pokerkit, GAMES[name])
    pk = cls.create_state(
        AUTOMATIONS, True, CHIPS["ante"], CHIPS["bring_in"], CHIPS["small_bet"], CHIPS["big_bet"], stack, n
    )
    for e in state.events:
        if e.kind == "deal":
            assert pk.hole_dealee_index == to_pk[e.seat], "dealing order differs"
            pk.deal_hole(format_card(e.cards[0]))
        elif e.kind == "action":
            assert pk.actor_index == to_pk[e.seat], f"PokerKit expects player {pk.actor_index} to act"
            if e.action == FOLD:
                pk.fold()
            elif e.action == CHECK_CALL:
                pk.check_or_call()
            elif e.action == BRING_IN:
                pk.post_bring_in()
            else:
                assert e.action == RAISE
                pk.complete_bet_or_raise_to(e.amount)
    assert not pk.status, "PokerKit's hand is not over"
    return [int(pk.payoffs[to_pk[seat]]) for seat in range(n)]


def _compare(name: str, hands: int, first_seed: int) -> tuple[int, int]:
    compared = skipped = 0
    for seed in range(first_seed, first_seed + hands):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(2, 8))
        stack = int(rng.choice([60_000, 1200, 600, 300]))
        state = _our_hand(name, n, seed, stack)
        if _has_odd_chips(state):
            skipped += 1
            continue
        assert state.payoffs() == _pokerkit_payoffs(name, state, stack), f"{name} seed {seed}"
        compared += 1
    return compared, skipped


@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_payoffs_as_pokerkit(name: str) -> None:
    compared, skipped = _compare(name, 150, 0)
    assert compared >= 120, (compared, skipped)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_payoffs_as_pokerkit_long(name: str) -> None:
    compared, skipped = _compare(name, 2500, 10_000)
    assert compared >= 2000, (compared, skipped)
