"""train.main end to end: every variant's config trains a little and leaves readable
TensorBoard logs and a loadable checkpoint; interrupted runs resume exactly."""

from __future__ import annotations

import math
import os
import signal
from pathlib import Path
from typing import Any

import pytest
import torch
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

import agents
import evaluation
import training.run as train
from agents.checkpoint import read_checkpoint
from agents.neural import NeuralAgent
from envs.variants import VARIANTS as REGISTERED
from training.config import Config, load_config
from training.rollout import Collector

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
VARIANTS = list(REGISTERED)  # every registered variant's config trains


def tiny(tmp_path: Path, config: str | None = None, *extra: str) -> Config:
    """A budget of seconds: two updates of a few dozen decisions, a 2-deal evaluation."""
    overrides = [
        "train.updates=2",
        "train.checkpoint_every=1",
        "train.threads=1",
        "train.progress=false",
        f"train.runs_dir={tmp_path / 'runs'}",
        "rollout.tables=4",
        "rollout.decisions=48",
        "model.hidden=[16]",
        "ppo.minibatch_size=32",
        "ppo.epochs=2",
        "pool.snapshot_every=1",
        'eval.opponents=["random"]',
        "eval.every=1",
        "eval.deals=2",
        "eval.nash_conv=false",  # exact NashConv of toy stud: tests/train/test_magnet.py
        *extra,
    ]
    return load_config(config, overrides)


