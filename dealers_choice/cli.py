"""``dealers-choice``: one console command, a subcommand for everything a user runs.

Each subcommand is a library function that parses its own arguments (``--help`` on
every one), named here with the module that holds it. Modules are imported only when
their subcommand runs, so ``dealers-choice --help`` answers at once and a subcommand
that needs an optional extra (Ray, OpenSpiel) costs nothing to the others.

The checkout's scripts (``python train.py``, ``python evaluate.py`` ...) call the same
functions, so a script and its subcommand take the same arguments and exit the same way.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.cli import COMMAND


@dataclass(frozen=True, kw_only=True)
class Command:
    """A subcommand: the function ``module:function(argv)`` and a line for ``--help``."""

    name: str
    module: str
    function: str
    summary: str

    def load(self) -> Callable[[list[str]], Any]:
        """The function behind the subcommand (imported now, not before)."""
        return getattr(importlib.import_module(self.module), self.function)


COMMANDS: tuple[Command, ...] = (
    Command(name="train", module="training.run", function="cli", summary="self-play PPO training (train.py)"),
    Command(
        name="evaluate",
        module="evaluation.head_to_head",
        function="main",
        summary="head-to-head matches, duplicate deals, tournaments, ratings (evaluate.py)",
    ),
    Command(
        name="dealer",
        module="dealers_choice.commands.dealer",
        function="main",
        summary="bots in any language (cmd:, tcp://, manifests) over the line protocol (docs/protocol.md)",
    ),
    Command(
        name="serve",
        module="dealers_choice.commands.serve",
        function="main",
        summary="the table in the browser: replay, watch, play and reports (docs/web.md)",
    ),
    Command(name="play", module="evaluation.play", function="main", summary="play against bots in the terminal"),
    Command(name="solve", module="training.solve", function="main", summary="CFR on toy stud: an exact equilibrium"),
    Command(
        name="sweep",
        module="training.sweep",
        function="main",
        summary="hyperparameter sweep on toy stud scored by exact NashConv (last iterate and average)",
    ),
    Command(
        name="exploitability",
        module="training.exploitability",
        function="main",
        summary="exact NashConv on toy stud; --approx: a learned best response for any variant",
    ),
    Command(
        name="approx-curve",
        module="training.approx_curve",
        function="main",
        summary="calibrate --approx: a learned best response against budget, beside the exact one on toy stud",
    ),
    Command(
        name="lbr",
        module="training.lbr",
        function="main",
        summary="local best response: exact on toy stud; on heads-up stud, razz, hi-lo, played on duplicate deals",
    ),
    Command(
        name="distil",
        module="training.distil",
        function="main",
        summary="distil a CFR equilibrium of toy stud into the policy network; its exact NashConv",
    ),
    Command(
        name="verdict",
        module="training.verdict",
        function="main",
        summary="a run's final verdict on fresh duplicate deals",
    ),
    Command(name="ship", module="training.ship", function="main", summary="ship a run as pretrained:<variant>"),
    Command(
        name="generalist",
        module="evaluation.generalist",
        function="main",
        summary="the dealer's choice agent game by game against heuristic and specialists",
    ),
    Command(
        name="train-table",
        module="training.table",
        function="main",
        summary="finished runs as a results table (and their curves)",
    ),
    Command(name="scalars", module="training.scalars", function="main", summary="a run's TensorBoard scalars"),
    Command(
        name="toy-curves",
        module="training.toy_curves",
        function="main",
        summary="plot exact NashConv curves of toy-stud runs beside CFR",
    ),
    Command(name="deal", module="envs.deal", function="main", summary="deal and describe a few seven-card hands"),
)
BY_NAME = {c.name: c for c in COMMANDS}


def usage() -> str:
    """The top-level ``--help``: every subcommand with its line."""
    width = max(len(c.name) for c in COMMANDS)
    rows = "\n".join(f"  {c.name:<{width}}  {c.summary}" for c in COMMANDS)
    return (
        f"usage: {COMMAND} <command> [arguments]\n\n"
        "Environments, agents, training and evaluation for poker variants.\n\n"
        f"commands:\n{rows}\n\n"
        f"'{COMMAND} <command> --help' describes a command and its arguments; "
        f"'{COMMAND} --version' prints the version."
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run a subcommand; returns its exit status (0 for a function that returns data)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if args else 2
    if args[0] == "--version":
        from dealers_choice import __version__

        print(f"{COMMAND} {__version__}")
        return 0
    command = BY_NAME.get(args[0])
    if command is None:
        close = difflib.get_close_matches(args[0], list(BY_NAME), n=2)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        print(f"{COMMAND}: unknown command {args[0][:80]!r}{hint}\n\n{usage()}", file=sys.stderr)
        return 2
    return _run(command, args[1:])


def _run(command: Command, argv: list[str]) -> int:
    """Call the command with ``sys.argv[0]`` set to ``dealers-choice <name>``, which its
    parser and messages use as their name (``evaluation.cli.prog_name``)."""
    saved = sys.argv[0] if sys.argv else ""
    sys.argv[0:1] = [f"{COMMAND} {command.name}"]
    try:
        result = command.load()(argv)
    finally:
        sys.argv[0:1] = [saved]
    return result if isinstance(result, int) and not isinstance(result, bool) else 0
