"""Bots in their own processes: for head-to-head evaluation of bots people submit.

Bots in the arena's process could reach the engine (and every hidden card) through
the interpreter. :class:`IsolatedBot` starts a Python process (:func:`serve`) for one
bot spec: the bot is loaded in that process (this one never imports it) and is handed,
for every decision, only its observation and its view as plain data
(:func:`envs.view.view_to_data`). It answers with an action.

Rules of the protocol, enforced here:

* a decision has ``timeout`` seconds (``evaluate.py --decision-timeout``); a bot that
  takes longer is stopped (its process killed);
* the process answers in JSON: this side never unpickles anything a bot sends;
* a bot that raises (``SystemExit`` included), answers something other than an int,
  crashes or breaks the protocol fails: the proxy raises
  :class:`~envs.policy.BotFailure` (or returns a
  :class:`~envs.policy.ForeignAnswer` for a non-int, which the arena rejects like
  the value itself) and stops the process. The arena turns this into a
  :class:`~envs.policy.BotError` / ``BotActionError`` naming the bot, and with
  isolation the bot forfeits the match.

``reset()`` and ``seed()`` are queued and run just before the next decision, in order
(one round trip per decision). Results equal those of the same bots in-process.

This is isolation of information, not a security sandbox: the bot's process runs as
the same user and can read files. Run code you do not trust in a container as well.
POSIX only (Linux, macOS): the socket is handed to the bot's process by descriptor.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import weakref
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from envs.engine.events import Event
from envs.policy import BotFailure, ForeignAnswer, failure_text, quoted
from envs.view import PublicView, view_from_data, view_to_data

DECISION_TIMEOUT = 5.0  # seconds per decision (evaluate.py --decision-timeout)
START_TIMEOUT = 60.0  # seconds to start the process and load the bot (a checkpoint may take a while)
MAX_REPLY = 1 << 16  # bytes: a longer reply is a broken protocol, not an answer
QUIT_GRACE = 1.0  # seconds a closing process gets before it is killed


class IsolatedBot:
    """A bot running in its own process; plugs into the arena like any bot.

    Args:
        spec: an ``agents.load`` spec, loaded in the new process.
        seed: passed to ``agents.load`` there.
        timeout: seconds per decision.
        start_timeout: seconds to start and load.

    Raises ``ValueError`` if the bot cannot be loaded (naming the spec and why).
    """

    def __init__(
        self,
        spec: str,
        *,
        seed: int | None = None,
        timeout: float = DECISION_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        if not (isinstance(timeout, (int, float)) and timeout > 0):
            raise ValueError(f"decision timeout={quoted(timeout)} is not allowed: expected seconds > 0")
        self.spec = spec
        self.name = spec
        self.timeout = float(timeout)
        self._hooks: list[list[Any]] = []
        self._sent: dict[int, tuple[int, Event, Event]] = {}  # per seat: events the process has, first, last
        self._proc, self._conn = _start()
        self._finalizer = weakref.finalize(self, _stop, self._proc, self._conn)
        try:
            self._send({"op": "load", "spec": spec, "seed": seed, "path": list(sys.path), "cwd": os.getcwd()})
            reply = self._receive(start_timeout)
        except BotFailure as err:
            self.close()
            raise ValueError(f"bot {spec!r} could not be started in its own process: it {err.what}") from None
        if "error" in reply:
            self.close()
            raise ValueError(f"bot {spec!r} could not be loaded in its own process: {reply['error']}")

    # ------------------------------------------------------------ the bot API
    def act(self, observation: dict[str, np.ndarray], view: PublicView) -> int | ForeignAnswer:
        """The bot's answer: an int, or a :class:`ForeignAnswer` describing a non-int."""
        events = view.events
        known, first, last = self._sent.get(view.seat, (0, None, None))
        if not (0 < known <= len(events) and events[0] is first and events[known - 1] is last):
            known = 0  # a new hand: send every event
        message = {
            "op": "act",
            "hooks": self._hooks,
            "observation": {key: np.asarray(value) for key, value in observation.items()},
            "view": view_to_data(view, skip_events=known),
        }
        self._hooks = []
        self._send(message)
        if events:
            self._sent[view.seat] = (len(events), events[0], events[-1])
        return self._answer(self._receive(self.timeout))

    def reset(self) -> None:
        """Queued: the bot's ``reset()`` runs before its next decision (a new hand)."""
        self._hooks.append(["reset"])
        self._sent.clear()

    def seed(self, seed: int | None) -> None:
        """Queued: the bot's ``seed(seed)`` runs before its next decision."""
        self._hooks.append(["seed", seed])

    @property
    def alive(self) -> bool:
        """Whether the process still runs (a failure stops it)."""
        return self._finalizer.alive and self._proc.poll() is None

    def close(self) -> None:
        """Stop the process (politely, then by force). Safe to call twice."""
        self._finalizer()

    def __enter__(self) -> IsolatedBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"IsolatedBot({self.spec!r})"

    # ------------------------------------------------------------- the wire
    def _send(self, message: dict[str, Any]) -> None:
        try:
            self._conn.send(message)  # pickled: this side is trusted; the other side never pickles back
        except (OSError, ValueError):
            raise self._failure(self._ended()) from None

    def _receive(self, timeout: float) -> dict[str, Any]:
        try:
            if not self._conn.poll(timeout):
                raise self._failure(f"did not answer within {timeout:g} s (its process was stopped)", kill=True)
            data = self._conn.recv_bytes(MAX_REPLY)
        except (EOFError, OSError):
            raise self._failure(self._ended()) from None
        try:
            reply = json.loads(data)
        except ValueError:
            reply = None
        if not isinstance(reply, dict):
            raise self._failure(f"broke the protocol: it sent {quoted(data)}, not a JSON object")
        return reply

    def _answer(self, reply: dict[str, Any]) -> int | ForeignAnswer:
        action = reply.get("action")
        if type(action) is int:
            return action
        if "other" in reply and isinstance(reply["other"], str) and isinstance(reply.get("type"), str):
            return ForeignAnswer(reply["other"][:200], reply["type"][:60])
        if isinstance(reply.get("error"), str):
            raise self._failure(reply["error"][:500])
        raise self._failure(f"broke the protocol: it sent {quoted(reply)}")

    def _ended(self) -> str:
        try:
            code = self._proc.wait(QUIT_GRACE)
        except subprocess.TimeoutExpired:
            return "broke the protocol: it closed its connection"
        if code < 0:
            return f"crashed: its process was killed by signal {-code} ({signal.Signals(-code).name})"
        return f"crashed: its process ended with exit status {code}"

    def _failure(self, what: str, kill: bool = False) -> BotFailure:
        """Stop the process (``kill``: at once, it is not listening) and describe the
        failure (the caller raises it)."""
        if kill and self._proc.poll() is None:
            self._proc.kill()
        self.close()
        return BotFailure(what)


