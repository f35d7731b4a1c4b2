"""OpenSpiel's own algorithms and checks on our games (``envs.openspiel``).

* OpenSpiel's ``exploitability.nash_conv`` on toy stud equals the exact solver's
  NashConv (``solvers``) to 1e-9, for the uniform policy and a CFR+ policy carried over
  by information-state strings. Units: OpenSpiel's returns are the engine's rewards,
  in big bets; the solver reports antes, so its figure is scaled by ante / big_bet.
  Seating: both fix the button at seat 0 (OpenSpiel's player 0) and NashConv is the
  sum of the two best-response gains, so the definitions agree.
* OpenSpiel's CFR runs on toy stud, and the NashConv of its average policy is the same
  whether OpenSpiel or the solver measures it.
* ``pyspiel.random_sim_test`` (OpenSpiel's C++ checks: legal actions, chance
  probabilities, serialization, observations, bounds) passes for every family.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is an optional extra: pip install 'dealers-choice[openspiel]'"
)

from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from envs.openspiel import load_game, register_all  # noqa: E402
from envs.variants import VARIANTS  # noqa: E402
from solvers import CFRConfig, CFRSolver, PublicTree, TabularPolicy, ToyParams  # noqa: E402
from solvers import exploitability as exact  # noqa: E402
from tests.envs.openspiel_helpers import TINY, engine_key, infosets_of, solver_rows, toy_params  # noqa: E402

TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def tiny() -> tuple[object, ToyParams, TabularPolicy]:
    """The tiny toy as an OpenSpiel game, its solver parameters, and a CFR+ policy."""
    params = toy_params(TINY)
    solver = CFRSolver(params, CFRConfig(scheme="cfr+"))
    solver.iterate(30)
    return load_game("toy_stud", **TINY), params, solver.average_policy()


def in_big_bets(params: ToyParams, antes: float) -> float:
    return antes * params.ante / params.big_bet


def to_openspiel(game: object, table: TabularPolicy) -> os_policy.TabularPolicy:
    """The solver's table as an OpenSpiel policy, row by row through the information
    set each OpenSpiel information-state string stands for."""
    rows = solver_rows(table.infosets)
    policy = os_policy.TabularPolicy(game)
    filled = set()
    for state in policy.states:
        string = state.information_state_string()
        index = policy.state_lookup[string]
        row = rows[engine_key(state.engine)]
        probs = np.zeros(policy.action_probability_array.shape[1])
        probs[: table.table.shape[1]] = table.table[row]
        if string in filled:  # another state of the same information set: the same row
            assert np.array_equal(policy.action_probability_array[index], probs)
        policy.action_probability_array[index] = probs
        filled.add(string)
    assert len(filled) == len(rows), "an information set of the solver has no string, or two"
    return policy


def to_solver(policy: os_policy.TabularPolicy, params: ToyParams) -> TabularPolicy:
    """An OpenSpiel tabular policy of the toy as the solver's table."""
    infosets = infosets_of(params)
    rows = solver_rows(infosets)
    table = np.zeros((infosets.count, 4))
    for state in policy.states:
        probs = policy.action_probability_array[policy.state_lookup[state.information_state_string()]]
        table[rows[engine_key(state.engine)]] = probs[:4]
    return TabularPolicy(params, table, infosets=infosets)


def test_nash_conv_of_the_uniform_policy_is_the_exact_solvers(tiny) -> None:  # type: ignore[no-untyped-def]
    game, params, _ = tiny
    ours = exact("uniform", PublicTree(params)).nash_conv
    theirs = exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))
    assert abs(theirs - in_big_bets(params, ours)) < TOLERANCE
    assert theirs > 0.1  # the uniform policy is far from an equilibrium


