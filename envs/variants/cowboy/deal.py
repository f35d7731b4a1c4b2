"""Cowboy family, first half of a deal: new deal and antes, the stay-or-fold round, the
draw (players' and the dummy's) and the chip moves they share with the showdown.

The whole game is one :class:`~envs.engine.state.State`. Chips move for real between
deals: ``committed`` holds this deal's antes, ``State.carry`` the rest of the pot
(``State.pot()`` adds them), and pot shares and match payments move chips between the
stacks and ``carry``. ``sum(stack) + pot()`` is therefore constant over the whole game
and a seat's net result is ``stack - start_stack``.

Public facts about the current deal live in the typed family state
(:class:`~envs.variants.cowboy.state.CowboyState`, ``st.family``) so that observation
pieces can read them without touching anything secret.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from envs.engine.actions import DRAW_BASE, FOLD, NUM_DRAWS, STAY
from envs.engine.cards import format_cards, rank_of
from envs.engine.events import Event, EventKind, Verb
from envs.engine.game import Step
from envs.engine.state import State
from envs.engine.steps import seats_from_left_of_button
from envs.variants.cowboy.state import DealSummary  # noqa: F401 (re-exported for readers of deals)

HAND_SIZE = 5
ACE = 12
DISCARDS = "discards"  # pile of this deal's discards not yet reshuffled into the stub
DUMMY = "dummy"  # pile holding the dummy hand


# ------------------------------------------------------------------- chips
def collect_antes(st: State) -> None:
    """Fold this deal's antes into the carried pot (``pot()`` is unchanged)."""
    st.carry = st.pot()
    st.committed = [0] * st.n


def take_from_pot(st: State, seat: int, chips: int) -> None:
    """Pay ``chips`` of the pot to a seat."""
    st.carry -= chips
    st.stack[seat] += chips


def pay_into_pot(st: State, seat: int, chips: int) -> None:
    """A seat pays ``chips`` into the pot (a match payment)."""
    st.stack[seat] -= chips
    st.carry += chips


def end_game(st: State) -> None:
    """Close the game: payoffs are net chips (the pot is empty by now)."""
    assert st.pot() == 0, f"the game ends with {st.pot()} chips left in the pot"
    st.payoff = [st.stack[s] - st.start_stack[s] for s in range(st.n)]
    st.family.phase = "over"
    st.log(Event(EventKind.END, text=" ".join(str(p) for p in st.payoff)))


def split_evenly(st: State, amount: int, seats: Sequence[int]) -> list[tuple[int, int]]:
    """(seat, chips) of an even split; odd chips one each to the first of ``seats``
    clockwise from the button (the button-game rule: a draw game shows no cards to
    break ties by suit)."""
    ordered = sorted(seats, key=lambda s: (s - st.button - 1) % st.n)
    each, odd = divmod(amount, len(ordered))
    return [(seat, each + (1 if i < odd else 0)) for i, seat in enumerate(ordered)]


# ------------------------------------------------------------------- cards
def _own_generator(st: State) -> None:
    """Give the game a private generator seeded from the caller's.

    A game shuffles again at every deal and every reshuffle, long after ``new_state``;
    a caller that keeps drawing from the generator it passed in (random agents often
    do) would change those shuffles, and the record (initial deck and generator state)
    would no longer replay. One draw at the start makes the game independent of it.
    """
    st.rng = np.random.default_rng(int(st.rng.integers(1 << 63)))


def _collect_and_shuffle(st: State) -> None:
    """Gather every card and shuffle with the state's generator.

    The shuffle permutes the initial deck's order (not the cards' current places), so
    the result depends only on the generator: replays match, and relabelling the
    initial deck relabels every later deal the same way (the no-leak test relies on it).
    """
    order = st.rng.permutation(len(st.initial_deck))
    top_first = [st.initial_deck[i] for i in order]
    st.stub = top_first[::-1]
    st.cards = [[] for _ in range(st.n)]
    st.up = [[] for _ in range(st.n)]
    st.piles = {}


def _reshuffle_discards(st: State) -> None:
    """The stub ran out: earlier players' discards, shuffled, become the new stub.

    The drawing hand's own discards are not in the pile yet (they join it after its
    draw). The pile is put in the initial deck's order before shuffling, so the new
    stub depends only on the generator and the pile's contents.
    """
    pile = st.piles.get(DISCARDS, [])
    if not pile:
        raise RuntimeError(f"the stub and the discards ran out in {st.describe()}")
    position = {card: i for i, card in enumerate(st.initial_deck)}
    canonical = sorted(pile, key=position.__getitem__)
    top_first = [canonical[i] for i in st.rng.permutation(len(canonical))]
    st.stub = top_first[::-1]
    st.piles[DISCARDS] = []
    st.log(Event(EventKind.RESHUFFLE, cards=tuple(top_first), text="discards shuffled into a new stub", secret=True))
    text = f"the stub ran out: {len(top_first)} discards form a new stub"
    st.log(Event(EventKind.NOTE, amount=len(top_first), text=text))


