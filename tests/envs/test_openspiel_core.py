"""The OpenSpiel adapter's parts that need no OpenSpiel: explicit chance over the engine
(positions), information-state strings and tensors, parameters and bounds.

The OpenSpiel side itself (NashConv against the exact solver, CFR, OpenSpiel's own game
checks) is in test_openspiel.py, skipped when ``pyspiel`` is missing.
"""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest

from envs.engine.cards import format_card
from envs.engine.errors import IllegalActionError
from envs.engine.events import EventKind
from envs.openspiel import has_openspiel_form, load_game
from envs.openspiel.bounds import game_bounds
from envs.openspiel.params import decode, encode, specification, to_options, to_params
from envs.openspiel.position import Position, TransitionCache
from envs.openspiel.views import TensorView, information_state_string
from envs.registry import make_raw
from envs.variants import VARIANTS, get_variant, make_game
from tests.envs.openspiel_helpers import TINY, engine_key, infosets_of, random_path, solver_rows, toy_params, walk

# every variant at its fewest players, and a few more tables (Cowboy games kept short)
TABLES = [
    (name, variant.seats[0], {"max_deals": 3} if variant.family == "cowboy" else {})
    for name, variant in VARIANTS.items()
    if has_openspiel_form(variant)  # dealer's choice has none yet (test_dealers_choice_has_no_openspiel_form)
]
TABLES += [
    ("stud", 8, {"burn_cards": True}),  # short stub at seventh street: burned cards come back, a community card
    ("five_card_stud", 10, {"burn_cards": True}),
    ("cowpie", 4, {"bet_after_split": True}),
    ("chowaha", 3, {"betting": "no_limit"}),
    ("cowboy", 5, {"max_deals": 4, "max_draw": 5}),  # big draws: the stub runs out and discards are reshuffled
    ("toy_stud", 2, {"button": "random"}),
]
IDS = [
    f"{name}-{n}" + ("-" + "-".join(f"{k}={v}" for k, v in options.items()) if options else "")
    for name, n, options in TABLES
]


@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=IDS)
def test_random_games_deal_every_card_at_a_chance_node_and_end_within_bounds(
    name: str, players: int, options: dict[str, object]
) -> None:
    game = make_game(name, players, **options)
    bounds = game_bounds(game, random_button=options.get("button") == "random")
    for seed in range(3):
        path = random_path(game, np.random.default_rng(seed))
        chances = decisions = 0
        for before, after in itertools.pairwise(path):
            if before.is_chance:
                chances += 1
                assert before.outcomes is not None
                if before.button is not None:  # a card: one of the stub's, all equally likely
                    assert before.engine is not None
                    assert before.outcomes == tuple(sorted(before.engine.stub))
                    assert after.scripted == (*before.scripted, after.scripted[-1])
                    assert after.scripted[-1] in before.outcomes
            else:
                decisions += 1
        end = path[-1].engine
        assert end is not None and end.is_over
        assert sum(end.rewards()) == 0.0
        assert bounds.min_utility <= min(end.rewards()) and max(end.rewards()) <= bounds.max_utility
        assert decisions <= bounds.max_decisions and chances <= bounds.max_chance_nodes
        assert sorted(c for pile in end.card_locations().values() for c in pile) == sorted(game.deck)


@pytest.mark.parametrize("name", ["stud", "razz", "stud_hilo_declare", "cowpie", "chowaha", "five_card_stud"])
def test_a_hand_of_chance_nodes_is_the_hand_its_cards_deal_from_a_stacked_deck(name: str) -> None:
    """The cards chance chose, stacked in that order, deal the same hand to the same
    decisions: the chance nodes are the engine's deal, one card at a time."""
    game = make_game(name, 3)
    path = random_path(game, np.random.default_rng(11))
    end = path[-1].engine
    assert end is not None
    replay = game.new_state(5, deck=list(path[-1].scripted))
    for seat, action in end.decisions:
        assert replay.current_seat == seat
        replay.apply(action)
    assert replay.events == end.events and replay.payoffs() == end.payoffs()


