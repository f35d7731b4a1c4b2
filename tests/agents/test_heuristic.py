"""HeuristicAgent: dispatch by variant, errors, determinism, and its Monte Carlo
equity against exact enumeration."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

import agents
import envs
import evaluation
from agents.heuristic import DECIDERS, HeuristicAgent, NoHeuristicError, chowaha, stud
from agents.heuristic.equity import Context, hilo_shares, sample_cards, share_of_best, unseen, wins_or_ties
from envs.engine.actions import CHECK_CALL
from envs.engine.cards import parse
from envs.engine.hands import best_board_hands, evaluate_high, evaluate_low
from envs.registry import make_raw
from envs.variants import VARIANTS, make_game
from envs.variants.chowaha import BOARDS
from envs.view import PublicView, public_view
from tests.variants.scripted import call_down, stud_deck


def first_view(variant: str, n: int = 2) -> PublicView:
    """The view of the first seat to act in a fresh hand."""
    env = make_raw(variant, n)
    env.reset(seed=0)
    return env.public_view(env.agent_selection)


# ------------------------------------------------------------------ dispatch
def test_every_variant_has_a_heuristic() -> None:
    assert {v.family for v in VARIANTS.values()} <= set(DECIDERS)  # a new family must add its heuristic
    for name in VARIANTS:
        env = envs.make_raw(name)
        env.reset(seed=1)
        view = env.public_view(env.agent_selection)
        assert HeuristicAgent(seed=0).act(env.observe(env.agent_selection), view) in view.legal_actions


def test_a_variant_without_a_heuristic_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    view = dataclasses.replace(first_view("stud"), variant="texas_holdem")
    with pytest.raises(NoHeuristicError, match="no heuristic: unknown variant 'texas_holdem'"):
        HeuristicAgent(seed=0).act({}, view)
    monkeypatch.delitem(DECIDERS, "stud")
    with pytest.raises(NoHeuristicError, match=r"no heuristic for variant .stud. .family .stud..; families with one"):
        HeuristicAgent(seed=0).act({}, first_view("stud"))
    assert issubclass(NoHeuristicError, ValueError)


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="samples=3 is not allowed"):
        HeuristicAgent(samples=3)
    with pytest.raises(ValueError, match="samples=True"):
        HeuristicAgent(samples=True)
    bot = HeuristicAgent(seed=0)
    with pytest.raises(ValueError, match="needs the PublicView"):
        bot.act({}, None)  # type: ignore[arg-type]
    waiting = dataclasses.replace(first_view("razz"), legal_actions=(), legal_names=())
    with pytest.raises(ValueError, match="is not to act"):
        bot.act({}, waiting)


def test_load_builds_it_with_its_seed() -> None:
    bot = agents.load("heuristic", seed=4)
    assert isinstance(bot, HeuristicAgent) and bot.name == "heuristic"
    again = agents.load("heuristic", seed=4)
    view = first_view("stud_hilo", 4)
    assert [bot.act({}, view) for _ in range(5)] == [again.act({}, view) for _ in range(5)]


@pytest.mark.parametrize("variant", ["stud_hilo_declare", "cowpie", "cowgirl", "chowaha"])
def test_matches_replay_exactly_and_deal_ranges_compose(variant: str) -> None:
    n = 3
    kwargs = {"num_players": n, "seed": 8, "record_decisions": True}
    a = evaluation.run_match(variant, ["heuristic", "random", "heuristic"], deals=6, **kwargs)  # type: ignore[arg-type]
    b = evaluation.run_match(variant, ["heuristic", "random", "heuristic"], deals=6, **kwargs)  # type: ignore[arg-type]
    assert [(h.rewards, h.decisions) for h in a.hands] == [(h.rewards, h.decisions) for h in b.hands]
    lineup = ["heuristic", "random", "heuristic"]
    tail = evaluation.run_match(variant, lineup, deals=6, deal_range=range(3, 6), **kwargs)  # type: ignore[arg-type]
    assert [h.rewards for h in tail.hands] == [h.rewards for h in a.hands[-len(tail.hands) :]]


# --------------------------------------------------------- Monte Carlo parts
def test_sample_cards_rows_are_distinct_and_unbiased_by_position() -> None:
    pool = np.array([3, 9, 14, 20, 27, 33, 40, 51])
    draws = sample_cards(np.random.default_rng(0), pool, 40_000, 3)
    assert all(len(set(row)) == 3 and set(row) <= set(pool.tolist()) for row in draws[:500].tolist())
    for column in range(3):  # every card equally likely in every role (1/8 each)
        counts = np.array([(draws[:, column] == c).sum() for c in pool])
        assert np.abs(counts / 40_000 - 1 / 8).max() < 0.01
    with pytest.raises(ValueError, match="cannot draw 9 cards from 8"):
        sample_cards(np.random.default_rng(0), pool, 1, 9)
    assert unseen(range(50)).tolist() == [50, 51]


def test_shares_split_ties_and_low_needs_a_qualifier() -> None:
    high = np.array([[5, 5, 1], [7, 2, 9], [4, 4, 4]])
    assert share_of_best(high).tolist() == [0.5, 0.0, pytest.approx(1 / 3)]
    low = np.array([[0, 0, 0], [3, 5, 0], [6, 6, 2]])
    assert share_of_best(low, qualified=True).tolist() == [0.0, 0.0, 0.5]
    # no low: the high share is the whole pot; else half each way
    assert hilo_shares(high, low).tolist() == [0.5, 0.0, pytest.approx(1 / 6 + 0.25)]
    assert wins_or_ties(high).tolist() == [True, False, True]
    assert wins_or_ties(high, outright=True).tolist() == [False, False, False]
    assert wins_or_ties(low, qualified=True).tolist() == [False, False, True]


def seventh_street_view(variant: str, mine: str, theirs: str) -> PublicView:
    """Seat 1's view on seventh street of a called-down two-player hand."""
    state = make_game(variant, 2).new_state(0, button=0, deck=stud_deck(2, 0, {1: mine, 0: theirs}))
    call_down(state, streets=[0, 1, 2, 3])
    if state.current_seat == 0:
        state.apply(CHECK_CALL)
    assert state.street == 4 and state.current_seat == 1
    return public_view(state, 1)


