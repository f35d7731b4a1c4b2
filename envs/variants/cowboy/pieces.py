"""Observation pieces of the Cowboy family (``cowboy_v0``, ``cowgirl_v0``, ``cowpattie_v0``).

Every piece here is written per step from public facts the engine keeps in
the family state (:class:`~envs.variants.cowboy.state.CowboyState`) and from the viewer's own cards,
so nothing secret can reach it: another seat's cards only through the showdown
summary, its declaration only once ``declarations_revealed`` is set, the dummy only to
the seat choosing its draw. Seats are relative to the viewer (0 = the viewer, 1 = the
next seat clockwise).

Chip amounts (pot, match payment, net chips, chips paid) are the signed log of antes,
``sign(x) * ln(1 + |x|)`` with ``x`` in antes (:func:`envs.scaling.symlog_units`):
with no ``match_cap`` everyone who stays and loses matches the whole pot, so pots
multiply deal after deal (1e78 chips within 100 deals at seven players). On the log
scale one ante is 0.69, a pot of 1e78 antes 180: small pots stay distinct and every
reachable amount stays finite in the ``float32`` vector. Exact chips are in the
public view (``public_view``) and the hand history.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from envs.engine.cards import JOKER
from envs.engine.game import Game
from envs.engine.observation import CardBlock, Piece, Position, Tracker
from envs.engine.scaling import symlog_units
from envs.engine.state import State
from envs.engine.wild_options import wild_rules
from envs.variants.cowboy.deal import DUMMY, HAND_SIZE
from envs.variants.cowboy.state import PHASES, CowboyState, DealSummary

SUMMARY_DEALS = 3  # showdowns kept in the summary of previous deals, most recent first
SEAT_SUMMARY = 52 + 3 + 2 + 1  # shown cards, declaration, won high/low, paid


def _state(t: Tracker) -> State:
    assert t.state is not None
    return t.state


def _game(t: Tracker) -> CowboyState:
    game: CowboyState = _state(t).family
    return game


def _cards(out: np.ndarray, cards: Any, offset: int = 0) -> None:
    """One-hot rows of 52, one per card, starting at ``offset``."""
    for slot, card in enumerate(cards):
        if card != JOKER:  # the joker is in no 52-card block: the wild_cards piece marks it
            out[offset + slot * 52 + card] = 1.0


class Hand(Piece):
    """The viewer's five cards in hand order (sorted; draw positions 0..4)."""

    def __init__(self) -> None:
        doc = "5 positions (lowest card first) x 52 one-hot: your cards"
        blocks = tuple(CardBlock(k * 52, ("own",)) for k in range(HAND_SIZE))
        super().__init__("hand", HAND_SIZE * 52, doc, card_blocks=blocks)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        _cards(out, _state(t).cards[seat])


class DummyCards(Piece):
    """The dummy's five cards, only for the seat choosing its draw."""

    def __init__(self) -> None:
        doc = "5 positions x 52 one-hot: the dummy, if you choose its draw"
        blocks = tuple(CardBlock(k * 52, ("dummy",)) for k in range(HAND_SIZE))
        super().__init__("dummy", HAND_SIZE * 52, doc, card_blocks=blocks)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        st = _state(t)
        if st.family.dummy_chooser == seat and DUMMY in st.piles:
            _cards(out, st.piles[DUMMY])


class Stays(Piece):
    """Per relative seat: stayed, folded (both 0: not asked yet) in this deal."""

    def __init__(self, n: int) -> None:
        super().__init__("stays", 2 * n, f"relative seats 0..{n - 1} x (stayed, folded) this deal")

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        stay = _game(t).stay or [None] * t.n
        for rel in range(t.n):
            choice = stay[(seat + rel) % t.n]
            if choice is not None:
                out[2 * rel + (0 if choice else 1)] = 1.0


class Draws(Piece):
    """Per relative seat, then the dummy: one-hot number of cards drawn (0..5) this deal."""

    def __init__(self, n: int) -> None:
        doc = f"relative seats 0..{n - 1}, then the dummy x one-hot cards drawn 0..5 (all 0: no draw yet)"
        super().__init__("draws", 6 * (n + 1), doc)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        game = _game(t)
        drawn = game.drawn or [None] * t.n
        counts = [drawn[(seat + rel) % t.n] for rel in range(t.n)] + [game.dummy_drawn]
        for row, count in enumerate(counts):
            if count is not None:
                out[6 * row + count] = 1.0


class Declared(Piece):
    """Per relative seat: low/high/both; your own at once, others after the reveal."""

    def __init__(self, n: int) -> None:
        super().__init__("declarations", 3 * n, f"relative seats 0..{n - 1} x (low, high, both) one-hot, this deal")

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        st = _state(t)
        revealed = st.declarations_revealed
        for rel in range(t.n):
            other = (seat + rel) % t.n
            choice = st.declared[other]
            if choice is not None and (revealed or other == seat):
                out[3 * rel + choice] = 1.0


