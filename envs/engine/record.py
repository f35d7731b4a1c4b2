"""Replay records: :class:`HandRecord`, its JSON form, and the errors replay raises.

A record holds what it takes to play a hand again exactly (the deck, the generator
state it was shuffled from, the button, every decision) plus what the replay must
agree with (every option, the starting stacks, the cards each place received, the
payoffs). ``HandRecord.replay()`` (:mod:`envs.engine.replay`) checks all of it.

Format version 2 (written since this module exists)::

    {"version": 2, "variant": "stud", "num_players": 3, "button": 0,
     "options": {...every field of the variant's options but OBSERVATION_OPTIONS...},
     "stacks": [400, 400, 400],          # starting stacks; null = unlimited
     "deck": [51, 12, ...],              # the 52 cards, top first
     "stacked": 0,                       # leading deck cards the caller chose
     "rng_state": {...},                 # numpy generator state BEFORE the shuffle
     "dealt": {"player_0": "[Ah Kd] 7c 8s 9d Tc [2h]", ..., "community": "..."},
     "decisions": [[1, 2], [2, 1], ...], # (seat, action index)
     "payoffs": [-3, 7, -4],             # null only while the hand is unfinished
     "hand": 5,                          # optional: the hand's number at its table, when not 0
     "mac": "..."}                       # optional HMAC-SHA256, see HandRecord.signed

``dealt`` lists each place's cards in the order received, face-down cards in
brackets; places are ``player_<seat>``, ``community`` and ``burned``. Version 1
records (no ``version`` key: ``rng_state`` is the state *after* the shuffle; no
``stacks``, ``stacked`` or ``dealt``) are still read; see docs/histories.md for what
can and cannot be checked for them.

What replay proves, and what it does not: a record that replays is *internally
consistent*: the game built from its options has its stacks, the deck follows from
``rng_state`` (except the ``stacked`` prefix), every decision is legal, the dealt
cards and payoffs are what the replay produces. Editing one field (a card, a stack,
a payoff) is caught. Writing a new consistent record is not: anyone can pick another
``rng_state`` (or claim a stacked deck), replay any decisions and write the result.
Only the optional ``mac``, checked with a key the forger does not hold, ties a
record to whoever signed it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from envs.engine.cards import JOKER, NUM_CARDS, format_card, parse_card
from envs.engine.options import OBSERVATION_OPTIONS
from envs.engine.state import State

if TYPE_CHECKING:
    pass

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
_V1_FIELDS = ("variant", "num_players", "options", "button", "deck", "rng_state", "decisions", "payoffs")
_V2_FIELDS = (*_V1_FIELDS, "version", "stacks", "stacked", "dealt", "hand", "mac")
_V2_REQUIRED = tuple(f for f in _V2_FIELDS if f not in ("hand", "mac"))
_QUOTE_LIMIT = 60


class RecordError(ValueError):
    """A hand record that cannot be trusted: malformed, or disagreeing with its replay."""


class RecordFormatError(RecordError):
    """A malformed record: bad JSON, a missing field or one of the wrong type. The
    message names the field and what is allowed."""


class RecordMismatchError(RecordError):
    """The replay disagrees with the record; the message says exactly where
    (``player_1's 3rd card: record Kd, replay 7c``)."""


def recorded_options(options: Any) -> dict[str, Any]:
    """Every field of an options dataclass as JSON values, but the observation options:
    they never change the game, so a record replays the same hand without them, and
    records written before they existed list the same fields as records written now."""
    return {
        f.name: json_value(getattr(options, f.name))
        for f in dataclasses.fields(options)
        if f.name not in OBSERVATION_OPTIONS
    }


def quoted(value: Any, limit: int = _QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters: error messages quote user input
    without echoing a whole file back."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


# ------------------------------------------------------------ dealt cards
Dealt = dict[str, list[tuple[int, bool]]]  # place -> [(card, face up)] in the order received


def dealt_of(state: State) -> Dealt:
    """Every place's cards in the order received, from the event log: each seat
    (``player_<seat>``), then ``community`` and ``burned`` when the hand has any."""
    places: Dealt = {f"player_{s}": [] for s in range(state.n)}
    for e in state.events:
        if e.kind == "deal":
            places[f"player_{e.seat}"].append((e.cards[0], e.up))
        elif e.kind == "community":
            places.setdefault("community", []).extend((c, True) for c in e.cards)
        elif e.kind == "burn":
            places.setdefault("burned", []).extend((c, False) for c in e.cards)
    return places


def format_dealt(cards: Sequence[tuple[int, bool]]) -> str:
    """``[Ah Kd] 7c 8s [2h]``: face-down runs in brackets, as hand histories print them."""
    parts: list[str] = []
    down: list[str] = []
    for card, up in cards:
        if up:
            if down:
                parts.append("[" + " ".join(down) + "]")
                down = []
            parts.append(format_card(card))
        else:
            down.append(format_card(card))
    if down:
        parts.append("[" + " ".join(down) + "]")
    return " ".join(parts)


def parse_dealt(text: str, where: str) -> list[tuple[int, bool]]:
    """Read :func:`format_dealt`'s text back; a bad token is a :class:`RecordFormatError`."""
    cards: list[tuple[int, bool]] = []
    inside = False
    for token in text.split():
        opens, closes = token.startswith("["), token.endswith("]")
        body = token[1 if opens else 0 : -1 if closes else None]
        if (opens and inside) or (closes and not (inside or opens)) or not body:
            raise RecordFormatError(f"{where}: unbalanced brackets at {quoted(token)} in {quoted(text)}")
        try:
            card = parse_card(body)
        except ValueError as err:
            raise RecordFormatError(f"{where}: {err}") from None
        cards.append((card, not (inside or opens)))
        inside = (inside or opens) and not closes
    if inside:
        raise RecordFormatError(f"{where}: a bracket is not closed in {quoted(text)}")
    return cards


# ------------------------------------------------------------ validation
def _fail(field: str, value: Any, allowed: str) -> RecordFormatError:
    return RecordFormatError(f"{field}: {quoted(value)} is not allowed: expected {allowed}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(field: str, value: Any, low: int, high: int | None = None) -> None:
    if not _is_int(value) or value < low or (high is not None and value > high):
        allowed = f"an int in {low}..{high}" if high is not None else f"an int >= {low}"
        raise _fail(field, value, allowed)


def _check_list(field: str, value: Any, length: int | None = None) -> None:
    if not isinstance(value, (list, tuple)):
        raise _fail(field, value, "a list" + (f" of {length} entries" if length is not None else ""))
    if length is not None and len(value) != length:
        raise RecordFormatError(f"{field}: {len(value)} entries, expected {length} (one per seat)")


def _check_deck(deck: Any) -> None:
    """The whole deck, top first: distinct cards 0..51, or 52 for the joker of the
    wild-card house rules. Replay then checks that they are exactly the game's cards
    (52, 53 with the joker, or a toy deck): a shorter deck is an error even though
    ``new_state`` accepts one (it shuffles in the rest), because a record keeps the
    order the hand was dealt from, and ``stacked`` says which part the caller chose."""
    _check_list("deck", deck)
    for i, card in enumerate(deck):
        _check_int(f"deck[{i}]", card, 0, JOKER)
    seen: set[int] = set()
    for i, card in enumerate(deck):
        if card in seen:
            raise RecordFormatError(f"deck: {format_card(card)} appears twice (again at position {i + 1})")
        seen.add(card)


def _check_decisions(decisions: Any, n: int) -> None:
    _check_list("decisions", decisions)
    for i, pair in enumerate(decisions):
        where = f"decisions[{i}]"
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise _fail(where, pair, "a [seat, action] pair")
        _check_int(f"{where} seat", pair[0], 0, n - 1)
        _check_int(f"{where} action", pair[1], 0)


def _check_dealt(dealt: Any, n: int) -> None:
    if not isinstance(dealt, dict):
        raise _fail("dealt", dealt, "an object of place -> cards text")
    seats = [f"player_{s}" for s in range(n)]
    known = {*seats, "community", "burned"}
    for place, text in dealt.items():
        if place not in known:
            raise RecordFormatError(f"dealt: unknown place {quoted(place)}; places: {', '.join(sorted(known))}")
        if not isinstance(text, str):
            raise _fail(f"dealt.{place}", text, "a text of cards such as '[Ah Kd] 7c'")
        parse_dealt(text, f"dealt.{place}")
    missing = [s for s in seats if s not in dealt]
    if missing:
        raise RecordFormatError(f"dealt: no entry for {missing[0]} (every seat has one)")


def _check_rng_state(value: Any) -> None:
    if not isinstance(value, dict) or not isinstance(value.get("bit_generator"), str):
        raise _fail("rng_state", value, "a numpy bit generator state (a dict with 'bit_generator')")


def json_value(value: Any) -> Any:
    """An option value as JSON writes it (tuples become lists, dicts and dataclasses
    such as dealer's choice's stakes objects of their fields)."""
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


# ------------------------------------------------------------ the record
@dataclass(frozen=True)
class HandRecord:
    """Everything needed to replay a hand exactly, and what the replay must agree with.

    Build one with :meth:`of` (from a state) or :meth:`from_json` / :meth:`from_dict`;
    construction validates every field's type and raises :class:`RecordFormatError`
    naming the field. :meth:`replay` plays the hand again and raises
    :class:`RecordMismatchError` where it disagrees. Field meanings: module docstring.
    """

    variant: str
    num_players: int
    options: dict[str, Any]
    button: int
    deck: list[int]
    rng_state: dict[str, Any]  # version 2: before the shuffle; version 1: after it
    decisions: list[tuple[int, int]]
    payoffs: list[int] | None = None
    version: int = FORMAT_VERSION
    stacks: list[int | None] | None = None
    stacked: int = 0
    dealt: dict[str, str] | None = None
    hand: int = 0
    mac: str | None = None

    def __post_init__(self) -> None:
        if self.version not in READABLE_VERSIONS:
            raise _fail("version", self.version, f"one of {READABLE_VERSIONS} (a newer library wrote this record?)")
        if not isinstance(self.variant, str) or not self.variant:
            raise _fail("variant", self.variant, "a variant name such as 'stud'")
        _check_int("num_players", self.num_players, 1)
        n = self.num_players
        if not isinstance(self.options, dict) or not all(isinstance(k, str) for k in self.options):
            raise _fail("options", self.options, "an object of option name -> value")
        _check_int("button", self.button, 0, n - 1)
        _check_deck(self.deck)
        _check_rng_state(self.rng_state)
        _check_decisions(self.decisions, n)
        if self.payoffs is not None:
            _check_list("payoffs", self.payoffs, n)
            for s, p in enumerate(self.payoffs):
                if not _is_int(p):
                    raise _fail(f"payoffs[{s}]", p, "an int (net chips)")
        _check_int("hand", self.hand, 0)
        if self.version == 1:
            if self.stacks is not None or self.dealt is not None or self.stacked or self.hand or self.mac is not None:
                raise RecordFormatError("version 1 records have no stacks, stacked, dealt, hand or mac (set version 2)")
            return
        self._check_v2(n)

    def _check_v2(self, n: int) -> None:
        if self.stacks is None or self.dealt is None:
            missing = "stacks" if self.stacks is None else "dealt"
            raise RecordFormatError(f"{missing}: missing; a version {self.version} record has it")
        _check_list("stacks", self.stacks, n)
        for s, chips in enumerate(self.stacks):
            if chips is not None:
                _check_int(f"stacks[{s}]", chips, 1)
        _check_int("stacked", self.stacked, 0, max(NUM_CARDS, len(self.deck)))  # 53 with the joker
        _check_dealt(self.dealt, n)
        if self.mac is not None and (not isinstance(self.mac, str) or len(self.mac) != 64):
            raise _fail("mac", self.mac, "null or 64 hex digits (HMAC-SHA256)")

    # ------------------------------------------------------------- building
    @classmethod
    def of(cls, state: State) -> HandRecord:
        """Record a (finished or unfinished) hand."""
        options = state.game.options
        return cls(
            variant=state.game.name,
            num_players=state.n,
            options=recorded_options(options),
            button=state.button,
            deck=list(state.initial_deck),
            rng_state=_json_state(state.shuffle_rng_state),
            decisions=list(state.decisions),
            payoffs=None if state.payoff is None else list(state.payoff),
            version=FORMAT_VERSION,
            stacks=list(state.table_stacks),
            stacked=state.stacked,
            dealt={place: format_dealt(cards) for place, cards in dealt_of(state).items()},
            hand=state.hand,
        )

    @classmethod
    def from_dict(cls, data: Any) -> HandRecord:
        """A record from its JSON object (``json.loads`` of ``to_json``, or the
        ``record`` of a ``hands.jsonl`` row)."""
        if not isinstance(data, dict):
            raise RecordFormatError(f"a record is a JSON object, got {type(data).__name__}: {quoted(data)}")
        version = data.get("version", 1)
        known = _V1_FIELDS if version == 1 else _V2_FIELDS
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise RecordFormatError(
                f"{quoted(unknown[0])}: unknown field of a version {quoted(version)} record; fields: {', '.join(known)}"
            )
        required = _V1_FIELDS[:-1] if version == 1 else _V2_REQUIRED
        missing = [f for f in required if f not in data]
        if missing:
            raise RecordFormatError(
                f"{missing[0]}: missing (a version {quoted(version)} record has {', '.join(required)})"
            )
        data = {**data, "version": version}
        decisions = data["decisions"]
        if isinstance(decisions, list):
            data["decisions"] = [tuple(d) if isinstance(d, list) and len(d) == 2 else d for d in decisions]
        return cls(**data)

    @classmethod
    def from_json(cls, text: str | bytes) -> HandRecord:
        """Parse a record written by :meth:`to_json` (either format version)."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, TypeError) as err:
            raise RecordFormatError(f"not a JSON record: {err}") from None
        return cls.from_dict(data)

    # ------------------------------------------------------------- writing
    def to_dict(self) -> dict[str, Any]:
        """The JSON object (version 1 records keep their version 1 fields)."""
        data = dataclasses.asdict(self)
        if self.version == 1:
            return {k: data[k] for k in _V1_FIELDS}
        if self.mac is None:
            del data["mac"]
        if not self.hand:  # only tables that rotate by hands number them
            del data["hand"]
        return {"version": data.pop("version"), **data}

    def to_json(self) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict())

    # ------------------------------------------------------------- signing
    def _signed_bytes(self) -> bytes:
        data = self.to_dict()
        data.pop("mac", None)
        return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()

    def signed(self, key: bytes) -> HandRecord:
        """A copy carrying ``mac``, the HMAC-SHA256 of everything else under ``key``.

        Replay with the same key (``replay(key=...)``) then rejects any change made
        after signing, including a consistent rewrite. The guarantee is only as good as
        the key's secrecy: whoever holds it can sign anything."""
        if self.version != FORMAT_VERSION:
            raise RecordFormatError(
                f"version: only version {FORMAT_VERSION} records are signed; "
                "rewrite with HandRecord.of(record.replay())"
            )
        digest = hmac.new(_key_bytes(key), self._signed_bytes(), hashlib.sha256).hexdigest()
        return dataclasses.replace(self, mac=digest)

    def check_mac(self, key: bytes) -> None:
        """Raise :class:`RecordMismatchError` unless ``mac`` is this record's HMAC under ``key``."""
        if self.mac is None:
            raise RecordMismatchError("mac: the record is not signed, but a key was given to check it")
        digest = hmac.new(_key_bytes(key), self._signed_bytes(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(digest, self.mac):
            raise RecordMismatchError(
                "mac: the record's HMAC does not match its content under this key "
                "(changed after signing, or signed with another key)"
            )

    # ------------------------------------------------------------- replay


def _json_state(value: Any) -> Any:
    """A bit generator state as plain JSON values (MT19937 keeps a numpy array)."""
    if isinstance(value, dict):
        return {k: _json_state(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.integer):
        return int(value)
    return value


def _key_bytes(key: Any) -> bytes:
    if not isinstance(key, (bytes, bytearray)) or not key:
        raise TypeError(f"an HMAC key is non-empty bytes, got {type(key).__name__}")
    return bytes(key)