def take_cards(st: State, count: int, seat: int = -1) -> list[int]:
    """``count`` cards off the stub, reshuffling discards when it runs out; each is
    logged as a face-down deal to ``seat`` (-1: the dummy, logged by the caller)."""
    cards = []
    for _ in range(count):
        if not st.stub:
            _reshuffle_discards(st)
        card = st.deal_card()
        cards.append(card)
        if seat >= 0:
            st.log(Event(EventKind.DEAL, seat=seat, cards=(card,), up=False))
    return cards


def draw_actions(hand: Sequence[int], max_draw: int, ace_draw: int | None) -> list[int]:
    """Legal discard actions for a (sorted) hand: at most ``max_draw`` cards, or
    ``ace_draw`` when an ace is kept."""
    aces = sum(1 << i for i, card in enumerate(hand) if rank_of(card) == ACE)
    return list(_draw_actions(max_draw, ace_draw, aces))


@functools.lru_cache(maxsize=256)
def _draw_actions(max_draw: int, ace_draw: int | None, aces: int) -> tuple[int, ...]:
    actions = []
    for mask in range(NUM_DRAWS):
        count = mask.bit_count()
        keeps_ace = bool(aces & ~mask)
        if count <= max_draw or (ace_draw is not None and count <= ace_draw and keeps_ace):
            actions.append(DRAW_BASE + mask)
    return tuple(actions)


def split_hand(hand: Sequence[int], action: int) -> tuple[list[int], list[int]]:
    """(kept, discarded) cards of a hand for a discard action."""
    mask = action - DRAW_BASE
    kept = [c for i, c in enumerate(hand) if not mask >> i & 1]
    discards = [c for i, c in enumerate(hand) if mask >> i & 1]
    return kept, discards


def replace_discards(st: State, kept: list[int], discards: list[int], seat: int) -> list[int]:
    """Draw one card per discard: returns the new sorted hand.

    Replacements come off the stub; the discards join the pile only afterwards, so a
    reshuffle during this draw never hands a player back its own discards.
    """
    drawn = take_cards(st, len(discards), seat)
    st.piles.setdefault(DISCARDS, []).extend(discards)
    return sorted(kept + drawn)


def draw_text(count: int) -> str:
    """'stands pat', 'draws 1', 'draws 3'."""
    return "stands pat" if count == 0 else f"draws {count}"


# ------------------------------------------------------------------- steps
@dataclass(frozen=True, kw_only=True)
class NewDeal(Step):
    """Start a deal: truncate at ``max_deals``, shuffle, antes, five cards each.

    Antes: everyone on the first deal; later, the seats in ``ante_due`` (those who
    folded the previous deal). Cards go one at a time clockwise from the seat left of
    the button; each hand is then sorted (deuce first, ace last) so that discard
    positions mean the same thing in every hand.
    """

    ante: int
    max_deals: int
    contested_only = False

    def start(self, st: State) -> None:
        deal = st.family.deal + 1
        if deal > self.max_deals:
            _truncate(st)
            return
        if deal == 1:
            _own_generator(st)
        else:
            _collect_and_shuffle(st)
            st.log(Event(EventKind.SHUFFLE, text="every card is shuffled for a new deal"))
        _reset_deal(st, deal)
        st.log(Event(EventKind.STREET, text=f"deal {deal}", street=deal))
        order = seats_from_left_of_button(st)
        due = set(order if st.family.ante_due is None else st.family.ante_due)
        st.family.ante_due = None
        for seat in order:
            if seat in due:
                st.log(Event(EventKind.ANTE, seat=seat, amount=st.put_in(seat, self.ante)))
        for _ in range(HAND_SIZE):
            for seat in order:
                st.cards[seat] += take_cards(st, 1, seat)
                st.up[seat].append(False)
        for seat in order:
            st.cards[seat].sort()


def _reset_deal(st: State, deal: int) -> None:
    """Everyone is in again; this deal's public facts start empty."""
    st.unfold_all()
    st.declared = [None] * st.n
    st.declarations_revealed = False
    game = st.family
    game.deal = deal
    game.phase = "stay"
    game.stay = [None] * st.n
    game.drawn = [None] * st.n
    game.dummy_drawn = None
    game.dummy_chooser = None


def _truncate(st: State) -> None:
    """``max_deals`` reached: return the pot in equal shares (odd chips one each to the
    first seats clockwise from the button) and end the game as truncated."""
    pot = st.pot()
    collect_antes(st)
    st.log(Event(EventKind.NOTE, amount=pot, text=f"max_deals reached: the pot of {pot} is returned in equal shares"))
    for seat, chips in split_evenly(st, pot, range(st.n)):
        take_from_pot(st, seat, chips)
        st.log(Event(EventKind.AWARD, seat=seat, amount=chips, text="an equal share of the pot returned (truncated)"))
    st.truncated = True
    end_game(st)


