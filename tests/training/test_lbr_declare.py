"""Local best response on stud high-low with a declaration: the replayed results of every
pair of declarations against the scalar engine, the opponent's declaration chances per
holding, the choice, and a match played through."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import torch

from agents.base import Agent
from agents.candidates import candidate_features, candidate_slots
from agents.neural import NeuralAgent
from agents.probabilities import view_probability_function
from envs.engine.actions import BRING_IN, CHECK_CALL, DECLARE_LOW
from envs.registry import make_raw
from envs.view import PublicView
from tests.training import candidates
from training import lbr_stud
from training.lbr_range import DECLARATIONS, OpponentRange, Situation
from training.lbr_stud import StudLBR, opponent_views

VARIANT = "stud_hilo_declare"
SHUFFLED = np.random.default_rng(6).permutation(52).tolist()  # seat 1 can win high, low or both: chances
LOW, HIGH, BOTH = DECLARATIONS
RANKS = "23456789TJQKA"


def card(text: str) -> int:
    return RANKS.index(text[0]) * 4 + "cdhs".index(text[1])


def scripted_declaration(first_card: int) -> int:
    """The scripted opponent's declaration from its first down card: low with a 2 to 8,
    both with a king or an ace, high otherwise."""
    rank = first_card // 4
    return LOW if rank <= RANKS.index("8") else BOTH if rank >= RANKS.index("K") else HIGH


class Scripted(Agent):
    """Checks or calls (else brings in); declares by :func:`scripted_declaration`."""

    name = "scripted"

    def act(self, observation: Any, view: PublicView) -> int:
        legal = view.legal_actions
        if DECLARE_LOW in legal:
            return scripted_declaration(view.own_cards[0])
        return CHECK_CALL if CHECK_CALL in legal else BRING_IN


def scripted_probabilities(offset: int) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """Scripted's policy read from the observation's first own-cards slot."""

    def probs(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        first = obs[:, offset : offset + 52].argmax(1)
        declaring = mask[:, DECLARE_LOW]
        passive = torch.where(mask[:, CHECK_CALL], CHECK_CALL, BRING_IN)
        declared = torch.tensor([scripted_declaration(int(c)) for c in first.tolist()], dtype=torch.int64)
        return torch.nn.functional.one_hot(torch.where(declaring, declared, passive), mask.shape[1]).double()

    return probs


def own_cards_offset() -> int:
    offset = 0
    for piece in make_raw(VARIANT, 2).pieces:
        if piece.name == "own_cards":
            return offset
        offset += piece.size
    raise AssertionError("no own_cards piece")


def lbr_declaration(deck: list[int], button: int, seen: list[Any] | None = None) -> PublicView:
    """Play a hand (both seats Scripted) to seat 0's declaration; its view there.
    ``seen`` collects seat 1's (observation, view) at each of its decisions."""
    env = make_raw(VARIANT, 2)
    env.reset(options={"deck": deck, "button": button})
    bot = Scripted()
    while not env.state.is_over:
        agent = env.agent_selection
        view = env.public_view(agent)
        if view.seat == 0 and DECLARE_LOW in view.legal_actions:
            return view
        if seen is not None and view.seat == 1:
            seen.append((env.observe(agent), view))
        env.step(bot.act(env.observe(agent), view))
    raise AssertionError("the hand ended before seat 0 declared")


def scalar_result(rng: OpponentRange, situation: Situation, deck: np.ndarray, mine: int, theirs: int) -> float:
    """Seat ``situation.seat``'s reward when the hand is replayed on the scalar engine
    from ``deck`` with these declarations."""
    st = rng.spec.game.new_state(0, button=situation.button, deck=deck.tolist())
    for _, action in situation.actions:
        st.apply(action)
    while not st.is_over:
        st.apply(mine if st.current_seat == situation.seat else theirs)
    return st.rewards()[situation.seat]


@pytest.fixture(scope="module")
def lbr_bot() -> StudLBR:
    return StudLBR(VARIANT, Scripted(), seed=0, max_holdings=24, policy=scripted_probabilities(own_cards_offset()))


@pytest.mark.parametrize("button", [0, 1], ids=["opponent-declares-first", "lbr-declares-first"])
def test_every_pair_of_declarations_is_valued_as_the_scalar_engine(lbr_bot: StudLBR, button: int) -> None:
    situation = Situation.of_view(lbr_declaration(list(range(52)), button))
    holdings = lbr_bot.range.holdings(situation, np.random.default_rng(1))
    found = lbr_bot.range.declarations(situation, holdings)
    decks = lbr_bot.range.decks(situation, holdings)
    assert found.result.shape == (len(holdings), 3, 3)
    for h in range(len(holdings)):
        for i, mine in enumerate(DECLARATIONS):
            for j, theirs in enumerate(DECLARATIONS):
                expected = scalar_result(lbr_bot.range, situation, decks[h], mine, theirs)
                assert float(found.result[h, i, j]) == pytest.approx(expected, abs=1e-6), (h, i, j)
    chances = np.zeros((len(holdings), 3))
    chances[np.arange(len(holdings)), [DECLARATIONS.index(scripted_declaration(c)) for c in holdings[:, 0]]] = 1
    np.testing.assert_array_equal(found.chances.numpy(), chances)  # read from each holding's own observation
    assert len(np.unique(chances.argmax(1))) > 1  # the holdings really declare differently


