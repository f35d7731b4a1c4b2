"""The dealer's choice env: one observation layout into which every listed game's own
observation embeds without loss, the public choice, nothing of the deck before it, the
rotation counted in hands, the Gymnasium id, views as data."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest

import envs
from envs.aec import DealersChoiceEnv
from envs.engine.events import EventKind
from envs.engine.observation import Community, History, OwnCards, StreetPiece, Tracker
from envs.engine.state import State
from envs.registry import make_raw
from envs.variants import get_variant
from envs.variants.mixed import index_maps
from envs.variants.mixed.pieces import choose_step
from envs.variants.mixed.rules import game_kwargs
from envs.view import view_from_data, view_to_data
from tests.envs.test_no_leak import handed

SEVEN_HANDED = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "cowpie", "chowaha", "five_card_stud")
# Tables that list every game of the catalog: two seats for the stud family (toy stud
# too), Cowpie with its sixth round and no-limit Chowaha; three for the Cowboy family.
TABLES: list[tuple[int, dict[str, Any]]] = [
    (
        2,
        {
            "games": (*SEVEN_HANDED, "toy_stud"),
            "game_options": {"cowpie": {"bet_after_split": True}, "chowaha": {"betting": "no_limit"}},
        },
    ),
    (
        3,
        {
            "games": ("cowboy", "cowgirl", "cowpattie", "stud_hilo_declare", "chowaha", "five_card_stud"),
            "stakes": {"ante": 1, "small_bet": 4, "big_bet": 8},
            "game_options": {g: {"max_deals": 4, "match_cap": 8} for g in ("cowboy", "cowgirl", "cowpattie")},
        },
    ),
]
CASES = [(n, options, game) for n, options in TABLES for game in options["games"]]  # type: ignore[union-attr]


def _choose(env: DealersChoiceEnv, name: str) -> None:
    env.step(env.action_names.index(f"choose_{name}"))


def _own_env(env: DealersChoiceEnv, name: str) -> DealersChoiceEnv:
    """The game's single-game env with the options the table gives it."""
    return make_raw(name, env.game.num_players, **game_kwargs(get_variant(name), env.game.options))


@pytest.mark.parametrize(("n", "options", "name"), CASES, ids=[f"{n}p-{name}" for n, _, name in CASES])
def test_each_games_own_observation_embeds_without_loss(n: int, options: dict[str, Any], name: str) -> None:
    """At every step of random play, each seat's mixed vector holds, at the game's
    index map, exactly what the game's own pieces (taken from its single-game env)
    write for that seat, chips in the table's big bets; every other value of the
    mixed vector but the game one-hot is 0; every piece of the single-game env lies in
    the slice of the same name; no two of its values share a place."""
    env = make_raw("dealers_choice", n, **options)
    own = _own_env(env, name)
    mapping = index_maps(env.game)[name]
    assert len(mapping) == own.tracker.size and len(set(mapping.tolist())) == len(mapping)  # one place each
    family = get_variant(name).family
    slice_of = np.concatenate([[p.name] * p.size for p in env.pieces])  # the piece of every value
    for piece in own.pieces:
        names = set(slice_of[mapping[piece.offset : piece.offset + piece.size]].tolist())
        assert names in ({piece.name}, {f"{family}_{piece.name}"}), (piece.name, names)
    reference = Tracker(own.pieces, n, env.game.unit)  # the single-game pieces, in the table's unit
    games = [g.name for g in choose_step(env.game).games]
    header = len(games) + 1
    others = np.ones(env.tracker.size, bool)
    others[:header] = False
    others[mapping] = False
    rng = np.random.default_rng(n)
    steps = 0
    for hand in range(6):
        env.reset(seed=hand, options={"button": hand % n})
        _choose(env, name)
        reference.reset(env.state)
        while not env.state.is_over:
            reference.sync()
            for seat, agent in enumerate(env.possible_agents):
                mixed = env.observe(agent)["observation"]
                assert np.array_equal(mixed[mapping], reference.observe(seat)), (name, hand, seat)
                assert not mixed[others].any()
                assert mixed[games.index(name)] == 1 and mixed[:header].sum() == 1  # the game in play
            legal = env.state.legal_actions()
            env.step(legal[int(rng.integers(len(legal)))])
            steps += 1
    assert steps > 10


