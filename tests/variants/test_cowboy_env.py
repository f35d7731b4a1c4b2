"""The Cowboy environments: no leaks over whole games, observation contents, truncation.

No leaks (docs/rules.md section 7): play a game with random legal actions; for one viewer,
relabel every card it never saw during the whole game (others' unshown hands and
discards, the stub, the dummy unless it chose the dummy's draw) with a random
permutation, replay the game from the relabelled deck and compare what the viewer is
handed at every step, the end of the game included: observation, view and info, as
everything a bot can reach from them (``tests.envs.test_no_leak.handed``). The engine
shuffles by permuting the initial deck's order, so the relabelled game deals the
relabelled cards everywhere; hands are kept sorted, so the other seats' discards are
translated card by card. Where Cowboy's ace rule is on, aces are only exchanged with
aces, so that every seat's legal draws stay the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import envs
from envs.aec import DealersChoiceEnv
from envs.engine.actions import DRAW_BASE, NUM_DRAWS, STAY, draw_action
from envs.engine.cards import parse, rank_of
from envs.engine.observation import Piece, Tracker
from envs.engine.state import State
from envs.variants import VARIANTS
from envs.variants.cowboy.deal import DUMMY, split_hand
from envs.variants.cowboy.pieces import cowboy_pieces
from tests.envs.cases import OPTIONS, PLAYER_RANGE, WILD_CASES
from tests.envs.test_no_leak import handed
from tests.variants.cowboy_script import FOLD, HIGH, LOW, PAT, stacked

# the Cowboy family only (Cowpie, whose hidden cards decide which splits are legal, is
# covered by tests/envs/test_no_leak.py, which replays a resampled secret split)
COW = ["cowboy", "cowgirl", "cowpattie"]
Move = tuple[int, int, tuple[int, ...]]  # seat, action, cards discarded (draws)


def _is_draw(action: int) -> bool:
    return DRAW_BASE <= action < DRAW_BASE + NUM_DRAWS


def _drawing_hand(state: State) -> list[int]:
    seat = state.current_seat
    assert seat is not None
    return state.piles[DUMMY] if state.family.phase == "dummy" else state.cards[seat]


def _play(
    env: Any, deck: list[int], seed: int, choose: Callable[[State, int], int], viewer: int | None = None
) -> tuple[list[Move], list[Any]]:
    """A whole game: the moves made and what every seat (or only ``viewer``) is handed
    before each move and at the end (a dict by seat)."""
    env.reset(seed=seed, options={"deck": deck, "button": 0})
    raw = env.unwrapped
    moves: list[Move] = []
    seen = []
    while not raw.state.is_over:
        seen.append({s: handed(raw, a) for s, a in enumerate(raw.possible_agents) if viewer in (None, s)})
        state = raw.state
        action = choose(state, len(moves))
        discards = tuple(split_hand(_drawing_hand(state), action)[1]) if _is_draw(action) else ()
        moves.append((state.current_seat, action, discards))
        env.step(action)
    seen.append({s: handed(raw, a) for s, a in enumerate(raw.possible_agents) if viewer in (None, s)})  # history too
    return moves, seen


def _visible(state: State, viewer: int) -> set[int]:
    """Every card the viewer saw: its own, its secrets (discards, the dummy it drew for)
    and everything shown to the table."""
    cards: set[int] = set()
    for e in state.events:
        if e.seat == viewer or (not e.secret and (e.kind != "deal" or e.up)):
            cards.update(e.cards)
    return cards


def _relabelling(hidden: set[int], rng: np.random.Generator, aces_apart: bool) -> dict[int, int]:
    sigma = {c: c for c in range(52)}
    groups = [sorted(hidden)]
    if aces_apart:
        groups = [[c for c in sorted(hidden) if rank_of(c) == 12], [c for c in sorted(hidden) if rank_of(c) != 12]]
    for group in groups:
        for a, b in zip(group, rng.permutation(group).tolist(), strict=True):
            sigma[a] = b
    return sigma


def first_leak(env: Any, seed: int) -> tuple[int, int] | None:
    """(viewer, step) of the first observation, view or info that changed under
    relabelling, or None."""
    rng = np.random.default_rng(seed)
    deck = rng.permutation(52).tolist()
    moves, seen = _play(env, deck, seed, lambda s, i: (legal := s.legal_actions())[int(rng.integers(len(legal)))])
    state = env.unwrapped.state
    options = state.game.options
    aces_apart = getattr(options, "ace_draw", None) is not None and options.ace_draw > options.max_draw
    for viewer in range(state.n):
        sigma = _relabelling(set(range(52)) - _visible(state, viewer), rng, aces_apart)

        def translate(s: State, i: int, sigma: dict[int, int] = sigma) -> int:
            seat, action, discards = moves[i]
            assert s.current_seat == seat
            if _is_draw(action):
                hand = _drawing_hand(s)
                action = draw_action([hand.index(sigma[c]) for c in discards])
            assert action in s.legal_actions(), "a relabelled hidden card changed what is legal"
            return action

        _, again = _play(env, [sigma[c] for c in deck], seed, translate, viewer)
        for step, (before, after) in enumerate(zip(seen, again, strict=True)):
            if before[viewer] != after[viewer]:
                return viewer, step
    return None


@pytest.mark.parametrize("name", COW)
@settings(max_examples=4, deadline=None)  # whole games; test_no_leak_over_many_games (slow) plays 200
@given(data=st.data())
def test_hidden_cards_never_reach_an_observation(name: str, data: st.DataObject) -> None:
    n = data.draw(st.sampled_from(PLAYER_RANGE[name]), label="players")
    options = data.draw(st.sampled_from(OPTIONS[name]), label="options")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    assert first_leak(envs.make_raw(name, n, **options), seed) is None


@pytest.mark.parametrize("name", COW)
@pytest.mark.parametrize("case", range(len(WILD_CASES)), ids=[str(c) for c in WILD_CASES])
@settings(max_examples=1, deadline=None)
@given(data=st.data())
def test_hidden_cards_never_reach_an_observation_with_wild_cards(name: str, case: int, data: st.DataObject) -> None:
    """Every wild-card option (docs/rules.md section 11): the joker in hands, the dummy
    and the reshuffled discards."""
    n = data.draw(st.sampled_from(PLAYER_RANGE[name]), label="players")
    options = {**data.draw(st.sampled_from(OPTIONS[name]), label="options"), **WILD_CASES[case], "max_deals": 3}
    seed = data.draw(st.integers(0, 2**31), label="seed")
    assert first_leak(envs.make_raw(name, n, **options), seed) is None


@pytest.mark.slow
@pytest.mark.parametrize("name", COW)
def test_no_leak_over_many_games(name: str) -> None:
    for seed in range(200):
        n = PLAYER_RANGE[name][0] + seed % 5
        options = OPTIONS[name][seed % len(OPTIONS[name])]
        assert first_leak(envs.make_raw(name, n, **options), seed) is None, (n, options, seed)


class _Peek(Piece):
    """A deliberately leaky piece: the next seat's hand."""

    def __init__(self) -> None:
        super().__init__("peek", 52, "the next seat's cards (a leak)")

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        assert t.state is not None
        out[t.state.cards[(seat + 1) % t.n]] = 1.0


