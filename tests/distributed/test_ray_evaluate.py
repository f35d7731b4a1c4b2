"""evaluate.py --ray on a real local Ray instance: the same report, hand histories and
progress as one local process, and a Ray that listens on loopback only."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

import pytest

import evaluation.head_to_head as evaluate
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


def test_a_failing_bot_on_ray_fails_as_with_one_worker(local_ray: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The bot's own error reaches evaluate.py through Ray (not Ray's wrapper of it)."""
    argv = ["stud", "call", "tests.evaluate.bots:Raises", "-n", "6", "--seed", "1", "-q", "--no-files"]
    messages = []
    for backend in (["--ray"], ["-w", "1"]):
        with pytest.raises(SystemExit) as exit_info:
            evaluate.main([*argv, *backend])
        assert exit_info.value.code == 1
        messages.append(capsys.readouterr().err)
    assert messages[0] == messages[1]
    assert "error: bot 'tests.evaluate.bots:Raises' (player_" in messages[0] and "the bot broke" in messages[0]


@pytest.mark.slow  # a minute of Ray workers; forfeits are tested in one process in tests/evaluate/test_isolate.py
def test_an_isolated_bot_forfeits_on_ray_and_the_tournament_plays_on(local_ray: int, tmp_path: Path) -> None:
    """--isolate on Ray workers: the failing bot forfeits both its matches, the other pair
    is played in full, exactly as in one process. (Where a forfeit is recorded is not
    compared: this bot fails at its 25th decision in a process, which depends on which
    chunks that process played before, with Ray as with a process pool.)"""
    argv = ["stud", "call", "random", "tests.evaluate.bots:Raises", "-t", "-n", "10", "--bootstrap", "50"]
    argv += ["--isolate", "-q", "--no-plot", "--histories", "text"]
    on_ray = evaluate.main([*argv, "--ray", "--out", str(tmp_path / "ray")])
    one = evaluate.main([*argv, "-w", "1", "--out", str(tmp_path / "one")])
    assert [(f["bots"], f["forfeited_by"]) for f in on_ray["forfeits"]] == [
        (["call", "Raises"], "Raises"),
        (["random", "Raises"], "Raises"),
    ]
    assert on_ray["pairs"] == one["pairs"] and [p["bot"] for p in on_ray["pairs"]] == ["call", "random"]

    def match_0(directory: Path) -> list[str]:
        hands = (directory / "hands.txt").read_text().split("=== ")
        return [h for h in hands if h.startswith("match 0,")]

    assert len(match_0(tmp_path / "ray")) == 20 and match_0(tmp_path / "ray") == match_0(tmp_path / "one")