def exact_stud_equity(view: PublicView) -> float:
    """Seat 1's equity by enumerating every set of the opponent's three down cards."""
    pool = unseen(view.seen_cards())
    downs = np.array(list(itertools.combinations(pool.tolist(), 3)))
    theirs = np.concatenate([np.broadcast_to(view.up_cards[0], (len(downs), 4)), downs], axis=1)
    mine = np.broadcast_to(view.own_cards, theirs.shape)
    hands = np.stack([mine, theirs], axis=1).reshape(-1, 7)
    if view.variant == "razz":
        return float(share_of_best(evaluate_low(hands).reshape(-1, 2)).mean())
    high = evaluate_high(hands).reshape(-1, 2)
    if view.variant == "stud":
        return float(share_of_best(high).mean())
    return float(hilo_shares(high, evaluate_low(hands, 8).reshape(-1, 2)).mean())


@pytest.mark.parametrize(
    ("variant", "mine", "theirs"),
    [
        ("stud", "Ah Kd 9c 9s 4d 7h 2c", "Qs Jd Tc 8d 8h 3s 5c"),
        ("razz", "Ah 3d 9c Ts 8c Kh 7c", "4s 7d 2h 8d Qh 3s 5c"),
        ("stud_hilo", "Ah 3d 9c 5s 6d Kh 2c", "4s 7d 2h 8d Qh 3s 5c"),
    ],
)
def test_stud_equity_matches_exact_enumeration(variant: str, mine: str, theirs: str) -> None:
    view = seventh_street_view(variant, mine, theirs)
    estimate = stud.equity(view, Context(np.random.default_rng(1), 20_000))
    assert estimate == pytest.approx(exact_stud_equity(view), abs=0.015)


def test_chowaha_equity_matches_exact_enumeration(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = "Kc 9h 4d Ts 7s 2h Jd 6c 3c Qh 8d 5s"  # top, middle, bottom flops, two turns, river
    game = make_game("chowaha", 2)
    # hole cards one at a time from seat 1 (button 0), then the layout in order
    state = game.new_state(0, button=0, deck=parse("Ah As 3d 2s " + layout))
    while state.street < 3 or state.current_seat != 1:
        state.apply(CHECK_CALL)
    view = public_view(state, 1)
    assert view.community == tuple(parse(layout))
    pool = unseen(view.seen_cards())
    holes = np.array(list(itertools.combinations(pool.tolist(), 2)))
    both = np.stack([np.broadcast_to(view.own_cards, holes.shape), holes], axis=1)
    best = best_board_hands(both, np.asarray(view.community)[np.asarray(BOARDS)])
    exact = float(hilo_shares(best.high, best.low).mean())
    monkeypatch.setattr(chowaha, "COMBINATION_BUDGET", 10**8)
    estimate = chowaha.equity(view, Context(np.random.default_rng(2), 20_000))
    assert estimate == pytest.approx(exact, abs=0.015)


@pytest.mark.parametrize(("players", "shared"), [(8, True), (7, False), (2, False)])
def test_stud_samples_deal_a_community_seventh_card_only_when_the_deck_runs_short(players: int, shared: bool) -> None:
    view = first_view("stud", players)
    sample = stud.deal_samples(view, 64, np.random.default_rng(0))
    hands = sample.hands
    assert hands.shape == (64, players, 7)
    assert (hands[:, 0, : len(view.own_cards)] == view.own_cards).all()
    for row, seat in enumerate(sample.opponents, start=1):
        assert (hands[:, row, 2] == view.up_cards[seat][0]).all()  # the third-street up card
    seventh_shared = (hands[:, :, 6] == hands[:, :1, 6]).all()
    assert seventh_shared == shared
    cards = hands[:, :, :6].reshape(64, -1) if shared else hands.reshape(64, -1)
    if shared:
        cards = np.concatenate([cards, hands[:, 0, 6:]], axis=1)
    assert all(len(set(row)) == len(row) for row in cards.tolist())  # no card dealt twice