def test_the_no_leak_check_can_fail() -> None:
    leaky = dataclasses.replace(VARIANTS["cowboy"], pieces=lambda game: [*cowboy_pieces(game), _Peek()])
    env = DealersChoiceEnv(leaky, num_players=3)
    assert first_leak(env, 5) is not None


# ----------------------------------------------------------------- contents
HANDS = {1: "Kc Kd 9h 7s 2d", 2: "7c 5d 4h 3s 2h", 3: "9d 8c 6h 4c 3c", 0: "Jc Jd Th 8d 6s"}
DUMMY_CARDS = "3d 5c 6d Qc Qd Qh 8s 8h"


def _env(**options: Any) -> Any:
    env = envs.make("cowboy", 4, **options)
    env.reset(seed=0, options={"deck": stacked(4, 0, HANDS, DUMMY_CARDS), "button": 0})
    return env


def _piece(env: Any, agent: str, name: str) -> np.ndarray:
    raw = env.unwrapped
    piece = next(p for p in raw.pieces if p.name == name)
    return raw.observe(agent)["observation"][piece.offset : piece.offset + piece.size]


def test_observation_follows_the_deal() -> None:
    env = _env()
    for action in (STAY, STAY):
        env.step(action)
    stays = _piece(env, "player_3", "stays").reshape(4, 2)
    assert stays.tolist() == [[0, 0], [0, 0], [1, 0], [1, 0]]  # seats 3, 0, 1, 2 relative to player_3
    for action in (STAY, FOLD, PAT, draw_action([0, 1])):
        env.step(action)
    draws = _piece(env, "player_0", "draws").reshape(5, 6)
    assert draws.argmax(axis=1).tolist()[1:3] == [0, 2] and draws[1:3].sum() == 2  # player_1 pat, player_2 two
    env.step(PAT)
    env.step(HIGH)  # player_1 declares in secret
    assert _piece(env, "player_1", "declarations")[1] == 1.0
    assert not _piece(env, "player_2", "declarations").any()
    assert env.agent_selection == "player_2"


