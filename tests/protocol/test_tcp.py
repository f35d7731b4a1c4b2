"""Bots that serve over TCP (loopback only): the Python and C skeletons in their serve
modes, a refused connection, and a server that drops the connection mid-match."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from evaluation.arena import run_match
from tests.protocol.conftest import BOTS


def _serve(argv: list[str]) -> Iterator[str]:
    """Start a serving bot on a free loopback port; yield its tcp:// spec; stop it."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().split()
        assert first[:1] == ["listening"], f"the bot did not say where it listens: {first}"
        yield f"tcp://{first[1]}"
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture
def python_server() -> Iterator[str]:
    yield from _serve([sys.executable, str(BOTS / "skeleton.py"), "--serve", "127.0.0.1:0"])


@pytest.fixture
def c_server(c_skeleton: Path) -> Iterator[str]:
    yield from _serve([str(c_skeleton), "--port", "0"])


@pytest.mark.parametrize("server", ["python_server", "c_server"])
def test_a_serving_bot_plays_over_tcp(server: str, request: pytest.FixtureRequest) -> None:
    spec = request.getfixturevalue(server)
    for variant in ("stud_hilo_declare", "cowboy"):
        result = run_match(variant, [spec, "call"], deals=8, num_players=3, seed=5)
        assert result.forfeit is None, result.forfeit
        assert len(result.hands) == 48
        assert all(abs(sum(h.rewards)) < 1e-9 for h in result.hands)


def test_tcp_and_pipes_give_the_same_results(python_server: str) -> None:
    pipes = run_match("razz", [f"cmd:{sys.executable} {BOTS / 'skeleton.py'}", "random"], deals=10, seed=9)
    tcp = run_match("razz", [python_server, "random"], deals=10, seed=9)
    assert [h.rewards for h in pipes.hands] == [h.rewards for h in tcp.hands]


def test_a_refused_connection_forfeits() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nobody listens there
    result = run_match("stud", ["call", f"tcp://127.0.0.1:{port}"], deals=2)
    assert result.forfeit is not None
    assert "could not be started" in result.forfeit.reason and "refused" in result.forfeit.reason.lower()


def test_a_dropped_connection_forfeits() -> None:
    """A server that greets, answers one decision and hangs up."""
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def serve() -> None:
        connection, _ = server.accept()
        with connection, connection.makefile("rb") as lines:
            lines.readline()  # hello
            connection.sendall(b'{"type": "ready"}\n')
            for line in lines:
                message = json.loads(line)
                if message["type"] == "act":
                    first = message["view"]["legal_actions"][0]
                    connection.sendall(json.dumps({"action": first}).encode() + b"\n")
                    break

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    result = run_match("stud", ["call", f"tcp://127.0.0.1:{port}"], deals=3, decision_timeout=2)
    thread.join(5)
    server.close()
    assert result.forfeit is not None
    assert "disconnected" in result.forfeit.reason
