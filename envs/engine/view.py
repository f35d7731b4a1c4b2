"""A structured view of what one seat may know: the same public information as the
observation vector, as plain Python values for bots that reason about cards.

``public_view(state, seat)`` copies only what the seat can see (docs/rules.md section 7):
its own cards, face-up cards, community cards, chips, public actions, revealed
choices, and (Cowboy) the dummy's cards while the seat chooses its draw. Others'
face-down cards, discards and secret choices never appear; a test resamples them and
checks that nothing a bot can reach from the view changes.

A view holds copies, never the state: everything reachable from it (its fields, the
events, ``extra``) is plain data a seat may see, so a bot cannot walk from the view to
the deck. The env keeps each seat's filtered event log as the hand goes
(:class:`SeatLogs`) and hands a view an immutable snapshot of it, so asking for a view
costs little even in Cowboy games of thousands of events.

At the end of a hand each seat gets a :class:`~envs.seat_history.SeatHistory`: the hand
as that seat saw it. The omniscient history and the replay record are the user's, not
the bots' (``env.unwrapped.hand_record()``). :mod:`envs.view` turns a view into plain
data and back, for bots in other processes (:mod:`evaluation.isolate`).

Family-specific public facts (Cowboy's deal, phase, stays) come from the variant's
``view_extras`` hook into ``PublicView.extra``. At a dealer's choice table ``variant``
and ``options`` are the table's and ``game`` / ``game_options`` the game in play's
(the table's own until the game is named); ``extra`` then holds the table's facts and
the game in play's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from envs.engine.events import Event, EventKind
from envs.engine.state import State


@dataclass(frozen=True)
class PublicView:
    """What ``seat`` knows at this moment.

    Cards are ints (``rank * 4 + suit``, see ``envs.engine.cards``); seats are absolute
    (``player_i`` is seat i); chips are chips (``unit`` converts to reward units).
    ``events`` is everything the seat saw happen, in order: others' face-down cards
    appear as deal events with no cards, and others' secret events are left out.
    ``game`` and ``game_options`` name the rules in play: the variant and its options,
    or at a dealer's choice table the game the dealer named (the table itself before
    that); bots that play by the rules read these.
    """

    variant: str
    num_players: int
    seat: int
    button: int
    street: int
    street_label: str
    own_cards: tuple[int, ...]
    own_up: tuple[bool, ...]
    up_cards: tuple[tuple[int, ...], ...]  # every seat's face-up cards (folded seats' too)
    community: tuple[int, ...]
    community_labels: tuple[str, ...]
    folded: tuple[bool, ...]
    pot: int
    to_call: int
    current_bet: int
    bet_unit: int
    stacks: tuple[int | None, ...]  # None: unlimited
    committed: tuple[int, ...]
    unit: int
    legal_actions: tuple[int, ...]
    legal_names: tuple[str, ...]
    options: Any
    game: str = ""  # the game in play (the variant itself, or the game a dealer's choice table named)
    game_options: Any = None  # its options
    extra: dict[str, Any] = field(default_factory=dict)  # family-specific public facts
    events: tuple[Event, ...] = field(default=(), repr=False)

    __hash__ = None  # type: ignore[assignment]

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return bool(self.legal_actions)

    @property
    def live_opponents(self) -> int:
        """Opponents still in the hand."""
        return sum(1 for s in range(self.num_players) if s != self.seat and not self.folded[s])

    def seen_cards(self) -> set[int]:
        """Every card this seat has seen that is out of the stub now (own, face up,
        community, shown in this deal). A new Cowboy deal (a ``shuffle`` event)
        reshuffles every card, so earlier shows no longer count."""
        seen = set(self.own_cards) | set(self.community)
        for cards in self.up_cards:
            seen.update(cards)
        for e in reversed(self.events):  # back to the start of this deal: long games stay cheap
            if e.kind == "show":
                seen.update(e.cards)
            elif e.kind == EventKind.SHUFFLE:  # a new deal: cards shown before are back in the deck
                break
        seen.update(self.extra.get("dummy_cards", ()))
        return seen


def visible(e: Event, seat: int) -> Event | None:
    """The event as ``seat`` saw it, or None if it saw nothing of it."""
    if e.secret and e.seat != seat:
        return None
    if e.kind == "deal" and not e.up and e.seat != seat:
        return _hidden(e)  # a card was dealt face down: which one is hidden
    return e


def _hidden(e: Event) -> Event:
    """The deal event without its card (``_replace`` is several times slower)."""
    return Event(e.kind, e.seat, (), *e[3:])


class SeatLogs:
    """Every seat's filtered event log, extended as the hand goes.

    ``sync`` files the events logged since the last call (each at most once, so a
    view costs nothing per old event); ``snapshot`` is an immutable copy of one log,
    made again only when the log grew. The filter is :func:`visible`'s. A new
    state's event list (a new hand) starts the logs again.
    """

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.source: Sequence[Event] | None = None
        self.reset()

    def reset(self) -> None:
        """Empty logs (a new hand, or game)."""
        self.logs: list[list[Event]] = [[] for _ in range(self.num_players)]
        self.snapshots: list[tuple[Event, ...]] = [() for _ in range(self.num_players)]
        self.seen = 0

    def sync(self, events: Sequence[Event]) -> None:
        """File ``events[seen:]`` into every seat's log (all of them for a new list)."""
        if events is not self.source:
            self.source = events
            self.reset()
        logs = self.logs
        n = len(logs)
        run = self.seen  # the start of a run of events every seat sees: copied in one go
        for i in range(self.seen, len(events)):
            e = events[i]
            if not e.secret and (e.up or e.kind != "deal"):
                continue
            if run < i:
                for log in logs:
                    log.extend(events[run:i])
            run = i + 1
            if e.secret:
                if 0 <= e.seat < n:
                    logs[e.seat].append(e)
            else:  # dealt face down
                hidden = _hidden(e)
                for seat, log in enumerate(logs):
                    log.append(e if seat == e.seat else hidden)
        if run < len(events):
            for log in logs:
                log.extend(events[run:])
        self.seen = len(events)

    def snapshot(self, seat: int) -> tuple[Event, ...]:
        """The seat's log so far, as a tuple (the same tuple until the log grows)."""
        log, snap = self.logs[seat], self.snapshots[seat]
        if len(snap) != len(log):
            snap = self.snapshots[seat] = tuple(log)
        return snap


