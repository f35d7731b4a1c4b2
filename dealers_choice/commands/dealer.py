"""``dealers-choice dealer``: bots in any language at one table, over the line protocol.

Seats bot programs (``'cmd:<command line>'``, ``tcp://host:port``, or a manifest of
them) and this project's bots together, in every mode of ``evaluate.py``: duplicate
deals, tournaments with ratings, reports and hand histories (the same files in
``--out``). The protocol is ``docs/protocol.md``. A bot program has
``--decision-timeout`` seconds per decision and ``--match-timeout`` seconds of
answering per match; one that crashes, hangs, disconnects, sends malformed JSON or an
action that is not legal now forfeits its match, with a message naming it and its
offending line: a tournament plays on, a single match stops (exit status 1).

``--log FILE`` logs every chunk of deals as it is played; after an interruption (Ctrl-C,
SIGTERM, a crash) the same command with ``--resume`` plays only the deals not in the
log and gives the same final result as an uninterrupted run (for bots that act only on
what they are shown and on each hand's seed).

Exit status: 0 done, 1 a bot forfeited a single match (or failed without forfeiting), 2
bad input, 130 Ctrl-C, 143 SIGTERM.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from envs.policy import BotActionError, BotError
from evaluation import head_to_head as evaluate
from evaluation.arena import SEATINGS
from evaluation.external import MATCH_TIMEOUT
from evaluation.isolate import DECISION_TIMEOUT
from evaluation.manifest import load_manifest
from evaluation.matchlog import MatchLog
from evaluation.report import StagedOutputs, format_table, write_json
from evaluation.runner import HISTORY_FORMATS

DESCRIPTION = "seat bot programs in any language (cmd:, tcp://, a manifest) with this project's bots"
EXAMPLES = """examples:
  cc -O2 -o skeleton examples/bots/skeleton.c
  dealers-choice dealer stud cmd:./skeleton pretrained:stud --deals 500
  dealers-choice dealer razz 'cmd:python3 examples/bots/skeleton.py' 'cmd:node examples/bots/skeleton.js' heuristic -t
  dealers-choice dealer cowpie --manifest bots.toml --tournament --log runs/cowpie.log
  dealers-choice dealer cowpie --manifest bots.toml --tournament --log runs/cowpie.log --resume"""


def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice dealer --help``)."""
    p = argparse.ArgumentParser(
        prog="dealers-choice dealer",
        description=(__doc__ or "").split("\n\n", 1)[1].replace("``", ""),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = p.add_argument
    add("variant", help="variant or env id (stud, razz, cowpie, cowboy, chowaha, dealers_choice...)")
    add("bots", nargs="*", help="bot specs: 'cmd:<command line>', tcp://host:port, or any evaluate.py spec")
    add("-m", "--manifest", action="append", default=[], metavar="FILE",
        help="a TOML or JSON file of bots (name, command, cwd, language; or address; or spec); repeatable")  # fmt: skip
    add("-n", "--deals", type=int, default=1000, help="deals (duplicate sets) to play (default 1000)")
    add("-p", "--players", dest="num_players", type=int, default=None, help="seats (default: as evaluate.py)")
    add("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="variant option, repeatable")
    add("--seed", type=int, default=0, help="seed of the deals and of each hand's bot seeds (default 0)")
    add("--no-duplicate", dest="duplicate", action="store_false", help="play each deal once")
    add("--seating", choices=SEATINGS, default="rotate", help="rotate or permute the lineup (default rotate)")
    add("-t", "--tournament", action="store_true", help="round robin: every pair, ratings and a matrix")
    add("-w", "--workers", type=int, default=1, help="processes (default 1: bot programs run beside each)")
    add("--bootstrap", type=int, default=1000, help="bootstrap resamples for rating intervals (default 1000)")
    add("--out", default=None, help="output directory (default runs/dealer/<variant>); replaced when the run completes")
    add("--no-files", action="store_true", help="print the table only; write no files")
    add("--no-plot", dest="plot", action="store_false", help="skip report.png")
    add("--histories", nargs="?", const="both", choices=HISTORY_FORMATS, default=None,
        help="write every hand (hands.txt, hands.jsonl); not with --log")  # fmt: skip
    add("-q", "--no-progress", dest="progress", action="store_false", help="no progress bar")
    add("--isolate", action="store_true", help="run this project's bots in their own processes too")
    add("--decision-timeout", type=float, default=DECISION_TIMEOUT, metavar="SECONDS",
        help=f"seconds per decision (default {DECISION_TIMEOUT:g})")  # fmt: skip
    add("--match-timeout", type=float, default=MATCH_TIMEOUT, metavar="SECONDS",
        help=f"seconds a bot program may spend answering in one match (default {MATCH_TIMEOUT:g})")  # fmt: skip
    add("--log", default=None, metavar="FILE", help="log every chunk of deals played, to resume from")
    add("--resume", action="store_true", help="continue the run in --log: play only the deals not logged")
    return p


def config_from_args(args: argparse.Namespace) -> evaluate.EvalConfig:
    """The evaluation the arguments describe (a ``ValueError`` says what is wrong)."""
    bots = list(args.bots)
    for manifest in args.manifest:
        bots += load_manifest(manifest)
    if args.resume and not args.log:
        raise ValueError("--resume needs --log FILE: the log of the run to continue")
    if args.log and args.histories:
        raise ValueError("--histories does not combine with --log: a resumed run could not write the hands before it")
    out = None if args.no_files else (args.out or f"runs/dealer/{args.variant}")
    return evaluate.eval_config(
        args, bots=bots, out=out, decision_timeout=args.decision_timeout, match_timeout=args.match_timeout
    )


def log_settings(config: evaluate.EvalConfig) -> dict[str, Any]:
    """What a resumed run must share with the logged one (time limits may change)."""
    keys = ("variant", "bots", "deals", "num_players", "options", "seed", "duplicate", "seating", "tournament")
    return {key: getattr(config, key) for key in keys}


def main(argv: list[str] | None = None) -> int:
    """Run the dealer; print the table (and any forfeits); return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        config = config_from_args(args)
        if not args.decision_timeout > 0 or not args.match_timeout > 0:
            raise ValueError("time limits must be seconds > 0")
        log = MatchLog(args.log, log_settings(config), resume=args.resume) if args.log else None
    except (ValueError, OSError) as err:
        return _fail(f"error: {err}", 2)
    stage = StagedOutputs(Path(config.out), owned=evaluate.OUTPUT_FILES) if config.out is not None else None
    try:
        with evaluate.sigterm_raises(), stage or nullcontext(), log or nullcontext():
            report = evaluate.evaluate(config, directory=None if stage is None else stage.directory, match_log=log)
            forfeited = "bots_summary" not in report
            if not forfeited:
                print(format_table(report))
            if stage is not None:
                if forfeited:
                    write_json(report, stage.directory / "report.json")
                else:
                    evaluate.write_files(report, config, stage.directory)
                written = stage.commit()
                print("wrote " + ", ".join(str(p) for p in sorted(written)))
    except (BotError, BotActionError) as err:
        return _fail(f"error: {err}", 1)
    except (ValueError, OSError) as err:
        return _fail(f"error: {err}", 2)
    except KeyboardInterrupt:
        return _fail(f"interrupted (Ctrl-C){_resume_note(args)}", 130)
    except evaluate.Terminated:  # SIGTERM, raised where the run stands: the log and outputs stay whole
        return _fail(f"terminated (SIGTERM){_resume_note(args)}", 143)
    for f in report.get("forfeits", []):
        print(f"forfeit: {f['forfeited_by']} lost its match against {', '.join(f['winners'])}: {f['reason']}")
    return 1 if forfeited else 0


def _resume_note(args: argparse.Namespace) -> str:
    return f"; resume with the same command and --resume (log: {args.log})" if args.log else ""


def _fail(message: str, status: int) -> int:
    print(f"dealers-choice dealer: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
