"""Candidate features: one row per legal choice of a combinatorial decision, computed
from the public view only, with the numbers the module documents; and the network
scores them with one shared head."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
import torch

from agents.candidates import (
    FEATURES,
    KIND_DRAW,
    KIND_DUMMY,
    KIND_SPLIT,
    candidate_features,
    candidate_slots,
    needs_candidates,
)
from agents.nets import PolicyNet
from agents.neural import Layout, NeuralAgent
from envs.aec import DealersChoiceEnv
from envs.engine.actions import DECLARE_LOW, DRAW_BASE, SPLIT_BASE, STAY
from envs.registry import make_raw
from envs.variants.cowpie import five_card_percentiles, rank_splits, two_card_percentiles


def decisions(variant: str, n: int, seeds: range) -> Iterator[tuple[DealersChoiceEnv, np.ndarray]]:
    """Every candidate decision of random play: the env (at the decision) and its mask."""
    env = make_raw(variant, n)
    slots = candidate_slots(env.game.num_actions)
    rng = np.random.default_rng(0)
    for seed in seeds:
        env.reset(seed=seed)
        state = env.state
        assert state is not None
        while not state.is_over:
            mask = env.observe(env.agent_selection)["action_mask"]
            if needs_candidates(mask[None], slots)[0]:
                yield env, mask
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_slots_cover_the_combinatorial_actions_of_each_variant() -> None:
    assert candidate_slots(7) == (DECLARE_LOW, 7)  # stud family: the declarations
    assert candidate_slots(28) == (DECLARE_LOW, SPLIT_BASE + 21)  # Cowpie
    assert candidate_slots(61) == (DECLARE_LOW, STAY)  # Cowboy family: declarations and draws
    assert candidate_slots(4) is None  # Chowaha: betting only


def test_cowpie_split_rows_are_the_exact_split_ranking() -> None:
    found = 0
    for env, mask in decisions("cowpie", 2, range(100)):
        view = env.public_view(env.agent_selection)
        slots = candidate_slots(len(mask))
        assert slots is not None
        rows = candidate_features(view, slots, np.random.default_rng(0))
        legal = np.flatnonzero(mask[slots[0] : slots[1]])
        assert rows.shape == (slots[1] - slots[0], FEATURES)
        assert np.all(rows[np.setdiff1d(np.arange(len(rows)), legal)] == 0)
        assert np.all(rows[legal, KIND_SPLIT] == 1)
        ranking = rank_splits(list(view.own_cards), [not up for up in view.own_up], max(1, view.live_opponents))
        best = next(a for a, _ in ranking if mask[a])
        best_row = best - slots[0]
        assert rows[best_row, 8] == 0 and rows[legal, 8].max() == 0  # the best split's gap is 0
        for action, score in ranking:
            if mask[action]:
                assert rows[action - slots[0], 9] == pytest.approx(score, abs=1e-6)
        for column, table in ((6, five_card_percentiles()), (7, two_card_percentiles())):
            gaps = np.abs(rows[legal, column][:, None] - table[None]).min(axis=1)
            assert gaps.max() < 1e-6  # each is one of the exact percentiles
        found += 1
    assert found >= 10


@pytest.mark.parametrize(("variant", "n"), [("stud_hilo_declare", 2), ("cowboy", 3), ("cowgirl", 4)])
def test_rows_depend_only_on_what_the_seat_may_see(variant: str, n: int) -> None:
    """Swap an opponent's hidden card with an unseen stub card: the rows do not change
    (same generator seed), and every value is a probability or a bounded value."""
    checked = 0
    for env, mask in decisions(variant, n, range(80)):
        state = env.state
        assert state is not None
        seat = state.current_seat
        assert seat is not None
        slots = candidate_slots(len(mask))
        assert slots is not None
        view = env.public_view(env.agent_selection)
        before = candidate_features(view, slots, np.random.default_rng(1))
        legal = np.flatnonzero(mask[slots[0] : slots[1]])
        assert np.all(before[np.setdiff1d(np.arange(len(before)), legal)] == 0)
        assert np.all((before[legal, 6:9] >= 0) & (before[legal, 6:9] <= 1))
        assert np.all(before[legal, :6].sum(axis=1) == 1)  # exactly one kind per legal row
        others = [s for s in range(n) if s != seat and state.cards[s]]
        hidden = [(s, i) for s in others for i, up in enumerate(state.up[s] or [False] * 5) if not up]
        if hidden and state.stub:
            s, i = hidden[0]
            state.cards[s][i], state.stub[-1] = state.stub[-1], state.cards[s][i]
            after = candidate_features(env.public_view(env.agent_selection), slots, np.random.default_rng(1))
            state.cards[s][i], state.stub[-1] = state.stub[-1], state.cards[s][i]
            assert np.array_equal(before, after)
            checked += 1
    assert checked >= 5


def test_cowboy_draw_and_dummy_rows() -> None:
    kinds: set[int] = set()
    for env, mask in decisions("cowboy", 4, range(60)):
        slots = candidate_slots(len(mask))
        assert slots is not None
        view = env.public_view(env.agent_selection)
        rows = candidate_features(view, slots, np.random.default_rng(2), samples=32)
        legal = np.flatnonzero(mask[slots[0] : slots[1]])
        kind = int(rows[legal[0], :6].argmax())
        kinds.add(kind)
        if kind in (KIND_DRAW, KIND_DUMMY):
            masks = legal + slots[0] - DRAW_BASE
            assert np.allclose(rows[legal, 10], [bin(int(m)).count("1") / 5 for m in masks])
        if kind == KIND_DRAW and DRAW_BASE in legal + slots[0]:
            pat = DRAW_BASE - slots[0]  # standing pat keeps the hand: its chances are the hand's own
            assert 0 <= rows[pat, 6] <= 1
    assert {KIND_DRAW, KIND_DUMMY} <= kinds


def test_the_network_scores_candidates_with_one_shared_head() -> None:
    """The logits of candidate actions are the scores of their rows: permuting the rows
    permutes the logits, whatever the slot; other logits are untouched."""
    layout = Layout.build("cowpie", 2, {})
    slots = candidate_slots(len(layout.action_names))
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [32], candidates=slots)
    with torch.no_grad():
        net.scorer.score.weight.normal_()  # type: ignore[union-attr]
    obs = torch.rand(3, layout.obs_size)
    cands = torch.rand(3, 24, FEATURES)
    perm = torch.randperm(24)
    a, b = net.logits(obs, cands), net.logits(obs, cands[:, perm])
    lo = slots[0]  # type: ignore[index]
    assert torch.allclose(b[:, lo:], a[:, lo:][:, perm], atol=1e-6)
    assert torch.equal(a[:, :lo], b[:, :lo])
    assert not torch.allclose(a[:, lo], a[:, lo + 1])


def test_agents_need_the_view_for_candidate_decisions() -> None:
    layout = Layout.build("cowpie", 2, {})
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8], candidates=candidate_slots(28))
    agent = NeuralAgent(net, layout, seed=0)
    env, _ = next(decisions("cowpie", 2, range(20)))
    obs = env.observe(env.agent_selection)
    assert SPLIT_BASE <= agent.act(obs, env.public_view(env.agent_selection)) < SPLIT_BASE + 21
    with pytest.raises(ValueError, match="from the public view"):
        agent.act_batch([obs], [None])  # type: ignore[list-item]


def test_the_same_seed_builds_the_same_network_whatever_torch_thread_count() -> None:
    """Orthogonal initialisation runs a QR decomposition whose result depends on the
    thread count (the 64x64 scorer layer differed in its last bits): the same seed must
    give the same weights on a 1-core and an 8-core machine, and in a process whose
    thread count an earlier run changed."""
    layout = Layout.build("stud", 2, {})
    threads = torch.get_num_threads()
    nets = []
    try:
        for count in (1, 2, 4):
            torch.set_num_threads(count)
            torch.manual_seed(3)
            net = PolicyNet(layout.obs_size, len(layout.action_names), [32], candidates=candidate_slots(7))
            nets.append(net.state_dict())
    finally:
        torch.set_num_threads(threads)
    for other in nets[1:]:
        assert all(torch.equal(nets[0][k], other[k]) for k in nets[0])
