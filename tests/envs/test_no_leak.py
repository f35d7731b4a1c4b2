"""No leaks: changing other players' hidden cards never changes a player's observation
(the vector, and the structured view bots get).

Play a hand with random legal actions and record every observation of one seat; then
deal a deck in which every card that seat could not see (others' face-down cards,
burned and undealt cards) is shuffled, replay the same actions, and compare the
seat's observations until the showdown reveals the hands.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import envs
from envs.engine.actions import SPLIT_ACTIONS, SPLIT_BASE
from tests.envs.cases import OPTIONS, PLAYER_RANGE

DEALING_KINDS = ("deal", "community", "burn")
# The Cowboy games are left out: a game spans many deals, reshuffled by the generator
# (so the deal events do not map onto the initial deck), and showdowns in the middle
# of the game legitimately change observations. tests/variants/test_cowboy_no_leak.py
# resamples their hidden cards over the whole game instead.
COWBOY_FAMILY = {"cowboy", "cowgirl", "cowpattie"}  # not Cowpie, a one-hand stud game covered here
NAMES = sorted(name for name in PLAYER_RANGE if name not in COWBOY_FAMILY)


def _play(env, deck, actions=None, seed=0, viewer=None):  # type: ignore[no-untyped-def]
    """Run a hand; returns (actions taken, each viewer's observations before the end).

    Replaying for ``viewer``, another seat's secret split may have become illegal with
    its resampled cards: any legal split replaces it, since splits stay hidden from the
    viewer until the reveal (which comes with the end of the hand)."""
    env.reset(seed=seed, options={"deck": deck, "button": 0})
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    taken, seen = [], []
    i = 0
    while not raw.state.is_over:
        seen.append([(raw.observe(a)["observation"].copy(), raw.public_view(a)) for a in raw.possible_agents])
        legal = raw.state.legal_actions()
        if actions is None:
            action = legal[int(rng.integers(len(legal)))]
        else:
            action = actions[i]
            if action not in legal and raw.state.current_seat != viewer and SPLIT_BASE <= action < SPLIT_ACTIONS:
                action = legal[0]
            assert action in legal, "the replayed action became illegal: legality leaked hidden cards"
        taken.append(action)
        env.step(action)
        i += 1
    return taken, seen, raw.state


def _resampled_deck(state, viewer: int, rng: np.random.Generator) -> list[int]:  # type: ignore[no-untyped-def]
    """The hand's deck with every card ``viewer`` never saw shuffled among their positions."""
    deck = list(state.initial_deck)
    dealt = [e for e in state.events if e.kind in DEALING_KINDS]
    visible = set()
    for position, e in enumerate(dealt):
        if e.kind == "community" or e.up or e.seat == viewer:
            visible.add(position)
    hidden = [p for p in range(len(deck)) if p not in visible]
    cards = [deck[p] for p in hidden]
    for p, c in zip(hidden, rng.permutation(cards).tolist(), strict=True):
        deck[p] = c
    return deck


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_hidden_cards_do_not_leak(name: str, data: st.DataObject) -> None:
    low, high = PLAYER_RANGE[name]
    n = data.draw(st.integers(low, min(high, 6)), label="players")
    options = data.draw(st.sampled_from(OPTIONS[name]), label="options")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    env = envs.make_raw(name, n, **options)
    cards = env.game.deck  # 52 cards, or a toy deck
    deck = [cards[i] for i in np.random.default_rng(seed).permutation(len(cards))]
    actions, seen, state = _play(env, deck, seed=seed)
    for viewer in range(n):
        other_deck = _resampled_deck(state, viewer, np.random.default_rng(seed + viewer + 1))
        _, seen_again, _ = _play(env, other_deck, actions, seed=seed, viewer=viewer)
        for step, (before, after) in enumerate(zip(seen, seen_again, strict=True)):
            (obs, view), (obs_again, view_again) = before[viewer], after[viewer]
            assert np.array_equal(obs, obs_again), f"player_{viewer}'s observation changed at step {step}"
            assert view == view_again, f"player_{viewer}'s view changed at step {step}"


def test_the_check_can_fail() -> None:
    """A leak would be caught: the resampled deck does change someone's hidden cards."""
    env = envs.make_raw("stud", 3)
    deck = np.random.default_rng(1).permutation(52).tolist()
    actions, seen, state = _play(env, deck, seed=1)
    other = _resampled_deck(state, 0, np.random.default_rng(2))
    _, seen_again, _ = _play(env, other, actions, seed=1)
    changed = [not np.array_equal(a[1][0], b[1][0]) for a, b in zip(seen, seen_again, strict=True)]
    assert any(changed)  # player_1 sees its own (resampled) down cards
    assert any(a[1][1] != b[1][1] for a, b in zip(seen, seen_again, strict=True))  # in its view too
