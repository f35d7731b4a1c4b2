"""Local best response on heads-up stud: Bayes ranges replayed on the batched engine,
equities, the one-step rule on stacked decks, matches, and the toy cross-check."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
import torch

from agents.base import Agent, CallingStation, RandomAgent
from agents.probabilities import NoProbabilitiesError, probability_function
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.hands import evaluate_high
from envs.registry import make_raw
from envs.view import PublicView
from training import lbr, lbr_stud
from training.lbr_range import OpponentRange, Replay, Situation
from training.lbr_stud import StudLBR, decide, equities, showdown_equity

RANKS = "23456789TJQKA"


def card(text: str) -> int:
    return RANKS.index(text[0]) * 4 + "cdhs".index(text[1])


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def stacked(positions: np.ndarray, hands: dict[int, list[int]]) -> list[int]:
    """A 52-card deck with each seat's cards (in dealt order) where that seat gets them."""
    deck = [-1] * 52
    for seat, held in hands.items():
        for j, c in enumerate(held):
            deck[positions[seat, j]] = c
    rest = iter(c for c in range(52) if c not in deck)
    return [c if c >= 0 else next(rest) for c in deck]


def play_to(
    deck: list[int], bots: Sequence[Any], stop: Callable[[PublicView], bool], *, button: int = 0
) -> tuple[Any, PublicView, list[np.ndarray]]:
    """Play a stud hand from ``deck`` until a view satisfies ``stop``: the env, that view
    and every observation seat 1 saw at its decisions before."""
    env = make_raw("stud", 2)
    env.reset(options={"deck": deck, "button": button})
    seen: list[np.ndarray] = []
    while not env.state.is_over:
        agent = env.agent_selection
        seat = env.possible_agents.index(agent)
        view, obs = env.public_view(agent), env.observe(agent)
        if stop(view):
            return env, view, seen
        if seat == 1:
            seen.append(obs["observation"].copy())
        env.step(bots[seat].act(obs, view))
    raise AssertionError("the hand ended before the stop")


def street_of(view: PublicView) -> int:
    return len(view.own_cards)


class PairRaiser(Agent):
    """Raises (completes, bets) whenever legal with a pair in its two first down cards,
    never otherwise; checks or calls, else brings in; never folds."""

    name = "pair_raiser"

    def act(self, observation: Any, view: PublicView) -> int:
        legal = view.legal_actions
        pair = view.own_cards[0] // 4 == view.own_cards[1] // 4
        if pair and RAISE in legal:
            return RAISE
        return CHECK_CALL if CHECK_CALL in legal else BRING_IN


