"""Everything a bot can reach from what it is given: a walk through an object.

A bot in the same process can follow any attribute of its view or its info: dataclass
fields, ``__dict__`` (cached properties live there), tuples, lists, dicts, sets. The
no-leak tests compare the whole walk, not only what takes part in ``==``. The walk
refuses anything it cannot vouch for: functions (a closure can hold the state),
states, games (their steps hold functions) and objects of other classes.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from envs.engine.events import Event
from envs.engine.game import Game

LEAVES = (int, float, str, bool, type(None), bytes)


class UnreachableError(AssertionError):
    """The walk met something a bot must not be handed."""


class Walk:
    """What one walk met besides the dump: the events, and the ids of every container
    (to ask whether one particular list, such as the state's event log, was reachable)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.containers: set[int] = set()


def _plain_event(e: Any) -> bool:
    """An event made of leaves only (the common case, dumped as it is: it is immutable)."""
    return (
        type(e) is Event
        and type(e.kind) is str
        and type(e.seat) is int
        and type(e.cards) is tuple
        and all(type(c) is int for c in e.cards)
        and type(e.amount) is int
        and type(e.action) is int
        and type(e.up) is bool
        and type(e.text) is str
        and type(e.street) is int
        and type(e.secret) is bool
    )


def reach(obj: Any, path: str = "view", walk: Walk | None = None, _active: frozenset[int] = frozenset()) -> Any:
    """A plain-data dump of everything reachable from ``obj`` (type names included, so
    that two dumps are equal only if a bot could not tell the objects apart). ``walk``
    collects the events and containers met on the way."""
    if type(obj) in LEAVES:
        return obj
    walk = walk if walk is not None else Walk()
    if id(obj) in _active:
        raise UnreachableError(f"{path}: a reference cycle")
    active = _active | {id(obj)}
    if isinstance(obj, np.ndarray):
        return ("ndarray", str(obj.dtype), obj.shape, obj.tobytes())
    if isinstance(obj, np.generic):
        return ("numpy", str(obj.dtype), obj.item())
    if isinstance(obj, (tuple, list, dict)):
        walk.containers.add(id(obj))
    if isinstance(obj, Event):
        walk.events.append(obj)
        if _plain_event(obj):
            return ("Event", obj)
    if isinstance(obj, LEAVES):  # subclasses of int, str...
        return (type(obj).__name__, obj)
    if type(obj) is tuple and all(type(x) in LEAVES for x in obj):
        return ("tuple", obj)
    if isinstance(obj, (tuple, list)):
        return (type(obj).__name__, [reach(x, f"{path}[{i}]", walk, active) for i, x in enumerate(obj)])
    if isinstance(obj, (set, frozenset)):
        return (type(obj).__name__, sorted(reach(x, f"{path}{{}}", walk, active) for x in obj))
    if isinstance(obj, dict):
        items = [(reach(k, path, walk, active), reach(v, f"{path}[{k!r}]", walk, active)) for k, v in obj.items()]
        return ("dict", items)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, (type, Game)):
        attrs = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        attrs.update(getattr(obj, "__dict__", {}))  # cached properties, anything set later
        slots = [s for c in type(obj).__mro__ for s in getattr(c, "__slots__", ())]
        attrs.update({s: getattr(obj, s) for s in slots if hasattr(obj, s)})
        fields = [(k, reach(v, f"{path}.{k}", walk, active)) for k, v in sorted(attrs.items())]
        return (type(obj).__name__, fields)
    raise UnreachableError(f"{path}: a {type(obj).__module__}.{type(obj).__qualname__} is reachable")


def leaked_events(events: list[Event], viewer: int) -> list[Event]:
    """Events ``viewer`` must not see that were reachable: others' secret events, and
    others' face-down deals with their card."""
    return [
        e
        for e in events
        if (e.secret and e.seat != viewer) or (e.kind == "deal" and not e.up and e.seat != viewer and e.cards)
    ]
