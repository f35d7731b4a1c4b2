"""The line protocol spoken to bots in other programs (``docs/protocol.md``, version 1).

One JSON object per line, each way. The dealer (:mod:`evaluation.external`) sends
``hello`` (the game and the time limits), ``hand`` (a new hand: the bot's seats in it),
``act`` (a decision: the seat's public view, optionally the observation vector),
``end_hand`` (payoffs and the cards shown) and ``end_match``; the bot sends ``ready``
after ``hello`` and one answer per ``act``. This module builds those messages and reads
the bot's lines; it does no I/O, so the no-leak tests can check exactly the bytes a bot
would be sent.

Every message is built from what the seat may see: the view
(:func:`envs.view.public_view`, filtered for the seat), the observation (the env's, for
that seat) and public facts of the table (payoffs, the rules). A bot's line is parsed
with :func:`json.loads` only: nothing it sends is evaluated or unpickled, and an answer
is never remapped: a name or index that is not legal now is an error naming the line.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from envs.engine.events import EventKind
from envs.view import PublicView

PROTOCOL_VERSION = 1
LINE_EXCERPT = 200  # characters of an offending line quoted in an error
NAME_EXCERPT = 40  # characters of an unknown action name quoted in an error
EVENT_FIELDS = ("kind", "seat", "cards", "amount", "action", "up", "text", "street", "secret", "verb")


class ProtocolError(Exception):
    """A bot's line broke the protocol; ``what`` says how and quotes the line."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def excerpt(line: bytes | str) -> str:
    """The line as a quoted string, cut to :data:`LINE_EXCERPT` characters (a bot may
    send megabytes: an error message quotes only the start)."""
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.rstrip("\r\n")
    if len(text) > LINE_EXCERPT:
        return f"{text[:LINE_EXCERPT]!r}... ({len(text)} characters)"
    return repr(text)


def encode(message: dict[str, Any]) -> bytes:
    """One line of the wire: compact JSON (no NaN: it is not JSON) and a newline."""
    return json.dumps(message, separators=(",", ":"), allow_nan=False).encode() + b"\n"


# ------------------------------------------------------------ dealer -> bot
def hello_message(
    *,
    bot: str,
    variant: str,
    title: str,
    num_players: int,
    options: Any,
    unit: int,
    unit_name: str,
    action_names: Sequence[str],
    observation_size: int,
    decision_timeout: float,
    match_timeout: float,
) -> dict[str, Any]:
    """The greeting: the rules in play and the limits. ``options``: the variant's
    options object (a dataclass; sent as its fields); ``observation_size``: the length
    of the observation vector a bot may ask for."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "bot": bot,
        "variant": variant,
        "title": title,
        "num_players": num_players,
        "options": _plain(options),
        "unit": unit,
        "unit_name": unit_name,
        "actions": list(action_names),
        "observation_size": observation_size,
        "decision_timeout": decision_timeout,
        "match_timeout": _finite(match_timeout),
    }


def hand_message(
    *, hand: int, deal: int, seating: int, seats: Sequence[int], button: int, seed: int | None
) -> dict[str, Any]:
    """A new hand (a whole game in the Cowboy family): the seats the bot plays in it."""
    return {
        "type": "hand",
        "hand": hand,
        "deal": deal,
        "seating": seating,
        "seats": list(seats),
        "button": button,
        "seed": seed,
    }


def decision_message(
    view: PublicView,
    *,
    hand: int,
    observation: np.ndarray | None = None,
    skip_events: int = 0,
    time_left: float | None = None,
) -> dict[str, Any]:
    """A decision of ``view.seat``: its view (events from ``skip_events`` on: the bot has
    the earlier ones) and, when the bot asked for it, the observation vector."""
    message: dict[str, Any] = {
        "type": "act",
        "hand": hand,
        "seat": view.seat,
        "view": view_data(view, skip_events),
    }
    if observation is not None:
        message["observation"] = np.asarray(observation, dtype=float).tolist()
    if time_left is not None:
        message["match_time_left"] = _finite(time_left)
    return message


def end_hand_message(view: PublicView, payoffs: Sequence[float], *, hand: int, skip_events: int = 0) -> dict[str, Any]:
    """The end of a hand for ``view.seat``: every seat's payoff (reward units), the cards
    shown at the showdowns, and the seat's final view (the events it has not had yet)."""
    shown = [{"seat": e.seat, "cards": list(e.cards)} for e in view.events if e.kind == EventKind.SHOW]
    return {
        "type": "end_hand",
        "hand": hand,
        "seat": view.seat,
        "payoffs": [float(p) for p in payoffs],
        "shown": shown,
        "view": view_data(view, skip_events),
    }