def pair_raiser_probabilities(offset: int) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """PairRaiser's policy read from the observation's own-cards piece (slot j: 53 columns)."""

    def probs(obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        first = obs[:, offset : offset + 52].argmax(1) // 4
        second = obs[:, offset + 53 : offset + 105].argmax(1) // 4
        raising = (first == second) & mask[:, RAISE]
        passive = torch.where(mask[:, CHECK_CALL], CHECK_CALL, BRING_IN)
        action = torch.where(raising, RAISE, passive)
        return torch.nn.functional.one_hot(action, mask.shape[1]).double()

    return probs


def own_cards_offset() -> int:
    env = make_raw("stud", 2)
    offset = 0
    for piece in env.pieces:
        if piece.name == "own_cards":
            return offset
        offset += piece.size
    raise AssertionError("no own_cards piece")


@pytest.fixture(scope="module")
def call_range() -> OpponentRange:
    return OpponentRange("stud", probability_function(CallingStation()))


# ------------------------------------------------------------------ the range
def test_holdings_are_every_order_of_the_unseen_cards(call_range: OpponentRange) -> None:
    deck = list(range(52))
    _, view, _ = play_to(deck, [CallingStation(), CallingStation()], lambda v: v.seat == 0)
    sit = Situation.of_view(view)
    held = call_range.holdings(sit, np.random.default_rng(0))
    seen = set(sit.own) | set(sit.opp_up)
    assert held.shape == (48 * 47, 2) and len(sit.down_slots) == 2
    assert not seen & set(held.ravel().tolist())
    assert {tuple(h) for h in held.tolist()} == set(itertools.permutations(sorted(set(range(52)) - seen), 2))


def test_seventh_street_holdings_are_sampled_within_the_unseen_cards() -> None:
    rng = OpponentRange("stud", probability_function(CallingStation()), max_holdings=64)
    _, view, _ = play_to(list(range(52)), [CallingStation()] * 2, lambda v: v.seat == 0 and street_of(v) == 7)
    sit = Situation.of_view(view)
    held = rng.holdings(sit, np.random.default_rng(1))
    assert held.shape == (64, 3) and sit.down_slots == [0, 1, 6]
    assert not (set(sit.own) | set(sit.opp_up)) & set(held.ravel().tolist())
    assert all(len(set(h)) == 3 for h in held.tolist())


@pytest.mark.parametrize("bot", [CallingStation(), RandomAgent(seed=3)], ids=["call", "random"])
def test_posterior_is_uniform_against_bots_that_ignore_their_cards(bot: Agent) -> None:
    rng = OpponentRange("stud", probability_function(bot))
    _, view, _ = play_to(list(range(52)), [CallingStation(), bot], lambda v: v.seat == 0 and street_of(v) == 5)
    sit = Situation.of_view(view)
    assert sum(1 for s, _ in sit.actions if s == 1) >= 3
    replay = rng.replay(sit, rng.holdings(sit, np.random.default_rng(0)))
    post = replay.posterior()
    assert float(replay.weights.min()) > 0
    assert torch.allclose(post, torch.full_like(post, 1 / len(post)), rtol=0, atol=1e-15)


def pair_hand() -> list[int]:
    """Seat 1 holds a pair of nines in the hole; seat 0 trash (7 cards each)."""
    pos = OpponentRange("stud", probability_function(CallingStation())).positions(0)
    return stacked(pos, {0: cards("2c 3d 5h 7s Tc Jd Kh"), 1: cards("9c 9d Ah Qs 8c 4d 6h")})


def test_a_pair_raiser_range_holds_only_pairs() -> None:
    rng = OpponentRange("stud", pair_raiser_probabilities(own_cards_offset()))
    _, view, _ = play_to(pair_hand(), [CallingStation(), PairRaiser()], lambda v: v.seat == 0 and street_of(v) == 5)
    sit = Situation.of_view(view)
    assert (1, RAISE) in sit.actions
    held = rng.holdings(sit, np.random.default_rng(0))
    replay = rng.replay(sit, held)
    pairs = torch.from_numpy(held[:, 0] // 4 == held[:, 1] // 4)
    assert bool((replay.weights[~pairs] == 0).all()) and bool((replay.weights[pairs] == 1).all())
    assert pairs.sum() > 0


@pytest.mark.parametrize("greedy", [False, True], ids=["sampled", "greedy"])
def test_the_true_holding_replays_what_the_opponent_saw(greedy: bool) -> None:
    import agents

    bot = agents.load("pretrained:stud", seed=5, greedy=greedy)
    rng = OpponentRange("stud", probability_function(bot))
    deck = list(np.random.default_rng(11).permutation(52))
    env, view, seen = play_to(deck, [CallingStation(), bot], lambda v: v.seat == 0 and street_of(v) == 7)
    sit = Situation.of_view(view)
    true = np.array([[env.state.cards[1][j] for j in sit.down_slots]])
    replay = rng.replay(sit, true, keep_observations=True)
    assert len(replay.observations) == len(seen) > 0
    for (obs, _), real in zip(replay.observations, seen, strict=True):
        np.testing.assert_array_equal(obs[0].numpy(), real)
    assert float(replay.weights[0]) > 0  # what it did is possible with what it held


def test_probabilities_are_what_the_bots_play() -> None:
    import agents

    bot = agents.load("pretrained:stud", seed=0)
    env = make_raw("stud", 2)
    obs, views = [], []
    for seed in range(6):
        env.reset(seed=seed)
        while not env.state.is_over:
            agent = env.agent_selection
            obs.append(env.observe(agent))
            views.append(env.public_view(agent))
            env.step(CallingStation().act(obs[-1], views[-1]))
    vectors = torch.from_numpy(np.stack([o["observation"] for o in obs]))
    masks = torch.from_numpy(np.stack([o["action_mask"] for o in obs])).bool()
    net = probability_function(bot)(vectors, masks).numpy()
    np.testing.assert_allclose(net, bot.action_probabilities(obs, views), rtol=0, atol=1e-6)
    calls = probability_function(CallingStation())(vectors, masks).numpy()
    assert calls.argmax(1).tolist() == [CallingStation().act(o, v) for o, v in zip(obs, views, strict=True)]
    assert (calls.max(1) == 1.0).all()
    uniform = probability_function(RandomAgent())(vectors, masks).numpy()
    np.testing.assert_allclose(uniform, RandomAgent().action_probabilities(obs, views), rtol=0, atol=1e-15)


def test_bots_without_probabilities_are_refused() -> None:
    import agents

    with pytest.raises(NoProbabilitiesError, match="supported: a trained network"):
        probability_function(agents.load("heuristic"))


# ------------------------------------------------------------------ equity
def test_equity_matches_the_scalar_evaluator(call_range: OpponentRange) -> None:
    _, view, _ = play_to(list(range(52)), [CallingStation()] * 2, lambda v: v.seat == 0 and street_of(v) == 6)
    sit = Situation.of_view(view)
    held = call_range.holdings(sit, np.random.default_rng(0))[[0, 500, 1000]]
    exact = equities(call_range, call_range_hands(), sit, held, runouts=2000, generator=torch.Generator())
    for h, got in zip(held.tolist(), exact.tolist(), strict=True):
        rest = [c for c in call_range.unseen(sit).tolist() if c not in h]
        mine = [[*sit.own, a] for a, b in itertools.permutations(rest, 2)]
        theirs = [[*sit.opp_up, *h, b] for a, b in itertools.permutations(rest, 2)]
        a, b = evaluate_high(np.array(mine)), evaluate_high(np.array(theirs))
        assert got == pytest.approx(float(np.mean((a > b) + 0.5 * (a == b))), abs=1e-12)
    gen = torch.Generator().manual_seed(0)
    sampled = equities(call_range, call_range_hands(), sit, held, runouts=400, generator=gen)
    assert torch.allclose(sampled, exact, atol=4 * 0.5 / math.sqrt(400))


def call_range_hands() -> Any:
    from envs.batched.hands import torch_hands

    return torch_hands("cpu")


def test_hi_lo_equity_halves_the_pot() -> None:
    shares = OpponentRange("stud_hilo", probability_function(CallingStation())).spec.shares
    hands = call_range_hands()
    wheel = torch.tensor([cards("Ac 2d 3h 4s 5c Kd Kh")])  # a straight and the best low
    kings = torch.tensor([cards("Kc Ks Qd Qh 9c 9d 9h")])  # a full house, no low
    assert float(showdown_equity(hands, shares, wheel, kings)) == 0.5
    assert float(showdown_equity(hands, shares, kings, kings)) == 0.5


# ------------------------------------------------------------------ the rule
def synthetic(legal: tuple[int, ...], pot: int, to_call: int) -> Situation:
    return Situation(seat=0, button=0, own=(), opp=(), actions=(), legal=legal, pot=pot, to_call=to_call)


def test_the_one_step_rule_is_the_toy_formula() -> None:
    replay = Replay(
        holdings=np.zeros((2, 2), np.int64),
        weights=torch.tensor([1.0, 3.0], dtype=torch.float64),
        fold=torch.tensor([0.0, 1.0], dtype=torch.float64),
        raise_cost=6,
        raise_to_call=4,
    )
    eq = torch.tensor([0.9, 0.2], dtype=torch.float64)
    d = decide(synthetic((FOLD, CHECK_CALL, RAISE), pot=10, to_call=2), replay, eq, bring_in=1)
    wp = 0.25 * 0.9 + 0.75 * 0.2
    assert d.values[CHECK_CALL] == pytest.approx(wp * 10 - (1 - wp) * 2)
    assert d.fold_p == pytest.approx(0.75)
    assert d.values[RAISE] == pytest.approx(0.75 * 10 + 0.25 * (0.9 * 14 - 0.1 * 6))
    assert d.action == RAISE and d.values[FOLD] == 0.0 and np.isnan(d.values[BRING_IN])
    never = Replay(holdings=replay.holdings, weights=replay.weights, fold=torch.zeros(2, dtype=torch.float64),
                   raise_cost=6, raise_to_call=4)  # fmt: skip
    low = decide(synthetic((FOLD, CHECK_CALL, RAISE), pot=4, to_call=2), never, torch.zeros(2, dtype=torch.float64), 1)
    assert low.action == FOLD  # both others negative
    free = decide(synthetic((CHECK_CALL, RAISE), pot=4, to_call=0), never, torch.zeros(2, dtype=torch.float64), 1)
    assert free.action == CHECK_CALL  # no fold where it is not legal; a free check is worth 0


def test_lbr_raises_the_nuts_on_seventh_street() -> None:
    pos = OpponentRange("stud", probability_function(CallingStation())).positions(0)
    deck = stacked(pos, {0: cards("Ac Ad Ah As Kc Kd 2h"), 1: cards("3c 4d 8h 9s Tc Jd 6h")})
    _, view, _ = play_to(deck, [CallingStation()] * 2, lambda v: v.seat == 0 and street_of(v) == 7)
    decision = StudLBR("stud", CallingStation(), seed=0).decide(Situation.of_view(view))
    assert decision.equity == pytest.approx(1.0) and decision.fold_p == 0.0
    assert decision.action == RAISE


def test_lbr_folds_trash_to_a_tight_range_facing_a_bet() -> None:
    bot = PairRaiser()
    lbr_bot = StudLBR("stud", bot, seed=0, policy=pair_raiser_probabilities(own_cards_offset()))
    stop = lambda v: v.seat == 0 and street_of(v) == 7 and v.to_call > 0  # noqa: E731
    _, view, _ = play_to(pair_hand(), [CallingStation(), bot], stop)
    decision = lbr_bot.decide(Situation.of_view(view))
    assert decision.equity == pytest.approx(0.0)  # king high against a pair at least
    assert decision.action == FOLD


# ------------------------------------------------------------------ matches
@pytest.mark.parametrize("spec", ["random", "call"])
def test_lbr_beats_random_and_call(spec: str) -> None:
    report = lbr_stud.lbr_match("stud", spec, deals=12, seed=3, max_holdings=128, runouts=4, progress=False)
    result = report["results"]["as_is"]
    assert result["hands"] == 24 and result["mean"] > 0
    if spec == "random":
        assert result["low"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["random", "call"])
def test_lbr_beats_random_and_call_clearly(spec: str) -> None:
    report = lbr_stud.lbr_match("stud", spec, deals=100, seed=4, progress=False)
    assert report["results"]["as_is"]["low"] > 0


def test_cli_stud(capsys: pytest.CaptureFixture[str]) -> None:
    report = lbr.main(["stud", "random", "--deals", "2", "--seed", "1", "--max-holdings", "32", "--runouts", "2", "-q"])
    assert report["variant"] == "stud" and report["results"]["as_is"]["hands"] == 4
    assert "local best response against random" in capsys.readouterr().out
    assert lbr.STUD_GAMES == lbr_stud.VARIANTS


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chowaha", "random"], "LBR has no form for 'chowaha'"),
        (["stud", "random", "--num-players", "3"], "heads-up only"),
        (["stud", "heuristic"], "no action probabilities"),
        (["stud", "random", "--deals", "1"], "at least 2 deals"),
        (["stud", "pretrained:razz"], "trained for razz"),
    ],
    ids=["variant", "players", "heuristic", "deals", "other-table"],
)
def test_cli_stud_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        lbr.main([*argv, "-q"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


# ------------------------------------------------------------------ the toy cross-check
TOY_ROWS = 160  # LBR decisions compared with the tabular LBR's


@pytest.fixture(scope="module")
def toy() -> tuple[Any, Any, Any, Any]:
    """A sharp random network on the 6-card toy, its table, the tabular LBR and the stud LBR."""
    from agents.nets import PolicyNet
    from agents.neural import Layout, NeuralAgent
    from evaluation.toy_policy import bot_table, env_options
    from solvers.infosets import InfoSets
    from solvers.toy import ToyParams
    from solvers.tree import PublicTree
    from training.lbr import LocalBestResponse

    params = ToyParams(ranks="QKA", suits="cd")
    layout = Layout.build("toy_stud", 2, env_options(params))
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), hidden=(32,), card_groups=layout.card_groups())
    with torch.no_grad():
        net.policy.weight.mul_(20.0)  # far from uniform: the cards change the action probabilities
    bot = NeuralAgent(net, layout)
    infosets = InfoSets(PublicTree(params))
    tabular = LocalBestResponse(bot_table(params, bot, infosets=infosets))
    stud = StudLBR("toy_stud", bot, options=env_options(params), runouts=10**6, seed=0)
    return params, infosets, tabular, stud


