"""evaluate.py --ray: the parts that need no Ray instance (tests/distributed/ plays on one)."""

from __future__ import annotations

import sys

import pytest

import evaluation.head_to_head as evaluate
from evaluation import ray_runner, runner
from evaluation.ray_cluster import SINGLE_MACHINE, check_address, ray_session
from evaluation.runner import MatchSpec

BASE = ["stud", "call", "random", "-n", "4", "-q", "--no-files"]


def test_help_lists_the_ray_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        evaluate.main(["--help"])
    out = capsys.readouterr().out
    assert "--ray [ADDRESS]" in out and "ray://HOST:10001" in out and "--ray auto" in out


def test_ray_and_workers_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main([*BASE, "--ray", "auto", "--workers", "2"])
    assert exit_info.value.code == 2
    assert "--workers does not apply with --ray" in capsys.readouterr().err


def test_without_ray_installed_the_flag_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(SINGLE_MACHINE, "1")  # restored after the test (ray_session sets it)
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main([*BASE, "--ray"])
    assert exit_info.value.code == 2
    assert 'Ray is not installed: pip install -e ".[ray]"' in capsys.readouterr().err


@pytest.mark.parametrize("address", ["", "   ", None], ids=["empty", "blank", "none"])
def test_a_missing_address_is_refused_naming_the_forms(address: str | None) -> None:
    with pytest.raises(ValueError, match=r"use 'local' .* 'auto' .* ray://HOST:10001 or HOST:PORT"):
        check_address(address)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Ray address"), ray_session(address):  # type: ignore[arg-type]
        pass


def test_a_ray_worker_drops_the_bots_of_an_earlier_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray worker processes outlive an evaluation; a checkpoint may have changed since."""
    monkeypatch.setattr(ray_runner, "_RUN", None)
    monkeypatch.setattr(runner, "_BOTS", {})
    job = (0, MatchSpec("stud", ("random", "call"), 2, seed=1), range(2))
    ray_runner.play_job(job, "first")
    cached = dict(runner._BOTS)
    assert set(cached) == {("random", 1), ("call", 2)}
    ray_runner.play_job(job, "first")  # same evaluation: the same bot objects
    assert all(runner._BOTS[k] is v for k, v in cached.items())
    ray_runner.play_job(job, "second")  # a new one: loaded afresh
    assert set(runner._BOTS) == set(cached) and all(runner._BOTS[k] is not v for k, v in cached.items())
