"""Magnetic mirror descent in the PPO update, and the exact NashConv the trainer logs on toy stud."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import numpy as np
import pytest
import torch

import training.exploitability as exploitability
import training.run as train
from agents.nets import PolicyNet, log_probs
from tests.train.test_ppo import ACTIONS, OBS, make_batch
from tests.train.test_train import interrupt_on_collect, only_run, scalars, tiny, training_state
from training.magnet import Magnet, magnet_kl
from training.ppo import PPOSettings, ppo_update

TOY = (
    "env.variant=toy_stud",
    "env.options={ranks = 'QKA', suits = 'cd', streets = 1}",
    'eval.opponents=["random"]',
    "eval.nash_conv=true",
)
OPTIONS = ["--option", "ranks=QKA", "--option", "suits=cd", "--option", "streets=1"]


def kl_of(net: PolicyNet, magnet: Magnet, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return magnet_kl(log_probs(net.logits(obs), mask), magnet.log_probs(obs, mask), mask).mean()


def test_kl_is_zero_at_the_magnet_positive_elsewhere_and_its_gradient_pulls_toward_it() -> None:
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, [16])
    magnet = Magnet(net, every=1, step=1.0)
    batch = make_batch(1.0)
    obs, mask = torch.from_numpy(batch.obs), torch.from_numpy(batch.masks)
    assert float(kl_of(net, magnet, obs, mask).detach()) == pytest.approx(0.0, abs=1e-7)
    with torch.no_grad():
        for p in net.policy_parameters():
            p.add_(0.3 * torch.randn_like(p))
    before = float(kl_of(net, magnet, obs, mask).detach())
    assert before > 1e-3
    optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
    for _ in range(5):
        optimizer.zero_grad()
        kl_of(net, magnet, obs, mask).backward()  # type: ignore[no-untyped-call]
        optimizer.step()
    assert float(kl_of(net, magnet, obs, mask).detach()) < 0.8 * before
    assert all(not p.requires_grad for p in magnet.net.parameters())  # the magnet never learns


def test_illegal_actions_add_nothing_to_the_kl() -> None:
    logp = torch.log(torch.tensor([[0.5, 0.5, 0.0]]))
    magnet = torch.log(torch.tensor([[0.25, 0.75, 1e-30]]))
    mask = torch.tensor([[True, True, False]])
    expected = 0.5 * math.log(0.5 / 0.25) + 0.5 * math.log(0.5 / 0.75)
    assert float(magnet_kl(logp, magnet, mask)[0]) == pytest.approx(expected)


def updated(settings: PPOSettings, magnet_from: PolicyNet | None) -> PolicyNet:
    torch.manual_seed(0)
    net = PolicyNet(OBS, ACTIONS, [16])
    magnet = None
    if magnet_from is not None:
        magnet = Magnet(magnet_from, every=1, step=1.0)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-2)
    ppo_update(net, optimizer, make_batch(1.0), settings, np.random.default_rng(0), magnet=magnet)
    return net


def test_magnet_coef_zero_is_exactly_the_plain_update_and_positive_changes_it() -> None:
    torch.manual_seed(7)
    other = PolicyNet(OBS, ACTIONS, [16])  # a magnet far from the learner
    plain = updated(PPOSettings(epochs=2, minibatch_size=16), None)
    off = updated(PPOSettings(epochs=2, minibatch_size=16, magnet_coef=0.0), other)
    on = updated(PPOSettings(epochs=2, minibatch_size=16, magnet_coef=0.5), other)
    for a, b in zip(plain.state_dict().values(), off.state_dict().values(), strict=True):
        assert torch.equal(a, b)
    assert any(not torch.equal(a, c) for a, c in zip(plain.parameters(), on.parameters(), strict=True))
    with pytest.raises(ValueError, match="magnet_coef > 0 needs a magnet"):
        updated(PPOSettings(magnet_coef=0.5), None)


def test_the_magnet_moves_toward_the_policy_every_k_updates() -> None:
    torch.manual_seed(3)
    net = PolicyNet(OBS, ACTIONS, [16])
    start = copy.deepcopy(net.state_dict())
    magnet = Magnet(net, every=2, step=0.25)
    with torch.no_grad():
        for p in net.parameters():
            p.add_(1.0)
    magnet.after_update(net, 1)  # not a refresh update
    assert all(torch.equal(v, start[k]) for k, v in magnet.net.state_dict().items())
    magnet.after_update(net, 2)
    for name, value in magnet.net.state_dict().items():
        if name in dict(net.named_parameters()):
            assert torch.allclose(value, start[name] + 0.25, atol=1e-6), name


def test_toy_run_logs_exact_nash_conv_of_its_policy(tmp_path: Path) -> None:
    result = train.main(tiny(tmp_path, None, *TOY, "ppo.magnet_coef=0.1", "ppo.magnet_every=1"))
    logged = scalars(result.run_dir)
    nash = logged["eval/nash_conv"]
    assert len(nash) == 2 and all(math.isfinite(v) and v > 0 for _, v in nash)
    assert "losses/magnet_kl" in logged
    final = exploitability.main(["toy_stud", str(result.checkpoint), *OPTIONS, "--json"])
    assert nash[-1][1] == pytest.approx(final["nash_conv"], abs=1e-5)  # the logged figure is the checkpoint's


def test_other_variants_log_no_nash_conv(tmp_path: Path) -> None:
    result = train.main(tiny(tmp_path, None, "train.updates=1"))
    assert "eval/nash_conv" not in scalars(result.run_dir)


def test_resume_keeps_the_magnet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = (*TOY, "train.updates=3", "train.checkpoint_every=10", "ppo.magnet_coef=0.2", "ppo.magnet_every=2")
    straight = train.main(tiny(tmp_path / "a", None, *settings))
    interrupt_on_collect(monkeypatch, call=3, how="ctrl-c")
    with pytest.raises(KeyboardInterrupt):
        train.main(tiny(tmp_path / "b", None, *settings))
    monkeypatch.undo()
    resumed = train.main(resume=only_run(tmp_path / "b" / "runs"))
    a, b = training_state(straight.checkpoint), training_state(resumed.checkpoint)
    assert "magnet" in a
    for key, value in a["magnet"].items():
        assert torch.equal(value, b["magnet"][key]), key
    for key, value in a["weights"].items():
        assert torch.equal(value, b["weights"][key]), key
    assert any(not torch.equal(a["magnet"][k], a["weights"][k]) for k in a["weights"])  # refreshed at 2, not 3
