"""The structured view and the per-seat history hold only what their seat may see,
as plain data (no state, no raw event list), and stay cheap and immutable."""

from __future__ import annotations

import dataclasses
import json
import pickle
from typing import Any

import numpy as np
import pytest

import envs
from envs.aec import HandHistoryView
from envs.engine.actions import STAY
from envs.engine.history import HandRecord, hand_history
from envs.seat_history import SeatHistory
from envs.variants import replay
from envs.view import PublicView, public_view, view_from_data, view_to_data, visible
from tests.envs.cases import API_PLAYERS
from tests.envs.reach import UnreachableError, Walk, leaked_events, reach

CASES = [(name, counts[0]) for name, counts in API_PLAYERS.items()] + [("cowboy", 5), ("chowaha", 6)]
OPTIONS: dict[str, dict[str, Any]] = {
    "cowboy": {"match_cap": 6},
    "cowgirl": {"match_cap": 6},
    "cowpattie": {"match_cap": 6},
}


def _random_hand(name: str, n: int, seed: int, on_step: Any = None) -> Any:
    env = envs.make_raw(name, n, **OPTIONS.get(name, {}))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.state.is_over:
        if on_step is not None:
            on_step(env)
        legal = env.state.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
    return env


def test_the_reported_leak_is_gone() -> None:
    """Issue 14: the view held the raw event log, with seat 1's down cards 27 and 31."""
    env = envs.make("stud", num_players=2)
    env.reset(seed=1)
    raw = env.unwrapped
    down = {e.cards[0] for e in raw.state.events if e.kind == "deal" and e.seat == 1 and not e.up}
    assert down == {27, 31}  # the reproduction still deals them
    view = raw.public_view("player_0")
    assert not hasattr(view, "log")
    walk = Walk()
    reach(view, "view", walk)
    assert leaked_events(walk.events, 0) == []
    assert not any(e.cards for e in view.events if e.kind == "deal" and e.seat == 1 and not e.up)
    assert id(raw.state.events) not in walk.containers


@pytest.mark.parametrize(("name", "n"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_views_from_the_env_equal_views_filtered_from_the_whole_log(name: str, n: int) -> None:
    """The env's incremental per-seat logs give the same view as filtering everything."""

    def check(env: Any) -> None:
        for seat, agent in enumerate(env.possible_agents):
            view = env.public_view(agent)
            assert view == public_view(env.state, seat)
            assert view.events == tuple(v for v in (visible(e, seat) for e in env.state.events) if v is not None)

    for seed in range(3):
        _random_hand(name, n, seed, check)


def test_a_view_does_not_change_as_the_hand_goes_on() -> None:
    """A view is a snapshot: a bot keeping it learns nothing later through it."""
    env = envs.make_raw("cowboy", 4, match_cap=6)
    env.reset(seed=3)
    kept = []
    rng = np.random.default_rng(3)
    while not env.state.is_over and len(kept) < 40:
        view = env.public_view(env.agent_selection)
        kept.append((view, reach(view)))
        legal = env.state.legal_actions()
        env.step(STAY if STAY in legal else int(legal[rng.integers(len(legal))]))  # everyone stays: many deals
    assert len(kept) == 40
    assert all(reach(view) == dump for view, dump in kept)
    first = kept[0][0]
    now = env.public_view(env.possible_agents[first.seat]).events
    assert len(now) > len(first.events) and now[: len(first.events)] == first.events


@pytest.mark.parametrize(("name", "n"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_each_seat_gets_its_own_history_and_nothing_more(name: str, n: int) -> None:
    for seed in range(3):
        env = _random_hand(name, n, seed)
        for seat, agent in enumerate(env.possible_agents):
            history = env.infos[agent]["history"]
            assert isinstance(history, SeatHistory) and history.viewer == seat
            assert str(history) == hand_history(env.state, seat)  # the text as that seat saw it
            assert history.events == public_view(env.state, seat).events  # its events, as in its view
            assert SeatHistory.of(env.state, seat) == history
            walk = Walk()
            reach(history, "history", walk)  # plain data: no state, no deck, no record
            assert leaked_events(walk.events, seat) == []
            assert not hasattr(history, "record") and not hasattr(history, "state")
            copy = pickle.loads(pickle.dumps(history))
            assert copy == history and str(copy) == str(history)


def test_the_user_gets_the_replay_record_and_the_full_history() -> None:
    env = _random_hand("stud_hilo", 4, 7)
    record = env.hand_record()
    assert isinstance(record, HandRecord)
    assert replay(HandRecord.from_json(record.to_json())).payoffs() == env.state.payoffs()
    full = env.full_history()
    assert str(full) == hand_history(env.state)  # every card
    assert full.record == record


def test_the_walk_catches_what_a_bot_must_not_be_handed() -> None:
    """The checks the no-leak tests rely on can fail: the old omniscient history (it
    holds the state), a function, and a view carrying another seat's down card."""
    env = _random_hand("stud", 3, 2)
    with pytest.raises(UnreachableError, match="HandHistoryView"):
        reach({"history": HandHistoryView(env.state, 0)})
    with pytest.raises(UnreachableError, match="function"):
        reach({"peek": lambda: env.state})
    view = public_view(env.state, 0)
    leaky = dataclasses.replace(view, events=tuple(env.state.events))
    walk = Walk()
    reach(leaky, "view", walk)
    assert leaked_events(walk.events, 0)


def test_views_stay_plain_data() -> None:
    """Every field of a view is data a seat may see (dataclass fields, tuples, ints)."""
    env = envs.make_raw("cowboy", 3, match_cap=4)
    env.reset(seed=0)
    view = env.public_view(env.agent_selection)
    assert isinstance(view, PublicView)
    assert {f.name for f in dataclasses.fields(view)} >= {"events", "extra", "options"}
    reach(view)


@pytest.mark.parametrize(("name", "n"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
def test_views_round_trip_through_plain_data(name: str, n: int) -> None:
    """What an isolated bot receives (JSON text) rebuilds a view equal in everything
    it can reach; sending only the new events gives the same view."""
    options = {"stack": (30, 40, 50, 60, 70, 80, 90)[:n]} if name == "stud" else {}

    def check(env: Any) -> None:
        for agent in env.possible_agents:
            view = env.public_view(agent)
            data = json.loads(json.dumps(view_to_data(view)))
            again = view_from_data(data)
            assert again == view and reach(again) == reach(view)
            half = len(view.events) // 2
            assert view_from_data(view_to_data(view, skip_events=half), view.events[:half]) == view

    for seed in range(2):
        env = envs.make_raw(name, n, **{**OPTIONS.get(name, {}), **options})
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.state.is_over:
            check(env)
            legal = env.state.legal_actions()
            env.step(int(legal[rng.integers(len(legal))]))
        check(env)


def test_plain_data_needs_the_events_it_skips() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(seed=0)
    data = view_to_data(env.public_view("player_0"), skip_events=3)
    with pytest.raises(ValueError, match="starts at event 3, but only 0 are known"):
        view_from_data(data)
