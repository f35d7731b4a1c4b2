"""A finished hand as one seat saw it: what each agent's ``info["history"]`` holds.

The omniscient history (every card) and the exact replay record (the deck, the
generator state) would tell a bot the other players' unshown cards and the cards to
come, so bots get a :class:`SeatHistory` instead: plain data holding only what that
seat saw, with the same text as ``hand_history(state, seat)``. The user gets the rest
from ``env.unwrapped.hand_record()`` and ``env.unwrapped.full_history()``.

Cheap at the end of every hand: one pass over the events builds the part every seat
shares (public events, others' face-down cards as deal events without their card) and
each seat's own part (its face-down cards, its secret choices); a seat's full event
list and text are put together only when asked for.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from envs.engine.events import Event
from envs.engine.history import hand_history
from envs.engine.state import State

# A seat's own event: (index in the shared events, the event, whether it replaces the
# shared event there (its own face-down card) or comes before it (a secret of its own)).
OwnEvent = tuple[int, Event, bool]


@dataclass(eq=True)
class SeatHistory:
    """A finished hand (a whole game in the Cowboy family) as seat ``viewer`` saw it.

    ``str()`` (or ``text``) gives the text a poker site would show that seat: its own
    down cards, everything face up, shown hands, others' unshown cards as ``??``;
    ``events`` the seat's events (as in its :class:`~envs.view.PublicView`). Plain
    data: it pickles and holds nothing the seat did not see.
    """

    variant: str
    title: str
    num_players: int
    options: Any
    option_names: frozenset[str]
    button: int
    viewer: int
    payoffs: tuple[int, ...] | None
    shared: tuple[Event, ...] = field(repr=False)  # what every seat saw
    own: tuple[OwnEvent, ...] = field(repr=False)  # what only this seat saw

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def of(cls, st: State, seat: int) -> SeatHistory:
        """The history of ``st`` as ``seat`` saw it."""
        return seat_histories(st)[seat]

    @functools.cached_property
    def events(self) -> tuple[Event, ...]:
        """Everything this seat saw happen, in order."""
        out = list(self.shared)
        inserted = 0
        for index, e, replaces in self.own:
            if replaces:
                out[index + inserted] = e
            else:
                out.insert(index + inserted, e)
                inserted += 1
        return tuple(out)

    @functools.cached_property
    def text(self) -> str:
        """The hand as text (the same as ``hand_history(state, viewer)``)."""
        return hand_history(self._as_state(), self.viewer)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return self.text

    def _as_state(self) -> SimpleNamespace:
        """What ``hand_history`` reads of a state, rebuilt from this seat's data. Others'
        hidden deals carry a placeholder card: the text shows them as ``??`` anyway."""
        hidden = (-1,)
        events = [e._replace(cards=hidden) if e.kind == "deal" and not e.cards else e for e in self.events]
        variant = SimpleNamespace(title=self.title, option_names=self.option_names)
        game = SimpleNamespace(variant=variant, name=self.variant, num_players=self.num_players, options=self.options)
        payoff = None if self.payoffs is None else list(self.payoffs)
        return SimpleNamespace(game=game, button=self.button, events=events, payoff=payoff)


def seat_histories(st: State) -> list[SeatHistory]:
    """Every seat's history of ``st``, from one pass over its events."""
    n = st.n
    shared: list[Event] = []
    own: list[list[OwnEvent]] = [[] for _ in range(n)]
    for e in st.events:
        if e.secret:
            if 0 <= e.seat < n:
                own[e.seat].append((len(shared), e, False))
        elif e.kind == "deal" and not e.up:
            own[e.seat].append((len(shared), e, True))
            shared.append(Event(e.kind, e.seat, (), *e[3:]))  # the card stays hidden
        else:
            shared.append(e)
    game = st.game
    payoffs = None if st.payoff is None else tuple(st.payoff)
    public = tuple(shared)
    return [
        SeatHistory(
            variant=game.name,
            title=game.variant.title,
            num_players=n,
            options=game.options,
            option_names=game.variant.option_names,
            button=st.button,
            viewer=seat,
            payoffs=payoffs,
            shared=public,
            own=tuple(own[seat]),
        )
        for seat in range(n)
    ]