def scalars(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    events = EventAccumulator(str(run_dir))
    events.Reload()
    return {tag: [(e.step, e.value) for e in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_config_trains_logs_and_checkpoints(tmp_path: Path, variant: str) -> None:
    result = train.main(tiny(tmp_path, str(CONFIGS / f"{variant}.toml")))
    assert result.run_dir.name.startswith(f"{variant}__") and result.updates == 2
    logged = scalars(result.run_dir)
    for tag in (
        "charts/episodic_return",
        "charts/hands_per_second",
        "losses/policy_loss",
        "losses/value_loss",
        "losses/entropy",
        "losses/approx_kl",
        "losses/clipfrac",
        "losses/explained_variance",
        "eval/random/greedy",
        "eval/random/greedy_ci95",
        "eval/random/sampled",
        "eval/random/sampled_ci95",
    ):
        assert len(logged[tag]) == 2, tag
    assert any(tag.startswith("actions/") for tag in logged)
    events = EventAccumulator(str(result.run_dir))
    events.Reload()
    assert "config/text_summary" in events.Tags()["tensors"]
    bot = agents.load(str(result.checkpoint), seed=0)
    assert isinstance(bot, NeuralAgent) and bot.layout.variant == variant
    data = read_checkpoint(result.checkpoint)
    assert data["step"]["update"] == 2 and data["config"]["env"]["variant"] == variant
    n = data["layout"]["num_players"]
    match = evaluation.run_match(variant, [bot, "random"], deals=2, num_players=n, options=data["layout"]["env_kwargs"])
    assert match.sets == 2 and all(abs(sum(h.rewards)) < 1e-9 for h in match.hands)


def interrupt_on_collect(monkeypatch: pytest.MonkeyPatch, call: int, how: str) -> None:
    """Make the ``call``-th rollout of the process raise Ctrl-C or receive SIGTERM."""
    original = Collector.collect
    calls = {"n": 0}

    def collect(self: Collector, min_decisions: int) -> Any:
        calls["n"] += 1
        if calls["n"] == call:
            if how == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            else:
                raise KeyboardInterrupt
        return original(self, min_decisions)

    monkeypatch.setattr(Collector, "collect", collect)


def only_run(runs: Path) -> Path:
    (run_dir,) = list(runs.iterdir())
    return run_dir


def training_state(path: Path) -> dict[str, Any]:
    return read_checkpoint(path)["training"]


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_interrupted_run_resumes_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    settings = (
        "train.updates=3",
        "train.checkpoint_every=10",
        "pool.snapshot_every=1",
        "rollout.mix={self = 0.35, pool = 0.35, random = 0.3}",
    )
    straight = train.main(tiny(tmp_path / "a", None, *settings))

    interrupt_on_collect(monkeypatch, call=3, how=how)  # during the third update's rollout
    with pytest.raises(KeyboardInterrupt):
        train.main(tiny(tmp_path / "b", None, *settings))
    monkeypatch.undo()
    run_dir = only_run(tmp_path / "b" / "runs")
    latest = run_dir / "checkpoints" / "latest.pt"
    assert read_checkpoint(latest)["step"]["update"] == 2  # the interrupt saved the last whole update
    assert [step for step, _ in scalars(run_dir)["charts/updates"]] == sorted(
        step for step, _ in scalars(run_dir)["charts/updates"]
    )
    assert len(scalars(run_dir)["charts/updates"]) == 2  # logs of both updates are intact

    resumed = train.main(resume=run_dir)
    assert (resumed.updates, resumed.decisions, resumed.hands) == (straight.updates, straight.decisions, straight.hands)
    a, b = training_state(straight.checkpoint), training_state(resumed.checkpoint)
    for key, value in a["weights"].items():
        assert torch.equal(value, b["weights"][key]), key
    assert a["rng"] == b["rng"] and a["update_rng"] == b["update_rng"]
    assert torch.equal(a["generator"], b["generator"])
    exp_avg = [s["exp_avg"] for s in a["optimizer"]["state"].values()]
    assert all(torch.equal(x, s["exp_avg"]) for x, s in zip(exp_avg, b["optimizer"]["state"].values(), strict=True))
    assert [s["update"] for s in a["pool"]["snapshots"]] == [s["update"] for s in b["pool"]["snapshots"]]
    assert [s["score"] for s in a["pool"]["snapshots"]] == [s["score"] for s in b["pool"]["snapshots"]]
    assert [v for _, v in scalars(run_dir)["charts/updates"]] == [1.0, 2.0, 3.0]


def test_resume_can_extend_the_budget_and_refuses_to_shrink_it(tmp_path: Path) -> None:
    first = train.main(tiny(tmp_path))
    more = train.main(resume=first.run_dir, overrides=["train.updates=3"])
    assert more.updates == 3 and read_checkpoint(more.checkpoint)["config"]["train"]["updates"] == 3
    with pytest.raises(ValueError, match="already ran 3 updates"):
        train.main(resume=first.run_dir, overrides=["train.updates=2"])
    with pytest.raises(ValueError, match="no checkpoint file"):
        train.main(resume=tmp_path / "nowhere")


def test_cli_reports_config_errors_and_prints_configs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert train.cli(["--set", "ppo.lrr=1"]) == 2
    assert "unknown setting ppo.lrr" in capsys.readouterr().err
    assert train.cli(["--config", str(CONFIGS / "razz.toml"), "--print-config", "--set", "ppo.lr=1e-4"]) == 0
    printed = capsys.readouterr().out
    assert 'variant = "razz"' in printed and "lr = 0.0001" in printed
    assert train.cli(["--set", 'eval.opponents=["random", "nobody"]', "--set", f"train.runs_dir={tmp_path}"]) == 2
    assert "bot 'nobody' in eval.opponents cannot be loaded" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # nothing was created for a run that could not start


@pytest.mark.slow
def test_default_config_beats_random(tmp_path: Path) -> None:
    """The documented default run (about ten minutes on two cores) beats the random bot
    with the 95% confidence interval above zero."""
    config = load_config(None, ['eval.opponents=["random"]', f"train.runs_dir={tmp_path}", "train.progress=false"])
    result = train.main(config)
    stat = result.evaluation["random/greedy"]
    assert stat.low > 0, f"vs random: {stat}"


def test_cowboy_without_a_match_cap_trains_on_finite_numbers(tmp_path: Path) -> None:
    """Seven players with the default options: pots multiply deal after deal (1e78
    chips within 100 deals when everyone stays). Observations, the learner's training
    signal, the losses, the weights and the logs must stay finite."""
    config = tiny(
        tmp_path,
        str(CONFIGS / "cowboy.toml"),
        "env.options={}",
        "env.num_players=7",
        "rollout.tables=2",
        "rollout.mix={call = 1.0}",  # six bots that always stay: every game runs 100 deals
        "eval.opponents=[]",
    )
    result = train.main(config)
    assert result.updates == 2
    weights = read_checkpoint(result.checkpoint)["training"]["weights"]
    assert all(torch.isfinite(w).all() for w in weights.values())
    logged = scalars(result.run_dir)
    assert logged["losses/value_loss"] and logged["charts/episodic_return"]
    bad = {tag: values for tag, values in logged.items() if not all(math.isfinite(v) for _, v in values)}
    assert not bad, f"non-finite scalars: {bad}"
