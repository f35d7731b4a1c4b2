"""States: one API for every variant.

A :class:`~envs.engine.game.Game` (a variant with validated options and a player
count, whose ``program`` is a tuple of steps) makes states. A
:class:`State` runs the program: chance steps (shuffling, dealing) happen inside on
a seeded ``numpy.random.Generator``, and the state stops at each decision with
``current_seat`` set. ``apply(action)`` checks the action against ``legal_actions()``
(an illegal action raises :class:`IllegalActionError` and changes nothing), lets the
step update the state, and runs on to the next decision.

Everything that happens is appended to ``events`` (see :mod:`envs.engine.events`).

Chips are exact Python ints at any size. A seat with unlimited chips (``stack=None``)
is marked in ``State.unlimited``: nothing caps what it puts in, so an ante or a match
payment is always paid in full, and its ``stack`` counts from 0 (its balance: negative
once it has lost more than it won). ``behind(seat)`` and ``all_in(seat)`` say what a
seat can still put in, for limited and unlimited seats alike.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from envs.engine.cards import JOKER, format_card, parse_deck
from envs.engine.errors import CardNeeded, IllegalActionError
from envs.engine.events import Event, EventKind
from envs.engine.options import quoted, stacks_for

if TYPE_CHECKING:
    from envs.engine.game import Game, Step


def build_stub(rng: np.random.Generator, cards: tuple[int, ...], deck: Sequence[int | str] | str | None) -> list[int]:
    """The stub as a list whose *last* element is the top card (pop() deals): the
    game's cards shuffled, or the stacked ``deck`` first and the rest shuffled."""
    if deck is None:
        order = [cards[i] for i in rng.permutation(len(cards))]
    else:
        top = parse_deck(deck, joker=JOKER in cards)  # every entry checked: a float or bool is not a card
        in_play = set(cards)
        stray = next((c for c in top if c not in in_play), None)
        if stray is not None:
            raise ValueError(f"stacked deck holds {format_card(stray)}, which is not in this game's deck")
        rest = sorted(in_play - set(top))
        order = top + [rest[i] for i in rng.permutation(len(rest))]
    order.reverse()
    return order


class ScriptedDeal:
    """The cards a scripted hand deals, in order (``Game.new_state(scripted=...)``).

    Chance stays outside the engine: :mod:`envs.openspiel` makes every card dealt a
    chance node by dealing the hand again from a script one card longer each time.
    ``State.deal_card`` takes the next script card out of the stub instead of the top
    card, so the stub's size, every later deal, burn and reshuffle work as usual (a
    reshuffled stub is simply where the next script card must be). A uniformly
    shuffled stub deals each of its cards next with the same chance, so choosing the
    next card uniformly among the stub's cards is the same game.
    """

    __slots__ = ("cards", "used")

    def __init__(self, cards: Sequence[int], used: int = 0) -> None:
        self.cards = list(cards)
        self.used = used  # script cards dealt so far

    @classmethod
    def checked(cls, cards: Sequence[int], deck: tuple[int, ...], *, stacked: bool) -> ScriptedDeal:
        """A script whose every card is in ``deck`` (a card may repeat: the Cowboy games
        deal the whole deck again at every deal)."""
        if stacked:
            raise ValueError("give a stacked deck or a script of cards to deal (scripted=...), not both")
        in_play = set(deck)
        for i, card in enumerate(cards):
            if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or int(card) not in in_play:
                raise ValueError(
                    f"scripted[{i}]={quoted(card)} is not a card of this game's deck: "
                    f"expected a card int (rank * 4 + suit) of its {len(in_play)} cards"
                )
        return cls([int(c) for c in cards])

    def take(self, st: State) -> int:
        """The next script card, out of the stub; CardNeeded when the script is used up."""
        if self.used == len(self.cards):
            raise CardNeeded(tuple(sorted(st.stub)), st)
        card = self.cards[self.used]
        if card not in st.stub:
            where = f"deal {self.used} of the script"
            raise ValueError(f"{where} is {format_card(card)}, which is not in the stub ({len(st.stub)} cards) now")
        st.stub.remove(card)
        self.used += 1
        return card

    def copy(self) -> ScriptedDeal:
        """An independent copy (``State.clone``)."""
        return ScriptedDeal(self.cards, self.used)


