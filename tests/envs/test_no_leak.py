"""No leaks: changing other players' hidden cards never changes anything a player is
handed: the observation vector, the structured view and the info dict, compared as a
walk through everything a bot can reach from them (``tests/envs/reach.py``), not only
what takes part in ``==``.

Play a hand with random legal actions and record what every seat is handed at every
step; then deal a deck in which every card that seat could not see (others' face-down
cards, burned and undealt cards) is shuffled, replay the same actions, and compare
the seat's view of the hand until the showdown reveals the hands. A second replay
keeps the cards shown at the showdown and compares the end too (the final view and
``info["history"]``). Every step also checks the walk: no state, no function, no
raw event list, no event the seat must not see.

What a bot program is sent over the line protocol (``evaluation.protocol``: the
``act`` message with the observation vector, the ``end_hand`` message with payoffs
and shown cards) is part of what a seat is handed, compared as the exact bytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import envs
from envs.engine.actions import SPLIT_ACTIONS, SPLIT_BASE
from evaluation import protocol
from tests.envs.cases import OPTIONS, PLAYER_RANGE, WILD_CASES, WILD_NAMES
from tests.envs.reach import Walk, leaked_events, reach

DEALING_KINDS = ("deal", "community", "burn")
# The Cowboy games are left out: a game spans many deals, reshuffled by the generator
# (so the deal events do not map onto the initial deck), and showdowns in the middle
# of the game legitimately change observations. tests/variants/test_cowboy_env.py
# relabels their hidden cards over the whole game instead.
COWBOY_FAMILY = {"cowboy", "cowgirl", "cowpattie"}  # not Cowpie, a one-hand stud game covered here
NAMES = sorted(name for name in PLAYER_RANGE if name not in COWBOY_FAMILY)


def handed(raw: Any, agent: str) -> Any:
    """Everything ``agent`` is handed now, as a dump of all a bot can reach from it;
    fails if the walk meets a state, a function, the state's own event list or an
    event the seat must not see."""
    seat = raw.agent_name_mapping[agent]
    info = raw.infos.get(agent, {})
    given_now = {"observation": raw.observe(agent), "view": raw.public_view(agent), "info": info}
    if "history" in info:
        given_now["history_text"] = str(info["history"])
    given_now["protocol"] = protocol_message(raw, agent, given_now)
    walk = Walk()
    dump = reach(given_now, agent, walk)
    leaked = leaked_events(walk.events, seat)
    assert not leaked, f"{agent} can reach events it must not see: {leaked[:3]}"
    assert id(raw.state.events) not in walk.containers, "the state's event list is reachable"
    return dump


def protocol_message(raw: Any, agent: str, given_now: dict[str, Any]) -> bytes:
    """The line a bot program in this seat would be sent now: the decision, or at the
    end the hand's payoffs, shown cards and final view. (The observation vector a bot
    may ask for is the env's, compared above as ``observation``.)"""
    view = given_now["view"]
    if raw.state.is_over:
        message = protocol.end_hand_message(view, list(raw.state.rewards()), hand=0)
    else:
        message = protocol.decision_message(view, hand=0)
    return protocol.encode(message)


def _play(env, deck, actions=None, seed=0, viewer=None):  # type: ignore[no-untyped-def]
    """Run a hand; returns (actions taken, what each seat was handed at each step
    before the end, and at the end, the final state).

    Replaying for ``viewer``, another seat's secret split may have become illegal with
    its resampled cards: any legal split replaces it, since splits stay hidden from the
    viewer until the reveal (which comes with the end of the hand)."""
    env.reset(seed=seed, options={"deck": deck, "button": 0, "hand": 0})  # hand: one game in a rotation
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    taken, seen = [], []
    i = 0
    agents = raw.possible_agents if viewer is None else [raw.possible_agents[viewer]]
    while not raw.state.is_over:
        seen.append({a: handed(raw, a) for a in agents})
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
    end = {a: handed(raw, a) for a in agents}
    return taken, seen, end, raw.state


