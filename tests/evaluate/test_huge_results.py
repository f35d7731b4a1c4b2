"""Evaluation of games with astronomical results: Cowboy without a ``match_cap``.

Bots that always stay play every deal to the showdown, so the pot is matched again
and again and whole games end 1e20 to 1e78 antes up or down. Those are legitimate
results of the game: the report must show them as finite, readable figures in the
table, the JSON and the CSV.
"""

from __future__ import annotations

import csv
import json
import math
import re
from pathlib import Path

import pytest

import evaluation.head_to_head as evaluate
from evaluation.arena import mean_ci
from evaluation.student_t import t_quantile


def _strict_number(text: str) -> float:
    raise ValueError(f"non-finite number {text!r} in the JSON")


def test_always_staying_bots_get_a_finite_readable_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = evaluate.main(["cowboy", "call", "call", "call", "-n", "2", "-w", "1", "-q", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert not re.search(r"\binf\b|\bnan\b", out, re.IGNORECASE)
    assert re.search(r"[+-]\d\.\d\de\+\d\d ± \d\.\d\de\+\d\d", out), out  # e.g. +1.35e+30 ± 2.12e+30
    assert not re.search(r"\d{15}", out)  # no fixed-point figures of 20 or 70 digits
    data = json.loads((tmp_path / "report.json").read_text(), parse_constant=_strict_number)
    assert data == json.loads(json.dumps(report))
    bots = data["bots_summary"]
    assert max(abs(b["mean"]) for b in bots) > 1e6  # the games really were that large
    for b in bots:
        assert all(math.isfinite(b[k]) for k in ("mean", "half_width", "ci_low", "ci_high"))
    rows = list(csv.DictReader((tmp_path / "bots.csv").open()))
    for row in rows:
        for key in ("mean", "half_width", "ci_low", "ci_high"):
            assert math.isfinite(float(row[key])), (key, row[key])


def test_mean_ci_is_finite_for_results_whose_squares_overflow() -> None:
    stat = mean_ci([3e200, -1e200, 1e200])
    assert stat.mean == pytest.approx(1e200)
    assert math.isfinite(stat.half_width) and stat.half_width == pytest.approx(
        t_quantile(0.975, 2) * 2e200 / math.sqrt(3)
    )
    assert mean_ci([1.0, 3.0]) == mean_ci([1.0, 3.0])  # ordinary figures: the plain formula
    assert mean_ci([1.0, 3.0]).mean == 2.0