class State:
    """The mutable state of one hand (or, for the Cowboy games, one whole game)."""

    def __init__(self, game: Game, rng: np.random.Generator, button: int, stub: list[int]) -> None:
        n = game.num_players
        self.game = game  # the table's game: its options, unit, action names and deck
        self.playing = game  # the game whose rules are in play (dealer's choice: the game named)
        self.program: tuple[Step, ...] = game.program  # the steps running now (``switch`` changes them)
        self.hand = 0  # the hand's number at its table (Game.new_state)
        self.n = n
        self.rng = rng
        self.button = button
        self.stub = stub
        self.burned: list[int] = []
        self.cards: list[list[int]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.community: list[int] = []
        self.folded = [False] * n
        self.n_live = n
        stacks = stacks_for(getattr(game.options, "stack", None), n)
        self.table_stacks = list(stacks)  # as the table was built (None: unlimited); records keep these
        self.unlimited = [s is None for s in stacks]  # no cap on what the seat puts in
        self.start_stack = [0 if s is None else s for s in stacks]  # unlimited: a balance from 0
        self.stack = list(self.start_stack)
        self.committed = [0] * n
        self.piles: dict[str, list[int]] = {}  # other card piles (discards, a dummy hand, cards set aside)
        self.won = [0] * n
        # betting round
        self.street = -1
        self.street_label = ""
        self.contrib = [0] * n
        self.current_bet = 0
        self.bets = 0
        self.epoch = 0
        self.seat_epoch = [-1] * n
        self.min_raise = 0
        self.bet_unit = 0
        self.bring_in_seat = -1
        self.actor: int | None = None
        # the pot carried between deals (multi-deal games), odd-chip divisions
        self.carry = 0
        self.odd_chips = False  # an uneven division happened (histories, tests)
        # secret declarations: who still declares, and whether they are public yet
        self.declared: list[int | None] = [None] * n
        self.declare_order: list[int] = []
        self.declarations_revealed = False
        # the family's own typed state (Cowpie's splits, the Cowboy deal, Chowaha's hands)
        family_state = game.variant.family_state
        self.family: Any = family_state() if family_state is not None else None
        self.events: list[Event] = [Event(EventKind.START, seat=button, amount=n)]
        self.pc = 0
        self.started = False
        self.current_seat: int | None = None
        self.payoff: list[int] | None = None
        self.truncated = False  # ended by a limit (Cowboy's max_deals), not by the rules
        self._legal: list[int] | None = None
        self.decisions: list[tuple[int, int]] = []  # (seat, action) in order, for replay
        self.initial_deck: list[int] = []  # top card first
        self.initial_rng_state: dict[str, Any] = {}  # the generator after the shuffle
        self.shuffle_rng_state: dict[str, Any] = {}  # the generator before the shuffle (records)
        self.stacked = 0  # leading cards of initial_deck chosen by the caller (deck=...)
        self.script: ScriptedDeal | None = None  # cards chosen outside the engine (scripted=...)

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        """True once the hand (or game) has been settled."""
        return self.payoff is not None

    @property
    def title(self) -> str:
        """The game's title; at a dealer's choice table also the game in play's
        ("Dealer's choice: Razz")."""
        title = self.game.variant.title
        return title if self.playing is self.game else f"{title}: {self.playing.variant.title}"

    def live(self) -> list[int]:
        """Seats still in the hand."""
        return [s for s in range(self.n) if not self.folded[s]]

    def live_count(self) -> int:
        """Number of seats still in the hand."""
        return self.n_live

    def fold(self, seat: int) -> None:
        """The seat gives up the hand (keep ``n_live`` in step with ``folded``)."""
        if not self.folded[seat]:
            self.folded[seat] = True
            self.n_live -= 1

    def unfold_all(self) -> None:
        """Everyone is dealt in again (a new deal of a multi-deal game)."""
        self.folded = [False] * self.n
        self.n_live = self.n

    def pot(self) -> int:
        """Chips in the middle."""
        return sum(self.committed) + self.carry

    def card_locations(self) -> dict[str, list[int]]:
        """Every card by where it is: each seat's hand, community, stub, burned, piles.

        Together they hold each card of the game's deck exactly once (a test checks it)."""
        places = {f"player_{s}": list(c) for s, c in enumerate(self.cards)}
        places.update(community=list(self.community), stub=list(self.stub), burned=list(self.burned))
        places.update({name: list(p) for name, p in self.piles.items()})
        return places

    def legal_actions(self) -> list[int]:
        """Legal actions of ``current_seat`` (empty when the hand is over)."""
        if self._legal is None:
            self._legal = [] if self.current_seat is None else self.program[self.pc].legal(self)
        return self._legal

    def legal_labels(self) -> list[str]:
        """Display names of ``legal_actions()``, in the same order (see ``Step.labels``)."""
        if self.current_seat is None:
            return []
        return self.program[self.pc].labels(self, self.legal_actions())

    def payoffs(self) -> list[int]:
        """Net chips won by each seat; raises until the hand is over."""
        if self.payoff is None:
            raise ValueError("the hand is not over: payoffs exist only at the end")
        return list(self.payoff)

    def rewards(self) -> list[float]:
        """Payoffs in the variant's unit (big bets, big blinds or antes), as floats that
        add up to exactly 0.0 (see :func:`zero_sum_rewards`)."""
        return zero_sum_rewards(self.payoffs(), self.game.unit)

    def describe(self) -> str:
        """One line for error messages."""
        step = type(self.program[self.pc]).__name__ if self.pc < len(self.program) else "end"
        seat = "none" if self.current_seat is None else f"player_{self.current_seat}"
        where = self.street_label or f"street {self.street}"
        name = self.game.name if self.playing is self.game else f"{self.game.name} ({self.playing.name})"
        return f"{name}, {where} ({step}), to act {seat}, pot {self.pot()}"

    def action_name(self, action: int) -> str:
        """The stable name of an action index."""
        names = self.game.action_names
        return names[action] if 0 <= action < len(names) else str(action)

    # ----------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        """Apply the current seat's action; raise IllegalActionError if not legal."""
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or int(action) not in legal:
            known = not isinstance(action, bool) and isinstance(action, (int, np.integer))
            name = self.action_name(int(action)) if known and 0 <= action < self.game.num_actions else None
            raise IllegalActionError(action, self.describe(), [self.action_name(a) for a in legal], name)
        self._legal = None
        action = int(action)
        self.decisions.append((self.current_seat, action))  # type: ignore[arg-type]
        self.program[self.pc].apply(self, action)
        self.run()

    def run(self) -> None:
        """Run chance steps and finished steps until a decision or the end."""
        self._legal = None
        while self.payoff is None:
            step = self.program[self.pc]  # read every time: a step may switch the program
            if step.contested_only and self.live_count() <= 1:
                self.pc += 1
                self.started = False
                continue
            if not self.started:
                self.started = True
                step.start(self)
                if self.payoff is not None:
                    break
            seat = step.actor(self)
            if seat is not None:
                self.current_seat = seat
                return
            jump = step.finish(self)
            self.pc = self.pc + 1 if jump is None else jump
            self.started = False
        self.current_seat = None

    # ------------------------------------------------------------ chip helpers
    def put_in(self, seat: int, amount: int) -> int:
        """Move up to ``amount`` chips from the seat's stack to the pot (all of them for
        a seat with unlimited chips); returns chips moved."""
        if not self.unlimited[seat]:
            amount = min(amount, self.stack[seat])
        self.stack[seat] -= amount
        self.committed[seat] += amount
        return amount

    def behind(self, seat: int) -> int | None:
        """Chips the seat can still put in: its stack, or None when unlimited."""
        return None if self.unlimited[seat] else self.stack[seat]

    def covers(self, seat: int, chips: int) -> bool:
        """Whether the seat can put in ``chips`` more (always, when unlimited)."""
        return self.unlimited[seat] or self.stack[seat] >= chips

    def all_in(self, seat: int) -> bool:
        """The seat has no chips behind (never, when unlimited)."""
        return not self.unlimited[seat] and self.stack[seat] == 0

    def deal_card(self) -> int:
        """The top card of the stub (a scripted hand: the script's next card, see
        :class:`ScriptedDeal`)."""
        if not self.stub:
            raise RuntimeError(f"the deck ran out in {self.describe()}")
        if self.script is not None:
            return self.script.take(self)
        return self.stub.pop()

    def log(self, event: Event) -> None:
        """Append an event."""
        self.events.append(event)

    def finish_hand(self) -> None:
        """Record payoffs from chips won and committed, and close the log."""
        self.payoff = [self.won[s] - self.committed[s] for s in range(self.n)]
        self.current_seat = None
        self._legal = None
        self.log(Event(EventKind.END, cards=(), text=" ".join(str(p) for p in self.payoff)))

    def switch(self, game: Game) -> None:
        """Play ``game``'s rules from here on: its program from its first step, its
        family state, its stacks and its deck. The step that calls this (dealer's
        choice naming the game) must return 0 from ``finish``, the new program's first
        step.

        Only before anything has happened at the table (no chip put in, no card dealt;
        ``table_stacks`` keeps what the table was built with, for records):
        the table's shuffled stub keeps its order, restricted to the cards of ``game``'s
        deck (toy stud's twelve); the other cards are set aside in the pile
        ``"set aside"``, so ``card_locations`` still holds the table's whole deck.

        Raises:
            ValueError: ``game`` seats another number of players, or play has begun.
        """
        if game.num_players != self.n:
            raise ValueError(f"{game.name} is built for {game.num_players} players, the table has {self.n}")
        if any(self.committed) or any(self.cards) or self.community or self.burned or self.carry:
            raise ValueError(f"cannot switch to {game.name} in {self.describe()}: play has begun")
        self.playing = game
        self.program = game.program
        family_state = game.variant.family_state
        self.family = family_state() if family_state is not None else None
        stacks = stacks_for(getattr(game.options, "stack", None), self.n)
        self.unlimited = [s is None for s in stacks]
        self.start_stack = [0 if s is None else s for s in stacks]
        self.stack = list(self.start_stack)
        if game.deck != self.game.deck:
            keep = set(game.deck)
            missing = keep.difference(self.stub)
            if missing:
                raise ValueError(f"{game.name}'s deck holds {len(missing)} cards that are not in the table's stub")
            self.piles["set aside"] = [c for c in self.stub if c not in keep]
            self.stub = [c for c in self.stub if c in keep]
        self.pc = 0
        self.started = False
        self._legal = None

    def clone(self) -> State:
        """An independent copy (the RNG too) for search and Monte Carlo."""
        other = copy.copy(self)
        for name in ("stub", "burned", "community", "folded", "unlimited", "stack", "start_stack", "committed", "won"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("contrib", "seat_epoch", "declared", "declare_order", "events", "decisions"):
            setattr(other, name, list(getattr(self, name)))
        other.cards = [list(c) for c in self.cards]
        other.up = [list(u) for u in self.up]
        other.family = copy.deepcopy(self.family)
        other.piles = {k: list(v) for k, v in self.piles.items()}
        other.rng = copy.deepcopy(self.rng)
        if self.script is not None:
            other.script = self.script.copy()
        if self.payoff is not None:
            other.payoff = list(self.payoff)
        other._legal = None
        return other


FLOAT_DIGITS = 53  # bits of a float64 significand


def zero_sum_rewards(payoffs: Sequence[int], unit: int) -> list[float]:
    """``payoff / unit`` per seat as floats whose sum is exactly 0.0 in any order.

    Payoffs are exact ints that sum to 0, but their quotients rounded one by one need
    not (Cowboy pots reach 1e78 chips: the float sum was off by 1e62). Every value is
    instead rounded to a multiple of one power of two ``2**e``, the smallest for which
    the magnitudes add up to at most ``2**53 * 2**e``: every partial sum is then an
    exact float, whatever the order. Rounding down, then up for the largest remainders,
    makes the roundings cancel. Ordinary payoffs are multiples of that grid and come
    out exactly ``payoff / unit``; otherwise each value is within ``2**e`` of it (a
    relative error of about ``n * 2**-53`` of the largest payoff).

    >>> zero_sum_rewards([-6, 2, 4], 2)
    [-3.0, 1.0, 2.0]
    >>> rewards = zero_sum_rewards([-1, -1, 2], 3)
    >>> abs(rewards[2] - 2 / 3) < 1e-15, sum(rewards)
    (True, 0.0)
    >>> sum(zero_sum_rewards([10**78 + 1, -(10**78), -1], 1))
    0.0
    """
    n = len(payoffs)
    total = sum(abs(p) for p in payoffs)
    if total == 0:
        return [0.0] * n
    room = ((1 << FLOAT_DIGITS) - n) * unit
    exponent = max(total.bit_length() - room.bit_length() - 1, -1074)
    while not _fits(total, room, exponent):
        exponent += 1
    nums, den = ([p << -exponent for p in payoffs], unit) if exponent < 0 else (list(payoffs), unit << exponent)
    steps, remainders = zip(*(divmod(num, den) for num in nums), strict=True)
    quotients = list(steps)
    for seat in sorted(range(n), key=lambda s: -remainders[s])[: -sum(quotients)]:
        quotients[seat] += 1
    try:
        return [math.ldexp(q, exponent) for q in quotients]
    except OverflowError:
        raise ValueError(f"payoffs of about 2**{total.bit_length()} chips are beyond what a float can hold") from None


def _fits(total: int, room: int, exponent: int) -> bool:
    """Whether ``total <= room * 2**exponent``."""
    return total <= room << exponent if exponent >= 0 else total << -exponent <= room