@dataclass(frozen=True, kw_only=True)
class StayRound(Step):
    """Each seat in turn from the left of the button stays (60) or folds (0), seeing the
    earlier choices. Then: nobody stays, the pot carries and everyone antes again; one
    stays and takes the pot; two stay and split it (``two_stay="split"``); otherwise
    the deal goes on to the draw."""

    two_stay: str
    draws: bool  # the game has a draw (max_draw > 0)
    contested_only = False

    def actor(self, st: State) -> int | None:
        stay = st.family.stay
        return next((s for s in seats_from_left_of_button(st) if stay[s] is None), None)

    def legal(self, st: State) -> list[int]:
        return [FOLD, STAY]

    def apply(self, st: State, action: int) -> None:
        seat = self.actor(st)
        assert seat is not None
        stays = action == STAY
        st.family.stay[seat] = stays
        if not stays:
            st.fold(seat)
        text, verb = ("stays", Verb.STAY) if stays else ("folds", Verb.FOLD)
        st.log(Event(EventKind.STAY, seat=seat, action=action, text=text, verb=verb))

    def finish(self, st: State) -> int | None:
        collect_antes(st)
        stayers = [s for s in seats_from_left_of_button(st) if st.family.stay[s]]
        pot = st.pot()
        if not stayers:
            text = f"nobody stays: the pot of {pot} carries, everyone antes again"
            st.log(Event(EventKind.NOTE, amount=pot, text=text))
            st.family.ante_due = list(range(st.n))
            return 0
        if len(stayers) == 1:
            take_from_pot(st, stayers[0], pot)
            st.log(Event(EventKind.AWARD, seat=stayers[0], amount=pot, text="the pot: the only player to stay"))
            end_game(st)
        elif len(stayers) == 2 and self.two_stay == "split":
            for seat, chips in split_evenly(st, pot, stayers):
                take_from_pot(st, seat, chips)
                st.log(Event(EventKind.AWARD, seat=seat, amount=chips, text="half of the pot: two players stayed"))
            end_game(st)
        else:
            st.family.phase = "draw" if self.draws else "declare"
        return None


@dataclass(frozen=True, kw_only=True)
class DrawRound(Step):
    """Each stayer in turn from the left of the button discards a set of cards (32
    actions over the five sorted positions, masked to ``max_draw`` / ``ace_draw``) and
    draws as many. Skipped when ``max_draw`` is 0 (Cowpattie)."""

    max_draw: int
    ace_draw: int | None
    contested_only = False

    def start(self, st: State) -> None:
        if self.max_draw > 0:
            st.log(Event(EventKind.STREET, text="draw"))

    def actor(self, st: State) -> int | None:
        if self.max_draw == 0:
            return None
        drawn = st.family.drawn
        return next((s for s in seats_from_left_of_button(st) if not st.folded[s] and drawn[s] is None), None)

    def legal(self, st: State) -> list[int]:
        seat = self.actor(st)
        assert seat is not None
        return draw_actions(st.cards[seat], self.max_draw, self.ace_draw)

    def apply(self, st: State, action: int) -> None:
        seat = self.actor(st)
        assert seat is not None
        count = (action - DRAW_BASE).bit_count()
        st.family.drawn[seat] = count
        # Public: how many cards. Which positions (the action) stays in the secret event.
        st.log(Event(EventKind.DRAW, seat=seat, amount=count, text=draw_text(count), verb=Verb.DRAW))
        if count:
            kept, discards = split_hand(st.cards[seat], action)
            text = f"discards {format_cards(discards)}"
            st.log(Event(EventKind.DRAW, seat=seat, action=action, cards=tuple(discards), text=text, secret=True))
            st.cards[seat] = replace_discards(st, kept, discards, seat)

    def finish(self, st: State) -> int | None:
        st.family.phase = "declare"
        return None


@dataclass(frozen=True, kw_only=True)
class DummyDraw(Step):
    """The first folded seat clockwise from the button chooses the dummy's discards
    under the players' draw rules (Cowboy, Cowgirl; nobody when ``max_draw`` is 0)."""

    max_draw: int
    ace_draw: int | None
    contested_only = False

    def actor(self, st: State) -> int | None:
        game = st.family
        return game.dummy_chooser if game.dummy_chooser is not None and game.dummy_drawn is None else None

    def legal(self, st: State) -> list[int]:
        return draw_actions(st.piles[DUMMY], self.max_draw, self.ace_draw)

    def apply(self, st: State, action: int) -> None:
        seat = st.family.dummy_chooser
        count = (action - DRAW_BASE).bit_count()
        st.family.dummy_drawn = count
        st.log(Event(EventKind.DUMMY, seat=seat, amount=count, text=f"{draw_text(count)} for the dummy"))
        if count:
            kept, discards = split_hand(st.piles[DUMMY], action)
            hand = replace_discards(st, kept, discards, -1)
            st.piles[DUMMY] = hand
            text = f"discards {format_cards(discards)} from the dummy, which now holds {format_cards(hand)}"
            st.log(Event(EventKind.DUMMY, seat=seat, action=action, cards=tuple(discards), text=text, secret=True))