_CHILD = "import sys; from evaluation.isolate import serve; serve(int(sys.argv[1]))"


def _start() -> tuple[subprocess.Popen[bytes], Connection]:
    """A fresh Python running :func:`serve`, joined to us by a socket pair. Its stdout
    goes to our stderr, so a chatty bot cannot garble a report printed on stdout."""
    ours, theirs = socket.socketpair()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=2,
            env=env,
        )
    finally:
        theirs.close()
    return proc, Connection(ours.detach())


def _stop(proc: subprocess.Popen[bytes], conn: Connection) -> None:
    with contextlib.suppress(OSError, ValueError):  # it may be gone already
        conn.send({"op": "quit"})
    conn.close()
    try:
        proc.wait(QUIT_GRACE)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


# ----------------------------------------------------- the bot's process
def serve(fd: int) -> None:
    """The bot's side: load it, then answer decisions until told to quit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the arena, which stops us
    conn = Connection(fd)
    setup = conn.recv()
    sys.path[:0] = [p for p in setup["path"] if p not in sys.path]
    os.chdir(setup["cwd"])
    try:
        from agents.loading import load

        bot = load(setup["spec"], seed=setup["seed"])
    except ValueError as err:  # load's own message says what is wrong with the spec
        _reply(conn, {"error": str(err)[:1000]})
        return
    except (Exception, SystemExit) as err:
        _reply(conn, {"error": failure_text(err)})
        return
    _reply(conn, {"ready": str(getattr(bot, "name", type(bot).__name__))})
    events: dict[int, tuple[Event, ...]] = {}  # per seat: the events already received
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message["op"] != "act":
            return
        try:
            for hook, *args in message["hooks"]:
                if hasattr(bot, hook):
                    getattr(bot, hook)(*args)
            seat = message["view"]["seat"]
            view = view_from_data(message["view"], events.get(seat, ()))
            events[seat] = view.events
            answer = bot.act(message["observation"], view)
        except (Exception, SystemExit) as err:
            _reply(conn, {"error": failure_text(err)})
            return
        _reply(conn, _encode(answer))


def _encode(answer: Any) -> dict[str, Any]:
    """An int as it is; anything else described (its repr, cut short, and type)."""
    if isinstance(answer, (int, np.integer)) and not isinstance(answer, (bool, np.bool_)):
        value = int(answer)
        if -(2**31) <= value < 2**31:
            return {"action": value}
    return {"other": quoted(answer), "type": type(answer).__name__}


def _reply(conn: Connection, reply: dict[str, Any]) -> None:
    conn.send_bytes(json.dumps(reply).encode())
