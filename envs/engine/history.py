"""Hand histories: readable text from the event log, and exact replay.

``hand_history(state)`` prints the hand the way poker sites do (streets, cards dealt,
each action, the showdown and who won what); ``viewer=seat`` hides what that seat
could not see. ``HandRecord`` (defined in :mod:`envs.engine.record`, re-exported here)
captures what is needed to replay a hand exactly and what the replay must agree with;
it round-trips through JSON and its ``replay()`` raises :class:`RecordMismatchError` naming
any disagreement.
"""

from __future__ import annotations

import dataclasses

from envs.engine.cards import format_cards
from envs.engine.events import Event, Verb
from envs.engine.game import Game
from envs.engine.options import OBSERVATION_OPTIONS
from envs.engine.record import HandRecord, RecordError, RecordFormatError, RecordMismatchError
from envs.engine.state import State

__all__ = ["HandRecord", "RecordError", "RecordFormatError", "RecordMismatchError", "hand_history", "history_lines"]

_SHOWN_KINDS = {"ante", "blind", "action", "reveal", "award", "stay", "draw", "note", "split_reveal", "dummy"}


def _name(seat: int) -> str:
    return f"player_{seat}"


def _options_text(game: Game) -> str:
    o = game.options
    shown = game.variant.option_names - OBSERVATION_OPTIONS - {"button"}  # the game's rules only
    names = [f.name for f in dataclasses.fields(o) if f.name in shown]
    return ", ".join(f"{name}={getattr(o, name)!r}" for name in names)


def hand_history(state: State, viewer: int | None = None) -> str:
    """The hand as text. ``viewer=None`` shows every card (omniscient); a seat number
    shows only what that seat saw: its own cards, face-up cards and shown hands."""
    return "\n".join(line for _, line in history_lines(state, viewer))


def history_lines(state: State, viewer: int | None = None) -> list[tuple[int, str]]:
    """The lines of :func:`hand_history`, each with how many events of the log it
    needs: a replayer at a moment with ``k`` events shows the lines needing at most
    ``k``, without formatting the history again for every moment of a long game."""
    game = state.game
    lines = [
        (0, f"Dealer's Choice: {game.variant.title} ({game.name}), {game.num_players} players"),
        (0, f"Options: {_options_text(game)}"),
        (0, f"Button: {_name(state.button)}"),
    ]
    dealt: dict[int, list[tuple[int, bool]]] = {}
    for i, e in enumerate(state.events):
        if e.kind == "deal":
            dealt.setdefault(e.seat, []).append((e.cards[0], e.up))
            continue
        if dealt:
            lines += [(i, line) for line in _deal_lines(dealt, viewer)]
            dealt = {}
        line = _event_line(e, viewer)
        if line:
            lines.append((i + 1, line))
    end = len(state.events)
    if dealt:
        lines += [(end, line) for line in _deal_lines(dealt, viewer)]
    if state.payoff is not None:
        lines.append((end, "*** SUMMARY ***"))
        lines += [(end, f"{_name(s)}: {p:+d}") for s, p in enumerate(state.payoff)]
    return lines


def _deal_lines(dealt: dict[int, list[tuple[int, bool]]], viewer: int | None) -> list[str]:
    out = []
    for seat, cards in dealt.items():
        down = [c for c, up in cards if not up]
        up = [c for c, up in cards if up]
        hidden = viewer is not None and viewer != seat
        parts = []
        if down:
            parts.append("[" + (" ".join("??" for _ in down) if hidden else format_cards(down)) + "]")
        if up:
            parts.append(format_cards(up))
        out.append(f"Dealt to {_name(seat)}: {' '.join(parts)}")
    return out


def _event_line(e: Event, viewer: int | None) -> str:
    if e.secret and (viewer is None or viewer != e.seat):
        return "" if viewer is not None else _secret_line(e)
    if e.kind == "street":
        return f"*** {e.text.upper()} ***"
    if e.kind == "community":
        return f"{e.text}: {format_cards(e.cards)}"
    if e.kind == "show":
        return f"{_name(e.seat)}: shows {format_cards(e.cards)}"
    if e.kind == "ante":
        return f"{_name(e.seat)}: antes {e.amount}"
    if e.kind == "blind":
        return f"{_name(e.seat)}: posts {e.text} {e.amount}"
    if e.kind == "action":
        amount = "" if e.text in ("folds", "checks") else f" {e.amount}"
        return f"{_name(e.seat)}: {e.text}{amount}"
    if e.kind == "reveal":
        return f"{_name(e.seat)}: declares {e.text}"
    if e.kind == "award":
        return f"{_name(e.seat)} wins {e.amount} ({e.text})"
    if e.kind == "choose":  # dealer's choice: the button names the game, or the rotation or a draw does
        return f"{_name(e.seat)} (dealer) chooses {e.text}" if e.verb == Verb.CHOOSE else f"Game: {e.text}"
    if e.kind == "declare":
        return f"{_name(e.seat)}: declares in secret"
    if e.kind == "split":  # the splitter's own view: its secret Cowpie split
        return f"{_name(e.seat)}: {e.text}"
    if e.kind in _SHOWN_KINDS and e.text:
        return f"{_name(e.seat)}: {e.text}" if e.seat >= 0 else e.text
    return ""


def _secret_line(e: Event) -> str:
    if e.kind == "burn":
        return f"(burned {format_cards(e.cards)})"
    if e.kind == "declare":
        return f"{_name(e.seat)}: declares in secret"
    if e.kind == "split":
        return f"{_name(e.seat)}: {e.text}"
    return f"({e.kind}: {e.text or format_cards(e.cards)})"
