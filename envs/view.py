"""A structured view of what one seat may know: the same public information as the
observation vector, as plain Python values for bots that reason about cards.

``public_view(state, seat)`` copies only what the seat can see (RULES.md section 7):
its own cards, face-up cards, community cards, chips, public actions, revealed
choices, and (Cowboy) the dummy's cards while the seat chooses its draw. Others'
face-down cards, discards and secret choices never appear; a test resamples them and
checks that the view does not change.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any

from envs.engine.events import Event
from envs.engine.state import State


@dataclass(frozen=True)
class PublicView:
    """What ``seat`` knows at this moment.

    Cards are ints (``rank * 4 + suit``, see ``envs.engine.cards``); seats are absolute
    (``player_i`` is seat i); chips are chips (``unit`` converts to reward units).
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
    extra: dict[str, Any] = field(default_factory=dict)  # family-specific public facts
    log: list[Event] = field(default_factory=list, repr=False, compare=False)
    log_length: int = 0

    @functools.cached_property
    def events(self) -> tuple[Event, ...]:
        """Everything this seat saw happen, in order (filtered on first use: long
        Cowboy games have thousands of events and most bots never read them)."""
        return tuple(v for v in (_visible(e, self.seat) for e in self.log[: self.log_length]) if v is not None)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PublicView):
            return NotImplemented
        fields = [f.name for f in dataclasses.fields(self) if f.compare]
        same = all(getattr(self, f) == getattr(other, f) for f in fields)
        return same and self.events == other.events

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
        community, shown in this deal). A new Cowboy deal (a ``street`` event named
        ``deal N``) reshuffles every card, so earlier shows no longer count."""
        seen = set(self.own_cards) | set(self.community)
        for cards in self.up_cards:
            seen.update(cards)
        shown: set[int] = set()
        for e in self.events:
            if e.kind == "show":
                shown.update(e.cards)
            elif e.kind == "street" and e.text.startswith("deal "):
                shown.clear()
        seen.update(shown)
        seen.update(self.extra.get("dummy_cards", ()))
        return seen


def _visible(e: Event, seat: int) -> Event | None:
    """The event as ``seat`` saw it, or None if it saw nothing of it."""
    if e.secret and e.seat != seat:
        return None
    if e.kind == "deal" and not e.up and e.seat != seat:
        return e._replace(cards=())  # a card was dealt face down: which one is hidden
    return e


def public_view(st: State, seat: int, legal_names: tuple[str, ...] | None = None) -> PublicView:
    """Everything ``seat`` may know now."""
    game = st.game
    legal = tuple(st.legal_actions()) if st.current_seat == seat else ()
    names = legal_names if legal_names is not None else tuple(game.action_names[a] for a in legal)
    up_cards = tuple(tuple(c for c, u in zip(st.cards[s], st.up[s], strict=True) if u) for s in range(st.n))
    labels = tuple(e.text for e in st.events if e.kind == "community")
    view_extras = game.variant.view_extras
    extra = view_extras(st, seat) if view_extras is not None else {}
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
        extra=extra,
        log=st.events,
        log_length=len(st.events),
    )
