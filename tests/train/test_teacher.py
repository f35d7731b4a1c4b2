"""Kickstarting (``ppo.teachers``): the teachers' policies on the decisions they cover,
the KL term, its pull in the PPO update, and the run's settings."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

import agents
import training.run as train
from agents.checkpoint import save_checkpoint
from agents.heuristic.mixed import game_view
from agents.nets import PolicyNet, log_probs
from agents.neural import Layout
from envs.registry import make_raw
from envs.variants.mixed import index_maps
from tests.agents.test_committee import play
from tests.train.test_ppo import ACTIONS, OBS, ROWS, make_batch
from tests.train.test_train import scalars, tiny
from training.config import ConfigError, load_config
from training.ppo import PPOSettings, ppo_update
from training.teacher import Teachers, teacher_kl

TEACHERS = {"razz": "pretrained:razz", "stud_hilo_declare": "pretrained:stud_hilo_declare"}


class NeverFolds:
    """Plays at random but never folds, so that hands reach their declarations."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation: dict[str, np.ndarray], view: Any) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(self.rng.choice(legal[1:] if len(legal) > 1 and legal[0] == 0 else legal))


def decisions(hands: int, seed: int) -> list[tuple[dict[str, np.ndarray], Any]]:
    """Every decision of ``hands`` dealer's choice hands, both seats :class:`NeverFolds`."""
    return [(observation, view) for observation, view, _ in play(NeverFolds(seed), hands, seed)]


def test_a_teacher_gives_its_networks_own_policy_on_its_games_decisions_and_nothing_elsewhere() -> None:
    seen = decisions(hands=50, seed=3)
    teachers = Teachers("dealers_choice", 2, {}, TEACHERS)
    obs = torch.from_numpy(np.stack([o["observation"] for o, _ in seen]).astype(np.float32))
    masks = torch.from_numpy(np.stack([o["action_mask"] for o, _ in seen]))
    logp, taught = teachers.log_probs(obs, masks)
    bots = {g: agents.load(s, seed=0, strict_options=False) for g, s in TEACHERS.items()}
    places = index_maps(make_raw("dealers_choice", 2).game)
    counts = {"razz": 0, "declare betting": 0, "declarations": 0, "other": 0}
    for i, (observation, view) in enumerate(seen):
        bot = bots.get(view.game)
        mask = np.asarray(observation["action_mask"])
        declaring = view.game == "stud_hilo_declare" and bool(mask[4:7].any())
        if bot is None or declaring:  # another game, the button's choice, or a candidate decision
            assert taught[i] == -1
            counts["declarations" if declaring else "other"] += 1
            continue
        assert taught[i] == list(TEACHERS).index(view.game)
        own = {"observation": np.asarray(observation["observation"])[places[view.game]], "action_mask": mask[:7]}
        expected = bot.action_probabilities([own], [game_view(view)])[0]
        got = logp[i, :7].exp().double().numpy() * mask[:7]
        np.testing.assert_allclose(got, expected, atol=1e-5)
        counts["razz" if view.game == "razz" else "declare betting"] += 1
    assert min(counts.values()) >= 3, counts


def test_the_kl_by_hand_with_illegal_actions_untaught_rows_and_each_game_weighing_alike() -> None:
    teacher = torch.log(torch.tensor([[0.25, 0.75, 0.0], [0.9, 0.1, 0.0], [0.5, 0.5, 0.0]]))
    student = torch.log(torch.tensor([[0.5, 0.5, 0.0], [0.1, 0.9, 0.0], [0.5, 0.5, 0.0]]))
    mask = torch.tensor([[True, True, False]] * 3)
    first = 0.25 * math.log(0.25 / 0.5) + 0.75 * math.log(0.75 / 0.5)
    second = 0.9 * math.log(0.9 / 0.1) + 0.1 * math.log(0.1 / 0.9)

    def kl(*game: int) -> float:
        return float(teacher_kl(teacher, student, mask, torch.tensor(game), 3))

    assert kl(0, -1, -1) == pytest.approx(first)
    assert kl(-1, -1, -1) == 0.0
    assert kl(0, 1, -1) == pytest.approx((first + second) / 2)
    assert kl(0, 0, -1) == pytest.approx((first + second) / 2)  # one game: the mean of its rows
    assert kl(0, 0, 2) == pytest.approx((first + second) / 4)  # two games alike, the third row's KL is 0
    assert kl(2, 0, 0) == pytest.approx((first + second / 2) / 2)  # game 2: the first row; game 0: the others


