"""What the trainer logs: decision types and action frequencies, card features."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import envs
from agents.features import PER_GROUP, CardFeatures
from agents.neural import Layout
from envs.engine.actions import (
    BRING_IN,
    CHECK_CALL,
    DECLARE_BOTH,
    DECLARE_HIGH,
    DRAW_BASE,
    FOLD,
    RAISE,
    SPLIT_BASE,
    STAY,
    draw_action,
)
from envs.engine.cards import parse
from training.metrics import action_frequencies, decision_kinds, eval_scalars, eval_seed, rollout_scalars
from training.rollout import RolloutStats


def mask(width: int, *legal: int) -> np.ndarray:
    row = np.zeros(width, bool)
    row[list(legal)] = True
    return row


def test_decision_types_come_from_the_mask() -> None:
    w = STAY + 1
    masks = np.stack(
        [
            mask(w, FOLD, CHECK_CALL, RAISE),  # facing a bet
            mask(w, CHECK_CALL, RAISE),  # nothing to call
            mask(w, FOLD, STAY),  # Cowboy: stay or fold
            mask(w, *range(DRAW_BASE, DRAW_BASE + 8)),  # a draw
            mask(w, 4, 5, 6),  # a declaration
            mask(w, SPLIT_BASE, SPLIT_BASE + 3),  # a Cowpie split
        ]
    )
    kinds = decision_kinds(masks)
    assert {k: v.nonzero()[0].tolist() for k, v in kinds.items()} == {
        "stay": [2],
        "draw": [3],
        "split": [5],
        "declare": [4],
        "betting": [0, 1],
    }


def test_action_frequencies_per_decision_type() -> None:
    w = STAY + 1
    facing, free, bring = mask(w, FOLD, CHECK_CALL, RAISE), mask(w, CHECK_CALL, RAISE), mask(w, BRING_IN, RAISE)
    draw, declare, stay = mask(w, *range(DRAW_BASE, STAY)), mask(w, 4, 5, 6), mask(w, FOLD, STAY)
    rows = [
        (facing, FOLD),
        (facing, CHECK_CALL),
        (free, CHECK_CALL),
        (bring, BRING_IN),
        (free, RAISE),
        (draw, draw_action([0, 1, 2])),
        (draw, draw_action([])),
        (declare, DECLARE_HIGH),
        (declare, DECLARE_BOTH),
        (stay, STAY),
        (stay, FOLD),
        (stay, FOLD),
    ]
    freq = action_frequencies(np.stack([r[0] for r in rows]), np.array([r[1] for r in rows]))
    assert freq["bet_fold"] == freq["bet_call"] == freq["bet_check"] == freq["bet_bring_in"] == freq["bet_raise"] == 0.2
    assert freq["fold_facing_bet"] == 0.5
    assert freq["draw_size_mean"] == 1.5 and freq["draw_3"] == freq["draw_0"] == 0.5
    assert (freq["declare_low"], freq["declare_high"], freq["declare_both"]) == (0.0, 0.5, 0.5)
    assert freq["stay"] == pytest.approx(1 / 3)
    stud_only = action_frequencies(np.stack([free[:7], free[:7]]), np.array([CHECK_CALL, RAISE]))
    assert set(stud_only) == {"bet_fold", "bet_check", "bet_call", "bet_bring_in", "bet_raise"}


def test_eval_scalars_name_the_opponent_the_mode_and_the_interval() -> None:
    from evaluation.arena import Stat

    out = eval_scalars(
        {
            "heuristic/greedy": Stat(12.5, 4.0, 100),
            "heuristic/sampled": Stat(3.0, 1.0, 100),
            "runs/x.pt/greedy": Stat(-1.0, 2.0, 10),
        }
    )
    assert out["eval/heuristic/greedy"] == 12.5 and out["eval/heuristic/greedy_ci95"] == 4.0
    assert out["eval/heuristic/greedy_low"] == 8.5 and out["eval/heuristic/greedy_high"] == 16.5
    assert out["eval/heuristic/sampled"] == 3.0
    assert out["eval/runs_x_pt/greedy"] == -1.0


def test_every_evaluation_plays_fresh_deals() -> None:
    seeds = {eval_seed(2024, train_seed, update) for train_seed in (1, 2) for update in (50, 100, 150)}
    assert len(seeds) == 6  # no two evaluations (of one run or of two runs) share their deals
    assert eval_seed(2024, 1, 50) == eval_seed(2024, 1, 50)  # but each is reproducible


def test_card_features_count_ranks_and_suits_of_each_group() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(options={"deck": "As Kd Ah Jc 2c 3d", "button": 0})  # player_0: Kd Jc + 3d up; player_1: As Ah + 2c up
    layout = Layout.of_env(env, {})
    groups = layout.card_groups()
    assert [g for g, _ in groups] == ["own", "up_1", "board", "own_board"]
    features = CardFeatures(layout.obs_size, groups)
    obs = torch.from_numpy(np.stack([env.observe("player_1")["observation"], env.observe("player_0")["observation"]]))
    out = features(obs).view(2, len(groups), PER_GROUP)
    at_least = out[..., :52].view(2, len(groups), 13, 4)
    suits = out[..., 52:] * 5
    aces, deuces = 12, 0
    assert at_least[0, 0, aces].tolist() == [1, 1, 0, 0]  # player_1 holds a pair of aces
    assert at_least[0, 0].sum() == 3 and suits[0, 0].tolist() == [1, 0, 1, 1]  # 2c, Ah, As
    assert at_least[0, 1].sum() == 1 and at_least[0, 1, 1, 0] == 1  # it sees player_0's 3d up
    assert at_least[1, 1, deuces, 0] == 1 and at_least[1, 0, aces].sum() == 0  # player_0 sees only the 2c of them
    assert torch.equal(out[:, 2], torch.zeros(2, PER_GROUP))  # no community card
    assert parse("As")[0] // 4 == aces


def test_chowaha_card_features_count_each_board_apart() -> None:
    """A Chowaha hand is two hole cards and three cards of one board: a pair split over
    two boards is no pair, so the counts are per board (and hole cards plus board)."""
    from envs.variants.chowaha import BOARDS, LAYOUT

    layout = Layout.build("chowaha", 2, {})
    groups = dict(layout.card_groups())
    boards = [f"board_{k}" for k in range(1, 5)]
    assert sorted(groups) == sorted(["own", *boards, *(f"own_{b}" for b in boards)])  # no 12-card "board"
    assert all(len(groups[b]) == 5 and len(groups[f"own_{b}"]) == 6 for b in boards)
    community = dict(layout.pieces)["community"] // len(LAYOUT)
    obs = torch.zeros(1, layout.obs_size)
    start = sum(size for name, size in layout.pieces[: [n for n, _ in layout.pieces].index("community")])
    top, bottom = BOARDS[0][0], BOARDS[3][0]  # top flop and bottom flop: no board shares them
    kings = parse("Kh Ks")
    obs[0, start + top * community + kings[0]] = 1
    obs[0, start + bottom * community + kings[1]] = 1
    features = CardFeatures(layout.obs_size, list(groups.items()))
    out = features(obs).view(len(groups), PER_GROUP)[:, :52].view(len(groups), 13, 4)
    k = kings[0] // 4
    names = list(groups)
    assert out[names.index("board_1"), k].tolist() == [1, 0, 0, 0]
    assert out[names.index("board_4"), k].tolist() == [1, 0, 0, 0]
    assert all(out[names.index(b), k, 1] == 0 for b in boards)  # no board holds a pair of kings
    assert out[names.index("board_2"), k].sum() == 0 and out[names.index("board_3"), k].sum() == 0
    whole = CardFeatures(layout.obs_size, [("all", groups["board_1"] + groups["board_4"])])  # one group of both
    assert whole(obs).view(-1, PER_GROUP)[0, :52].view(13, 4)[k].tolist() == [1, 1, 0, 0]  # a pair that is no hand


def test_dealers_choice_rollouts_log_the_games_the_learner_names() -> None:
    """The button's choice is a decision the learner makes: its shares reach actions/."""
    from training.episodes import Batch

    layout = Layout.build("dealers_choice", 2, {})
    names = list(layout.action_names)
    choose = [i for i, a in enumerate(names) if a.startswith("choose_")]
    assert len(choose) >= 2
    masks = np.zeros((4, len(names)), bool)
    masks[:3, choose] = True  # three choices
    masks[3, 1] = True  # and a betting decision
    actions = np.array([choose[0], choose[0], choose[1], 1])
    z = np.zeros(4, np.float32)
    batch = Batch(obs=np.zeros((4, layout.obs_size), np.float32), masks=masks, actions=actions, logps=z, values=z,
                  advantages=z, returns=z)  # fmt: skip
    scalars = rollout_scalars(batch, RolloutStats(), layout.action_names)
    assert scalars[f"actions/{names[choose[0]]}"] == pytest.approx(2 / 3)
    assert scalars[f"actions/{names[choose[1]]}"] == pytest.approx(1 / 3)
    assert all(scalars[f"actions/{names[c]}"] == 0.0 for c in choose[2:])
    assert not any(k.startswith("actions/choose_") for k in rollout_scalars(batch, RolloutStats()))


def test_the_progress_bar_shows_the_return_against_the_bot_where_no_pool_table_played() -> None:
    from training.trainer import _postfix

    base = {"charts/decisions_per_second": 1000.0, "losses/entropy": 0.1, "losses/approx_kl": 0.001}
    best_response = {**base, "charts/return_vs_pool": float("nan"), "charts/return_vs_heuristic": 0.25}
    assert _postfix(best_response, {}).startswith("ret/heuristic +0.25 |")
    mixed = {**base, "charts/return_vs_pool": -0.5, "charts/return_vs_heuristic": 0.25}
    assert _postfix(mixed, {}).startswith("ret/pool -0.50 |")