def test_every_cowboy_deal_is_a_fresh_deck_of_chance_nodes() -> None:
    game = make_game("cowboy", 3, max_deals=4)
    for seed in range(20):
        path = random_path(game, np.random.default_rng(seed))
        fresh = [p for p in path if p.is_chance and p.outcomes is not None and len(p.outcomes) == 52]
        deals = sum(1 for e in path[-1].engine.events if e.kind == EventKind.STREET and e.text.startswith("deal "))  # type: ignore[union-attr]
        if deals > 1:
            assert len(fresh) == deals  # each deal's first card comes from the whole deck again
            return
    raise AssertionError("no random Cowboy game lasted two deals")


def test_positions_are_never_changed_by_their_children() -> None:
    game = make_game("toy_stud", 2, **TINY)
    start = Position.start(game)
    first = start.chance(start.outcomes[0])  # type: ignore[index]
    events = list(first.engine.events)  # type: ignore[union-attr]
    for child in walk(first):
        assert child.engine is not None
    assert first.engine.events == events  # type: ignore[union-attr]


def test_wrong_moves_are_clear_errors() -> None:
    game = make_game("toy_stud", 2, **TINY)
    start = Position.start(game)
    assert start.is_chance
    with pytest.raises(ValueError, match="at a chance node"):
        start.decide(1)
    with pytest.raises(ValueError, match="chance outcome 0 is not possible here"):
        start.chance(0)  # 2c is not in the toy deck
    decision = next(p for p in walk(start) if not p.is_chance and not p.is_terminal)
    with pytest.raises(ValueError, match="at a decision node"):
        decision.chance(44)
    with pytest.raises(IllegalActionError):
        decision.decide(2)  # no bring-in in toy stud


def test_the_transition_cache_returns_the_same_child_and_forgets_the_oldest() -> None:
    game = make_game("toy_stud", 2, **TINY)
    cache = TransitionCache(maxsize=2)
    start = Position.start(game)
    a = cache.child(start, 44)
    assert cache.child(start, 44) is a and cache.hits == 1
    cache.child(start, 45)
    cache.child(start, 46)
    assert len(cache) == 2 and cache.child(start, 44) is not a  # 44 was dropped first


# ------------------------------------------------------------- information states
def test_information_state_strings_are_exactly_the_solvers_information_sets() -> None:
    """Every decision's string names exactly one of the exact solver's information sets,
    and every one of them has exactly one string: equal for equal, different otherwise."""
    game = make_game("toy_stud", 2, **TINY)
    keys_of: dict[str, set[object]] = {}
    for position in walk(Position.start(game)):
        if position.is_chance or position.is_terminal:
            continue
        st = position.engine
        assert st is not None and st.current_seat is not None
        keys_of.setdefault(information_state_string(st, st.current_seat), set()).add(engine_key(st))
    rows = solver_rows(infosets_of(toy_params(TINY)))
    assert all(len(keys) == 1 for keys in keys_of.values())
    assert {key for keys in keys_of.values() for key in keys} == set(rows)
    assert len(keys_of) == len(rows) == 720


def test_others_face_down_cards_and_secret_choices_stay_out_of_a_players_string() -> None:
    game = make_game("stud_hilo_declare", 3)
    path = random_path(game, np.random.default_rng(4), passive=True)
    for position in path:
        st = position.engine
        if st is None:
            continue
        shown = {c for e in st.events if e.kind == EventKind.SHOW for c in e.cards}
        for seat in range(3):
            text = information_state_string(st, seat)
            own = set(st.cards[seat])
            assert all(format_card(c) in text for c in own)
            hidden = [c for s in range(3) if s != seat for c, up in zip(st.cards[s], st.up[s], strict=True) if not up]
            assert all(format_card(c) not in text for c in hidden if c not in shown)
    # a declaration: in the declarer's string at once, in the others' only with the reveal
    declared = [p for p in path if p.engine is not None and not p.engine.is_over and p.engine.declared.count(None) < 3]
    assert declared, "the hand reached no declaration"
    st = declared[0].engine
    assert st is not None
    seat = next(s for s in range(3) if st.declared[s] is not None)
    verb = next(e.verb for e in st.events if e.kind == EventKind.DECLARE and e.seat == seat)
    assert f"declare p{seat} {verb.name.lower()}" in information_state_string(st, seat)
    assert all(f"declare p{seat}" not in information_state_string(st, other) for other in range(3) if other != seat)