def test_only_the_chooser_sees_the_dummy_and_the_summary_keeps_the_showdown() -> None:
    env = _env()
    for action in (STAY, STAY, STAY, FOLD, PAT, PAT, PAT, HIGH, LOW, LOW):
        env.step(action)
    assert env.agent_selection == "player_0"
    assert _piece(env, "player_0", "dummy").reshape(5, 52).sum() == 5
    assert all(not _piece(env, f"player_{s}", "dummy").any() for s in (1, 2, 3))
    summary = _piece(env, "player_2", "showdowns")
    assert np.flatnonzero(summary[:52]).tolist() == sorted(parse(HANDS[2]))  # relative seat 0: its own hand
    env.step(draw_action([0, 1, 2]))
    assert env.unwrapped.state.family.deal == 2
    chips = _piece(env, "player_0", "chips")  # in antes on the signed log scale
    np.testing.assert_allclose(chips, _symlog([11, 11, -2, -5, 1, -5]), rtol=1e-6)
    paid = _piece(env, "player_0", "showdowns").reshape(-1)[1 * 58 + 57]  # relative seat 1 = player_1
    assert paid == pytest.approx(np.log1p(4.0))


def _symlog(antes: list[int]) -> np.ndarray:
    """``sign(x) * ln(1 + |x|)``, the scale of the Cowboy pieces' chip amounts."""
    x = np.array(antes, float)
    return np.sign(x) * np.log1p(np.abs(x))


def test_truncation_is_reported_and_rewards_sum_to_zero() -> None:
    env = _env(max_deals=1, dummy=False)
    for action in (STAY, STAY, STAY, FOLD, PAT, PAT, PAT, HIGH, LOW, HIGH):
        env.step(action)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.unwrapped.state.payoffs() == [0, 2, 2, -4]  # the pot of 4 is returned, 1 each
    assert env.rewards == {"player_0": 0.0, "player_1": 2.0, "player_2": 2.0, "player_3": -4.0}


def test_a_game_ending_by_the_rules_terminates() -> None:
    env = _env(max_deals=1)
    for action in (STAY, STAY, FOLD, FOLD):
        env.step(action)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": 1.0, "player_3": -1.0}


def test_random_game_through_the_env_has_a_history() -> None:
    env = envs.make("cowpattie", 5, render_mode="ansi")
    env.reset(seed=3)
    assert "to act: player_" in env.render()
    rng = np.random.default_rng(3)
    while not env.unwrapped.state.is_over:
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    history = str(env.infos["player_0"]["history"])
    assert "*** DEAL 1 ***" in history and "*** SUMMARY ***" in history


def test_a_secret_declaration_changes_no_other_observation_before_the_reveal() -> None:
    script = (STAY, STAY, STAY, FOLD, PAT, PAT, PAT)
    seen = []
    for declaration in (LOW, HIGH):
        env = _env()
        for action in (*script, declaration):
            env.step(action)
        seen.append([env.observe(f"player_{s}")["observation"] for s in (0, 2, 3)])
    for before, after in zip(*seen, strict=True):
        assert np.array_equal(before, after)