def _documented_labels(doc: str) -> list[str]:
    """The labels a doc lists: ``one-hot: a, b, c`` or ``... positions x 52 one-hot (a, b)``."""
    if doc.startswith("one-hot: "):
        return doc.removeprefix("one-hot: ").split(", ")
    return doc[doc.index("(") + 1 : doc.rindex(")")].split(", ")


@pytest.mark.parametrize(("n", "options", "name"), CASES, ids=[f"{n}p-{name}" for n, _, name in CASES])
def test_labelled_values_land_on_their_label(n: int, options: dict[str, Any], name: str) -> None:
    """Merging is by meaning, not only without loss: a game's street (five-card stud's
    ``second street``, Cowpie's ``split``) and community position (Chowaha's ``river``)
    land where the table's documented layout names the same label; own card slots and
    history streets keep their index."""
    env = make_raw("dealers_choice", n, **options)
    own = _own_env(env, name)
    mapping = index_maps(env.game)[name]
    table = {p.name: p for p in env.pieces}
    checked = 0
    for piece in own.pieces:
        places = mapping[piece.offset : piece.offset + piece.size]
        if isinstance(piece, (StreetPiece, Community)):
            merged = table[piece.name]
            labels = _documented_labels(merged.doc)
            stride = 1 if isinstance(piece, StreetPiece) else 52
            own_labels = piece.labels if isinstance(piece, StreetPiece) else piece.positions
            for k, place in enumerate(places.tolist()):
                assert labels[(place - merged.offset) // stride] == own_labels[k // stride], (piece.name, k)
                assert (place - merged.offset) % stride == k % stride
            checked += 1
        elif isinstance(piece, (OwnCards, History)):
            assert (places - table[piece.name].offset).tolist() == list(range(piece.size))
            checked += 1
    assert checked >= (0 if get_variant(name).family == "cowboy" else 3)  # the Cowboy family has none of these


@pytest.mark.parametrize(("n", "options", "name"), CASES[:8], ids=[f"{name}" for _, _, name in CASES[:8]])
def test_the_chosen_game_plays_as_its_own_env_deals_it(n: int, options: dict[str, Any], name: str) -> None:
    """The game played after the choice is the single-game env's game: stacking the
    table's deck (its cards of the game's deck, in order: toy stud's twelve) in the
    game's own env and taking the same decisions gives the same observations, seat by
    seat, and the same payoffs (rewards one unit apart where the game's own unit
    differs)."""
    env = make_raw("dealers_choice", n, **options)
    own = _own_env(env, name)
    mapping = index_maps(env.game)[name]
    rng = np.random.default_rng(11)
    for hand in range(4):
        env.reset(seed=100 + hand, options={"button": 0})
        _choose(env, name)
        state: State = env.state
        in_play = set(own.game.deck)
        own.reset(options={"deck": [c for c in state.initial_deck if c in in_play], "button": 0})
        scale = own.game.unit / env.game.unit  # the game's own chips per table unit
        while not state.is_over:
            for agent in env.possible_agents:
                mixed = env.observe(agent)["observation"][mapping]
                mine = own.observe(agent)
                if scale == 1:
                    assert np.array_equal(mixed, mine["observation"])
                mask = env.observe(agent)["action_mask"]
                assert np.array_equal(mask[: own.game.num_actions], mine["action_mask"])
                assert not mask[own.game.num_actions :].any()
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            env.step(action)
            own.step(action)
        assert own.state.payoffs() == state.payoffs()
        assert own.state.rewards() == pytest.approx([r / scale for r in state.rewards()])


def test_the_choice_is_public_and_nothing_of_the_deck_shows_before_it() -> None:
    """Before the button names the game no card is dealt: every seat is handed the
    same whatever the deck. The choice then reaches every seat: the game one-hot, the
    view's game and options, the event and the history."""
    env = make_raw("dealers_choice", 3)
    handed_before = []
    for deck_seed in (1, 2):
        deck = np.random.default_rng(deck_seed).permutation(52).tolist()
        env.reset(seed=deck_seed, options={"deck": deck, "button": 1})
        handed_before.append({a: handed(env, a) for a in env.possible_agents})
        assert env.agent_selection == "player_1"
    assert handed_before[0] == handed_before[1]
    header = len(choose_step(env.game).games) + 1
    for agent in env.possible_agents:
        observation = env.observe(agent)["observation"]
        assert observation[header - 1] == 1 and not observation[: header - 1].any() and not observation[header:].any()
        view = env.public_view(agent)
        assert (view.variant, view.game, view.street_label) == ("dealers_choice", "dealers_choice", "dealer's choice")
        assert view.extra["games"] == tuple(g.name for g in choose_step(env.game).games)
    _choose(env, "stud_hilo")
    games = [g.name for g in choose_step(env.game).games]
    for agent in env.possible_agents:
        assert env.observe(agent)["observation"][games.index("stud_hilo")] == 1
        view = env.public_view(agent)
        assert view.game == "stud_hilo" and view.game_options.low_qualifier == 8 and view.options is env.game.options
        chosen = [e.text for e in view.events if e.kind == EventKind.CHOOSE]
        assert chosen == ["Seven-card stud high-low eight-or-better"]
        assert view_from_data(view_to_data(view)) == view  # views cross processes whole


def test_a_cowboy_games_views_carry_its_facts_as_data() -> None:
    env = make_raw("dealers_choice", 3, games=("cowboy", "stud"), game_options={"cowboy": {"max_deals": 3}})
    env.reset(seed=0)
    _choose(env, "cowboy")
    view = env.public_view(env.agent_selection)
    assert view.extra["phase"] == "stay" and view.extra["games"] == ("cowboy", "stud")
    assert view_from_data(view_to_data(view)) == view


def test_rotate_follows_the_hands_the_env_deals() -> None:
    env = make_raw("dealers_choice", 2, choice="rotate", games=("razz", "stud", "cowpie"))
    dealt = []
    for seed in range(7):
        env.reset(seed=seed)  # a seed does not restart the rotation: it counts hands, as the button
        dealt.append(env.state.playing.name)
    assert dealt == ["razz", "razz", "stud", "stud", "cowpie", "cowpie", "razz"]  # one orbit (two hands) each
    env.reset(options={"hand": 2})
    assert env.state.playing.name == "stud" and env.state.hand == 2
    env.reset()
    assert env.state.hand == 3  # counting on from the hand given
    for bad in (-1, 2.0, "1", True):
        with pytest.raises(ValueError, match="hand="):
            env.reset(options={"hand": bad})
        assert env.state.hand == 3  # a bad reset changes nothing
    env.reset()
    assert env.state.hand == 4


def test_the_gymnasium_id_is_deterministic_under_every_choice() -> None:
    for choice in ("dealer", "rotate", "random"):
        env = gymnasium.make("DealersChoice/DealersChoice-v0", num_players=2, choice=choice, opponents="random")
        first = env.reset(seed=5)[0]
        env.reset(seed=9)
        again = env.reset(seed=5)[0]
        assert np.array_equal(first["observation"], again["observation"]), choice
        env.close()


def test_envs_make_takes_every_option_through_the_registry() -> None:
    env = envs.make(
        "dealers_choice_v0",
        num_players=3,
        games=["chowaha", "razz"],
        stakes={"small_bet": 4, "big_bet": 8},
        game_options={"chowaha": {"betting": "pot_limit"}},
    )
    env.reset(seed=1)
    assert env.unwrapped.game.unit == 8 and env.unwrapped.action_names[-2:] == ("choose_chowaha", "choose_razz")
    assert "dealers_choice_v0" in envs.env_ids()