def test_tensors_are_the_env_observations_of_the_same_hand() -> None:
    game = make_game("stud", 3)
    path = random_path(game, np.random.default_rng(2))
    env = make_raw("stud", 3)
    env.reset(seed=0, options={"deck": list(path[-1].scripted), "button": 0})
    view = TensorView(game)
    for position in path:
        if position.is_chance or position.is_terminal:
            continue
        st = position.engine
        assert st is not None and st.current_seat is not None
        agent = env.agent_selection
        assert agent == f"player_{st.current_seat}"
        for seat in range(3):
            assert np.array_equal(view.vector(st, seat), env.observe(f"player_{seat}")["observation"])
        env.step(next_action(path, position))
    assert view.size == env.observation_space("player_0")["observation"].shape[0]


def next_action(path: list[Position], position: Position) -> int:
    """The action taken at ``position`` along ``path``: the pending decision of the chance
    node it led to, or the last decision of the hand after it."""
    after = path[path.index(position) + 1]
    if after.is_chance:
        assert after.pending is not None
        return after.pending
    assert after.engine is not None
    return after.engine.decisions[-1][1]


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize("value", [None, 400, "default", "rotate", (100, 200, 300), (0.5,), (0.33, 0.75, 1.5), 2])
def test_string_written_options_round_trip(value: object) -> None:
    assert decode(encode(value)) == value


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("chowaha", {"stack": None, "bet_sizes": (0.5,), "button": 2, "raise_cap": None}),
        ("stud_hilo", {"stack": (100, 200, 300), "bring_in": None, "low_qualifier": None}),
        ("cowboy", {"match_cap": 8, "ace_draw": None, "button": "random"}),
        ("toy_stud", {"ranks": "QKA", "suits": "cd", "streets": 1}),
    ],
)
def test_every_option_survives_the_trip_through_openspiel_parameters(name: str, options: dict[str, object]) -> None:
    variant = get_variant(name)
    params = to_params(variant, 3 if name != "toy_stud" else 2, options)
    assert set(params) == set(specification(variant))
    assert all(type(params[k]) is type(v) for k, v in specification(variant).items())
    players, back = to_options(variant, params)
    assert {k: back[k] for k in options} == options
    assert variant.game(players, **back).options == variant.game(players, **options).options


def test_bounds_refuse_a_game_without_a_longest_length() -> None:
    with pytest.raises(ValueError, match="stack=None and no raise cap heads-up"):
        game_bounds(make_game("stud", 2, stack=None), random_button=False)
    capped = game_bounds(make_game("stud", 2, stack=None, cap_heads_up=True), random_button=False)
    assert capped.max_utility == 25.0  # five rounds of at most (4 + 1) big bets each


def test_load_game_without_openspiel_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel now fails
    with pytest.raises(ImportError, match=r"pip install 'dealers-choice\[openspiel\]'"):
        load_game("toy_stud")


def test_dealers_choice_has_no_openspiel_form() -> None:
    """Its game is named during the hand (and drawn by the engine with choice="random"):
    load_game says so instead of building wrong bounds."""
    assert not has_openspiel_form(get_variant("dealers_choice"))
    with pytest.raises(ValueError, match=r"dealers_choice has no OpenSpiel form yet.*load one of its games instead"):
        load_game("dealers_choice")