def end_match_message(*, reason: str, hands: int, total: float) -> dict[str, Any]:
    """The end of the session: why, how many hands the bot played in it, and its total."""
    return {"type": "end_match", "reason": reason, "hands": hands, "total": total}


def error_message(what: str) -> dict[str, Any]:
    """Sent (best effort) just before a failing bot is stopped: why it forfeits."""
    return {"type": "error", "message": what}


# ------------------------------------------------------------ bot -> dealer
def parse_object(line: bytes) -> dict[str, Any]:
    """A line as a JSON object, or a :class:`ProtocolError` quoting it."""
    try:
        value = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"sent malformed JSON: {excerpt(line)}") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"sent a JSON {type(value).__name__}, not an object: {excerpt(line)}")
    return value


def parse_ready(line: bytes) -> dict[str, Any]:
    """The bot's answer to ``hello``: ``{"type": "ready", ...}`` (``name`` and
    ``observation`` optional)."""
    reply = parse_object(line)
    if reply.get("type") != "ready":
        raise ProtocolError(f'answered the greeting without {{"type": "ready"}}: {excerpt(line)}')
    if not isinstance(reply.get("observation", False), bool):
        raise ProtocolError(f"sent an observation request that is not true or false: {excerpt(line)}")
    if not isinstance(reply.get("name", ""), str):
        raise ProtocolError(f"sent a name that is not a string: {excerpt(line)}")
    return reply


def parse_action(line: bytes, view: PublicView, action_names: Sequence[str]) -> int:
    """The action a bot's answer names: ``{"action": 3}`` or ``{"action": "raise"}``.
    Only an action legal now is accepted; anything else is a :class:`ProtocolError`
    saying what is wrong, quoting the line and listing the legal actions."""
    reply = parse_object(line)
    kind = reply.get("type", "action")
    if kind != "action":
        raise ProtocolError(f"sent a {kind!r} message where an action was due: {excerpt(line)}")
    if "action" not in reply:
        raise ProtocolError(f'answered without an "action": {excerpt(line)}{_legal(view)}')
    action = reply["action"]
    if type(action) is int:
        if action in view.legal_actions:
            return action
        raise ProtocolError(f"answered action {action}, which is not legal now: {excerpt(line)}{_legal(view)}")
    if isinstance(action, str):
        if action in view.legal_names:
            return view.legal_actions[view.legal_names.index(action)]
        what = "which is not legal now" if action in action_names else "an unknown action name"
        shown = repr(action) if len(action) <= NAME_EXCERPT else f"{action[:NAME_EXCERPT]!r}..."
        raise ProtocolError(f"answered {shown}, {what}: {excerpt(line)}{_legal(view)}")
    kind_name = "a boolean" if isinstance(action, bool) else f"a JSON {type(action).__name__}"
    raise ProtocolError(f"answered an action that is {kind_name}, not an index or a name: {excerpt(line)}")


# ------------------------------------------------------------ the view as data
_FIELDS = tuple(
    f.name for f in dataclasses.fields(PublicView) if f.name not in ("options", "game_options", "extra", "events")
)
_OPTIONS: dict[int, tuple[Any, dict[str, Any]]] = {}  # id -> (options object, its fields): options are frozen


def view_data(view: PublicView, skip_events: int = 0) -> dict[str, Any]:
    """The view as JSON data, equal to :func:`envs.view.view_to_data` once encoded (a
    test checks it) but built for the wire: tuples and events (named tuples, whose
    kinds and verbs are a ``str`` and an ``int``) go to :func:`json.dumps` as they are,
    and each options object is turned into data once."""
    data = {name: getattr(view, name) for name in _FIELDS}
    data["options"] = _options(view.options)
    data["game_options"] = _options(view.game_options)
    data["extra"] = _plain(view.extra) if view.extra else {}
    data["events_from"] = skip_events
    data["events"] = view.events[skip_events:]
    return data


def _options(options: Any) -> dict[str, Any]:
    cached = _OPTIONS.get(id(options))
    if cached is None or cached[0] is not options:
        if len(_OPTIONS) > 64:
            _OPTIONS.clear()
        cached = _OPTIONS[id(options)] = (options, _plain(options))
    return cached[1]


def _legal(view: PublicView) -> str:
    pairs = ", ".join(f"{a} {n}" for a, n in zip(view.legal_actions, view.legal_names, strict=True))
    return f"; legal actions: {pairs or 'none'}"


def _plain(value: Any) -> Any:
    """A dataclass (options, stakes) as JSON data: fields, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _finite(seconds: float) -> float | None:
    """Seconds as JSON: ``None`` for no limit (JSON has no infinity)."""
    return None if math.isinf(seconds) else round(float(seconds), 6)
