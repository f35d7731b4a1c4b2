"""play.py driven by scripted input: bad answers are re-asked, hands run to the end."""

from __future__ import annotations

import io
import itertools
import re

import pytest

import play
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
