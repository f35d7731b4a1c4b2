"""The event log: everything that happened in a hand, in order.

Events are small named tuples so that logging costs little. ``secret`` events (a
burned card, a declaration before the reveal, a Cowboy discard) are in the log for
replay and debugging but must not reach other players' observations or histories
shown to them.
"""

from __future__ import annotations

from typing import NamedTuple


class Event(NamedTuple):
    """One thing that happened.

    ``kind`` is one of: ``start`` (``amount`` = number of players, ``seat`` = button),
    ``ante``, ``blind``, ``deal`` (one card to ``seat``; ``up`` tells face up),
    ``community`` (a shared card; ``text`` names its position), ``burn``, ``action``
    (``action`` index, ``text`` the verb, ``amount`` the seat's total bet this street
    after it), ``declare`` (secret), ``reveal`` (``text``: the revealed choice),
    ``split`` (secret), ``show`` (``cards``: everything the seat shows), ``award``
    (``amount`` won, ``text`` what for), ``street`` (a new street begins, ``text``),
    ``draw``, ``stay``, ``reshuffle``, ``dummy`` and ``end``.
    """

    kind: str
    seat: int = -1
    cards: tuple[int, ...] = ()
    amount: int = 0
    action: int = -1
    up: bool = False
    text: str = ""
    street: int = -1
    secret: bool = False
