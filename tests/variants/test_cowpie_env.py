"""Cowpie through the environment: readable split names, what the observation shows
when, the hand history, and the split-ranking helper for agents."""

from __future__ import annotations

import numpy as np
import pytest
from envs.cowpie_v0 import env as cowpie_env

import envs
from envs.engine.actions import BRING_IN, CHECK_CALL, RAISE, SPLIT_BASE, split_action
from envs.engine.cards import parse
from envs.engine.hands import cowpie_splits, evaluate_high
from envs.variants.cowpie import (
    five_card_percentiles,
    rank_splits,
    split_label,
    split_scores,
    two_card_percentiles,
)
from tests.variants.cowpie_helpers import DOWN, stacked_deck

SCOOP_HANDS = ["Ah Kc Ks Kh 9c 9d Ad", "Qs Jc Qh 5c 5d 2h Js"]


def _piece(env, name: str, vector: np.ndarray) -> np.ndarray:  # type: ignore[no-untyped-def]
    piece = next(p for p in env.unwrapped.pieces if p.name == name)
    return vector[piece.offset : piece.offset + piece.size]


def _call_to_split(env) -> None:  # type: ignore[no-untyped-def]
    """Bring in, check or call until the legal actions are splits."""
    while True:
        mask = env.last()[0]["action_mask"]
        if mask[SPLIT_BASE:].any():
            return
        env.step(BRING_IN if mask[BRING_IN] else CHECK_CALL)


def _split_by_name(env, name: str) -> None:  # type: ignore[no-untyped-def]
    agent = env.agent_selection
    legal = np.flatnonzero(env.observe(agent)["action_mask"])
    names = env.infos[agent]["legal_actions"]
    env.step(int(legal[names.index(name)]))


def test_legal_split_names_in_info() -> None:
    """The seed's hand: infos name the legal splits by their cards, in mask order; the
    illegal A♠K♥ is neither named nor in the mask."""
    env = cowpie_env(2)
    env.reset(seed=1, options={"deck": stacked_deck(["2s 3s 4s 5s 6s 8s Ts", "As 9d Kh Kc 7s 4d 2c"]), "button": 0})
    _call_to_split(env)
    assert env.agent_selection == "player_1"
    names = env.infos["player_1"]["legal_actions"]
    mask = env.observe("player_1")["action_mask"]
    cards = parse("As 9d Kh Kc 7s 4d 2c")
    legal = np.flatnonzero(mask)
    assert names == [split_label(cards, int(a)) for a in legal]
    assert "split_As_9d" in names and "split_As_Kh" not in names
    assert not mask[split_action(0, 2)] and mask[split_action(0, 1)]
    legal_cowpie = np.flatnonzero(cowpie_splits(cards, DOWN).legal) + SPLIT_BASE
    assert legal.tolist() == legal_cowpie.tolist()


def test_splits_in_the_observation() -> None:
    """Your own split is in your observation at once; the other's only at the reveal,
    which comes after the betting round that ``bet_after_split`` adds."""
    env = envs.make("cowpie", 2, ante=5, bet_after_split=True)
    env.reset(seed=3, options={"deck": stacked_deck(SCOOP_HANDS), "button": 0})
    _call_to_split(env)
    street = _piece(env, "street", env.observe("player_1")["observation"])
    assert street.tolist() == [0, 0, 0, 0, 0, 1, 0]  # the split phase
    _split_by_name(env, "split_Qs_Js")
    _split_by_name(env, "split_Ah_Ad")
    row = 105
    mine = _piece(env, "splits", env.observe("player_0")["observation"])
    assert set(np.flatnonzero(mine[:52])) == set(parse("Ah Ad"))
    assert set(np.flatnonzero(mine[52:104])) == set(parse("Kc Ks Kh 9c 9d"))
    assert mine[104] == 1 and not mine[row:].any()  # player_1's split is still secret
    theirs = _piece(env, "splits", env.observe("player_1")["observation"])
    assert theirs[:row].any() and not theirs[row:].any()
    assert _piece(env, "street", env.observe("player_0")["observation"])[6] == 1  # after the split
    env.step(RAISE)
    env.step(CHECK_CALL)
    assert all(env.terminations.values())
    final = _piece(env, "splits", env.observe("player_0")["observation"])
    assert set(np.flatnonzero(final[row : row + 52])) == set(parse("Qs Js"))
    assert env.rewards == {"player_0": 2.5, "player_1": -2.5}


