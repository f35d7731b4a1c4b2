"""The Cowboy family's ``wild_cards`` piece (docs/rules.md section 11), read per step.

The joker (card 52) is in no 52-wide block, so the card pieces leave it out; this
piece says where the wild cards are, from the same public facts as the other Cowboy
pieces (the viewer's hand, the dummy for the seat choosing its draw, the showdown
summaries). Added only to games with wild cards.

Layout: ``rule`` 4 (joker, bug, deuces one-hot, natural_beats_wild); ``hand`` 5 (the
card at this hand position is wild); ``dummy`` 5 (the same for the dummy, to its
chooser); then per kept showdown, most recent first, ``n + 1`` flags: relative seat
0.. showed the joker, the dummy showed it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.engine.cards import JOKER
from envs.engine.hands.wild import WILD_KINDS
from envs.engine.observation import Piece, Tracker
from envs.engine.wild_options import wild_rules
from envs.variants.cowboy.deal import DUMMY, HAND_SIZE

HEAD = 4 + 2 * HAND_SIZE


class CowboyWildCards(Piece):
    """Wild cards in the viewer's hand and the dummy, the joker in past showdowns."""

    def __init__(self, options: Any, n: int, deals: int) -> None:
        rules = wild_rules(options)
        assert rules is not None, "the wild_cards piece belongs to games with wild cards"
        self.rules, self.deals = rules, deals
        doc = (
            "rule: joker, bug, deuces one-hot, natural_beats_wild; 5 hand positions: wild; 5 dummy positions: "
            f"wild (its chooser only); {deals} showdowns, most recent first x (relative seats 0..{n - 1} "
            "showed the joker, the dummy showed it)"
        )
        super().__init__("wild_cards", HEAD + deals * (n + 1), doc)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        st = t.state
        assert st is not None
        out[:] = 0.0
        out[WILD_KINDS.index(self.rules.wild)] = 1.0
        out[3] = 1.0 if self.rules.natural_beats_wild else 0.0
        for i, card in enumerate(st.cards[seat]):
            out[4 + i] = 1.0 if self.rules.is_wild(card) else 0.0
        if st.family.dummy_chooser == seat and DUMMY in st.piles:
            for i, card in enumerate(st.piles[DUMMY]):
                out[4 + HAND_SIZE + i] = 1.0 if self.rules.is_wild(card) else 0.0
        n = t.n
        for k, summary in enumerate(reversed(st.family.summaries[-self.deals :])):
            base = HEAD + k * (n + 1)
            for rel in range(n):
                out[base + rel] = 1.0 if JOKER in summary.shown[(seat + rel) % n] else 0.0
            out[base + n] = 1.0 if JOKER in summary.dummy else 0.0