class FixedTeacher:
    """A teacher over the synthetic batch: the same distribution in every row, half the rows taught."""

    def __init__(self) -> None:
        torch.manual_seed(11)
        self.logits = torch.randn(ACTIONS) * 2

    members = (None,)

    def log_probs(self, obs: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        taught = torch.where(torch.arange(len(obs)) % 2 == 0, 0, -1)
        return log_probs(self.logits.expand(len(obs), -1), masks), taught


def distance(net: PolicyNet, teacher: FixedTeacher) -> float:
    batch = make_batch(1.0)
    obs, masks = torch.from_numpy(batch.obs), torch.from_numpy(batch.masks)
    target, taught = teacher.log_probs(obs, masks)
    with torch.no_grad():
        return float(teacher_kl(target, log_probs(net.logits(obs), masks), masks, taught, 1))


def updated(coef: float, teacher: FixedTeacher | None) -> PolicyNet:
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, [16])
    settings = PPOSettings(epochs=4, minibatch_size=ROWS // 2, teacher_coef=coef)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    ppo_update(net, optimizer, make_batch(1.0), settings, np.random.default_rng(0), teachers=teacher)  # type: ignore[arg-type]
    return net


def test_the_update_is_plain_ppo_at_coef_zero_and_pulls_toward_the_teacher_above() -> None:
    teacher = FixedTeacher()
    torch.manual_seed(0)
    start = distance(PolicyNet(OBS, ACTIONS, [16]), teacher)
    plain, taught = updated(0.0, None), updated(5.0, teacher)
    assert distance(taught, teacher) < 0.5 * start
    assert distance(taught, teacher) < 0.5 * distance(plain, teacher)
    with pytest.raises(ValueError, match="teacher_coef > 0 needs the teachers"):
        updated(1.0, None)


def test_a_dealers_choice_run_logs_the_teachers_kl(tmp_path: Path) -> None:
    extra = ("env.variant=dealers_choice", "train.updates=1", "ppo.teachers={razz = 'pretrained:razz'}")
    result = train.main(tiny(tmp_path, None, *extra, "ppo.teacher_coef=1.0"))
    logged = scalars(result.run_dir)["losses/teacher_kl"]
    assert len(logged) == 1 and math.isfinite(logged[0][1]) and logged[0][1] >= 0
    events = EventAccumulator(str(result.run_dir), size_guidance={"tensors": 0})
    events.Reload()
    (text,) = events.Tensors("teachers/text_summary")
    assert "razz: pretrained:razz (" in text.tensor_proto.string_val[0].decode()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (("ppo.teacher_coef=1.0",), "ppo.teacher_coef = 1.0 is out of range: it must be > 0 with ppo.teachers set"),
        (("ppo.teachers={razz = 'pretrained:razz'}",), "ppo.teacher_coef = 0.0 is out of range"),
        (("ppo.teacher_coef=-1.0", "ppo.teachers={razz = 'pretrained:razz'}"), "must be >= 0"),
        (("ppo.teachers={razz = 3}", "ppo.teacher_coef=1.0"), "ppo.teachers.razz must be str"),
    ],
)
def test_settings_that_cannot_teach_are_refused_when_read(settings: tuple[str, ...], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_config(None, ["env.variant=dealers_choice", *settings])


@pytest.mark.parametrize(
    ("variant", "teachers", "message"),
    [
        ("razz", {"razz": "pretrained:razz"}, "teaches the games of a dealers_choice table; this run plays razz"),
        ("dealers_choice", {"toy_stud": "pretrained:toy_stud"}, "this table deals .*razz.*, not 'toy_stud'"),
        ("dealers_choice", {"razz": "heuristic"}, "a teacher must be a network .* not a bot"),
        ("dealers_choice", {"razz": "pretrained:stud"}, "trained for stud_v0, 2 players, not razz_v0"),
        ("dealers_choice", {"razz": "missing.pt"}, "ppo.teachers.razz = 'missing.pt': no checkpoint file"),
    ],
)
def test_teachers_that_cannot_teach_this_table_are_refused_by_name(
    variant: str, teachers: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Teachers(variant, 2, {}, teachers)


def test_a_teacher_whose_observation_is_not_the_tables_is_refused(tmp_path: Path) -> None:
    layout = Layout.build("razz", 2, {"up_by_street": True})  # the up cards by street: another observation
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8])
    path = save_checkpoint(tmp_path / "razz.pt", net=net, layout=layout, step={}, config={})
    with pytest.raises(ConfigError, match=r"observation is the table's \d+ floats of that game; .* \(\d+ floats\)"):
        Teachers("dealers_choice", 2, {}, {"razz": str(path)})
