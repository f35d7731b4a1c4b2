"""The report's PNG lists the bots in one order in every panel (best first)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import pytest

import evaluation.head_to_head as evaluate
from evaluation.report import bot_order, plot_figure, write_plot


def _bot(name: str, elo: float, mean: float) -> dict[str, Any]:
    return {
        "name": name,
        **{"elo": elo, "elo_low": elo - 30, "elo_high": elo + 30},
        **{"mean": mean, "ci_low": mean - 5, "ci_high": mean + 5, "half_width": 5.0},
    }


def _report(mode: str, bots: list[dict[str, Any]], matrix: list[list[float | None]]) -> dict[str, Any]:
    return {
        "mode": mode,
        "title": "Razz",
        "variant": "razz",
        "num_players": 2,
        "options": {},
        "deals": 100,
        "hands": 200,
        "duplicate": True,
        "seating": "rotate",
        "seed": 0,
        "rate_label": "big bets per 100 hands",
        "names": [b["name"] for b in bots],
        "bots_summary": bots,
        "matrix": {"mean": matrix, "half_width": [[None if v is None else 1.0 for v in row] for row in matrix]},
    }


def _labels(ax: Any, axis: str = "y") -> list[str]:
    ticks = ax.get_yticklabels() if axis == "y" else ax.get_xticklabels()
    positions = ax.get_yticks() if axis == "y" else ax.get_xticks()
    pairs = sorted(zip(positions, (t.get_text() for t in ticks), strict=True))
    if axis == "y" and not ax.yaxis_inverted():
        pairs.reverse()  # top to bottom
    return [text for _, text in pairs]


def test_every_tournament_panel_lists_the_bots_in_elo_order() -> None:
    """Given order a, b, c; Elo order b, c, a; field (mean) order c, a, b: all three
    panels must read b, c, a from the top (and the heat map's columns from the left)."""
    bots = [_bot("a", elo=-50.0, mean=3.0), _bot("b", elo=80.0, mean=-4.0), _bot("c", elo=-30.0, mean=9.0)]
    matrix = [[None, 1.0, -2.0], [-1.0, None, 7.0], [2.0, -7.0, None]]
    report = _report("tournament", bots, matrix)
    assert bot_order(report) == [1, 2, 0]
    fig = plot_figure(report)
    try:
        elo, field, heat = fig.axes[:3]
        assert _labels(elo) == _labels(field) == _labels(heat) == _labels(heat, "x") == ["b", "c", "a"]
        # the heat map's cells moved with their labels: row b, column a holds b's result against a
        cells = {(round(t.get_position()[1]), round(t.get_position()[0])): t.get_text() for t in heat.texts}
        assert cells[0, 2] == "-1.0\n±1.0" and cells[2, 1] == "-2.0\n±1.0" and cells[1, 0] == "-7.0\n±1.0"
    finally:
        plt.close(fig)


def test_a_match_plot_lists_the_best_result_first_and_missing_values_last() -> None:
    bots = [_bot("x", elo=0.0, mean=-2.0), _bot("y", elo=0.0, mean=math.nan), _bot("z", elo=0.0, mean=6.0)]
    report = _report("match", bots, [[None] * 3] * 3)
    assert bot_order(report) == [2, 0, 1]
    fig = plot_figure(report)
    try:
        assert _labels(fig.axes[0]) == ["z", "x", "y"]
    finally:
        plt.close(fig)


def test_a_real_tournament_plot(tmp_path: Path) -> None:
    report = evaluate.main(["razz", "call", "random", "--tournament", "-n", "12", "-w", "1", "-q", "--bootstrap", "50"])
    fig = plot_figure(report)
    try:
        expected = [report["names"][i] for i in bot_order(report)]
        elo, field, heat = fig.axes[:3]
        assert _labels(elo) == _labels(field) == _labels(heat) == _labels(heat, "x") == expected
    finally:
        plt.close(fig)
    write_plot(report, tmp_path / "report.png")
    assert (tmp_path / "report.png").read_bytes()[:4] == b"\x89PNG"


@pytest.fixture(autouse=True)
def _no_stray_figures() -> Any:
    yield
    assert not plt.get_fignums()
