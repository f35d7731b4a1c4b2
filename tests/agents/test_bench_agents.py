"""The agents benchmark runs (one tiny match) and prints its table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_agents.py"


def load_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("bench_agents", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_bench_agents_prints_rates_and_results(capsys: pytest.CaptureFixture[str]) -> None:
    rows = load_script().main(["--deals", "2", "--variants", "razz", "cowpattie", "--players", "4"])
    assert [(r.variant, r.players) for r in rows] == [("razz", 4), ("cowpattie", 4)]
    assert all(r.decisions > 0 and r.heuristic_rate > 0 for r in rows)
    out = capsys.readouterr().out
    assert "| razz | 4 |" in out and "antes |" in out


def test_bench_agents_rejects_no_deals() -> None:
    with pytest.raises(SystemExit):
        load_script().main(["--deals", "0"])


def test_bench_agents_batch_mode_times_act_and_act_batch(capsys: pytest.CaptureFixture[str]) -> None:
    rows = load_script().main(["--batch", "--deals", "2", "--variants", "stud", "--batch-sizes", "1", "8"])
    (row,) = rows
    assert row.variant == "stud" and row.decisions > 0 and row.act_rate > 0
    assert list(row.batch_rates) == [1, 8] and all(rate > 0 for rate in row.batch_rates.values())
    assert "act_batch(8)" in capsys.readouterr().out


def test_bench_agents_styles_mode_reports_results_and_mix(capsys: pytest.CaptureFixture[str]) -> None:
    rows = load_script().main(["--styles", "--deals", "2", "--variants", "razz", "--presets", "tight", "aggressive"])
    assert [(r.variant, r.preset) for r in rows] == [("razz", "tight"), ("razz", "aggressive")]
    assert all(sum(r.mix.values()) == pytest.approx(1.0) for r in rows)
    assert "| razz | aggressive |" in capsys.readouterr().out


def test_bench_agents_rejects_both_modes() -> None:
    with pytest.raises(SystemExit):
        load_script().main(["--batch", "--styles"])
