"""Views as plain data, for bots in other processes (:mod:`evaluation.isolate`), and the
view API in one place for bots (:class:`~envs.engine.view.PublicView` lives in the
engine: see :mod:`envs.engine.view`).

``view_to_data`` / ``view_from_data`` turn a view into JSON-only data and back; the
variant's ``extras_from_data`` hook rebuilds typed family facts (Cowboy's deal
summaries; at a dealer's choice table, the game in play's hook too).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Sequence
from typing import Any

from envs.engine.events import Event, EventKind, Verb
from envs.engine.view import PublicView, SeatLogs, public_view, visible
from envs.variants import get_variant

__all__ = ["PublicView", "SeatLogs", "public_view", "view_from_data", "view_to_data", "visible"]


# ------------------------------------------------------------- plain data
def view_to_data(view: PublicView, skip_events: int = 0) -> dict[str, Any]:
    """The view as plain data (JSON types only: dicts, lists, str, int, float, bool,
    None), for a bot in another process. Events are lists in ``Event`` field order;
    ``options`` the options' fields; dataclasses in ``extra`` (Cowboy's deal summaries)
    dicts of their fields. ``skip_events``: leave out that many leading events (the
    receiver has them: ``view_from_data(data, known_events)``).
    """
    data = {f.name: _plain(getattr(view, f.name)) for f in dataclasses.fields(view) if f.name not in _SPECIAL}
    data["options"] = _fields(view.options)
    data["game_options"] = _fields(view.game_options)
    data["extra"] = {key: _plain(value) for key, value in view.extra.items()}
    data["events_from"] = skip_events
    data["events"] = [[*e[:2], list(e.cards), *e[3:]] for e in view.events[skip_events:]]
    return data


def view_from_data(data: dict[str, Any], known_events: Sequence[Event] = ()) -> PublicView:
    """A :class:`PublicView` equal to the one ``view_to_data`` was given (the first
    ``data["events_from"]`` events come from ``known_events``)."""
    start = data["events_from"]
    if len(known_events) < start:
        raise ValueError(f"the view's data starts at event {start}, but only {len(known_events)} are known")
    fields = {key: _tuples(value) for key, value in data.items() if key not in (*_SPECIAL, "events_from")}
    variant = get_variant(fields["variant"])
    options = _options(variant.name, json.dumps(data["options"], sort_keys=True))
    game = fields.get("game") or variant.name
    game_options = _options(game, json.dumps(data["game_options"], sort_keys=True))
    extra = {key: _tuples(value) for key, value in data["extra"].items()}
    for decode in {variant.extras_from_data, get_variant(game).extras_from_data} - {None}:
        extra = decode(extra)  # type: ignore[misc]
    events = (*known_events[:start], *(_event(e) for e in data["events"]))
    return PublicView(**fields, options=options, game_options=game_options, extra=extra, events=events)


_SPECIAL = ("options", "game_options", "extra", "events")


def _fields(options: Any) -> dict[str, Any]:
    """An options dataclass as plain data (its fields; stakes objects as dicts)."""
    return {f.name: _plain(getattr(options, f.name)) for f in dataclasses.fields(options)}


@functools.lru_cache(maxsize=16)
def _options(variant: str, data: str) -> Any:
    """One options object per distinct set of options (they are frozen): bots that
    cache by the options' identity (``agents.neural``) see the same object every time."""
    return get_variant(variant).options_cls(**{key: _tuples(value) for key, value in json.loads(data).items()})


def _plain(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _tuples(value: Any) -> Any:
    """Lists back to tuples (views hold tuples), at every depth."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def _event(fields: list[Any]) -> Event:
    kind, seat, cards, *rest, verb = fields
    return Event(EventKind(kind), seat, tuple(cards), *rest, Verb(verb))
