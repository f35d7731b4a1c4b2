"""Bots that misbehave in the arena's process: every answer is checked, and every
failure is an error naming the bot and its seat (never an IndexError, never an
``int()`` of a float, never a quiet exit)."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import evaluation.head_to_head as evaluate
from agents.loading import load
from envs.engine.errors import IllegalActionError
from envs.policy import BotActionError, BotError, checked_action, quoted
from evaluation.arena import play_hand, run_match

ROOT = Path(__file__).resolve().parents[2]
BOTS = "tests.evaluate.bots"

BAD_ANSWERS = [
    ("ReturnsNone", "returned None (NoneType), not an int"),
    ("ReturnsNinetyNine", "returned 99, which is not a legal action"),
    ("ReturnsFloat", "returned 1.0 (float), not an int"),
    ("ReturnsTrue", "returned True (bool), not an int"),
]


@pytest.mark.parametrize(("bot", "what"), BAD_ANSWERS, ids=[b for b, _ in BAD_ANSWERS])
def test_a_bad_answer_is_an_illegal_action_error_naming_the_bot(bot: str, what: str) -> None:
    spec = f"{BOTS}:{bot}"
    with pytest.raises(IllegalActionError) as info:
        run_match("stud", ["call", spec], deals=2, seed=1)
    err = info.value
    assert isinstance(err, BotActionError) and err.bot == spec and err.seat == 1
    assert f"bot '{spec}' (player_1) {what}" in str(err)
    assert "legal actions: 2 bring_in, 3 raise" in str(err)  # what it could have done


def test_numpy_ints_are_ints() -> None:
    result = run_match("stud", ["call", f"{BOTS}:ReturnsNumpyInt"], deals=3, seed=1)
    assert len(result.hands) == 6


def test_a_bot_that_raises_or_quits_is_a_bot_error(tmp_path: Path) -> None:
    broke = r"bot 'tests.evaluate.bots:Raises' \(player_\d\) raised ValueError: the bot broke"
    with pytest.raises(BotError, match=broke):
        run_match("stud", ["call", f"{BOTS}:Raises"], deals=20, seed=1)
    with pytest.raises(BotError, match=r"raised SystemExit\(0\): a bot may not end the run") as info:
        run_match("razz", [f"{BOTS}:Exits", "random"], deals=2, seed=1)
    assert info.value.bot == f"{BOTS}:Exits" and isinstance(info.value.__cause__, SystemExit)


def test_play_hand_names_the_bot_by_its_name_without_names() -> None:
    env = __import__("envs").make_raw("stud", 2)
    bots = [load("call"), load(f"{BOTS}:ReturnsNone")]
    with pytest.raises(BotActionError, match=r"bot 'agent' \(player_1\) returned None"):
        play_hand(env, bots, seed=0, button=0)


def test_errors_pickle_with_their_message() -> None:
    """They cross from a worker process to the parent intact (evaluate.py --workers)."""
    for err in (BotError("b", 1, "raised X"), BotActionError("b", 0, "returned None", ["1 call"], "stud")):
        copy = pickle.loads(pickle.dumps(err))
        assert type(copy) is type(err) and str(copy) == str(err) and copy.bot == "b"


def test_answers_are_quoted_short() -> None:
    huge = "x" * 100_000
    with pytest.raises(BotActionError) as info:
        checked_action(huge, [1, 3], ["call", "raise"], bot="b", seat=0, state="")
    assert len(str(info.value)) < 400
    assert len(quoted(list(range(10_000)))) < 200
    assert checked_action(np.int32(3), [1, 3], ["call", "raise"], bot="b", seat=0, state="") == 3


def test_a_peeking_bot_finds_the_state_in_process() -> None:
    """Why --isolate exists: in one process a bot reaches the engine through the
    interpreter (tests/evaluate/test_isolate.py shows it cannot when isolated)."""
    with pytest.raises(BotError, match="found the engine's state"):
        run_match("stud", ["call", f"{BOTS}:Peeks"], deals=1, seed=0)


@pytest.mark.parametrize("bot", ["ReturnsNone", "Exits"])
def test_evaluate_stops_with_status_one_naming_the_bot(bot: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        evaluate.main(["stud", f"{BOTS}:{bot}", "random", "-n", "3", "-q", "--no-files", "-w", "1"])
    assert info.value.code == 1
    assert f"evaluate.py: error: bot '{BOTS}:{bot}' (player_" in capsys.readouterr().err


def test_a_bot_that_exits_when_built_does_not_end_the_run_quietly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        evaluate.main(["stud", f"{BOTS}:ExitsOnLoad", "random", "-q", "--no-files"])
    assert info.value.code == 2
    assert "raised SystemExit(0)" in capsys.readouterr().err


def test_builtins_exit_as_a_bot_is_an_error_from_the_command_line() -> None:
    """Issue 14: ``python evaluate.py stud builtins:exit random`` exited 0, printing nothing."""
    run = subprocess.run(
        [sys.executable, "evaluate.py", "stud", "builtins:exit", "random", "-q", "--no-files"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "evaluate.py: error: building the bot of spec 'builtins:exit' raised SystemExit(None)" in run.stderr
