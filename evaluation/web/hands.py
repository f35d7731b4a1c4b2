"""Hands the page can step through: read from a file (JSON records, ``hands.jsonl``,
PHH) or played here (watch, play), and the frames of one hand.

Every hand read from a file is replayed by the engine (:func:`envs.variants.replay`),
which checks each card, stack, action and payoff of its record: the page shows a hand
only as the rules play it, never a file's claim. A file is read as data; nothing is
imported, evaluated or written.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from typing import Any

from envs.engine.events import EventKind
from envs.engine.history import hand_history
from envs.engine.record import HandRecord, RecordError, quoted
from envs.engine.state import State
from envs.phh import PHHError, from_phh, from_phh_all, to_phh
from envs.variants import replay
from evaluation.web.frames import Viewer, frame, history_data, street_marks

MAX_HANDS = 5000  # hands read from one file: more is refused (split the file), never cut silently


class RequestError(ValueError):
    """A request the server refuses: its status (4xx) and a message for the page."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Hand:
    """One hand: its record, who sat where, and (once asked) the state before each
    decision and the final one. ``insight[k]``: what the bot to act at frame ``k``
    thought (watch: action probabilities, value), or None."""

    record: HandRecord
    names: list[str]
    meta: dict[str, Any] = field(default_factory=dict)
    states: list[State] | None = None
    insight: list[dict[str, Any] | None] | None = None
    final: State | None = None

    def last(self) -> State:
        """The final state: the record replayed once (checked, no copies kept)."""
        if self.final is None:
            self.final = self.states[-1] if self.states else replay(self.record)
        return self.final

    def replayed(self) -> list[State]:
        """The state before each decision and the final one, replaying the record with
        copies (only for a hand someone opens: a file's hands are listed from :meth:`last`)."""
        if self.states is None:
            states: list[State] = []
            final = replay(self.record, on_decision=lambda st: states.append(st.clone()))
            self.states = [*states, final]
        return self.states

    def summary(self, index: int) -> dict[str, Any]:
        """A row of the hand list (result and showdown: what the filters use)."""
        final = self.last()
        return {
            "index": index,
            "variant": self.record.variant,
            "title": final.title,
            "players": self.record.num_players,
            "names": self.names,
            "payoffs": final.payoff,
            "showdown": any(e.kind == EventKind.SHOW for e in final.events),
            "decisions": len(self.record.decisions),
            **self.meta,
        }

    def frames(self, viewer: Viewer) -> dict[str, Any]:
        """Every frame as ``viewer`` sees it, the streets to jump to, and the bots' insight."""
        states = self.replayed()
        if viewer is not None and not -1 <= viewer < self.record.num_players:
            raise RequestError(f"viewer {viewer} is not allowed: expected -1 (public), a seat 0..{len(self.names) - 1}")
        frames = [frame(st, viewer, self.names, history=False) for st in states]
        insight = self.insight or [None] * len(frames)
        for f, seen in zip(frames, insight, strict=True):
            # a bot's thoughts at a decision are as secret as its cards
            f["insight"] = seen if seen is not None and (viewer is None or viewer == seen["seat"]) else None
        return {
            "frames": frames,
            "streets": street_marks(states),
            "names": self.names,
            "history": history_data(states[-1], viewer),
        }

    def history(self, viewer: Viewer) -> str:
        """The hand history text as ``viewer`` saw it (None: every card)."""
        return hand_history(self.last(), viewer)


def read_hands(name: str, text: str) -> list[Hand]:
    """The hands of a file: one JSON record, a JSON list of them, ``hands.jsonl`` rows
    (or bare records one a line), or a PHH file (one hand or tables ``[1]``, ``[2]``).

    Raises:
        RequestError: the file is none of these, or a hand's record does not replay
            (the message names the hand and the field).
    """
    stripped = text.lstrip()
    if not stripped:
        raise RequestError(f"{name}: the file is empty")
    if name.endswith((".phh", ".phhs")) or not stripped.startswith(("{", "[")):
        return _phh_hands(name, text)
    if stripped.startswith("[") and not name.endswith(".jsonl"):
        # a JSON list of records, or a PHH table header such as [1]
        try:
            data = json.loads(text)
        except json.JSONDecodeError:
            return _phh_hands(name, text)
        if not isinstance(data, list):
            raise RequestError(f"{name}: a JSON file holds a record or a list of records")
        return _checked(name, [_row_hand(f"{name}: hand {i + 1}", row) for i, row in enumerate(data[: MAX_HANDS + 1])])
    try:
        return _checked(name, [_row_hand(name, json.loads(text))])
    except json.JSONDecodeError as err:
        if name.endswith(".json") or "\n" not in stripped.rstrip():  # one JSON value, not one a line
            raise RequestError(f"{name}: not JSON ({err.msg} at line {err.lineno}, column {err.colno})") from None
    hands = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise RequestError(f"{name}: line {number} is not JSON ({err.msg} at column {err.colno})") from None
        hands.append(_row_hand(f"{name}: line {number}", row))
        if len(hands) > MAX_HANDS:
            break
    return _checked(name, hands)


def _checked(name: str, hands: list[Hand]) -> list[Hand]:
    if not hands:
        raise RequestError(f"{name}: no hands in the file")
    if len(hands) > MAX_HANDS:
        raise RequestError(f"{name}: more than {MAX_HANDS} hands; split the file", status=413)
    for k, hand in enumerate(hands):
        try:
            hand.last()
        except RecordError as err:
            where = hand.meta.get("where", f"hand {k + 1}")
            raise RequestError(f"{where}: the record does not replay: {err}") from None
    return hands


def _row_hand(where: str, row: Any) -> Hand:
    """A hand from a record, or from a ``hands.jsonl`` row (its ``record`` and who sat
    where: the bot names replace ``player_<seat>``)."""
    meta: dict[str, Any] = {"where": where}
    data = row
    names: list[str] | None = None
    if isinstance(row, dict) and "record" in row:
        data = row["record"]
        seats = row.get("seats")
        if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
            names = [s[:40] for s in seats]
        for key in ("match", "deal", "seating"):
            if isinstance(row.get(key), int) and not isinstance(row.get(key), bool):
                meta[key] = row[key]
    try:
        record = HandRecord.from_dict(data)
    except RecordError as err:
        raise RequestError(f"{where}: {err}") from None
    if names is None or len(names) != record.num_players:
        names = [f"player_{s}" for s in range(record.num_players)]
    return Hand(record, names, meta)


def _phh_hands(name: str, text: str) -> list[Hand]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise RequestError(f"{name}: neither a JSON hand record, hands.jsonl nor PHH (TOML: {err})") from None
    try:
        records = from_phh_all(text) if any(isinstance(v, dict) for v in data.values()) else [from_phh(text)]
    except (PHHError, RecordError) as err:
        raise RequestError(f"{name}: {err}") from None
    hands = [
        Hand(r, [f"player_{s}" for s in range(r.num_players)], {"where": f"{name}: hand {i + 1}"})
        for i, r in enumerate(records)
    ]
    return _checked(name, hands)


def record_text(hand: Hand, fmt: str) -> str:
    """The hand's record to download: ``json`` (replays exactly) or ``phh`` (stud, razz,
    stud hi-lo only: PHH has no words for the others)."""
    if fmt == "json":
        return hand.record.to_json()
    if fmt == "phh":
        try:
            return to_phh(hand.record, players=hand.names)
        except PHHError as err:
            raise RequestError(f"this hand cannot be written as PHH: {err}") from None
    raise RequestError(f"format {quoted(fmt)} is not allowed: expected json or phh")
