"""The ``dealers-choice`` console command: its listing, dispatch, names and errors."""

from __future__ import annotations

import importlib

import pytest

from dealers_choice import cli


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in cli.COMMANDS:
        assert f"  {command.name} " in out


@pytest.mark.parametrize("command", cli.COMMANDS, ids=lambda c: c.name)
def test_every_command_resolves_and_has_help(command: cli.Command, capsys: pytest.CaptureFixture[str]) -> None:
    """Each subcommand names a real function; its --help uses the command's name."""
    assert callable(getattr(importlib.import_module(command.module), command.function))
    with pytest.raises(SystemExit) as exc:
        cli.main([command.name, "--help"])
    assert exc.value.code == 0
    assert f"dealers-choice {command.name}" in capsys.readouterr().out


def test_unknown_command_and_no_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["trian"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'trian'" in err and "did you mean train" in err
    assert cli.main([]) == 2


def test_a_command_returns_its_status_and_restores_argv(capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    before = sys.argv[0]
    assert cli.main(["deal", "--players", "2", "--seed", "3"]) == 0
    assert sys.argv[0] == before
    out = capsys.readouterr().out
    assert out.count("player_") == 2
    with pytest.raises(SystemExit) as exc:  # a bad argument: argparse's status 2, named after the command
        cli.main(["deal", "--players", "9"])
    assert exc.value.code == 2
    assert "dealers-choice deal: error: --players must be 1 to 7" in capsys.readouterr().err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("dealers-choice ")
