#!/usr/bin/env python3
"""A Dealer's Choice bot in Python (standard library only), over the line protocol of
docs/protocol.md: one JSON object per line on stdin, one answer per line on stdout.

Its rule plays every variant legally: call (or stay) with a made hand (two cards of a
rank among its own cards and the community cards), else check, else fold; draw
nothing; any other decision (bring-in, declare, split, the dealer's choice of game)
takes the first legal action, which the dealer offers only when it is legal.

    dealers-choice dealer stud 'cmd:python3 examples/bots/skeleton.py' pretrained:stud
    python3 examples/bots/skeleton.py --serve 127.0.0.1:7000     # then tcp://127.0.0.1:7000
"""

from __future__ import annotations

import json
import socketserver
import sys
from typing import IO, Any

NAME = "python-skeleton"


def made_hand(view: dict[str, Any]) -> bool:
    """A pair or better among the cards the seat may use (cards are rank * 4 + suit)."""
    ranks = [card // 4 for card in view["own_cards"] + view["community"]]
    return len(ranks) != len(set(ranks))


def choose(view: dict[str, Any]) -> int:
    """The index of the action to take: always one of ``view["legal_actions"]``."""
    names, actions = view["legal_names"], view["legal_actions"]

    def take(name: str) -> int:
        return actions[names.index(name)]

    strong = made_hand(view)
    if "check_call" in names and (strong or view["to_call"] == 0):
        return take("check_call")
    if "stay" in names and strong:
        return take("stay")
    if "discard_none" in names:
        return take("discard_none")
    if "fold" in names:
        return take("fold")
    return actions[0]


def play(lines: IO[str], out: IO[str]) -> None:
    """One session: answer the greeting and every decision until the match ends."""

    def send(message: dict[str, Any]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    for line in lines:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if message["protocol"] != 1:
                print(f"{NAME}: protocol {message['protocol']} is not 1", file=sys.stderr)
                return
            send({"type": "ready", "name": NAME})
        elif kind == "act":
            send({"action": choose(message["view"])})
        elif kind in ("end_match", "error"):
            return
        # "hand" and "end_hand" need no answer


class Session(socketserver.StreamRequestHandler):
    """One dealer connection (one match) when serving over TCP."""

    def handle(self) -> None:
        lines = (raw.decode() for raw in self.rfile)
        out = _Writer(self.wfile)
        play(lines, out)  # type: ignore[arg-type]


class _Writer:
    def __init__(self, wfile: Any) -> None:
        self.wfile = wfile

    def write(self, text: str) -> None:
        self.wfile.write(text.encode())

    def flush(self) -> None:
        self.wfile.flush()


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "--serve":
        host, _, port = argv[1].rpartition(":")
        socketserver.ThreadingTCPServer.allow_reuse_address = True
        with socketserver.ThreadingTCPServer((host, int(port)), Session) as server:
            server.daemon_threads = True
            print(f"listening {host}:{server.server_address[1]}", flush=True)
            server.serve_forever()
        return 0
    if argv:
        print("usage: skeleton.py [--serve HOST:PORT]", file=sys.stderr)
        return 2
    play(sys.stdin, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
