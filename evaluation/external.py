"""Bots that are programs: seated over the line protocol (``docs/protocol.md``).

A bot spec names one:

* ``cmd:<command line>``: a child process, split like a shell would split it
  (:func:`shlex.split`) but run without a shell, in the dealer's working folder,
  speaking over its stdin and stdout (its stderr is the dealer's);
* ``tcp://host:port``: a bot that serves; the dealer connects, one connection per
  match (session); loopback only unless the spec says ``remote=yes``;
* either with options in brackets: ``cmd[cwd=examples/bots/c,name=cbot]:./skeleton``,
  ``tcp[name=remote]://127.0.0.1:7000``. Options: ``name`` (how reports name it),
  ``cwd`` (a ``cmd:`` bot's working folder) and ``language`` (informational, from a
  manifest), ``remote=yes`` (a ``tcp://`` bot on another machine). Values may not
  hold ``,`` or ``]``.

:class:`ExternalBot` plugs into the arena like any bot (``act``, ``seed``, ``reset``)
and has the arena's hand hooks (``hand_starts``, ``hand_ends``) to send ``hand`` and
``end_hand``. The session starts at the first hand (the greeting needs the table). A
bot that crashes, disconnects, hangs past the decision or match time limit, sends
malformed JSON or an action that is not legal now raises
:class:`~envs.policy.BotFailure` (the arena names the bot and its seat and the bot
forfeits its match); the dealer sends it an ``error`` line and stops it. Nothing a bot
sends is evaluated or unpickled, and no answer is remapped.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import select
import shlex
import signal
import socket
import subprocess
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

import evaluation.protocol as protocol
from envs.policy import BotFailure
from envs.view import PublicView
from evaluation.isolate import DECISION_TIMEOUT

MATCH_TIMEOUT = 1800.0  # seconds a bot may spend answering in one match (session)
START_TIMEOUT = 30.0  # seconds to start (or connect) and answer the greeting
MAX_LINE = 1 << 16  # bytes: a longer line from a bot is a broken protocol, not an answer
QUIT_GRACE = 1.0  # seconds a bot gets to exit after end_match
ERROR_GRACE = 0.2  # seconds spent telling a failing bot why, before stopping it
READ_SIZE = 1 << 16
SCHEMES = ("cmd", "tcp")
OPTION_KEYS = {"cmd": ("name", "cwd", "language"), "tcp": ("name", "language", "remote")}
_SPEC = re.compile(r"(cmd|tcp)(?:\[([^\]]*)\])?(://|:)(.*)", re.DOTALL)


@dataclass(frozen=True)
class ExternalSpec:
    """A ``cmd:`` or ``tcp://`` spec, parsed (see the module docstring)."""

    spec: str
    scheme: str  # "cmd" or "tcp"
    argv: tuple[str, ...] = ()  # cmd: the program and its arguments
    cwd: str | None = None  # cmd: the working folder (None: the dealer's)
    host: str = ""  # tcp
    port: int = 0  # tcp
    name: str | None = None
    language: str | None = None


def is_external(spec: Any) -> bool:
    """Whether ``spec`` names a bot program (``cmd:``, ``tcp://``, with options or not)."""
    return isinstance(spec, str) and _SPEC.fullmatch(spec) is not None


def parse_spec(spec: str) -> ExternalSpec:
    """The parts of an external bot spec; a ``ValueError`` says what is wrong."""
    match = _SPEC.fullmatch(spec)
    if match is None:
        raise ValueError(f"{spec[:100]!r} is not an external bot spec: expected cmd:<command line> or tcp://host:port")
    scheme, options_text, separator, rest = match.groups()
    if (scheme == "tcp") != (separator == "://"):
        raise ValueError(f"bot spec {spec[:100]!r}: write cmd:<command line> or tcp://host:port")
    options: dict[str, str] = {}
    for item in (options_text or "").split(","):
        if not item.strip():
            continue
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in OPTION_KEYS[scheme] or key in options:
            allowed = ", ".join(OPTION_KEYS[scheme])
            what = f"option {item.strip()!r} is not allowed (key=value, keys: {allowed})"
            raise ValueError(f"bot spec {spec[:100]!r}: {what}")
        options[key] = value.strip()
    if scheme == "cmd":
        try:
            argv = tuple(shlex.split(rest))
        except ValueError as err:
            raise ValueError(f"bot spec {spec[:100]!r}: its command line cannot be split ({err})") from None
        if not argv:
            raise ValueError(f"bot spec {spec[:100]!r} has no command: write cmd:<program> [arguments]")
        return ExternalSpec(spec, "cmd", argv=argv, cwd=options.get("cwd"), name=options.get("name"),
                            language=options.get("language"))  # fmt: skip
    host, _, port_text = rest.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise ValueError(f"bot spec {spec[:100]!r}: expected tcp://host:port with a port 1..65535")
    if not _loopback(host) and options.get("remote") != "yes":
        raise ValueError(
            f"bot spec {spec[:100]!r}: {host} is not a loopback address; to play a bot on another machine, "
            f"say so: tcp[remote=yes]://{rest}"
        )
    return ExternalSpec(spec, "tcp", host=host, port=int(port_text), name=options.get("name"),
                        language=options.get("language"))  # fmt: skip