def test_the_choice_is_the_best_expected_result(lbr_bot: StudLBR) -> None:
    situation = Situation.of_view(lbr_declaration(list(range(52)), 0))
    choice = lbr_bot.declare(situation)
    found = choice.found
    posterior = found.weights.numpy() / found.weights.numpy().sum()
    values = np.einsum("h,hj,hij->i", posterior, found.chances.numpy(), found.result.numpy())
    np.testing.assert_allclose(choice.values, values, rtol=0, atol=1e-9)
    assert choice.action == DECLARATIONS[int(np.argmax(values))]


def test_the_nuts_high_without_a_low_declares_high(lbr_bot: StudLBR) -> None:
    positions = lbr_bot.range.positions(0)
    mine = [card(c) for c in ("Ac", "Ad", "Ah", "As", "Kc", "Kd", "Qh")]  # four aces, no low
    deck = [-1] * 52
    for j, c in enumerate(mine):
        deck[positions[0, j]] = c
    rest = iter(c for c in range(52) if c not in mine)
    deck = [c if c >= 0 else next(rest) for c in deck]
    choice = lbr_bot.declare(Situation.of_view(lbr_declaration(deck, 0)))
    assert choice.action == HIGH
    assert choice.values[1] > max(choice.values[0], choice.values[2])


def test_lbr_plays_declare_hands_through() -> None:
    report = lbr_stud.lbr_match(VARIANT, "random", deals=4, seed=2, max_holdings=32, runouts=2, progress=False)
    result = report["results"]["as_is"]
    assert result["hands"] == 8 and result["lbr_decisions"] > 0


# ------------------------------------------------------------------ networks that declare from the view
def candidate_agent(greedy: bool) -> NeuralAgent:
    """A small random network of stud high-low declare with the candidate head."""
    return candidates.candidate_agent(VARIANT, greedy)


def test_the_opponents_view_is_rebuilt_for_its_true_holding() -> None:
    seen: list[Any] = []
    view = lbr_declaration(SHUFFLED, 0, seen)  # seat 1 declares first: its view was recorded
    _, real = seen[-1]
    assert DECLARE_LOW in real.legal_actions
    situation = Situation.of_view(view)
    truth = np.array([[real.own_cards[j] for j in situation.down_slots]])
    (rebuilt,) = opponent_views(view, situation, truth)
    for name in ("seat", "own_cards", "own_up", "up_cards", "community", "folded", "legal_actions", "pot"):
        assert getattr(rebuilt, name) == getattr(real, name), name
    slots = candidate_slots(len(make_raw(VARIANT, 2).action_names))
    rows = [candidate_features(v, slots, np.random.default_rng(5)) for v in (rebuilt, real)]
    np.testing.assert_array_equal(rows[0], rows[1])  # what the network scores is the same
    assert rows[0][:, 6:10].max() > 0 and rows[0][:, 6:10].min() < 1  # chances, not certainties


@pytest.mark.parametrize("greedy", [True, False])
def test_a_declaring_network_is_asked_with_each_holdings_view(greedy: bool) -> None:
    seen: list[Any] = []
    lbr_declaration(SHUFFLED, 0, seen)
    observation, view = seen[-1]
    bot = candidate_agent(greedy)
    before = bot.rng.bit_generator.state
    probabilities = view_probability_function(bot)
    assert probabilities is not None
    obs = torch.from_numpy(observation["observation"][None])
    mask = torch.from_numpy(observation["action_mask"][None])
    got = probabilities(obs, mask, [view], 11)
    np.testing.assert_array_equal(probabilities(obs, mask, [view], 11).numpy(), got.numpy())  # replays
    if not greedy:  # the features are Monte Carlo chances: another seed, other probabilities
        assert not np.array_equal(probabilities(obs, mask, [view], 12).numpy(), got.numpy())
    alone = candidate_agent(greedy)
    alone.seed(11)
    expected = alone.action_probabilities([observation], [view])
    if greedy:
        expected = np.eye(expected.shape[1])[expected.argmax(1)]
    np.testing.assert_allclose(got.numpy(), expected, rtol=0, atol=1e-12)
    assert bot.rng.bit_generator.state == before  # the bot that plays keeps its own draws
    assert view_probability_function(Scripted()) is None


def test_lbr_declares_against_a_declaring_network() -> None:
    bot = candidate_agent(greedy=True)
    lbr_bot = StudLBR(VARIANT, bot, seed=0, max_holdings=16)
    view = lbr_declaration(list(range(52)), 0)
    with pytest.raises(ValueError, match="pass LBR's view"):
        lbr_bot.declare(Situation.of_view(view))
    choice = lbr_bot.declare(Situation.of_view(view), view)
    assert choice.found.chances.shape == (16, 3)
    np.testing.assert_allclose(choice.found.chances.sum(1).numpy(), 1.0)
    assert choice.action in DECLARATIONS


def test_declarations_against_a_declaring_network_replay() -> None:
    """The candidate features' Monte Carlo draws come from LBR's own generator (which the
    arena reseeds every hand): the same seed, the same values, to the last bit."""
    view = lbr_declaration(SHUFFLED, 0)
    values = []
    for _ in range(2):
        lbr_bot = StudLBR(VARIANT, candidate_agent(greedy=False), max_holdings=16)
        lbr_bot.seed(9)
        values.append(lbr_bot.declare(Situation.of_view(view), view).values)
    np.testing.assert_array_equal(values[0], values[1])
