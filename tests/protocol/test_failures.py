"""A bot program that fails forfeits its match, with a message naming it, its seat and
(for a bad line) the line, cut short: it crashes, hangs, disconnects, sends malformed
JSON, something other than an object, an unknown action name, an action that is not
legal now, a float, an endless line, or chatter on stdout. Nothing is remapped."""

from __future__ import annotations

import time

import pytest

import evaluation.head_to_head as evaluate
from envs.policy import BotError
from evaluation.arena import run_match
from evaluation.external import ExternalBot
from tests.protocol.conftest import BAD_BOT, python_bot

CASES = [
    ("crash", "crashed: its process ended with exit status 3"),
    ("hang", "did not answer within 0.5 s"),
    ("disconnect", "closed its output"),
    ("malformed", """sent malformed JSON: '{"action": 1'"""),
    ("not_object", "sent a JSON list, not an object: '[1]'"),
    ("unknown", """answered 'shove', an unknown action name: '{"action": "shove"}'; legal actions: """),
    ("illegal", """answered action 99, which is not legal now: '{"action": 99}'; legal actions: """),
    ("float", "answered an action that is a JSON float, not an index or a name"),
    ("long", 'sent a line over 65536 bytes: \'{"action": "xxxx'),
    ("chatty", "sent malformed JSON: 'thinking about it...'"),
]


@pytest.mark.parametrize(("mode", "expected"), CASES, ids=[c[0] for c in CASES])
def test_a_failing_bot_forfeits_its_match(mode: str, expected: str) -> None:
    bad = python_bot(BAD_BOT, mode, "3")  # three good decisions first
    started = time.monotonic()
    result = run_match("stud", ["call", bad], deals=20, seed=1, decision_timeout=0.5)
    assert time.monotonic() - started < 10
    forfeit = result.forfeit
    assert forfeit is not None and forfeit.bot == 1
    assert forfeit.reason.startswith(f"bot {bad!r} (player_{forfeit.seat}) ")
    assert expected in forfeit.reason
    assert len(forfeit.reason) < 1200  # the offending line is quoted cut short
    assert len(result.hands) < 40  # play stopped at the failure; the hands before it are kept


def test_an_answer_that_is_not_legal_now_is_refused_not_remapped() -> None:
    """``bring_in`` is a real action name, but only legal on third street for the
    bring-in seat: named anywhere else it forfeits."""
    bad = python_bot(BAD_BOT, "illegal_name", "0")
    result = run_match("stud", ["call", bad], deals=5, seed=2)
    assert result.forfeit is not None
    assert "which is not legal now" in result.forfeit.reason or 'answered without an "action"' in result.forfeit.reason


def test_a_bot_that_does_not_greet_forfeits() -> None:
    result = run_match("razz", ["call", python_bot(BAD_BOT, "no_ready")], deals=3)
    assert result.forfeit is not None
    assert """answered the greeting without {"type": "ready"}: '{"type": "hi"}'""" in result.forfeit.reason


def test_the_match_time_limit_is_a_forfeit() -> None:
    bot = python_bot(BAD_BOT, "hang", "0")
    result = run_match("stud", ["call", bot], deals=3, decision_timeout=5, match_timeout=0.3)
    assert result.forfeit is not None
    assert "ran out of its match time (0.3 s)" in result.forfeit.reason


def test_forfeit_false_raises_instead() -> None:
    with pytest.raises(BotError, match="crashed"):
        run_match("stud", ["call", python_bot(BAD_BOT, "crash")], deals=3, forfeit=False)


def test_a_program_that_cannot_start_is_a_clear_error_before_any_work(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as stop:
        evaluate.main(["stud", "cmd:./no-such-bot", "random", "--deals", "2", "--no-files", "-q"])
    assert stop.value.code == 2
    result = run_match("stud", ["call", "cmd:./no-such-bot"], deals=2)
    assert result.forfeit is not None and "could not be started" in result.forfeit.reason


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("cmd:", "has no command"),
        ("cmd:'unclosed", "cannot be split"),
        ("tcp://127.0.0.1", "expected tcp://host:port"),
        ("tcp://127.0.0.1:99999", "expected tcp://host:port"),
        ("cmd[colour=red]:./bot", "option 'colour=red' is not allowed"),
        ("tcp:127.0.0.1:5000", "write cmd:<command line> or tcp://host:port"),
        (
            "tcp://10.1.2.3:5000",
            "10.1.2.3 is not a loopback address; to play a bot on another machine, say so: "
            "tcp[remote=yes]://10.1.2.3:5000",
        ),
        ("tcp://bots.example.org:5000", "is not a loopback address"),
    ],
)
def test_bad_specs_are_refused_with_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        ExternalBot(spec)


def test_agents_load_says_a_program_is_seated_by_the_dealer() -> None:
    from agents.loading import load

    with pytest.raises(ValueError, match="is a bot program: the dealer seats it"):
        load("cmd:./skeleton")


def test_a_tournament_records_the_forfeit_and_plays_on(tmp_path, skeletons) -> None:  # type: ignore[no-untyped-def]
    bad = python_bot(BAD_BOT, "illegal", "2")
    report = evaluate.main(["razz", skeletons["c"], bad, "call", "--tournament", "--deals", "4", "--out",
                            str(tmp_path), "-q", "--no-plot", "--bootstrap", "20"])  # fmt: skip
    names = report["names"]
    assert [f["forfeited_by"] for f in report["forfeits"]] == [names[1], names[1]]
    assert [f["bots"] for f in report["forfeits"]] == [[names[0], names[1]], [names[1], names[2]]]
    assert all("which is not legal now" in f["reason"] for f in report["forfeits"])
    assert len(report["pairs"]) == 2  # the pair without the bad bot has its result
    assert (tmp_path / "report.json").is_file()


@pytest.mark.parametrize("variant", ["stud", "cowboy", "dealers_choice"])
def test_a_bot_that_asks_for_the_observation_gets_it(variant: str) -> None:
    """``"observation": true`` in ``ready``: every ``act`` carries the vector, of the
    length ``hello`` announced (the bot exits if not, which would forfeit)."""
    bot = python_bot(BAD_BOT, "observe")
    result = run_match(variant, [bot, "call"], deals=3, num_players=3, seed=2)
    assert result.forfeit is None, result.forfeit
    assert len(result.hands) == 18


def test_loopback_addresses_need_no_permission() -> None:
    for spec in ("tcp://127.0.0.1:5000", "tcp://localhost:5000", "tcp://[::1]:5000", "tcp[remote=yes]://10.1.2.3:5000"):
        assert ExternalBot(spec).parsed.port == 5000
