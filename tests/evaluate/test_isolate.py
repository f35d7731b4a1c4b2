"""Isolated bots (``evaluate.py --isolate``, ``run_match(isolate=True)``): each in its
own process, handed only its observation and view. Results equal in-process play for
deterministic bots; a bot that fails forfeits its match with a message naming it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import evaluation.head_to_head as evaluate
from evaluation.arena import run_match
from evaluation.isolate import IsolatedBot

BOTS = "tests.evaluate.bots"

SAME = [
    ("stud", ["random", "heuristic"], 2, {}),
    ("cowpie", ["heuristic", "call"], 3, {}),
    ("cowgirl", ["call", "heuristic", "random"], 3, {"match_cap": 4}),
]


def _outcome(result: Any) -> list[Any]:
    return [(h.deal, h.rotation, h.lineup, h.rewards, h.decisions) for h in result.hands]


@pytest.mark.parametrize(("variant", "bots", "n", "options"), SAME, ids=[v for v, *_ in SAME])
def test_isolated_play_equals_play_in_process(variant: str, bots: list[str], n: int, options: dict[str, Any]) -> None:
    kwargs: dict[str, Any] = {"num_players": n, "seed": 5, "options": options, "record_decisions": True}
    here = run_match(variant, bots, deals=6, **kwargs)
    isolated = run_match(variant, bots, deals=6, isolate=True, **kwargs)
    assert isolated.forfeit is None
    assert _outcome(isolated) == _outcome(here) and len(here.hands) >= 6


FAILURES = [
    ("ReturnsNone", "(player_1) returned None (NoneType), not an int in state [", 0),
    ("ReturnsNinetyNine", "(player_1) returned 99, which is not a legal action in state [", 0),
    ("ReturnsFloat", "(player_1) returned 1.0 (float), not an int", 0),
    ("Exits", "(player_1) raised SystemExit(0): a bot may not end the run", 0),
    ("Raises", "raised ValueError: the bot broke", 4),
    ("Crashes", "crashed: its process ended with exit status 3", 4),
    ("Hangs", "did not answer within 0.5 s (its process was stopped)", 4),
]


@pytest.mark.parametrize(("bot", "what", "hands"), FAILURES, ids=[b for b, *_ in FAILURES])
def test_a_failing_bot_forfeits_the_match(bot: str, what: str, hands: int) -> None:
    spec = f"{BOTS}:{bot}"
    result = run_match("stud", ["call", spec], deals=10, seed=1, isolate=True, decision_timeout=0.5)
    lost = result.forfeit
    assert lost is not None and lost.bot == 1 and lost.name == spec
    assert lost.reason.startswith(f"bot '{spec}' (player_{lost.seat}) ") and what in lost.reason
    assert len(result.hands) == hands  # the hands before the failure are kept (its 25th decision: deal 2)
    assert (lost.deal, lost.rotation) == ((0, 0) if hands == 0 else (2, 0))


def test_a_bot_that_cannot_load_is_a_clear_error() -> None:
    exits = r"could not be loaded in its own process: building the bot of spec '.*' raised SystemExit\(0\)"
    with pytest.raises(ValueError, match=exits):
        IsolatedBot(f"{BOTS}:ExitsOnLoad")
    with pytest.raises(ValueError, match="could not be loaded in its own process: unknown bot spec 'nobody'"):
        IsolatedBot("nobody")
    with pytest.raises(ValueError, match="expected seconds > 0"):
        IsolatedBot("call", timeout=0)


def test_an_isolated_bot_cannot_find_the_engine_state() -> None:
    """In its process there is no state to find (in-process it finds one:
    tests/evaluate/test_bot_failures.py)."""
    result = run_match("stud", ["call", f"{BOTS}:Peeks"], deals=3, seed=0, isolate=True)
    assert result.forfeit is None and len(result.hands) == 6


def test_isolated_bot_processes_end_with_the_match() -> None:
    with IsolatedBot("random", seed=1) as bot:
        assert bot.alive
    assert not bot.alive


def _run(argv: list[str]) -> dict[str, Any]:
    report = evaluate.main([*argv, "-q"])
    report.pop("run")
    return report


def test_evaluate_isolated_tournament_equals_in_process(tmp_path: Path) -> None:
    argv = ["razz", "random", "call", "heuristic", "-t", "-n", "8", "--seed", "2", "--bootstrap", "50", "--no-files"]
    assert _run([*argv, "--isolate", "-w", "2"]) == _run([*argv, "-w", "1"])


def test_evaluate_tournament_records_a_forfeit_and_plays_on(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    raises = f"{BOTS}:Raises"
    argv = ["stud", "call", "random", raises, "-t", "-n", "10", "--bootstrap", "50", "--isolate", "-w", "1"]
    report = evaluate.main([*argv, "-q", "--no-plot", "--histories", "text", "--out", str(tmp_path)])
    out = capfd.readouterr().out
    assert [f["forfeited_by"] for f in report["forfeits"]] == ["Raises", "Raises"]  # against call, and random
    first = report["forfeits"][0]
    assert first["bots"] == ["call", "Raises"] and first["winners"] == ["call"] and first["hands_played"] == 4
    assert "raised ValueError: the bot broke" in first["reason"]
    assert [(p["bot"], p["opponent"]) for p in report["pairs"]] == [("call", "random"), ("random", "call")]
    assert report["matrix"]["mean"][0][2] is None  # no chips counted for a forfeited pair
    elo = {row["name"]: row["elo"] for row in report["bots_summary"]}
    assert elo["Raises"] < min(elo["call"], elo["random"])  # it lost both its matches
    assert "forfeit: Raises lost its match against call: bot 'tests.evaluate.bots:Raises'" in out
    saved = json.loads((tmp_path / "report.json").read_text())
    assert saved["forfeits"] == report["forfeits"]
    text = (tmp_path / "hands.txt").read_text()
    assert text.count("=== match 1, deal ") == 4  # the hands played before the failure are kept


def test_evaluate_single_match_forfeit_exits_one_and_keeps_the_files(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    argv = ["stud", "call", f"{BOTS}:Crashes", "-n", "10", "--isolate", "-w", "1", "-q", "--histories", "text"]
    with pytest.raises(SystemExit) as info:
        evaluate.main([*argv, "--out", str(tmp_path)])
    assert info.value.code == 1
    err = capfd.readouterr().err
    assert "evaluate.py: error: Crashes forfeited the match: bot 'tests.evaluate.bots:Crashes' (player_" in err
    assert "crashed: its process ended with exit status 3" in err
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["forfeits"][0]["hands_played"] == 4 and "bots_summary" not in report
    assert (tmp_path / "hands.txt").read_text().count("=== match 0, deal ") == 4


def test_a_chatty_isolated_bot_does_not_garble_the_report(capfd: pytest.CaptureFixture[str]) -> None:
    evaluate.main(["stud", "call", f"{BOTS}:Chatty", "-n", "2", "--isolate", "-q", "--no-files"])
    out, err = capfd.readouterr()
    assert "chatty bot thinking" not in out and "chatty bot thinking" in err
    assert "big bets per 100 hands" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--decision-timeout", "2"], "--decision-timeout needs --isolate"),
        (["--isolate", "--decision-timeout", "0"], "decision_timeout=0.0: expected seconds > 0"),
        (["--isolate", "--decision-timeout", "nan"], "expected seconds > 0"),
    ],
)
def test_bad_isolation_options_are_clear_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        evaluate.main(["stud", "call", "random", "-q", "--no-files", *argv])
    assert info.value.code == 2 and message in capsys.readouterr().err
