"""``dealers-choice serve``: the table in the browser.

Starts a local web server (http://127.0.0.1:8765/ by default) with four pages:
Replay (step through hand histories: JSON records, evaluate.py's hands.jsonl, PHH),
Watch (bots play a match; a network bot's action probabilities at its decisions),
Play (a seat against any bots, buttons for exactly the legal actions) and Reports
(an evaluate.py output folder). It reads files only inside the --root folders
(default: the current folder) and writes nothing. See docs/web.md.

Examples::

    dealers-choice serve
    dealers-choice serve --root runs --root eval_out --port 9000
    dealers-choice serve --bot mybots.bot:MyBot
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from evaluation.web.server import DEFAULT_PORT, MAX_UPLOAD, make_server, serve_forever

DESCRIPTION = "a table in the browser: replay hands, watch matches, play against bots, read reports"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice serve --help``)."""
    paragraphs = (__doc__ or DESCRIPTION).split("\n\n")
    p = argparse.ArgumentParser(
        prog="dealers-choice serve",
        description=paragraphs[1] if len(paragraphs) > 1 else DESCRIPTION,
        epilog="\n\n".join(paragraphs[2:]).replace("::", ":"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free one)")
    p.add_argument(
        "--root",
        action="append",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="a folder the page may open files from (repeatable; default: the current folder)",
    )
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="SPEC",
        help="an extra bot spec the page may use, such as module:Class (code a request cannot name by itself)",
    )
    p.add_argument("--max-upload-mb", type=float, default=MAX_UPLOAD / 2**20, help="largest upload, MiB (default 8)")
    p.add_argument("-v", "--verbose", action="store_true", help="log every request")
    return p


def main(argv: list[str] | None = None) -> int:
    """Serve until Ctrl-C; 2 on a bad command line (a missing root, a busy port)."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    roots = args.root or [Path.cwd()]
    if args.host not in LOOPBACK:
        print(
            f"dealers-choice serve: warning: listening on {args.host}: anyone who can reach this address can "
            "open the files in the root folders, run bots and use this computer's CPU; there is no login",
            file=sys.stderr,
        )
    if not 0 < args.max_upload_mb <= 1024:
        print("dealers-choice serve: error: --max-upload-mb must be in (0, 1024]", file=sys.stderr)
        return 2
    try:
        server = make_server(
            roots, host=args.host, port=args.port, bots=args.bot, max_upload=int(args.max_upload_mb * 2**20)
        )
    except (ValueError, OSError) as err:  # a root that is no folder, a port in use
        print(f"dealers-choice serve: error: {err}", file=sys.stderr)
        return 2
    print("reading files under: " + ", ".join(str(r) for r in server.app.files.roots), file=sys.stderr)
    serve_forever(server)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
