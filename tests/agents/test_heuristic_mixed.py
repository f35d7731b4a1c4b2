"""The heuristic at a dealer's choice table: it names a game uniformly at random from
its own generator, and plays the game in play exactly as at the game's own table."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from agents.heuristic import HeuristicAgent
from agents.heuristic.mixed import game_view
from envs.registry import make_raw
from envs.variants import get_variant
from envs.variants.mixed.rules import game_kwargs

GAMES = ("stud", "razz", "stud_hilo_declare", "cowpie", "chowaha", "five_card_stud")


def test_the_button_names_every_game_about_equally_often() -> None:
    env = make_raw("dealers_choice", 3, games=GAMES)
    bot = HeuristicAgent(seed=0)
    named: Counter[str] = Counter()
    for hand in range(600):
        env.reset(seed=hand)
        view = env.public_view(env.agent_selection)
        action = bot.act(env.observe(env.agent_selection), view)
        assert action in view.legal_actions
        named[env.action_names[action].removeprefix("choose_")] += 1
    assert set(named) == set(GAMES)
    assert all(70 <= c <= 130 for c in named.values()), named  # 100 each expected
    env.reset(seed=0)
    view = env.public_view(env.agent_selection)
    first = [HeuristicAgent(seed=s).act({}, view) for s in range(20)]
    assert first == [HeuristicAgent(seed=s).act({}, view) for s in range(20)]  # a function of the seed
    assert len(set(first)) > 1


def test_game_view_is_the_view_of_the_game_in_play() -> None:
    env = make_raw("dealers_choice", 2, games=("razz", "chowaha"))
    env.reset(seed=1)
    choosing = env.public_view(env.agent_selection)
    assert game_view(choosing) is choosing
    env.step(env.action_names.index("choose_chowaha"))
    view = env.public_view(env.agent_selection)
    own = game_view(view)
    assert (own.variant, own.options, own.game) == ("chowaha", view.game_options, "chowaha")
    assert own.options.big_blind == 2 and own.legal_actions == view.legal_actions
    single = make_raw("stud", 2)
    single.reset(seed=0)
    assert game_view(single.public_view(single.agent_selection)) == single.public_view(single.agent_selection)


@pytest.mark.parametrize("name", GAMES)
def test_after_the_choice_it_plays_as_at_the_games_own_table(name: str) -> None:
    """The same seeded bot, the same cards and the same history: the same decision at
    the mixed table as at the game's own table, decision after decision."""
    env = make_raw("dealers_choice", 3, games=GAMES)
    own = make_raw(name, 3, **game_kwargs(get_variant(name), env.game.options))
    rng = np.random.default_rng(5)
    decisions = 0
    for hand in range(2):
        env.reset(seed=hand, options={"button": 0})
        env.step(env.action_names.index(f"choose_{name}"))
        own.reset(options={"deck": list(env.state.initial_deck), "button": 0})
        while not env.state.is_over:
            agent = env.agent_selection
            assert own.agent_selection == agent
            seed = int(rng.integers(2**31))
            mixed = HeuristicAgent(seed=seed, samples=64).act(env.observe(agent), env.public_view(agent))
            alone = HeuristicAgent(seed=seed, samples=64).act(own.observe(agent), own.public_view(agent))
            assert mixed == alone, (name, hand, env.state.describe())
            env.step(mixed)
            own.step(mixed)
            decisions += 1
    assert decisions >= 6
