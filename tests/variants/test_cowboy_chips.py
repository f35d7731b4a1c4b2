"""Cowboy chips at any size: unlimited stacks are exact, observations stay finite,
rewards add up to exactly zero, and games too long for floats are refused.

Without a ``match_cap`` everyone who stays and wins nothing matches the whole pot, so
pots multiply deal after deal: with every player staying the chips in play reach 1e78
within the default 100 deals at seven players.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import envs
from envs.engine.actions import STAY
from envs.engine.scaling import symlog_units
from envs.engine.state import State
from envs.variants import make_game
from envs.variants.cowboy.rules import MAX_CHIPS, chip_bound, deal_limit
from tests.variants.cowboy_script import FOLD, HIGH, LOW, PAT, deal, net, play

KINGS = "Kc Kd 9h 7s 2d"
JACKS = "Jc Jd Th 8d 6s"
SEVEN_LOW = "7c 5d 4h 3s 2h"
BIG = 1 << 60  # the old stand-in for unlimited chips


def _antes(st: State, deal_number: int) -> list[int]:
    """Chips anted per seat in a given deal."""
    seen, out = 0, [0] * st.n
    for e in st.events:
        if e.kind == "street" and e.text.startswith("deal "):
            seen = int(e.text.split()[1])
        elif e.kind == "ante" and seen == deal_number:
            out[e.seat] += e.amount
    return out


# ------------------------------------------------------------------ unlimited stacks
def test_an_ante_of_2_to_60_is_paid_in_full_at_every_deal() -> None:
    st = deal("cowboy", {0: JACKS, 1: KINGS, 2: SEVEN_LOW}, ante=BIG)
    play(st, [(1, FOLD), (2, FOLD), (0, FOLD)])  # nobody stays: everyone antes again
    assert _antes(st, 1) == _antes(st, 2) == [BIG, BIG, BIG]
    assert st.pot() == 6 * BIG and net(st) == [-2 * BIG] * 3
    assert all(st.behind(s) is None and not st.all_in(s) for s in range(3))


def test_a_seat_that_lost_more_than_2_to_60_still_antes_in_full() -> None:
    st = deal("cowboy", {0: KINGS, 1: JACKS, 2: SEVEN_LOW}, ante=BIG)
    # all stay; player_0 wins high, player_2 low, player_1 nothing: it pays the pot of 3 antes
    play(st, [(1, STAY), (2, STAY), (0, STAY), (1, PAT), (2, PAT), (0, PAT), (1, HIGH), (2, LOW), (0, HIGH)])
    assert net(st) == [BIG // 2, -4 * BIG, BIG // 2] and st.pot() == 3 * BIG
    play(st, [(1, FOLD), (2, FOLD), (0, FOLD)])  # deal 2: nobody stays, deal 3: everyone antes
    assert st.family.deal == 3
    assert _antes(st, 3) == [BIG, BIG, BIG]  # never capped, never negative
    assert net(st) == [-BIG // 2, -5 * BIG, -BIG // 2] and sum(net(st)) + st.pot() == 0


def test_unlimited_stacks_are_exact_in_limit_stud_too() -> None:
    env = envs.make_raw("stud", 2, stack=None, ante=2 * BIG)
    env.reset(seed=1)
    st = env.state
    assert st is not None
    assert [e.amount for e in st.events if e.kind == "ante"] == [2 * BIG, 2 * BIG]
    assert not any(st.all_in(s) for s in range(2)) and st.behind(0) is None
    view = env.public_view(env.agent_selection)
    assert view.stacks == (None, None) and view.pot == 4 * BIG
    assert view.legal_names == ("bring_in", "raise")  # bring in or complete: nobody is all-in
    obs = env.observe(env.agent_selection)["observation"]
    in_hand = next(p for p in env.pieces if p.name == "in_hand")
    assert obs[in_hand.offset : in_hand.offset + in_hand.size].tolist() == [1.0, 0.0, 1.0, 0.0]  # nobody all-in


# ------------------------------------------------------------------ all stay, 100 deals
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_everyone_staying_for_100_deals_keeps_observations_finite_and_rewards_exact(seed: int) -> None:
    n = 7
    env = envs.make_raw("cowboy", n)
    env.reset(seed=seed)
    st = env.state
    assert st is not None
    table = next(p for p in env.pieces if p.name == "chips")
    rng = np.random.default_rng(seed)
    not_finite, pot_values = [], []
    while not st.is_over:
        obs = env.observe(env.agent_selection)
        vector = obs["observation"]
        if not np.isfinite(vector).all():
            not_finite.append(st.family.deal)
        pot_values.append((st.pot(), vector[table.offset]))
        assert st.pot() <= chip_bound(n, 1, None, st.family.deal)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(STAY if STAY in legal else int(rng.choice(legal)))
    assert st.truncated and st.family.deal == 100
    assert not not_finite, f"observations with inf or nan from deal {not_finite[0]} on"
    assert max(pot for pot, _ in pot_values) > 1e60  # the pots really grew past what float32 holds
    for pot, value in pot_values:  # the signed log of antes, small pots and huge ones
        assert value == pytest.approx(symlog_units(pot, st.game.unit), rel=1e-6)
    assert all(np.isfinite(env.observe(agent)["observation"]).all() for agent in env.possible_agents)
    payoffs = st.payoffs()
    assert sum(payoffs) == 0
    rewards = st.rewards()
    assert sum(rewards) == 0.0 and sum(reversed(rewards)) == 0.0 and math.fsum(rewards) == 0.0
    assert sum(env.rewards.values()) == 0.0
    for payoff, reward in zip(payoffs, rewards, strict=True):  # each within rounding of payoff / ante
        assert abs(reward - payoff) <= 2**-50 * max(map(abs, payoffs))


# ------------------------------------------------------------------ max_deals bound
@pytest.mark.parametrize(("players", "limit"), [(7, 165), (3, 248)])
def test_max_deals_past_float_range_is_refused_with_the_limit(players: int, limit: int) -> None:
    assert deal_limit(players, 1, None) == limit
    assert chip_bound(players, 1, None, limit) <= MAX_CHIPS < chip_bound(players, 1, None, limit + 1)
    make_game("cowboy", players, max_deals=limit)
    with pytest.raises(ValueError, match=rf"max_deals={limit + 1} is not allowed .* max_deals <= {limit}"):
        make_game("cowboy", players, max_deals=limit + 1)


def test_a_billion_deals_is_refused_at_construction_not_an_overflow_mid_game() -> None:
    with pytest.raises(ValueError, match=r"max_deals=1000000000 .*10\*\*150.*or set a match_cap"):
        envs.make("cowboy", 7, max_deals=10**9)
    game = make_game("cowboy", 7, max_deals=10**9, match_cap=8)  # linear growth: allowed
    assert deal_limit(7, 1, 8) > 10**140 and game.options.max_deals == 10**9
    with pytest.raises(ValueError, match=r"ante=<an int of 499 bits> is not allowed with 3 players"):
        make_game("cowboy", 3, ante=10**150)
    with pytest.raises(ValueError, match=r"max_deals=<an int of \d+ bits>"):
        make_game("cowboy", 3, max_deals=10**5000)