def _public_cards(state, viewer: int) -> set[int]:  # type: ignore[no-untyped-def]
    """Cards the rules show ``viewer`` by the end: its own, face up, community, and
    those shown or revealed at the showdown (any public event that names cards)."""
    cards: set[int] = set()
    for e in state.events:
        if e.kind == "deal":
            if e.up or e.seat == viewer:
                cards.update(e.cards)
        elif not e.secret and e.kind != "burn":
            cards.update(e.cards)
    return cards


def _resampled_deck(state, viewer: int, rng: np.random.Generator, keep: set[int] = frozenset()) -> list[int]:  # type: ignore[no-untyped-def, assignment]
    """The hand's deck with every card ``viewer`` never saw shuffled among their
    positions (``keep``: cards left in place, such as those shown at the showdown)."""
    deck = list(state.initial_deck)
    dealt = [e for e in state.events if e.kind in DEALING_KINDS]
    visible = set()
    for position, e in enumerate(dealt):
        if e.kind == "community" or e.up or e.seat == viewer:
            visible.add(position)
    hidden = [p for p in range(len(deck)) if p not in visible and deck[p] not in keep]
    cards = [deck[p] for p in hidden]
    for p, c in zip(hidden, rng.permutation(cards).tolist(), strict=True):
        deck[p] = c
    return deck


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_hidden_cards_do_not_leak(name: str, data: st.DataObject) -> None:
    _no_leak(name, data, OPTIONS[name])


WILD = [(name, i) for name in WILD_NAMES if name not in COWBOY_FAMILY for i in range(len(WILD_CASES))]


@pytest.mark.parametrize(("name", "case"), WILD, ids=[f"{n}-{WILD_CASES[i]}" for n, i in WILD])
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_hidden_cards_do_not_leak_with_wild_cards(name: str, case: int, data: st.DataObject) -> None:
    """Every wild-card option of section 11 (the joker's whereabouts included)."""
    base = data.draw(st.sampled_from(OPTIONS[name]), label="base options")
    _no_leak(name, data, ({**base, **WILD_CASES[case]},))


def _no_leak(name: str, data: st.DataObject, option_sets: tuple[dict[str, object], ...]) -> None:
    low, high = PLAYER_RANGE[name]
    n = data.draw(st.integers(low, min(high, 6)), label="players")
    options = data.draw(st.sampled_from(option_sets), label="options")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    env = envs.make_raw(name, n, **options)
    cards = env.game.deck  # 52 cards, or a toy deck
    deck = [cards[i] for i in np.random.default_rng(seed).permutation(len(cards))]
    actions, seen, end, state = _play(env, deck, seed=seed)
    for viewer, agent in enumerate(env.possible_agents):
        other_deck = _resampled_deck(state, viewer, np.random.default_rng(seed + viewer + 1))
        _, seen_again, _, _ = _play(env, other_deck, actions, seed=seed, viewer=viewer)
        for step, (before, after) in enumerate(zip(seen, seen_again, strict=True)):
            assert before[agent] == after[agent], f"what {agent} is handed changed at step {step}"
        keep = _public_cards(state, viewer)
        end_deck = _resampled_deck(state, viewer, np.random.default_rng(seed + viewer + 1), keep)
        _, seen_again, end_again, _ = _play(env, end_deck, actions, seed=seed, viewer=viewer)
        assert [s[agent] for s in seen] == [s[agent] for s in seen_again]
        assert end[agent] == end_again[agent], f"{agent}'s final view, info or history changed"


def test_the_check_can_fail() -> None:
    """A leak would be caught: the resampled deck does change someone's hidden cards."""
    env = envs.make_raw("stud", 3)
    deck = np.random.default_rng(1).permutation(52).tolist()
    actions, seen, end, state = _play(env, deck, seed=1)
    other = _resampled_deck(state, 0, np.random.default_rng(2))
    _, seen_again, end_again, _ = _play(env, other, actions, seed=1)
    changed = [a["player_1"] != b["player_1"] for a, b in zip(seen, seen_again, strict=True)]
    assert any(changed)  # player_1 is handed its own (resampled) down cards
    assert end["player_1"] != end_again["player_1"]  # in its history too
