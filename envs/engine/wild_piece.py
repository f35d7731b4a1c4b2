"""The ``wild_cards`` observation piece (docs/rules.md section 11): which cards are wild.

The joker is card 52, outside every 52-wide one-hot block, so the card pieces leave
it out and this piece says where it is; under deuces wild the deuces are in the card
blocks already and this piece marks them as wild in the viewer's own slots. It is
added only to games with wild cards, so a game without them keeps its layout exactly;
the action layout never changes. What it shows follows section 7: the viewer's own
cards, face-up cards, the community card, hands shown at the showdown and (Cowpie)
splits once revealed (the viewer's own at once).

Layout (``n`` players, ``slots`` own-card slots):

==========================  =======================================================
``rule``                    4: joker, bug, deuces (one-hot), natural_beats_wild
``own``                     ``slots``: the viewer's card in this dealt slot is wild
``joker_up``                ``n - 1``: relative seat 1.. shows the joker face up
``joker_community``         1 (games with a community card): the joker is it
``joker_shown``             ``n``: relative seat 0.. showed the joker at the showdown
``joker_split``             ``2 n`` (Cowpie): the joker is in the seat's two-card /
                            five-card hand of its split
==========================  =======================================================
"""

from __future__ import annotations

from typing import Any

from envs.engine.cards import JOKER
from envs.engine.events import Event, EventKind
from envs.engine.hands.wild import WILD_KINDS
from envs.engine.observation import Piece, Tracker
from envs.engine.wild_options import wild_rules


class WildCards(Piece):
    """Where the wild cards are, for each viewer (see the module docstring)."""

    def __init__(self, options: Any, n: int, slots: int, community: bool, splits: bool) -> None:
        rules = wild_rules(options)
        assert rules is not None, "the wild_cards piece belongs to games with wild cards"
        self.rules, self.n, self.slots = rules, n, slots
        self.up_at = 4 + slots
        self.community_at = self.up_at + n - 1
        self.shown_at = self.community_at + (1 if community else 0)
        self.split_at = self.shown_at + n
        size = self.split_at + (2 * n if splits else 0)
        parts = [
            "rule: joker, bug, deuces one-hot, natural_beats_wild",
            f"{slots} own slots: the card is wild",
            f"relative seats 1..{n - 1}: shows the joker face up",
        ]
        if community:
            parts.append("the joker is the community card")
        parts.append(f"relative seats 0..{n - 1}: showed the joker at the showdown")
        if splits:
            parts.append(f"relative seats 0..{n - 1} x (joker in the two-card hand, in the five-card hand)")
        events = (EventKind.DEAL, EventKind.COMMUNITY, EventKind.SHOW, EventKind.SPLIT, EventKind.SPLIT_REVEAL)
        super().__init__("wild_cards", size, "; ".join(parts), tuple(str(e) for e in events))

    def reset(self, t: Tracker) -> None:
        for viewer in range(t.n):
            t.set(viewer, self, WILD_KINDS.index(self.rules.wild))
            t.set(viewer, self, 3, 1.0 if self.rules.natural_beats_wild else 0.0)

    def on_event(self, t: Tracker, e: Event) -> None:
        if e.kind == EventKind.DEAL:
            self._deal(t, e)
        elif e.kind == EventKind.COMMUNITY and JOKER in e.cards and self.shown_at > self.community_at:
            for viewer in range(t.n):
                t.set(viewer, self, self.community_at)
        elif e.kind == EventKind.SHOW and JOKER in e.cards:
            t.set_all(self, e.seat, self.shown_at, 1)
        elif e.kind in (EventKind.SPLIT, EventKind.SPLIT_REVEAL) and self.size > self.split_at and JOKER in e.cards:
            in_five = 1 if JOKER in e.cards[2:] else 0
            viewers = [e.seat] if e.kind == EventKind.SPLIT else range(t.n)  # a split is secret until revealed
            for viewer in viewers:
                t.set(viewer, self, self.split_at + t.rel(viewer, e.seat) * 2 + in_five)

    def _deal(self, t: Tracker, e: Event) -> None:
        key = (-3, e.seat)  # this piece's own count of the seat's dealt cards
        slot = t.counters.get(key, 0)
        t.counters[key] = slot + 1
        card = e.cards[0]
        if self.rules.is_wild(card) and slot < self.slots:
            t.set(e.seat, self, 4 + slot)
        if card == JOKER and e.up:
            for viewer in range(t.n):
                if viewer != e.seat:
                    t.set(viewer, self, self.up_at + t.rel(viewer, e.seat) - 1)
