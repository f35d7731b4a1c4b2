"""play.py driven by scripted input: bad answers are re-asked, hands run to the end."""

from __future__ import annotations

import io
import itertools
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import evaluation.play as play
from agents.human import Option, match_answer


def _run(argv: list[str], lines: list[str]) -> tuple[list[float], str]:
    out = io.StringIO()
    results = play.main(argv, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return results, out.getvalue()


def _cycle(words: list[str], n: int = 400) -> list[str]:
    return list(itertools.islice(itertools.cycle(words), n))


def test_a_full_stud_hand_with_bad_input_on_the_way() -> None:
    bad = ["zzz", "0", "", "42", "declare_low"]
    results, out = _run(["stud", "--seed", "3", "--hands", "1"], bad + _cycle(["check_call", "bring_in"]))
    assert len(results) == 1
    assert "'zzz' is not a legal action here" in out
    assert "0 is not on the list" in out and "42 is not on the list" in out
    assert "no action given" in out
    assert "'declare_low' is not a legal action here" in out
    assert "*** HAND HISTORY (as you saw it) ***" in out and "*** SUMMARY ***" in out
    assert "Dealt to player_1: [?? ??]" in out  # the bot's down cards stay hidden
    assert re.search(r"\[[2-9TJQKA][♣♦♥♠]\] \[[2-9TJQKA][♣♦♥♠]\]", out)  # own down cards, suit symbols
    assert "1. fold" in out and "call 1" in out  # legal actions listed by name
    summary = out[out.rindex("*** SUMMARY ***") :]
    chips = int(re.search(r"player_0: ([+-]\d+)", summary).group(1))  # type: ignore[union-attr]
    assert results[0] == pytest.approx(chips / 4)  # 4 chips per big bet


def test_quit_and_end_of_input_stop_cleanly() -> None:
    results, out = _run(["razz", "--seed", "1", "--hands", "3"], ["h", "?", "q"])
    assert results == [] and "bye" in out
    assert out.count("1. ") >= 2  # listed, then listed again for "?"
    assert "*** THIRD STREET ***" in out  # "h" printed the hand so far
    results, out = _run(["razz", "--seed", "1"], [])
    assert results == [] and "bye" in out


def test_several_hands_and_the_another_hand_question() -> None:
    results, _ = _run(["stud_hilo", "--seed", "2", "--hands", "2", "--bots", "random"], _cycle(["1"]))
    assert len(results) == 2  # "1" is always legal: fold, check or bring-in
    results, out = _run(["stud_hilo", "--seed", "2", "--bots", "random"], ["fold", "1", "1", "1", "n"] + ["1"] * 40)
    assert "another hand? [Y/n]" in out and len(results) >= 1


class Responder(io.StringIO):
    """Input that reads the screen: names the first split or draw on the list by its
    cards, in letters (``Th 2s``); otherwise calls, or takes option 1."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__()
        self.screen = screen
        self.card_answers = 0

    def readline(self, size: int | None = -1) -> str:
        shown = self.screen.getvalue()
        table = shown[shown.rfind("--- ") :]  # the latest table and its options
        found = re.search(r"1\. (?:split: two-card hand|discard) ((?:[2-9TJQKA][♣♦♥♠] ?)+)", table)
        if found:
            self.card_answers += 1
            return " ".join(c[0] + "cdhs"["♣♦♥♠".index(c[1])] for c in found.group(1).split()) + "\n"
        return ("call" if re.search(r"\d\. call", table) else "1") + "\n"


def test_cowpie_split_chosen_by_its_cards() -> None:
    screen = io.StringIO()
    stdin = Responder(screen)
    results = play.main(["cowpie", "--seed", "2", "--hands", "1"], stdin=stdin, stdout=screen)
    out = screen.getvalue()
    assert len(results) == 1 and stdin.card_answers == 1
    offered = re.search(r"1\. split: two-card hand (\S+ \S+), five-card hand", out)
    revealed = re.search(r"player_0: splits .+ / (\S+ \S+)", out)  # five / two, at the showdown
    assert offered is not None and revealed is not None
    assert set(revealed.group(1).split()) == set(offered.group(1).split())


def test_chowaha_layout_is_drawn() -> None:
    results, out = _run(["chowaha", "--seed", "4", "--hands", "1", "--bots", "call", "call"], _cycle(["check", "call"]))
    assert len(results) == 1
    assert "community: top flop" in out and "river" in out


def test_the_table_is_filled_to_the_variant_minimum() -> None:
    _, out = _run(["cowpattie", "--seed", "1"], ["q"])
    assert "player_0 you, player_1 call, player_2 call#2" in out


def test_a_whole_cowboy_game() -> None:
    argv = ["cowboy", "--bots", "call", "random", "--seed", "5", "--hands", "1", "-o", "max_deals=5"]
    results, out = _run(argv, _cycle(["stay", "pat", "high"], 600))
    assert len(results) == 1 and "antes" in out
    assert "deal 1, stay" in out


def test_bad_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["stud", "--seat", "5"], "seat=5 is not allowed"),
        (["stud", "-o", "ante=x"], "ante='x' is not allowed"),
        (["stud", "--bots", "nobody"], "unknown bot spec"),
        (["stud", "--hands", "0"], "hands=0 is not allowed"),
        (["cowboy", "-p", "2"], "num_players=2 is not allowed"),
    ):
        with pytest.raises(SystemExit):
            play.main(argv, stdin=io.StringIO(""), stdout=io.StringIO())
        assert message in capsys.readouterr().err


OPTIONS = [
    Option(0, "fold", "fold", "fold"),
    Option(1, "check_call", "check_call", "call 2"),
    Option(3, "raise", "raise", "raise"),
    Option(29, "discard_0", "discard_0", "discard 3♣", frozenset({4})),
    Option(4, "declare_low", "declare_low", "declare low"),
    Option(5, "declare_high", "declare_high", "declare high"),
]


@pytest.mark.parametrize(
    ("answer", "action"),
    [("1", 0), ("2", 1), ("call", 1), ("CALL 2", 1), ("check_call", 1), ("check call", 1), ("raise", 3),
     ("3c", 29), ("discard 3♣", 29), ("low", 4), ("declare high", 5), ("  fold ", 0)],
)  # fmt: skip
def test_answers_that_name_an_action(answer: str, action: int) -> None:
    assert match_answer(answer, OPTIONS) == (action, "")


@pytest.mark.parametrize(
    ("answer", "problem"),
    [("7", "7 is not on the list"), ("declare", "could mean 2 actions"), ("4c", "no legal action here uses"),
     ("bet", "not a legal action"), ("", "no action given")],
)  # fmt: skip
def test_answers_that_do_not(answer: str, problem: str) -> None:
    action, message = match_answer(answer, OPTIONS)
    assert action is None and problem in message and "type a number 1-6" in message


@pytest.mark.parametrize(
    ("answer", "problem"),
    [("²", "not a number on the list"), ("①", "not a number on the list"), ("٣", "not a number on the list"),
     ("１", "not a number on the list"), ("9" * 5000, "is not on the list"), ("-1", "-1 is not on the list"),
     ("+0", "0 is not on the list"), ("0007", "7 is not on the list"), ("   ", "no action given")],
    ids=["superscript", "circled", "arabic-indic", "fullwidth", "5000-digits", "negative", "plus-zero",
         "leading-zeros", "whitespace"],
)  # fmt: skip
def test_odd_numbers_are_explained_not_crashed_on(answer: str, problem: str) -> None:
    action, message = match_answer(answer, OPTIONS)
    assert action is None and problem in message and "type a number 1-6" in message
    assert len(message) < 300  # a huge answer is quoted shortened


def test_leading_zeros_and_a_plus_sign_still_pick_the_number() -> None:
    assert match_answer("02", OPTIONS) == (1, "")
    assert match_answer("+3", OPTIONS) == (3, "")


def test_unicode_digits_and_huge_numbers_are_asked_again_in_a_game() -> None:
    bad = ["²", "①", "٣", "9" * 5000, "-2", " "]
    results, out = _run(["stud", "--seed", "3", "--hands", "1"], bad + _cycle(["check_call", "bring_in"]))
    assert len(results) == 1
    assert out.count("is not a number on the list") == 3
    assert "-2 is not on the list" in out and "(5000 characters)" in out


def test_another_hand_accepts_yes_and_no_words_and_asks_again_otherwise() -> None:
    # "1" is always legal in stud (fold, check or bring-in); unrecognised words before the
    # "no" keep asking the question instead of starting a hand
    answers = ["1"] * 30
    argv = ["stud", "--seed", "2"]
    results, out = _run(argv, ["fold", "maybe", "2", "YES", *answers])
    assert "'maybe' is not an answer here; type y or n (empty: y)" in out
    assert "'2' is not an answer here" in out and len(results) >= 2
    for no in ("n", "No", "NO", "q"):
        results, out = _run(argv, ["fold", no, *answers])
        assert len(results) == 1 and out.rstrip().endswith(f"bye: {_session(out)}")
    results, out = _run(argv, ["fold", "", "fold", "n"])  # empty: another hand
    assert len(results) == 2 and out.rstrip().endswith(f"bye: {_session(out)}") and "over 2 hand(s)" in out


class Interrupting(io.StringIO):
    """Input that answers from a script, then behaves like Ctrl-C at the prompt."""

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_prints_the_summary_and_exits_130() -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_info:
        play.main(["stud", "--seed", "2"], stdin=Interrupting("fold\ny\n"), stdout=out)
    assert exit_info.value.code == 130
    text = out.getvalue()
    assert "over 1 hand(s)" in text and "another hand? [Y/n] y" in text  # then the second hand was cut short
    assert text.rstrip().endswith(f"interrupted: {_session(text)}")  # which does not count


def test_ctrl_c_in_a_bot_turn_also_prints_the_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupt may land while a bot thinks, not only at the prompt."""

    def interrupted(*args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("agents.base.RandomAgent.act", interrupted)
    out = io.StringIO()
    never_folds = io.StringIO("check_call\nbring_in\n" * 50)
    with pytest.raises(SystemExit) as exit_info:
        play.main(["razz", "--seed", "1", "--bots", "random", "--hands", "2"], stdin=never_folds, stdout=out)
    assert exit_info.value.code == 130
    assert out.getvalue().rstrip().endswith("interrupted: no hand finished")


def test_end_of_input_prints_the_summary_and_returns() -> None:
    results, out = _run(["stud", "--seed", "2"], ["fold"])
    assert len(results) == 1 and out.rstrip().endswith(f"bye: {_session(out)}")


def _session(out: str) -> str:
    """The session total printed after the last finished hand."""
    totals = re.findall(r"session: ([+-][\d.]+ big bets over \d+ hand\(s\))", out)
    assert totals, out[-500:]
    return str(totals[-1])


def _read_until(proc: subprocess.Popen[bytes], text: bytes, timeout: float = 60) -> bytes:
    """What the process printed up to and including ``text`` (fails after ``timeout``)."""
    assert proc.stdout is not None
    seen = b""
    deadline = time.monotonic() + timeout
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"no {text!r} in {seen[-500:]!r}"
        ready, _, _ = select.select([proc.stdout], [], [], left)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            assert chunk, f"output ended before {text!r}: {seen[-500:]!r}"
            seen += chunk
    return seen


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_play_py_interrupted_by_sigint_exits_130_with_the_summary() -> None:
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen(
        [sys.executable, "play.py", "stud", "--seed", "2"],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None
    try:
        _read_until(proc, b"your action")
        proc.stdin.write(b"fold\n")
        proc.stdin.flush()
        seen = _read_until(proc, b"another hand? [Y/n] ")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err.decode()
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err
    assert out.decode().rstrip().endswith(f"interrupted: {_session(seen.decode())}")
