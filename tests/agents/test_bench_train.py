"""The training benchmark's bot mode runs (a tiny collection) and prints its rows."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
import torch

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_train.py"


def load_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_train", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_bench_train_bot_mode_reports_the_bots_share(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--only-bots", "--bots", "heuristic:tight", "--bot-fraction", "0.5", "--tables", "4"]
    threads = torch.get_num_threads()
    try:
        load_script().main([*args, "--decisions", "64", "--repeats", "1", "--hidden", "16"])
    finally:
        torch.set_num_threads(threads)  # the script pins one thread
    out = capsys.readouterr().out
    assert "50% of episodes vs heuristic:tight, rest self-play: learner per CPU second" in out
    assert "bots' share of the CPU time" in out


@pytest.mark.parametrize(
    "args",
    [["--bot-fraction", "0.5"], ["--bots", "heuristic"], ["--only-bots"], ["--bot-fraction", "2", "--bots", "call"]],
)
def test_bench_train_rejects_inconsistent_bot_options(args: list[str]) -> None:
    with pytest.raises(SystemExit):
        load_script().parse_args(args)
