"""The bot interface, loading by spec, the structured view and the arena's core."""

from __future__ import annotations

import numpy as np
import pytest

import agents
import envs
import evaluation
from agents.base import Agent
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.view import PublicView
from evaluation.arena import lineups, mean_ci


class AlwaysFirst(Agent):
    """A user's bot: the first legal action."""

    name = "first"

    def act(self, observation, view):  # type: ignore[no-untyped-def]
        return int(view.legal_actions[0])


def test_load_specs() -> None:
    assert isinstance(agents.load("random"), agents.RandomAgent)
    assert isinstance(agents.load("call"), agents.CallingStation)
    bot = agents.load("tests.agents.test_core:AlwaysFirst")
    assert isinstance(bot, AlwaysFirst)
    assert agents.load(bot) is bot
    with pytest.raises(ValueError, match="unknown bot spec 'nobody'"):
        agents.load("nobody")
    with pytest.raises(ValueError, match="cannot import module"):
        agents.load("no_such_module:Bot")
    with pytest.raises(ValueError, match="has no attribute"):
        agents.load("agents.base:Missing")
    with pytest.raises(ValueError, match="no act"):
        agents.load("collections:OrderedDict")


CAPPED = {"cowboy": {"match_cap": 8, "max_deals": 12}}  # calling stations make Cowboy pots explode


@pytest.mark.parametrize("name", ["stud", "razz", "stud_hilo_declare", "cowpie", "cowboy", "chowaha"])
def test_baseline_bots_only_play_legal_actions(name: str) -> None:
    n = 3
    for spec in ("random", "call"):
        result = evaluation.run_match(name, [spec] * n, deals=30, seed=5, options=CAPPED.get(name))
        assert len(result.hands) == 30 * n
        assert abs(sum(sum(h.rewards) for h in result.hands)) < 1e-6  # zero-sum


def test_calling_station_never_folds_or_raises() -> None:
    result = evaluation.run_match("stud", ["call", "random"], deals=40, seed=2, record_decisions=True)
    made = {name for h in result.hands for seat, name, _ in h.decisions if h.lineup[seat] == 0}
    assert made <= {"check_call", "bring_in"}


def test_view_holds_what_the_seat_sees() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(options={"deck": "As Kd Qh Jc 2c 3d", "button": 0})
    view = env.public_view("player_1")
    assert isinstance(view, PublicView) and view.is_my_turn
    assert view.legal_actions == (BRING_IN, RAISE) and view.legal_names == ("bring_in", "raise")
    assert view.up_cards == ((envs_card("3d"),), (envs_card("2c"),))
    assert set(view.own_cards) == {envs_card(c) for c in ("As", "Qh", "2c")}
    other = env.public_view("player_0")
    assert not other.is_my_turn and set(other.own_cards) == {envs_card(c) for c in ("Kd", "Jc", "3d")}
    hidden = [e for e in other.events if e.kind == "deal" and e.seat == 1 and not e.up]
    assert hidden and all(e.cards == () for e in hidden)  # others' down cards stay hidden
    env.step(BRING_IN)
    assert env.public_view("player_0").to_call == 1
    assert FOLD in env.public_view("player_0").legal_actions and CHECK_CALL in env.public_view("player_0").legal_actions


def envs_card(text: str) -> int:
    from envs.engine.cards import parse_card

    return parse_card(text)


def test_mean_ci_against_a_hand_computed_case() -> None:
    stat = mean_ci([1.0, 2.0, 3.0, 4.0])
    sd = np.sqrt(((1.5**2) * 2 + (0.5**2) * 2) / 3)  # sample sd = 1.2910
    assert stat.mean == 2.5 and stat.half_width == pytest.approx(3.182446 * sd / 2)  # Student's t, 3 df
    assert mean_ci([5.0]).half_width == float("inf")


def test_duplicate_rotations_cover_every_seat() -> None:
    rows = lineups(3, 3, duplicate=True)
    assert sorted(tuple(r) for r in rows) == sorted({(0, 1, 2), (2, 0, 1), (1, 2, 0)})
    for seat in range(3):
        assert sorted(r[seat] for r in rows) == [0, 1, 2]
    assert lineups(2, 6, duplicate=True)[0] == [0, 1, 0, 1, 0, 1]
    assert lineups(2, 2, duplicate=False) == [[0, 1]]


def test_match_is_deterministic_and_ranges_compose() -> None:
    a = evaluation.run_match("razz", ["random", "random", "call"], deals=12, seed=9)
    b = evaluation.run_match("razz", ["random", "random", "call"], deals=12, seed=9)
    assert [h.rewards for h in a.hands] == [h.rewards for h in b.hands]
    first = evaluation.run_match("razz", ["random", "random", "call"], deals=12, seed=9, deal_range=range(6))
    rest = evaluation.run_match("razz", ["random", "random", "call"], deals=12, seed=9, deal_range=range(6, 12))
    assert [h.rewards for h in first.hands + rest.hands] == [h.rewards for h in a.hands]


def test_two_copies_of_a_bot_come_out_even() -> None:
    result = evaluation.run_match("stud_hilo", ["random", "random"], deals=200, seed=4)
    for bot in (0, 1):
        stat = result.result(bot)
        assert stat.low <= 0 <= stat.high


def test_seen_cards_forget_earlier_cowboy_deals() -> None:
    """Cards shown in an earlier deal are back in the deck: not 'seen' in the next one."""
    env = envs.make_raw("cowboy", 3, match_cap=4)
    rng = np.random.default_rng(0)
    for seed in range(40):
        env.reset(seed=seed)
        shown_before = False
        while not env.state.is_over:
            view = env.public_view(env.agent_selection)
            deal_events = [e for e in view.events if e.kind == "street" and e.text.startswith("deal ")]
            shows_now = any(e.kind == "show" for e in view.events[view.events.index(deal_events[-1]) :])
            if shown_before and len(deal_events) > 1 and not shows_now:
                assert view.seen_cards() == set(view.own_cards) | set(view.extra.get("dummy_cards", ()))
                return
            shown_before = shown_before or any(e.kind == "show" for e in view.events)
            legal = view.legal_actions
            env.step(int(legal[rng.integers(len(legal))]))
    pytest.fail("no game reached a second deal after a showdown")