def test_history_shows_splits_and_halves() -> None:
    env = envs.make("cowpie", 2, ante=5)
    env.reset(seed=4, options={"deck": stacked_deck(SCOOP_HANDS), "button": 0})
    _call_to_split(env)
    _split_by_name(env, "split_Qs_Js")
    _split_by_name(env, "split_Ah_Ad")
    text = str(env.infos["player_1"]["history"])
    assert "*** SPLIT ***" in text
    assert "player_1: splits Jc Qh 5c 5d 2h / Qs Js" in text
    assert "player_0: splits Kc Ks Kh 9c 9d / Ah Ad" in text
    assert "player_0 wins 6 (five-card half of the pot with full house, kings full of nines" in text
    assert "player_0 wins 6 (two-card half of the pot with pair of aces (Ah Ad))" in text
    assert text.index("player_1: splits") < text.index("player_0 wins")


def test_render_names_splits() -> None:
    env = envs.make("cowpie", 2, render_mode="ansi")
    env.reset(seed=5, options={"deck": stacked_deck(SCOOP_HANDS), "button": 0})
    _call_to_split(env)
    assert "legal: split_" in env.render() and "split_Qs_Js" in env.render()


# ----------------------------------------------------------------- the helper
def test_percentiles_are_exact() -> None:
    """7-5-4-3-2 offsuit: 1,020 of 2,598,960 hands; a royal flush: 4; pair of aces
    in two cards: 6 of 1,326; 3-2: 16."""
    five, two = five_card_percentiles(), two_card_percentiles()
    total = 2_598_960
    assert five[evaluate_high("7c 5d 4h 3s 2c")] == pytest.approx(510 / total)
    assert five[evaluate_high("As Ks Qs Js Ts")] == pytest.approx(1 - 2 / total)
    assert np.all(np.diff(five[1:]) > 0) and np.all(np.diff(two[1:]) > 0)
    assert two[-1] == pytest.approx(1 - 3 / 1326) and two[1] == pytest.approx(8 / 1326)


def test_rank_splits_on_the_seed_example() -> None:
    """Only legal splits, best first; the seed's recommended split ranks first."""
    cards = parse("As 9d 2c Kh Kc 7s 4d")
    down = [True, True, True, False, False, False, False]
    ranked = rank_splits(cards, down)
    legal = np.flatnonzero(cowpie_splits(cards, down).legal) + SPLIT_BASE
    assert sorted(a for a, _ in ranked) == legal.tolist()
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True) and all(0 < s < 1 for s in scores)
    assert split_label(cards, ranked[0][0]) == "split_As_9d"
    assert ranked[0][0] == split_action(0, 1)


def test_rank_splits_prefers_the_pair_of_aces_in_two() -> None:
    """A-A-K-K: the aces in the five with K-K in the two beats two pair in the five."""
    cards = parse("Ah Kh Ad Kd 7c 4s 2c")
    down = [True, True, False, False, False, False, True]
    best, _ = rank_splits(cards, down)[0]
    assert split_label(cards, best) == "split_Kh_Kd"


def test_split_scores_batched_and_checked() -> None:
    rng = np.random.default_rng(0)
    hands = np.argsort(rng.random((50, 52)), axis=1)[:, :7]
    down = np.tile(np.array(DOWN), (50, 1))
    scores = split_scores(hands, down, opponents=3)
    assert scores.shape == (50, 21)
    assert ((scores >= 0) == cowpie_splits(hands, down).legal).all()
    with pytest.raises(ValueError, match="opponents=0"):
        split_scores(hands, down, opponents=0)
    with pytest.raises(ValueError, match="one seven-card hand"):
        rank_splits(hands, down)