def public_view(
    st: State,
    seat: int,
    legal_names: tuple[str, ...] | None = None,
    events: tuple[Event, ...] | None = None,
) -> PublicView:
    """Everything ``seat`` may know now.

    ``events``: the seat's filtered log when the caller keeps one (the env's
    :class:`SeatLogs`); otherwise the whole log is filtered here.
    """
    game = st.game
    legal = tuple(st.legal_actions()) if st.current_seat == seat else ()
    names = legal_names if legal_names is not None else tuple(game.action_names[a] for a in legal)
    up_cards = tuple(tuple(c for c, u in zip(st.cards[s], st.up[s], strict=True) if u) for s in range(st.n))
    labels = tuple(e.text for e in st.events if e.kind == EventKind.COMMUNITY) if st.community else ()
    extra = _extras(game.variant.view_extras, st, seat)
    if st.playing is not game:
        extra.update(_extras(st.playing.variant.view_extras, st, seat))
    if events is None:
        events = tuple(v for v in (visible(e, seat) for e in st.events) if v is not None)
    return PublicView(
        variant=game.name,
        num_players=st.n,
        seat=seat,
        button=st.button,
        street=st.street,
        street_label=st.street_label,
        own_cards=tuple(st.cards[seat]),
        own_up=tuple(st.up[seat]),
        up_cards=up_cards,
        community=tuple(st.community),
        community_labels=labels,
        folded=tuple(st.folded),
        pot=st.pot(),
        to_call=max(0, st.current_bet - st.contrib[seat]),
        current_bet=st.current_bet,
        bet_unit=st.bet_unit,
        stacks=tuple(st.behind(s) for s in range(st.n)),
        committed=tuple(st.committed),
        unit=game.unit,
        legal_actions=legal,
        legal_names=names if legal else (),
        options=game.options,
        game=st.playing.name,
        game_options=st.playing.options,
        extra=extra,
        events=events,
    )


def _extras(hook: Any, st: State, seat: int) -> dict[str, Any]:
    """A variant's public facts for the seat (none without a ``view_extras`` hook; a
    hook returns a fresh dict every call)."""
    return hook(st, seat) if hook is not None else {}