class Table(Piece):
    """Pot, the match payment it implies, and every seat's net chips in the game (signed
    log of antes)."""

    def __init__(self, n: int, match_cap: int | None) -> None:
        doc = (
            f"pot, match payment (pot capped by match_cap), relative seats 0..{n - 1} net chips so far; "
            "each sign(x) * ln(1 + |x|), x in antes"
        )
        super().__init__("chips", 2 + n, doc)
        self.match_cap = match_cap

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        st = _state(t)
        pot, cap, unit = st.pot(), self.match_cap, t.unit
        out[0] = symlog_units(pot, unit)
        out[1] = symlog_units(pot if cap is None else min(pot, cap), unit)
        for rel in range(t.n):
            other = (seat + rel) % t.n
            out[2 + rel] = symlog_units(st.stack[other] - st.start_stack[other], unit)


class Deal(Piece):
    """Deal number over ``max_deals``, and the phase of the deal (one-hot)."""

    def __init__(self, max_deals: int) -> None:
        super().__init__("deal", 1 + len(PHASES), "deal number / max_deals, one-hot phase: " + ", ".join(PHASES))
        self.max_deals = max_deals

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        game = _game(t)
        out[0] = game.deal / self.max_deals
        phase = game.phase
        if phase in PHASES:
            out[1 + PHASES.index(phase)] = 1.0


class Showdowns(Piece):
    """The last showdowns (this deal's first once it is shown), most recent first: per
    relative seat the hand shown, declaration, shares won or tied and chips paid; then
    the dummy's hand, a presence flag and how many deals ago it was (/ max_deals)."""

    def __init__(self, n: int, max_deals: int) -> None:
        self.stride = n * SEAT_SUMMARY + 52 + 2
        self.max_deals = max_deals
        doc = (
            f"{SUMMARY_DEALS} showdowns, most recent first x (relative seats 0..{n - 1} x (52 shown cards, "
            "low/high/both, won high, won low, paid: ln(1 + antes)), 52 dummy cards, present, deals ago / max_deals)"
        )
        super().__init__("showdowns", SUMMARY_DEALS * self.stride, doc)

    def dynamic(self, t: Tracker, seat: int, out: np.ndarray) -> None:
        out[:] = 0.0
        game = _game(t)
        summaries: list[DealSummary] = game.summaries
        n, width = t.n, t.n * SEAT_SUMMARY
        rotation = [(seat + rel) % n for rel in range(n)]
        for k, summary in enumerate(reversed(summaries[-SUMMARY_DEALS:])):
            base = k * self.stride
            seats, dummy = _encode(summary, t.unit)
            out[base : base + width] = seats[rotation].ravel()
            out[base + width : base + width + 52] = dummy
            out[base + width + 52] = 1.0
            out[base + width + 53] = (game.deal - summary.deal) / self.max_deals


@functools.lru_cache(maxsize=64)
def _encode(summary: DealSummary, unit: int) -> tuple[np.ndarray, np.ndarray]:
    """A summary by absolute seat (rows of shown cards, declaration, won high/low, paid)
    and the dummy's cards; cached because a summary is read at every step until the
    next showdown. The arrays are shared: callers copy out of them."""
    n = len(summary.shown)
    seats = np.zeros((n, SEAT_SUMMARY), np.float32)
    for seat in range(n):
        seats[seat, [c for c in summary.shown[seat] if c != JOKER]] = 1.0
        choice = summary.declared[seat]
        if choice is not None:
            seats[seat, 52 + choice] = 1.0
        seats[seat, 55:57] = summary.won[seat]
        seats[seat, 57] = symlog_units(summary.paid[seat], unit)
    dummy = np.zeros(52, np.float32)
    dummy[[c for c in summary.dummy if c != JOKER]] = 1.0
    return seats, dummy


def cowboy_pieces(game: Game) -> list[Piece]:
    """Observation pieces of ``cowboy``, ``cowgirl`` and ``cowpattie``."""
    n, options = game.num_players, game.options
    pieces: list[Piece] = [
        Hand(),
        DummyCards(),
        Stays(n),
        Draws(n),
        Declared(n),
        Table(n, options.match_cap),
        Deal(options.max_deals),
        Position(n),
        Showdowns(n, options.max_deals),
    ]
    if wild_rules(options) is not None:  # last: every other offset stays where it was
        from envs.variants.cowboy.wild_piece import CowboyWildCards

        pieces.append(CowboyWildCards(options, n, SUMMARY_DEALS))
    return pieces
