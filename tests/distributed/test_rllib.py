"""The RLlib recipe end to end on a real local Ray instance: two PPO iterations of
examples/rllib_ppo.py (sampling on a Ray actor), the checkpoint as a bot in
evaluate.py (locally and on Ray), per-seat modules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

import agents
import evaluation
import evaluation.head_to_head as evaluate
from agents.nets import log_probs
from agents.rllib_agent import MODULES
from envs.rllib import MASK_KEY, OBS_KEY, RLlibAdapter
from examples.rllib_ppo import Config, Summary, build, main
from tests.distributed.conftest import NEEDS_RAY

pytest.importorskip("ray.rllib", reason=NEEDS_RAY)

TINY = {"batch": 256, "minibatch": 64, "epochs": 1, "hidden": 32, "envs_per_runner": 4}


@pytest.fixture(scope="module")
def trained(local_ray: int, tmp_path_factory: pytest.TempPathFactory) -> Summary:
    """Two iterations with one sampling actor (the env and weights travel to it)."""
    out = tmp_path_factory.mktemp("rllib") / "stud"
    return main(Config(iterations=2, env_runners=1, eval_deals=10, out=str(out), **TINY))


def test_two_ppo_iterations_report_every_seats_return(trained: Summary) -> None:
    assert [line["iteration"] for line in trained.iterations] == [1, 2]
    for line in trained.iterations:
        assert line["env_steps"] >= TINY["batch"] and line["episodes"] > 0
        seats = line["seat_returns"]
        assert set(seats) == {"player_0", "player_1"} and sum(seats.values()) == pytest.approx(0, abs=1e-9)
        assert line["episode_return_mean"] == 0  # the pitfall: zero-sum, so the sum over seats says nothing
        assert line["agent_returns"] == pytest.approx(seats)  # in stud every seat acts, so RLlib's own agree


def test_the_checkpoint_plays_in_evaluate_as_the_example_prints(trained: Summary) -> None:
    assert trained.bot == trained.checkpoint and (trained.checkpoint / "rllib_checkpoint.json").is_file()
    assert trained.command.startswith(f"python evaluate.py stud {trained.checkpoint} random --deals 10")
    report = trained.evaluation
    assert report is not None and report["bots"] == [str(trained.checkpoint), "random"]
    assert [b["sets"] for b in report["bots_summary"]] == [10, 10]
    again = evaluate.main([*trained.command.split()[2:], "--no-files", "-q"])  # the printed command, run
    assert {k: v for k, v in again.items() if k != "run"} == {k: v for k, v in report.items() if k != "run"}


@pytest.mark.slow  # a second Ray worker pool; the checkpoint as a bot is tested in one process
def test_the_checkpoint_on_ray_workers_equals_one_worker(trained: Summary) -> None:
    argv = ["stud", str(trained.checkpoint), "call", "-n", "6", "--seed", "1", "-q", "--no-files"]
    on_ray, one = evaluate.main([*argv, "--ray"]), evaluate.main([*argv, "-w", "1"])
    del on_ray["run"], one["run"]
    assert on_ray == one


def test_the_bot_plays_rllibs_own_masked_policy(trained: Summary) -> None:
    """Our wrapper's action probabilities are the RLlib module's, masked by RLlib itself."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    bot = agents.load(str(trained.checkpoint), seed=0)
    module = RLModule.from_checkpoint(str(trained.checkpoint / MODULES / "shared"))
    env, rng = RLlibAdapter({"variant": "stud"}), np.random.default_rng(0)
    obs, _ = env.reset(seed=4)
    for _ in range(6):
        ((agent, ob),) = obs.items()
        batch = {"obs": {k: torch.from_numpy(v[None]) for k, v in ob.items()}}
        with torch.inference_mode():
            theirs = torch.softmax(module.forward_inference(batch)["action_dist_inputs"], -1)[0]
        ours = log_probs(bot.net.logits(torch.from_numpy(ob[OBS_KEY][None])), torch.from_numpy(ob[MASK_KEY][None]))
        np.testing.assert_allclose(ours.exp()[0].numpy(), theirs.numpy(), atol=1e-6)
        assert (theirs[ob[MASK_KEY] == 0] == 0).all()
        obs, _, terminateds, _, _ = env.step({agent: int(rng.choice(np.flatnonzero(ob[MASK_KEY])))})
        if terminateds["__all__"]:
            obs, _ = env.reset()


def test_the_checkpoint_refuses_a_table_it_was_not_trained_for(
    trained: Summary, capsys: pytest.CaptureFixture[str]
) -> None:
    for backend in (["-w", "1"], ["--ray"]):
        with pytest.raises(SystemExit) as exit_info:
            evaluate.main(["razz", str(trained.checkpoint), "random", "-n", "2", "-q", "--no-files", *backend])
        assert exit_info.value.code == 1  # a bot failed (as a .pt checkpoint at the wrong table does)
        err = capsys.readouterr().err
        assert "raised LayoutError: this network was trained for stud_v0, 2 players; it cannot play razz" in err


def test_per_seat_modules_are_named_one_by_one(local_ray: int, tmp_path: Path) -> None:
    algo = build(Config(policies="per_seat", **TINY))
    try:
        assert sorted(algo.config.policies) == ["player_0", "player_1"]
        algo.save(str(tmp_path))
    finally:
        algo.stop()
    with pytest.raises(ValueError, match="has modules player_0, player_1: name one as a bot"):
        agents.load(str(tmp_path))
    bot = agents.load(str(tmp_path / MODULES / "player_1"), seed=0)
    assert bot.name == f"rllib@{tmp_path.name}/player_1"
    assert evaluation.run_match("stud", [bot, "random"], deals=2, seed=0).sets == 2


def test_a_relative_checkpoint_path_loads(trained: Summary, monkeypatch: pytest.MonkeyPatch) -> None:
    """RLlib reads checkpoints through pyarrow, which refuses relative paths."""
    monkeypatch.chdir(trained.checkpoint.parent)
    for spec in (trained.checkpoint.name, str(Path(trained.checkpoint.name) / MODULES / "shared")):
        assert evaluation.run_match("stud", [agents.load(spec, seed=0), "random"], deals=2).sets == 2
