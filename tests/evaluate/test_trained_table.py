"""A network is seated at the table it was trained for when a command line names no
options, and a conflicting ``--option`` is refused with the flags that fix it (issue 26:
``evaluate.py cowboy pretrained:cowboy heuristic heuristic`` must work as typed)."""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import evaluation.head_to_head as evaluate
import evaluation.play as play
from agents.checkpoint import save_checkpoint
from agents.loading import trained_layout
from agents.nets import PolicyNet
from agents.neural import Layout
from dealers_choice.commands import dealer
from evaluation.cli import parse_options
from evaluation.seating import option_flags, trained_table

ROOT = Path(__file__).resolve().parents[2]
COWBOY_TABLE = {"match_cap": 8, "max_deals": 20}  # what the shipped Cowboy-family agents were trained at
COWBOY_FLAGS = "--option match_cap=8 --option max_deals=20"
FIRST_COMMAND = ["cowboy", "pretrained:cowboy", "heuristic", "heuristic"]


def stud_net(tmp_path: Path, name: str, options: dict) -> str:
    """A small stud checkpoint trained (in name) at ``options``."""
    layout = Layout.build("stud", 2, options)
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [8], card_groups=layout.card_groups())
    return str(save_checkpoint(tmp_path / name, net=net, layout=layout, step={}, config={}))


def test_the_first_command_seats_the_cowboy_agent_at_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    report = evaluate.main([*FIRST_COMMAND, "--deals", "1", "-q", "--no-files", "-w", "1"])
    out = capsys.readouterr().out
    assert report["options"] == COWBOY_TABLE and report["hands"] == 3
    assert f"seating pretrained:cowboy at the table it was trained for: {COWBOY_FLAGS}" in out.splitlines()
    assert "match_cap=8, max_deals=20" in out  # the table's title line names the options used


def test_the_first_command_as_a_script() -> None:
    done = subprocess.run(
        [sys.executable, "evaluate.py", *FIRST_COMMAND, "--deals", "1", "-q", "--no-files", "-w", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert COWBOY_FLAGS in done.stdout and "LayoutError" not in done.stderr


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["-o", "match_cap=8"], "max_deals=100 (trained: 20)"), (["-o", "max_deals=5"], "match_cap=none (trained: 8)")],
    ids=["one-option-missing", "other-option"],
)
def test_conflicting_options_name_the_flags(flags: list[str], named: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        evaluate.main([*FIRST_COMMAND, *flags, "--deals", "1", "-q", "--no-files"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert f"run with {COWBOY_FLAGS}" in err and named in err
    assert "strict_options" not in err  # an API argument a command line cannot pass


def test_the_trained_options_named_exactly_print_no_note(capsys: pytest.CaptureFixture[str]) -> None:
    flags = shlex.split(COWBOY_FLAGS)
    report = evaluate.main([*FIRST_COMMAND, *flags, "--deals", "1", "-q", "--no-files", "-w", "1"])
    assert report["options"] == COWBOY_TABLE and "trained for" not in capsys.readouterr().out


def test_a_wrong_player_count_names_the_players_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        evaluate.main([*FIRST_COMMAND, "--players", "4", "--deals", "1", "-q", "--no-files"])
    err = capsys.readouterr().err
    assert f"trained for 3 players, not 4: run with --players 3 {COWBOY_FLAGS}" in err


def test_the_dealer_seats_it_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert dealer.main([*FIRST_COMMAND, "--deals", "1", "-q", "--no-files"]) == 0
    assert COWBOY_FLAGS in capsys.readouterr().out


def test_play_seats_it_and_says_so() -> None:
    out = io.StringIO()
    results = play.main(["cowboy", "--bots", "pretrained:cowboy", "heuristic", "--seed", "1"], io.StringIO("q\n"), out)
    text = out.getvalue()
    assert results == [] and text.splitlines()[0].endswith(f"trained for: {COWBOY_FLAGS}")
    assert "match_cap=8" in text and "max_deals=20" in text  # the table's options line


def test_play_refuses_conflicting_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        play.main(["cowboy", "--bots", "pretrained:cowboy", "heuristic", "-o", "match_cap=4"], io.StringIO(""))
    err = capsys.readouterr().err
    assert "match_cap=4 (trained: 8)" in err and COWBOY_FLAGS in err and "strict_options" not in err


def test_networks_of_two_tables_cannot_share_one(tmp_path: Path) -> None:
    default = stud_net(tmp_path, "default.pt", {})
    capped = stud_net(tmp_path, "capped.pt", {"raise_cap": 3})
    assert trained_table("stud", 2, [default, "heuristic"], {}) == ({}, None)
    options, note = trained_table("stud", 2, [capped, "random"], {})
    assert options == {"raise_cap": 3} and note is not None and "--option raise_cap=3" in note
    with pytest.raises(ValueError, match=r"trained at different tables.*raise_cap=3"):
        trained_table("stud", 2, [default, capped], {})
    with pytest.raises(ValueError, match=r"raise_cap=3 \(trained: 4\)\): run without --option$"):
        trained_table("stud", 2, [default], {"raise_cap": 3})


def test_other_bots_and_other_variants_are_left_alone(tmp_path: Path) -> None:
    assert trained_layout("heuristic") is None and trained_layout("random") is None
    assert trained_layout("pretrained:cowboy").env_kwargs == COWBOY_TABLE  # type: ignore[union-attr]
    capped = stud_net(tmp_path, "capped.pt", {"raise_cap": 3})
    assert trained_table("razz", 2, [capped, "call"], {}) == ({}, None)  # refused later, with its own message


@pytest.mark.parametrize(
    "options",
    [COWBOY_TABLE, {"bet_sizes": (0.5, 1), "betting": "no_limit"}, {"match_cap": None, "dummy": False},
     {"stakes": {"small_bet": 4}, "ante": 1}],
    ids=["ints", "tuple-and-text", "none-and-bool", "nested"],
)  # fmt: skip
def test_option_flags_read_back_as_the_same_options(options: dict) -> None:
    words = shlex.split(option_flags(options))
    assert words[::2] == ["--option"] * len(words[::2])
    assert parse_options(words[1::2]) == options


def test_exploitability_names_the_toy_options_a_network_was_trained_on(capsys: pytest.CaptureFixture[str]) -> None:
    from training import exploitability

    with pytest.raises(SystemExit) as info:
        exploitability.main(["toy_stud", "pretrained:toy_stud", "--option", "ranks=QKA"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "run with no --option" in err and "strict_options" not in err
