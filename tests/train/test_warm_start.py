"""``train.init_from``: a learner that starts as a given agent (training.warm_start).

The point of the setting is that the learner's first policy *is* the checkpoint's, so
the tests compare the policies' logits and weights; a checkpoint that does not
fit the run is refused with the setting to change, before any run folder exists."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

import training.run as train
from agents.checkpoint import net_from_checkpoint, read_checkpoint
from agents.loading import pretrained_path
from agents.nets import PolicyNet
from tests.train.test_train import only_run, tiny
from training.config import ConfigError
from training.trainer import Trainer


def toy_config(tmp_path: Path, *extra: str):
    """A toy stud run shaped like ``pretrained:toy_stud`` (64x64)."""
    return tiny(tmp_path, None, "env.variant=toy_stud", "model.hidden=[64, 64]", *extra)


def observations(trainer: Trainer, count: int = 40) -> torch.Tensor:
    """Inputs of the learner's size (the networks are compared as functions, so any
    input shows a difference; the card features read the card slots as counts)."""
    return torch.rand(count, trainer.layout.obs_size, generator=torch.Generator().manual_seed(0))


def shipped_net(name: str) -> PolicyNet:
    path = pretrained_path(name)
    return net_from_checkpoint(read_checkpoint(path), path)[0]


def test_learner_starts_as_the_shipped_agent(tmp_path: Path) -> None:
    warm = Trainer(toy_config(tmp_path, "train.init_from=pretrained:toy_stud"), tmp_path / "a")
    fresh = Trainer(toy_config(tmp_path), tmp_path / "b")
    obs = observations(warm)
    agent = shipped_net("toy_stud")
    with torch.no_grad():
        expected = agent.logits(obs)
        assert torch.equal(warm.net.logits(obs), expected)
        assert not torch.allclose(fresh.net.logits(obs), expected, atol=1e-3)  # the comparison can fail
    assert "the value head starts fresh" in warm.started_from
    # the shipped agent has no value head: the learner's is the fresh one of the same seed
    assert torch.equal(warm.net.value.weight, fresh.net.value.weight)
    # the pool's first snapshot is the starting policy too
    with torch.no_grad():
        assert torch.equal(warm.pool.net(warm.pool.snapshots[0].id).logits(obs), expected)
    own = warm.net.state_dict()
    for key, value in agent.state_dict().items():  # the candidate scorer too (random inputs skip it)
        if key not in ("value_mean", "value_std"):
            assert torch.equal(own[key], value), key


def test_a_training_checkpoint_brings_its_value_head(tmp_path: Path) -> None:
    first = train.main(toy_config(tmp_path / "one"))
    ckpt = first.run_dir / "checkpoints" / "update_000001.pt"
    warm = Trainer(toy_config(tmp_path, f"train.init_from={ckpt}", "train.seed=7"), tmp_path / "c")
    saved = read_checkpoint(ckpt)["weights"]
    state = warm.net.state_dict()
    for key in ("value.weight", "value_torso.0.weight", "value_mean", "value_std", "policy.weight"):
        assert torch.equal(state[key], saved[key]), key
    assert warm.started_from.startswith("policy and value head from")


def test_a_warm_run_trains_and_logs_where_it_started(tmp_path: Path) -> None:
    result = train.main(toy_config(tmp_path, "train.init_from=pretrained:toy_stud"))
    assert result.updates == 2
    assert 'init_from = "pretrained:toy_stud"' in (result.run_dir / "config.toml").read_text()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("train.init_from=heuristic",), "a bot such as the heuristic has no weights"),
        (("train.init_from=pretrained:nope",), "no shipped agent 'pretrained:nope'"),
        (("train.init_from=missing.pt",), "no checkpoint file at 'missing.pt'"),
        (("train.init_from=pretrained:razz",), "it was trained for"),
        (("train.init_from=pretrained:toy_stud", "model.hidden=[32]"), "set model.hidden (checkpoint: [64, 64]"),
        (("train.init_from=pretrained:toy_stud", "model.card_features=false"), "model.card_features"),
        (("train.init_from=pretrained:toy_stud", "env.options={ranks='TJQKA'}"), "options"),
    ],
)
def test_a_checkpoint_that_does_not_fit_is_refused_before_anything_is_created(
    tmp_path: Path, extra: tuple[str, ...], message: str
) -> None:
    config = toy_config(tmp_path, *extra)
    with pytest.raises(ConfigError, match=r"train\.init_from") as err:
        train.main(config)
    assert message in str(err.value)
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_resume_keeps_its_own_weights_and_refuses_a_new_init_from(tmp_path: Path) -> None:
    result = train.main(toy_config(tmp_path))
    run_dir = only_run(tmp_path / "runs")
    with pytest.raises(ConfigError, match=r"train\.init_from"):
        train.main(resume=run_dir, overrides=["train.updates=3", "train.init_from=pretrained:toy_stud"])
    assert result.updates == 2


def policy_state(net: PolicyNet) -> dict[str, torch.Tensor]:
    value = {id(p) for p in net.value_parameters()}
    return {k: v.clone() for k, v in net.named_parameters() if id(v) not in value}


@pytest.mark.parametrize("shared", [False, True])
def test_value_warmup_fits_the_value_head_and_leaves_the_policy(tmp_path: Path, shared: bool) -> None:
    """ppo.value_warmup = 2: after two updates the policy (a shared torso included) is
    still the starting one, the value head has moved; with 1, the second update moves
    the policy (the check can fail)."""
    model = ["model.shared=true", "model.privileged_critic=false"] if shared else []
    for warmup, policy_moves in ((2, False), (1, True)):
        trainer = Trainer(toy_config(tmp_path, *model, f"ppo.value_warmup={warmup}"), tmp_path / f"w{warmup}{shared}")
        start = policy_state(trainer.net)
        value_start = trainer.net.value.weight.detach().clone()
        trainer.run_dir.mkdir(parents=True)
        trainer.run()
        after = policy_state(trainer.net)
        moved = any(not torch.equal(start[k], after[k]) for k in start)
        assert moved is policy_moves, warmup
        assert not torch.equal(trainer.net.value.weight, value_start)
