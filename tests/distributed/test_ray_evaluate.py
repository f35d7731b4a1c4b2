"""evaluate.py --ray on a real local Ray instance: the same report, hand histories and
progress as one local process, and a Ray that listens on loopback only."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import pytest

import evaluate
from tests.distributed.conftest import NEEDS_RAY

pytest.importorskip("ray", reason=NEEDS_RAY)
psutil = pytest.importorskip("psutil", reason=NEEDS_RAY)  # a dependency of Ray

STRONG = "tests.evaluate.bots:PairRaiser"  # a user's module:Class bot, imported by the Ray workers


def _without_run(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


def test_a_match_on_ray_equals_one_worker(local_ray: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["razz", STRONG, "random", "-n", "30", "--seed", "7", "--histories", "json"]
    on_ray = evaluate.main([*argv, "--ray", "--out", str(tmp_path / "ray")])
    bar = capsys.readouterr().err
    one = evaluate.main([*argv, "-w", "1", "-q", "--out", str(tmp_path / "one")])
    assert on_ray["run"]["ray"] == "local" and on_ray["run"]["workers"] == local_ray
    assert _without_run(on_ray) == _without_run(one)
    assert on_ray["hands"] == 60 and "60/60" in bar  # the progress bar counted every hand
    # the same hands in the same order (30 deals were cut into 15 chunks, played as Ray tasks)
    assert (tmp_path / "ray" / "hands.jsonl").read_text() == (tmp_path / "one" / "hands.jsonl").read_text()


def test_a_tournament_on_ray_equals_one_worker(local_ray: int) -> None:
    argv = ["cowpie", "call", "random", STRONG, "--tournament", "-n", "12", "--seed", "2", "-q", "--no-files"]
    assert _without_run(evaluate.main([*argv, "--ray"])) == _without_run(evaluate.main([*argv, "-w", "1"]))


def test_the_local_instance_listens_on_loopback_only(local_ray: int) -> None:
    import ray

    assert ray.util.get_node_ip_address() == "127.0.0.1"
    ours = {os.getpid()} | {p.pid for p in psutil.Process().children(recursive=True)}
    listening = [c for c in psutil.net_connections(kind="inet") if c.status == psutil.CONN_LISTEN and c.pid in ours]
    assert len(listening) >= 3  # the GCS, the raylet and this driver at least: the check is not vacuous
    addresses = {c.laddr.ip for c in listening}
    assert all(ipaddress.ip_address(a.removeprefix("::ffff:")).is_loopback for a in addresses), addresses