def test_nash_conv_of_a_cfr_plus_policy_is_the_exact_solvers(tiny) -> None:  # type: ignore[no-untyped-def]
    game, params, table = tiny
    ours = exact(table, PublicTree(params)).nash_conv
    theirs = exploitability.nash_conv(game, to_openspiel(game, table))
    assert abs(theirs - in_big_bets(params, ours)) < TOLERANCE
    assert theirs < 0.5 * exploitability.nash_conv(game, os_policy.UniformRandomPolicy(game))


def test_openspiels_cfr_runs_and_both_sides_measure_it_alike(tiny) -> None:  # type: ignore[no-untyped-def]
    game, params, _ = tiny
    solver = cfr.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(game, solver.average_policy())
    solver.evaluate_and_update_policy()
    solver.evaluate_and_update_policy()
    average = solver.average_policy()
    last = exploitability.nash_conv(game, average)
    assert last < first
    measured = exact(to_solver(average, params), PublicTree(params)).nash_conv
    assert abs(last - in_big_bets(params, measured)) < TOLERANCE


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("stud", {}),
        ("razz", {"players": 3}),
        ("stud_hilo_declare", {"players": 3}),
        ("cowpie", {"players": 3, "bet_after_split": True}),
        ("chowaha", {"players": 3, "betting": "no_limit"}),
        ("five_card_stud", {"players": 4, "burn_cards": True}),
        ("toy_stud", {"button": "random"}),
        ("cowboy", {"players": 3, "max_deals": 3}),
        ("cowgirl", {"players": 4, "max_deals": 2, "match_cap": 5}),
    ],
)
def test_openspiels_game_checks_pass_and_returns_sum_to_zero(name: str, options: dict[str, object]) -> None:
    game = load_game(name, **options)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    rng = np.random.default_rng(0)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert abs(sum(probs) - 1.0) < 1e-12
                state.apply_action(int(rng.choice(outcomes)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        assert sum(state.returns()) == 0.0
        assert game.min_utility() <= min(state.returns()) and max(state.returns()) <= game.max_utility()


def test_games_load_by_their_openspiel_names_and_strings() -> None:
    names = register_all()
    assert names == [f"dealers_choice_{name}" for name in VARIANTS if name != "dealers_choice"]
    assert set(names) <= set(pyspiel.registered_names())
    game = pyspiel.load_game("dealers_choice_toy_stud(ranks=KA,streets=1)")
    assert game.engine_game.options.ranks == "KA" and game.num_players() == 2
    assert str(pyspiel.load_game(str(game))) == str(game)
    odd = load_game("chowaha", players=3, stack=None, cap_heads_up=True, bet_sizes=(0.5,), button=2)
    again = pyspiel.load_game(str(odd))
    assert again.engine_game.options == odd.engine_game.options and again.num_players() == 3


def test_tensors_have_the_env_layout(tiny) -> None:  # type: ignore[no-untyped-def]
    game, _, _ = tiny
    from envs.registry import make_raw

    env = make_raw("toy_stud", 2, **TINY)
    assert game.information_state_tensor_size() == env.observation_space("player_0")["observation"].shape[0]
    assert game.observation_tensor_size() == game.information_state_tensor_size()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    assert state.information_state_string(player).startswith(f"player_{player}\n")
    assert state.observation_string(player).startswith(f"player_{player}\nown_cards:")
    assert any(state.information_state_tensor(player))


def test_games_and_states_pickle_with_every_option() -> None:
    game = load_game("chowaha", players=3, stack=None, cap_heads_up=True, bet_sizes=(0.5,))
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.history()) < 12:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    game2, state2 = pickle.loads(pickle.dumps((game, state)))
    assert str(game2) == str(game) and game2.engine_game.options == game.engine_game.options
    assert state2.history() == state.history()
    player = state.current_player()
    assert state2.information_state_string(player) == state.information_state_string(player)


def test_only_a_players_own_view_is_offered() -> None:
    game = load_game("toy_stud", **TINY)
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="only a player's own view is supported"):
        game.make_py_observer(public)
