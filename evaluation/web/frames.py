"""One moment of a hand as plain data: what the page draws, seat by seat.

The facts are the ones :func:`envs.render.table_image` draws (the same visibility rule:
a card is shown face up if it is up, if the viewer holds it, if it was shown in this
deal, or to the omniscient viewer ``None``), so the HTML table and the project's PNG
agree. ``viewer``: a seat, ``-1`` (the public view) or ``None`` (every card). Secrets
(a Cowpie split, a declaration, a Cowboy discard) appear only in the viewer's history
lines, which :func:`envs.engine.history.hand_history` already hides correctly.
"""

from __future__ import annotations

from typing import Any

from envs.engine.cards import format_card
from envs.engine.events import EventKind
from envs.engine.history import (
    _event_line,  # the history's own words: the table says no more than it
    hand_history,
    history_lines,
)
from envs.engine.state import State
from envs.render import last_action, shown_cards, street_text

Viewer = int | None
# what a seat said that the table shows by its box (a declaration, a Cowpie split, a
# Cowboy stay or draw), once the viewer may know it; a new Cowboy deal clears them
SAID_KINDS = frozenset(
    {EventKind.DECLARE, EventKind.REVEAL, EventKind.SPLIT, EventKind.SPLIT_REVEAL, EventKind.STAY, EventKind.DRAW}
)


def frame(st: State, viewer: Viewer, names: list[str] | None = None, *, history: bool = True) -> dict[str, Any]:
    """The table as ``viewer`` sees it (JSON types only). ``history``: with the hand
    history's lines so far (a replay sends the lines once, see :func:`history_data`,
    and each frame only its count of ``events``)."""
    shown = shown_cards(st)
    said = said_by_seat(st, viewer)
    seats = []
    for seat in range(st.n):
        cards = []
        for card, up in zip(st.cards[seat], st.up[seat], strict=True):
            seen = up or viewer is None or viewer == seat or card in shown
            cards.append({"card": format_card(card) if seen else None, "up": bool(up)})
        seats.append({**_seat(st, seat, cards, names), "said": said.get(seat, "")})
    return {
        "title": st.title,
        "street": street_text(st),
        "over": st.is_over,
        "viewer": viewer,
        "button": st.button,
        "to_act": None if st.is_over else st.current_seat,
        "pot": st.pot(),
        "community": [format_card(c) for c in st.community],
        "layout": "chowaha" if st.playing.variant.family == "chowaha" else "row",
        "seats": seats,
        "last": last_action(st, viewer),
        "history": hand_history(st, viewer).splitlines() if history else None,
        "events": len(st.events),
        "decisions": len(st.decisions),
    }


def history_data(final: State, viewer: Viewer) -> list[list[Any]]:
    """The final state's history lines as ``[events needed, line]`` pairs: a frame
    with ``k`` events shows the lines needing at most ``k``."""
    return [[k, line] for k, line in history_lines(final, viewer)]


def said_by_seat(st: State, viewer: Viewer) -> dict[int, str]:
    """Each seat's latest declaration, split, stay or draw in the viewer's history
    words (a secret one only for its owner, or every card's viewer)."""
    said: dict[int, str] = {}
    for e in st.events:
        if e.kind == EventKind.SHUFFLE:
            said.clear()
        elif e.kind in SAID_KINDS and e.seat >= 0:
            line = _event_line(e, viewer)
            if line:
                said[e.seat] = line.removeprefix(f"player_{e.seat}: ")
    return said


def _seat(st: State, seat: int, cards: list[dict[str, Any]], names: list[str] | None) -> dict[str, Any]:
    """Chips as the renderer words them: behind (with the winnings at the end; Cowboy's
    unlimited stacks as the net so far), in the pot, bet this street, the result."""
    stack = st.stack[seat] if st.payoff is None else st.start_stack[seat] + st.payoff[seat]
    unlimited = bool(st.unlimited[seat])
    return {
        "seat": seat,
        "name": names[seat] if names else f"player_{seat}",
        "cards": cards,
        "folded": bool(st.folded[seat]),
        "stack": None if unlimited else stack,
        "net": stack - st.start_stack[seat] if unlimited else None,
        "committed": st.committed[seat],
        "bet": st.contrib[seat],
        "payoff": None if st.payoff is None else st.payoff[seat],
    }


def street_marks(states: list[State]) -> list[dict[str, Any]]:
    """The first frame of each street (or Cowboy deal), for "jump to street"."""
    marks: list[dict[str, Any]] = []
    for i, st in enumerate(states):
        label = street_text(st)
        if not marks or marks[-1]["label"] != label:
            marks.append({"label": label, "frame": i})
    return marks