def test_toy_decisions_equal_the_tabular_lbr(toy: tuple[Any, Any, Any, Any]) -> None:
    from evaluation.toy_policy import InfoSetReplayer

    params, infosets, tabular, stud = toy
    replayer = InfoSetReplayer(params)
    c = tabular.cols
    earlier = np.arange(c.action_seat.shape[1]) < c.num_actions[:, None]
    acted = ((c.action_seat != c.seat[:, None]) & earlier).any(1)  # the opponent acted before
    first = np.flatnonzero(acted & (c.betting_round == 0))  # later the 6-card toy shows LBR every card but one
    rng = np.random.default_rng(0)
    rows = np.concatenate([rng.choice(first, TOY_ROWS - 20, replace=False), rng.choice(len(c.seat), 20)])
    bayes, chosen = 0, set()
    for row in rows.tolist():
        _, view = replayer.replay(infosets.batch(row, row + 1), 0)
        mine = stud.decide(Situation.of_view(view))
        held, weights = tabular.range_of(row)
        post = dict(zip(mine.replay.holdings[:, 0].tolist(), mine.replay.posterior().tolist(), strict=True))
        np.testing.assert_allclose([post[x] for x in held], weights, rtol=0, atol=1e-6)
        np.testing.assert_allclose(mine.equities.numpy(), tabular.equities(row, list(post)), rtol=0, atol=1e-12)
        np.testing.assert_allclose(mine.values, tabular.values(row), rtol=0, atol=1e-5)
        assert mine.action == tabular.action(row)
        chosen.add(mine.action)
        bayes += not np.allclose(weights, weights[0])
    assert bayes > TOY_ROWS // 2  # the ranges really were shaped by the opponent's actions
    assert chosen == {FOLD, CHECK_CALL, RAISE}


@pytest.mark.parametrize("variant", ["razz", "stud_hilo", "five_card_stud"])
def test_the_other_stud_games_play_through(variant: str) -> None:
    report = lbr_stud.lbr_match(variant, "random", deals=2, seed=1, max_holdings=32, runouts=2, progress=False)
    assert report["results"]["as_is"]["hands"] == 4 and report["results"]["as_is"]["lbr_decisions"] > 0
