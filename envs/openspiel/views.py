"""What a player knows, as OpenSpiel's information states and observations.

* **Information-state string**: the player's seat, then every event of the hand as
  that player saw it, one per line: its own cards and every face-up card by name,
  other players' face-down cards as ``??``, public actions, reveals and showdowns.
  Secret events of others (a declaration or a Cowpie split before the reveal, a
  Cowboy discard, a burned card) are left out entirely, so an earlier secret choice of
  another player is never part of it. This is the player's whole history (perfect
  recall): two histories give the same string exactly when the player cannot tell
  them apart. The visibility rule is the one of the env's views (docs/rules.md section 7).
* **Tensors**: the env's observation vector for that seat (the observation pieces of
  the variant, :class:`~envs.engine.observation.Tracker`), with the env's layout
  (``env.unwrapped.observation_table()``). It holds the betting history too, but
  coarsely past four actions per seat and street; the string is the exact one.
* **Observation string** (imperfect recall): the text view of that vector, piece by
  piece (:func:`~envs.engine.observation.describe`).
"""

from __future__ import annotations

import numpy as np

from envs.engine.cards import format_cards
from envs.engine.events import Event, EventKind
from envs.engine.game import Game
from envs.engine.observation import describe
from envs.engine.state import State


def visible(e: Event, seat: int) -> Event | None:
    """The event as ``seat`` saw it, or None if it saw nothing of it: others' secret
    events vanish, others' face-down cards lose their names."""
    if e.secret and e.seat != seat:
        return None
    if e.kind == EventKind.DEAL and not e.up and e.seat != seat:
        return e._replace(cards=())
    return e


def event_line(e: Event) -> str:
    """One event as a line of text holding every field it carries (so that different
    events never print alike)."""
    parts = [str(e.kind)]
    if e.seat >= 0:
        parts.append(f"p{e.seat}")
    if e.kind == EventKind.DEAL:
        parts.append(format_cards(e.cards) if e.cards else "??")
        parts.append("up" if e.up else "down")
    elif e.cards:
        parts.append(format_cards(e.cards))
    if e.verb:
        parts.append(e.verb.name.lower())
    if e.action >= 0:
        parts.append(f"#{e.action}")
    if e.amount:
        parts.append(str(e.amount))
    if e.street >= 0:
        parts.append(f"street={e.street}")
    if e.text:
        parts.append(repr(e.text))
    return " ".join(parts)


def information_state_string(st: State | None, seat: int) -> str:
    """Everything ``seat`` has seen of the hand, in order (``st`` None: nothing dealt yet)."""
    lines = [f"player_{seat}"]
    if st is not None:
        for e in st.events:
            seen = visible(e, seat)
            if seen is not None:
                lines.append(event_line(seen))
    return "\n".join(lines)


class TensorView:
    """The env's observation vector of any state, for any seat (one tracker, reused)."""

    def __init__(self, game: Game) -> None:
        self.pieces = game.variant.pieces(game)
        self.tracker = game.variant.tracker(game, self.pieces)

    @property
    def size(self) -> int:
        return self.tracker.size

    def vector(self, st: State | None, seat: int) -> np.ndarray:
        """``seat``'s observation of ``st`` (zeros before the hand is dealt)."""
        if st is None:
            return np.zeros(self.size, np.float32)
        self.tracker.reset(st)
        return self.tracker.observe(seat)

    def text(self, st: State | None, seat: int) -> str:
        """The vector's text view, piece by piece."""
        return f"player_{seat}\n" + describe(self.pieces, self.vector(st, seat))
