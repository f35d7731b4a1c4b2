"""Local best response on Cowpie: every pair of splits valued as the scalar engine pays
it, the opponent's split chances per holding, the choice, the betting equity with both
hands split by the heuristic's score (against the scalar splitter), the opponent's view
at its split, the options LBR leaves out, and matches played through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

from agents.base import Agent
from agents.candidates import candidate_features, candidate_slots
from envs.engine.actions import BRING_IN, CHECK_CALL, NUM_SPLITS, SPLIT_BASE
from envs.engine.hands import cowpie_splits
from envs.registry import make_raw
from envs.variants.cowpie import rank_splits
from envs.view import PublicView
from tests.training.candidates import candidate_agent
from training import lbr_stud
from training.lbr_range import Situation
from training.lbr_stud import StudLBR, equities, opponent_views, slot_faces

VARIANT = "cowpie"
SHUFFLED = np.random.default_rng(11).permutation(52).tolist()
SPLITS = range(SPLIT_BASE, SPLIT_BASE + NUM_SPLITS)
OPTIONS = {"ante": 1}  # a pot of 4 chips at the split: a tied half is whole chips, so payoffs compare exactly


class Scripted(Agent):
    """Checks or calls (else brings in); splits with its last legal split (the cards
    decide whether it is legal, so holdings split differently)."""

    name = "scripted"

    def act(self, observation: Any, view: PublicView) -> int:
        legal = view.legal_actions
        if legal[0] in SPLITS:
            return max(legal)
        return CHECK_CALL if CHECK_CALL in legal else BRING_IN


def scripted_probabilities(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Scripted's policy on tensors: the last legal split, else check/call or bring-in."""
    splitting = mask[:, SPLIT_BASE]
    for a in SPLITS:
        splitting = splitting | mask[:, a]
    last = mask.shape[1] - 1 - mask.flip(1).double().argmax(1)
    passive = torch.where(mask[:, CHECK_CALL], CHECK_CALL, BRING_IN)
    return torch.nn.functional.one_hot(torch.where(splitting, last, passive), mask.shape[1]).double()


def hand_until(deck: list[int], button: int, stop: Callable[[PublicView], bool], seen: list[Any] | None = None):
    """Play a hand (both seats Scripted) to seat 0's first decision where ``stop`` holds;
    its view there. ``seen`` collects seat 1's (observation, view) at its decisions."""
    env = make_raw(VARIANT, 2, **OPTIONS)
    env.reset(options={"deck": deck, "button": button})
    bot = Scripted()
    while not env.state.is_over:
        agent = env.agent_selection
        view = env.public_view(agent)
        if view.seat == 0 and stop(view):
            return view
        if seen is not None and view.seat == 1:
            seen.append((env.observe(agent), view))
        env.step(bot.act(env.observe(agent), view))
    raise AssertionError("the hand ended first")


def at_split(view: PublicView) -> bool:
    return view.legal_actions[0] in SPLITS


def at_seventh_street(view: PublicView) -> bool:
    return len(view.own_cards) == 7 and not at_split(view)


@pytest.fixture(scope="module")
def lbr_bot() -> StudLBR:
    return StudLBR(VARIANT, Scripted(), options=OPTIONS, seed=0, max_holdings=12, policy=scripted_probabilities)


def scalar_payoff(lbr: StudLBR, situation: Situation, deck: np.ndarray, mine: int, theirs: int) -> int:
    """LBR's chips won or lost when the hand is replayed on the scalar engine from
    ``deck`` with these splits."""
    st = lbr.range.spec.game.new_state(0, button=situation.button, deck=deck.tolist())
    for _, action in situation.actions:
        st.apply(action)
    while not st.is_over:
        st.apply(mine if st.current_seat == situation.seat else theirs)
    return st.payoffs()[situation.seat]


@pytest.mark.parametrize("button", [0, 1], ids=["opponent-splits-first", "lbr-splits-first"])
def test_every_pair_of_splits_is_valued_as_the_scalar_engine(lbr_bot: StudLBR, button: int) -> None:
    view = hand_until(SHUFFLED, button, at_split)
    situation = Situation.of_view(view)
    holdings = lbr_bot.range.holdings(situation, np.random.default_rng(1))
    found = lbr_bot.range.splits(situation, holdings)
    decks = lbr_bot.range.decks(situation, holdings)
    assert found.result.shape == (len(holdings), NUM_SPLITS, NUM_SPLITS)
    mine = [a - SPLIT_BASE for a in view.legal_actions]
    down = [not u for u in view.own_up]
    committed = view.committed[situation.seat]
    assert view.pot == 4  # a tied half is whole chips: the comparison below is exact
    last_legal = []
    for h, deck in enumerate(decks):
        theirs_cards = [int(deck[p]) for p in lbr_bot.range.positions(button)[situation.opponent]]
        legal = np.flatnonzero(cowpie_splits(theirs_cards, down).legal)
        last_legal.append(legal[-1])
        for i in mine:
            for j in legal:
                paid = scalar_payoff(lbr_bot, situation, deck, SPLIT_BASE + i, SPLIT_BASE + int(j))
                share = float(found.result[h, i, j])
                assert share * view.pot - committed == paid, (h, i, j)
    chances = np.zeros((len(holdings), NUM_SPLITS))
    chances[np.arange(len(holdings)), last_legal] = 1.0
    np.testing.assert_array_equal(found.chances.numpy(), chances)  # read from each holding's own table
    assert {0.25, 0.75} <= set(found.result.flatten().tolist())  # ties within a half were compared
    assert len(set(last_legal)) > 1  # the holdings really split differently