def _loopback(host: str) -> bool:
    """Whether ``host`` is this machine (``localhost``, 127.0.0.0/8, ``::1``), without
    asking any name server."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: another machine, as far as the spec says
        return False


def display_name(spec: str) -> str | None:
    """The ``name`` option of an external spec, if it has one (for report tables)."""
    return parse_spec(spec).name if is_external(spec) else None


class ExternalBot:
    """A bot program (``cmd:`` or ``tcp://``) seated over the line protocol.

    Args:
        spec: the bot spec.
        seed: unused by the dealer (the arena reseeds every hand; the ``hand`` message
            carries that seed), accepted like every bot's.
        timeout: seconds per decision.
        match_timeout: seconds of answering per session (match).
        start_timeout: seconds to start and answer the greeting.

    Raises ``ValueError`` for a malformed spec; starting happens at the first hand
    (:meth:`start`), where a failure is the bot's (:class:`~envs.policy.BotFailure`).
    """

    def __init__(
        self,
        spec: str,
        *,
        seed: int | None = None,
        timeout: float = DECISION_TIMEOUT,
        match_timeout: float = MATCH_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
    ) -> None:
        for label, value in (("decision", timeout), ("match", match_timeout), ("start", start_timeout)):
            if not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"{label} timeout={value!r} is not allowed: expected seconds > 0")
        self.parsed = parse_spec(spec)
        self.spec = self.name = spec
        self.timeout, self.match_timeout = float(timeout), float(match_timeout)
        self.start_timeout = float(start_timeout)
        self.observation = False  # whether the bot asked for the observation vector
        self.hands = 0
        self.total = 0.0
        self.used = 0.0  # seconds spent answering
        self._seed: int | None = seed
        self._hand = -1
        self._sent: dict[int, tuple[int, Any, Any]] = {}  # per seat: events the bot has of this hand, first, last
        self._failed: str | None = None
        self._pending: list[bytes] = []  # lines that need no answer, sent with the next one that does
        self._closed = False  # a session ended by close() does not start again
        self._channel: _Channel | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None

    # ------------------------------------------------------------ lifecycle
    @property
    def started(self) -> bool:
        """Whether the session is open (started and not closed or failed)."""
        return self._channel is not None and self._failed is None

    @property
    def alive(self) -> bool:
        """Whether the bot can still play (not failed, not closed after starting)."""
        return self._failed is None and not self._closed and (self._channel is None or self._channel.open)

    def start(self, env: Any) -> None:
        """Launch (or connect to) the bot, greet it with the table of ``env`` and read
        its ``ready``. Raises :class:`~envs.policy.BotFailure` if it cannot play."""
        if self._failed is not None:
            raise BotFailure(self._failed)
        if self._closed or self._channel is not None:
            raise RuntimeError(f"{self!r}: a session starts once (make a new ExternalBot for a new match)")
        deadline = time.monotonic() + self.start_timeout
        try:
            self._channel = _open(self.parsed, self.start_timeout)
        except OSError as err:
            raise self._fail(f"could not be started: {err}", tell=False) from None
        self._finalizer = weakref.finalize(self, self._channel.close)
        hello = protocol.hello_message(
            bot=self.parsed.name or self.spec,
            variant=env.variant.name,
            title=env.variant.title,
            num_players=env.game.num_players,
            options=env.game.options,
            unit=env.game.unit,
            unit_name=env.variant.unit_name,
            action_names=env.action_names,
            observation_size=int(env.observation_space(env.possible_agents[0])["observation"].shape[0]),
            decision_timeout=self.timeout,
            match_timeout=self.match_timeout,
        )
        self._action_names = tuple(env.action_names)
        self._send(hello, deadline)
        line = self._receive(deadline, what="answer the greeting")
        try:
            ready = protocol.parse_ready(line)
        except protocol.ProtocolError as err:
            raise self._fail(err.what) from None
        self.observation = bool(ready.get("observation", False))

    def close(self, reason: str = "done") -> None:
        """End the session: ``end_match``, then the bot has :data:`QUIT_GRACE` seconds to
        exit (or close the connection) before it is stopped. Safe to call twice."""
        channel = self._channel
        self._closed = True
        if channel is None or not channel.open:
            return
        if self._failed is None:
            message = protocol.end_match_message(reason=reason, hands=self.hands, total=self.total)
            with contextlib.suppress(BotFailure, OSError, TimeoutError):
                channel.send(b"".join([*self._pending, protocol.encode(message)]), time.monotonic() + QUIT_GRACE)
        self._pending = []
        channel.close()
        self._channel = None

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ExternalBot({self.spec!r})"

    # ------------------------------------------------------------ arena hooks
    def seed(self, seed: int | None) -> None:
        """The seed of the next hand (sent in its ``hand`` message)."""
        self._seed = seed

    def reset(self) -> None:
        """Nothing to do: ``hand`` tells the bot a new hand starts."""

    def hand_starts(self, env: Any, *, deal: int, seating: int, seats: list[int], button: int) -> None:
        """A new hand: greet first if this is the session's first; then ``hand`` (hands
        are numbered from 0 in each session)."""
        if self._channel is None:
            self.start(env)
        self._hand = hand = self.hands
        self._sent = {}
        message = protocol.hand_message(hand=hand, deal=deal, seating=seating, seats=seats, button=button,
                                        seed=self._seed)  # fmt: skip
        self._pending.append(protocol.encode(message))

    def hand_ends(self, env: Any, seats: list[int], rewards: list[float]) -> None:
        """``end_hand`` to each of the bot's seats, with that seat's final view."""
        for seat in seats:
            view = env.public_view(env.possible_agents[seat])
            known = self._known(seat, view)
            message = protocol.end_hand_message(view, rewards, hand=self._hand, skip_events=known)
            self._pending.append(protocol.encode(message))
            self.total += float(rewards[seat])
        self.hands += 1

    def act(self, observation: dict[str, np.ndarray], view: PublicView) -> int:
        """Send the decision, read the answer, return the action it names (legal now)."""
        if self._channel is None:
            raise RuntimeError(f"{self!r}: the session has not started (call start(env) or hand_starts first)")
        left = self.match_timeout - self.used
        if left <= 0:
            raise self._fail(f"ran out of its match time ({self.match_timeout:g} s)")
        message = protocol.decision_message(
            view,
            hand=self._hand,
            observation=observation["observation"] if self.observation else None,
            skip_events=self._known(view.seat, view),
            time_left=left,
        )
        started = time.monotonic()
        timeout = min(self.timeout, left)
        self._send(message, started + timeout)
        if view.events:
            self._sent[view.seat] = (len(view.events), view.events[0], view.events[-1])
        line = self._receive(started + timeout, what="answer", match_limit=left < self.timeout)
        self.used += time.monotonic() - started
        try:
            return protocol.parse_action(line, view, self._action_names)
        except protocol.ProtocolError as err:
            raise self._fail(err.what) from None

    def _known(self, seat: int, view: PublicView) -> int:
        """Events of the seat's history the bot has: 0 unless the view continues the
        same history (its first and last known events are the very same objects)."""
        known, first, last = self._sent.get(seat, (0, None, None))
        events = view.events
        if 0 < known <= len(events) and events[0] is first and events[known - 1] is last:
            return known
        return 0

    # ------------------------------------------------------------ the wire
    def _send(self, message: dict[str, Any], deadline: float) -> None:
        """Send the lines waiting (``hand``, ``end_hand``) and ``message``, in one write:
        a write wakes the bot, so one per decision keeps the protocol cheap."""
        if self._failed is not None:
            raise BotFailure(self._failed)
        assert self._channel is not None
        data = b"".join([*self._pending, protocol.encode(message)])
        self._pending = []
        try:
            self._channel.send(data, deadline)
        except TimeoutError:
            raise self._fail("stopped reading its input (the dealer could not send it a message in time)") from None
        except OSError:
            raise self._fail(self._ended(), tell=False) from None

    def _receive(self, deadline: float, *, what: str, match_limit: bool = False) -> bytes:
        assert self._channel is not None
        try:
            return self._channel.readline(deadline)
        except TimeoutError:
            if match_limit:
                raise self._fail(f"ran out of its match time ({self.match_timeout:g} s)") from None
            limit = self.start_timeout if what != "answer" else self.timeout
            raise self._fail(f"did not {what} within {limit:g} s") from None
        except EOFError:
            raise self._fail(self._ended(), tell=False) from None
        except protocol.ProtocolError as err:
            raise self._fail(err.what) from None

    def _ended(self) -> str:
        """Why the other end went away: its exit status, or a closed connection."""
        assert self._channel is not None
        code = self._channel.exit_code()
        if code is None:
            return "disconnected" if self.parsed.scheme == "tcp" else "closed its output"
        if code < 0:
            return f"crashed: its process was killed by signal {-code} ({signal.Signals(-code).name})"
        return f"crashed: its process ended with exit status {code}"

    def _fail(self, what: str, tell: bool = True) -> BotFailure:
        """Record the failure, tell the bot why (best effort) and stop it; the caller
        raises the returned :class:`~envs.policy.BotFailure`."""
        self._failed = what
        if self._channel is not None:
            if tell:
                with contextlib.suppress(BotFailure, OSError, TimeoutError):
                    self._channel.send(protocol.encode(protocol.error_message(what)), time.monotonic() + ERROR_GRACE)
            self._channel.close(kill=True)
        return BotFailure(what)


def check_external(spec: str, env: Any, *, timeout: float, match_timeout: float) -> None:
    """Start the bot, greet it and end the session: a bot that cannot start fails
    here (``ValueError`` naming it), before any match."""
    bot = ExternalBot(spec, timeout=timeout, match_timeout=match_timeout)
    try:
        bot.start(env)
    except BotFailure as err:
        raise ValueError(f"bot {spec!r} could not be seated: it {err.what}") from None
    finally:
        bot.close(reason="check")


# --------------------------------------------------------------- channels
class _Channel:
    """Lines in and bytes out over two file descriptors (a child's pipes, or one
    socket), non-blocking, every call bounded by a deadline."""

    def __init__(self, read_fd: int, write_fd: int, proc: subprocess.Popen[bytes] | None,
                 sock: socket.socket | None) -> None:  # fmt: skip
        self.read_fd, self.write_fd, self.proc, self.sock = read_fd, write_fd, proc, sock
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
        self.buffer = b""
        self.open = True

    def send(self, data: bytes, deadline: float) -> None:
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.write_fd, view) :]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [self.write_fd], [], left)[1]:
                raise TimeoutError

    def readline(self, deadline: float) -> bytes:
        """The next non-blank line (without its newline)."""
        while True:
            end = self.buffer.find(b"\n")
            while end >= 0:
                line, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
                if len(line) > MAX_LINE:
                    break
                if line.strip():
                    return line
                end = self.buffer.find(b"\n")
            else:
                line = self.buffer
            if len(line) > MAX_LINE:
                raise protocol.ProtocolError(f"sent a line over {MAX_LINE} bytes: {protocol.excerpt(line)}")
            try:
                data = os.read(self.read_fd, READ_SIZE)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                    raise TimeoutError from None
                continue
            except ConnectionResetError:
                data = b""
            if not data:
                raise EOFError
            self.buffer += data

    def exit_code(self) -> int | None:
        """The child's exit status once it has ended (waiting up to a second); None
        for a connection, or a child still running."""
        if self.proc is None:
            return None
        try:
            return self.proc.wait(QUIT_GRACE)
        except subprocess.TimeoutExpired:
            return None

    def close(self, kill: bool = False) -> None:
        """Close our ends; a child gets :data:`QUIT_GRACE` seconds (none with ``kill``)."""
        if not self.open:
            return
        self.open = False
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.close()
        if self.proc is not None:
            for stream in (self.proc.stdin, self.proc.stdout):
                with contextlib.suppress(OSError):
                    stream.close()  # type: ignore[union-attr]
            if kill and self.proc.poll() is None:
                self.proc.kill()
            try:
                self.proc.wait(QUIT_GRACE)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _open(parsed: ExternalSpec, timeout: float) -> _Channel:
    """Start the child (``cmd``) or connect (``tcp``)."""
    if parsed.scheme == "tcp":
        sock = socket.create_connection((parsed.host, parsed.port), timeout=timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # one small line per decision
        return _Channel(sock.fileno(), sock.fileno(), None, sock)
    cwd = Path(parsed.cwd) if parsed.cwd else None
    if cwd is not None and not cwd.is_dir():
        raise FileNotFoundError(f"its working folder {parsed.cwd!r} does not exist")
    env = {**os.environ, "DEALERS_CHOICE_PROTOCOL": str(protocol.PROTOCOL_VERSION),
           "DEALERS_CHOICE_BOT": parsed.name or parsed.spec, "PYTHONUNBUFFERED": "1"}  # fmt: skip
    proc = subprocess.Popen(
        list(parsed.argv), cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0,
        start_new_session=True,  # Ctrl-C is the dealer's: it stops the bot itself
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    return _Channel(proc.stdout.fileno(), proc.stdin.fileno(), proc, None)
