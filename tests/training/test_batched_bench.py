"""The training benchmark's engine rows run (a tiny collection) and print both engines."""

from __future__ import annotations

import pytest
import torch

from tests.agents.test_bench_train import load_script


def test_bench_train_prints_the_scalar_and_batched_engines(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--only-engines", "--repeats", "1", "--decisions", "64", "--tables", "4", "--batched-tables", "8"]
    threads = torch.get_num_threads()
    try:
        load_script().main([*args, "--hidden", "16"])
    finally:
        torch.set_num_threads(threads)  # the script pins one thread
    out = capsys.readouterr().out
    assert "| scalar | 4 |" in out and "| batched | 8 |" in out and "| batched 8 / scalar |" in out
    assert "default mix" in out  # says whether the heuristic tables are in it
