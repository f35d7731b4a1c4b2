"""train.main on the batched engine: the same logs and checkpoints as the scalar
engine, exact resume after an interruption, and clear errors for what it cannot play."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
import torch

import agents
import training.run as train
from agents.checkpoint import read_checkpoint
from agents.neural import NeuralAgent
from tests.train.test_train import only_run, scalars, tiny, training_state
from training.batched_rollout import BatchedCollector
from training.config import ConfigError, load_config
from training.trainer import learner_device, on_host

BATCHED = ("rollout.engine=batched", "rollout.tables=8")
NO_HEURISTIC = "rollout.mix={self = 0.4, pool = 0.3, random = 0.2, call = 0.1}"  # the batched heuristic: another branch


@pytest.mark.parametrize("variant", ["stud", "razz", "stud_hilo", "five_card_stud", "toy_stud"])
def test_batched_runs_log_what_scalar_runs_log(tmp_path: Path, variant: str) -> None:
    """Every tag of a scalar run is logged by the batched run too, at every update."""
    common = (f"env.variant={variant}", NO_HEURISTIC)
    batched = train.main(tiny(tmp_path / "b", None, *common, *BATCHED))
    scalar = train.main(tiny(tmp_path / "s", None, *common))
    got, want = scalars(batched.run_dir), scalars(scalar.run_dir)
    stable = {tag for tag in want if not tag.startswith("actions/")}  # action tags: those of the actions taken
    assert stable <= set(got), stable - set(got)
    every_update = {tag for tag in stable if not tag.startswith("charts/return_vs_")}  # those: when such tables ran
    assert all(len(got[tag]) == 2 for tag in every_update), variant
    assert {"actions/bet_fold", "actions/bet_call", "actions/bet_raise"} <= set(got)
    bot = agents.load(str(batched.checkpoint), seed=0)
    assert isinstance(bot, NeuralAgent) and bot.layout.variant == variant
    assert read_checkpoint(batched.checkpoint)["config"]["rollout"]["engine"] == "batched"


def interrupt_batched_collect(monkeypatch: pytest.MonkeyPatch, call: int, how: str) -> None:
    """Make the ``call``-th batched rollout of the process raise Ctrl-C or receive SIGTERM."""
    original = BatchedCollector.collect
    calls = {"n": 0}

    def collect(self: BatchedCollector, min_decisions: int) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            if how == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            else:
                raise KeyboardInterrupt
        return original(self, min_decisions)

    monkeypatch.setattr(BatchedCollector, "collect", collect)


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_interrupted_batched_run_resumes_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    settings = (
        *BATCHED,
        "train.updates=3",
        "train.checkpoint_every=10",
        "pool.snapshot_every=1",
        "rollout.mix={self = 0.35, pool = 0.35, random = 0.3}",
    )
    straight = train.main(tiny(tmp_path / "a", None, *settings))
    interrupt_batched_collect(monkeypatch, call=3, how=how)  # during the third update's rollout
    with pytest.raises(KeyboardInterrupt):
        train.main(tiny(tmp_path / "b", None, *settings))
    monkeypatch.undo()
    run_dir = only_run(tmp_path / "b" / "runs")
    assert read_checkpoint(run_dir / "checkpoints" / "latest.pt")["step"]["update"] == 2
    resumed = train.main(resume=run_dir)
    assert (resumed.updates, resumed.decisions, resumed.hands) == (straight.updates, straight.decisions, straight.hands)
    a, b = training_state(straight.checkpoint), training_state(resumed.checkpoint)
    for key, value in a["weights"].items():
        assert torch.equal(value, b["weights"][key]), key
    assert a["rng"] == b["rng"] and a["update_rng"] == b["update_rng"]
    assert torch.equal(a["generator"], b["generator"])
    assert [s["score"] for s in a["pool"]["snapshots"]] == [s["score"] for s in b["pool"]["snapshots"]]
    assert [v for _, v in scalars(run_dir)["charts/updates"]] == [1.0, 2.0, 3.0]


def test_batched_and_scalar_runs_differ_only_in_the_engine(tmp_path: Path) -> None:
    """Same seed, same weights at the start; the engines draw different deals, so the
    first update's weights differ (the test would pass vacuously if the flag did nothing)."""
    a = train.main(tiny(tmp_path / "a", None, "train.updates=1", NO_HEURISTIC, *BATCHED))
    b = train.main(tiny(tmp_path / "b", None, "train.updates=1", NO_HEURISTIC, "rollout.tables=8"))
    wa, wb = training_state(a.checkpoint)["weights"], training_state(b.checkpoint)["weights"]
    assert any(not torch.equal(wa[k], wb[k]) for k in wa)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (["env.variant=cowboy", "env.num_players=3"], 'rollout.engine = "batched"'),
        (["rollout.mix={self = 0.5, 'heuristic:nosuch' = 0.5}"], "rollout.mix"),
        (["rollout.mix={self = 0.5, 'agents.base:RandomAgent' = 0.5}"], "has no batched form"),
        (["rollout.backend=ray"], 'rollout.backend = "local"'),
    ],
    ids=["cowboy", "bad-style", "module-bot", "ray"],
)
def test_what_the_batched_engine_cannot_play_is_a_config_error(
    tmp_path: Path, overrides: list[str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message) as err:
        train.main(tiny(tmp_path, None, *BATCHED, NO_HEURISTIC, *overrides))
    assert "rollout.engine" in str(err.value) or "rollout.mix" in str(err.value)


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the error where torch sees no GPU")
def test_cuda_without_a_gpu_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no CUDA device"):
        train.main(tiny(tmp_path, None, *BATCHED, NO_HEURISTIC, "train.device=cuda"))
    assert load_config(None, ["train.device=auto"]).train.device == "auto"


def test_engine_and_device_settings_are_checked_and_documented() -> None:
    with pytest.raises(ConfigError, match=r"rollout\.engine"):
        load_config(None, ["rollout.engine=gpu"])
    with pytest.raises(ConfigError, match=r"train\.device"):
        load_config(None, ["train.device=tpu"])
    with pytest.raises(ConfigError, match=r"rollout\.tables"):
        load_config(None, ["rollout.tables=8192"])  # the scalar engine's limit
    assert load_config(None, ["rollout.tables=65536", "rollout.engine=batched"]).rollout.tables == 65536
    assert load_config(None, []).rollout.engine == "scalar"  # shipped configs reproduce
    with pytest.raises(ConfigError, match=r'train\.device.*rollout\.engine = "batched"'):
        load_config(None, ["train.device=cuda"])  # the scalar engine plays on the CPU
    assert load_config(None, ["train.device=auto"]).train.device == "auto"


def test_the_training_state_is_on_the_host_wherever_the_learner_is() -> None:
    """Checkpoints resume on any device: every tensor of the state is a CPU copy."""
    net = torch.nn.Linear(2, 2)
    optimizer = torch.optim.Adam(net.parameters())
    net(torch.ones(1, 2)).sum().backward()
    optimizer.step()
    state = on_host({"weights": net.state_dict(), "optimizer": optimizer.state_dict(), "note": [1, "a"]})
    assert state["note"] == [1, "a"]
    weight = state["weights"]["weight"]
    assert weight.device.type == "cpu" and torch.equal(weight, net.weight)
    weight.add_(1.0)  # a copy: the live network is untouched
    assert not torch.equal(weight, net.weight)
    assert all(t.device.type == "cpu" for t in state["optimizer"]["state"][0].values())
    assert learner_device(load_config(None, [])) == torch.device("cpu")
    assert learner_device(load_config(None, [*BATCHED, NO_HEURISTIC, "train.device=cpu"])).type == "cpu"


@pytest.mark.parametrize("variant", ["cowpie", "stud_hilo_declare"])
def test_candidate_variants_train_on_the_batched_engine(tmp_path: Path, variant: str) -> None:
    """Declarations and splits with the candidate head (features computed on the host);
    Cowpie logs its split regret as on the scalar engine."""
    result = train.main(
        tiny(tmp_path, None, f"env.variant={variant}", "rollout.candidate_samples=8", *BATCHED, NO_HEURISTIC)
    )
    assert result.updates == 2
    if variant == "cowpie":
        assert len(scalars(result.run_dir)["actions/split_regret"]) == 2


def test_batched_runs_evaluate_on_the_scalar_deals(tmp_path: Path) -> None:
    """The logged evaluation of a batched run (greedy against call, on the batched
    engine) is the scalar evaluation of the saved network on the same deals."""
    from agents.checkpoint import net_from_checkpoint
    from training.evaluation import duplicate_match
    from training.metrics import eval_seed

    config = tiny(tmp_path, None, *BATCHED, NO_HEURISTIC, 'eval.opponents=["call"]', 'eval.modes=["greedy"]')
    result = train.main(config)
    net, layout = net_from_checkpoint(read_checkpoint(result.checkpoint), str(result.checkpoint))
    seed = eval_seed(config.eval.seed, config.train.seed, 2)
    want = duplicate_match(net, layout, agents.load("call", seed=0), deals=config.eval.deals, seed=seed, greedy=True)
    assert result.evaluation["call/greedy"] == want.stat
    assert scalars(result.run_dir)["eval/call/greedy"][-1][1] == pytest.approx(want.stat.mean, rel=1e-6)