def test_the_split_is_the_best_legal_expected_share(lbr_bot: StudLBR) -> None:
    view = hand_until(SHUFFLED, 0, at_split)
    choice = lbr_bot.split(Situation.of_view(view))
    found = choice.found
    posterior = found.weights.numpy() / found.weights.numpy().sum()
    values = np.einsum("h,hj,hij->i", posterior, found.chances.numpy(), found.result.numpy())
    legal = [a - SPLIT_BASE for a in view.legal_actions]
    assert len(legal) < NUM_SPLITS  # some splits are illegal here, and never chosen
    np.testing.assert_allclose(choice.values[legal], values[legal], rtol=0, atol=1e-12)
    assert np.isnan(np.delete(choice.values, legal)).all()
    assert choice.action == SPLIT_BASE + legal[int(np.argmax(values[legal]))]


def heuristic_share(own: list[int], own_down: list[bool], theirs: list[int], their_down: list[bool]) -> float:
    """The scalar splitter's shares: both hands split by ``rank_splits`` (one opponent)."""
    halves = []
    for cards, down in ((own, own_down), (theirs, their_down)):
        best = rank_splits(cards, down, opponents=1)[0][0] - SPLIT_BASE
        s = cowpie_splits(cards, down)
        halves.append((int(s.five[best]), int(s.two[best])))
    (f0, t0), (f1, t1) = halves
    return 0.5 * ((f0 > f1) + 0.5 * (f0 == f1)) + 0.5 * ((t0 > t1) + 0.5 * (t0 == t1))


def test_seventh_street_equity_splits_both_hands_as_the_scalar_heuristic(lbr_bot: StudLBR) -> None:
    situation = Situation.of_view(hand_until(SHUFFLED, 1, at_seventh_street))
    holdings = lbr_bot.range.holdings(situation, np.random.default_rng(2))
    got = equities(lbr_bot.range, lbr_bot.hands, situation, holdings, runouts=4, generator=torch.Generator())
    faces = slot_faces(lbr_bot.range.spec)
    assert faces == (False, False, True, True, True, True, False)
    own_down = [not f for f in faces]
    expected = []
    for held in holdings.tolist():
        theirs = list(situation.opp)
        for slot, c in zip(situation.down_slots, held, strict=True):
            theirs[slot] = c
        expected.append(heuristic_share(list(situation.own), own_down, theirs, own_down))
    np.testing.assert_allclose(got.numpy(), expected, rtol=0, atol=1e-12)
    assert len(set(expected)) > 1


def test_an_earlier_street_averages_runouts(lbr_bot: StudLBR) -> None:
    situation = Situation.of_view(hand_until(SHUFFLED, 0, lambda v: len(v.own_cards) == 5))
    holdings = lbr_bot.range.holdings(situation, np.random.default_rng(3))
    got = equities(lbr_bot.range, lbr_bot.hands, situation, holdings, runouts=8, generator=torch.Generator())
    assert got.shape == (len(holdings),)
    assert ((got >= 0) & (got <= 1)).all() and float(got.std()) > 0


# ------------------------------------------------------------------ networks that split from the view
def test_the_opponents_view_at_its_split_is_rebuilt_with_its_own_legal_splits() -> None:
    seen: list[Any] = []
    view = hand_until(SHUFFLED, 0, at_split, seen)  # seat 1 splits first: its view was recorded
    observation, real = seen[-1]
    assert real.legal_actions[0] in SPLITS
    situation = Situation.of_view(view)
    truth = np.array([[real.own_cards[j] for j in situation.down_slots]])
    mask = torch.from_numpy(observation["action_mask"][None]).bool()
    (rebuilt,) = opponent_views(view, situation, truth, mask)
    for name in ("seat", "own_cards", "own_up", "up_cards", "folded", "legal_actions", "legal_names", "pot"):
        assert getattr(rebuilt, name) == getattr(real, name), name
    assert rebuilt.legal_actions != view.legal_actions  # LBR's own legal splits differ here
    slots = candidate_slots(len(make_raw(VARIANT, 2).action_names))
    rows = [candidate_features(v, slots, np.random.default_rng(5)) for v in (rebuilt, real)]
    np.testing.assert_array_equal(rows[0], rows[1])


def test_lbr_splits_against_a_splitting_network() -> None:
    lbr_bot = StudLBR(VARIANT, candidate_agent(VARIANT, True, OPTIONS), options=OPTIONS, seed=0, max_holdings=16)
    view = hand_until(SHUFFLED, 0, at_split)
    with pytest.raises(ValueError, match="pass LBR's view"):
        lbr_bot.split(Situation.of_view(view))
    choice = lbr_bot.split(Situation.of_view(view), view)
    assert choice.found.chances.shape == (16, NUM_SPLITS)
    np.testing.assert_allclose(choice.found.chances.sum(1).numpy(), 1.0)
    assert choice.action in view.legal_actions


@pytest.mark.parametrize("spec", ["random", "call"])
def test_lbr_plays_cowpie_hands_through(spec: str) -> None:
    report = lbr_stud.lbr_match(VARIANT, spec, deals=3, seed=4, max_holdings=32, runouts=2, progress=False)
    result = report["results"]["as_is"]
    assert result["hands"] == 6 and result["lbr_decisions"] > 0


@pytest.mark.parametrize(
    ("options", "match"),
    [({"illegal_split": "forfeit"}, "illegal_split='mask'"), ({"bet_after_split": True}, "bet_after_split")],
)
def test_split_rules_lbr_does_not_model_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        StudLBR(VARIANT, Scripted(), options=options, policy=scripted_probabilities)
