"""Hand histories in PokerKit's PHH format (https://phh.readthedocs.io) for stud, razz
and stud eight-or-better: ``to_phh(record)`` writes one, ``from_phh(text)`` reads one
back into a :class:`~envs.engine.history.HandRecord` that replays with our engine.

>>> from envs.engine.history import HandRecord
>>> from envs.variants import make_game
>>> state = make_game("razz", 2).new_state(7, button=0)
>>> while not state.is_over:  # bring in, then check or call down
...     legal = state.legal_actions()
...     state.apply(1 if 1 in legal else 2)
>>> text = to_phh(HandRecord.of(state))
>>> print(text.splitlines()[1])
variant = "FR"
>>> replay(from_phh(text)).payoffs() == state.payoffs()
True

The mapping (docs/histories.md has the full table):

* variants: ``stud`` is ``F7S``, ``razz`` is ``FR``, ``stud_hilo`` (``low_qualifier``
  8) is ``F7S/8``; players ``p1, p2, ...`` are the seats clockwise from the seat left of
  the button (PHH's dealing order); ``players`` names our seats;
* ``antes`` (one per player), ``bring_in``, ``small_bet``, ``big_bet``,
  ``starting_stacks`` (``inf`` for ``stack=None``), and ``finishing_stacks`` (our
  result) when the hand is over;
* actions: each street's cards per player (``d dh p1 7s4c5h``), ``pN pb`` (bring-in),
  ``pN cbr X`` (complete, bet or raise to X this street), ``pN cc``, ``pN f``, and
  ``pN sm cards`` where PHH shows hands: after the betting of a street that leaves at
  most one player with chips behind, and at the end;
* what PHH has no field for rides along in ``_dealers_choice`` (a JSON string; PHH
  keeps fields starting with ``_`` as user-defined): the button, ``raise_cap``,
  ``cap_heads_up``, ``burn_cards`` with the burned cards, ``open_pair_big_bet``.

What PHH cannot express is refused with a :class:`PHHError`: other variants,
``bring_in=None``, a ``stud_hilo`` qualifier other than 8, a community card (eight
players at seventh street), burned cards reused at seventh street, a street with more
than four bets and raises (PokerKit caps every street at four, heads-up too), and an
open pair on fourth street that made a bet there a big bet. Odd chips: PokerKit gives
a tie's odd chip to the first tied player from the seat left of the button, we give it
by suit (docs/rules.md), so PokerKit's replay of a hand whose pot did not divide evenly can
differ from ``finishing_stacks`` by those chips.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterable, Sequence
from typing import Any

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.cards import format_card, format_cards
from envs.engine.events import Event
from envs.engine.history import HandRecord
from envs.engine.record import quoted
from envs.engine.state import State
from envs.phh_read import PHHError, read_phh
from envs.variants import replay

__all__ = ["PHH_CODES", "PHHError", "from_phh", "from_phh_all", "to_phh", "to_phh_all"]

PHH_CODES = {"stud": "F7S", "razz": "FR", "stud_hilo": "F7S/8"}
PHH_MAX_BETS = 4  # PokerKit's cap on completions, bets and raises per street
EXTENSION = "_dealers_choice"
_VERBS = {FOLD: "f", CHECK_CALL: "cc", BRING_IN: "pb"}
_STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")


# ------------------------------------------------------------------ export
def to_phh(record: HandRecord, *, players: Sequence[str] | None = None) -> str:
    """The hand as PHH text (TOML). The record is replayed (and so checked) first.

    Args:
        record: a stud, razz or stud_hilo hand, finished or not.
        players: a name per seat (our seat order); default ``player_<seat>``.

    Raises:
        PHHError: the hand uses something PHH cannot express (module docstring).
        RecordError: the record does not replay.
    """
    code = PHH_CODES.get(record.variant)
    if code is None:
        raise PHHError(
            f"variant {record.variant!r} has no PHH code; PHH covers "
            + ", ".join(f"{name} ({c})" for name, c in PHH_CODES.items())
        )
    wild = record.options.get("wild", "none")
    if wild != "none":
        raise PHHError(
            f"wild={wild!r}: PHH has no wild cards (no joker, no card that stands for another; docs/rules.md "
            "section 11), so a wild-card hand has no PHH form"
        )
    state = replay(record)
    _check_expressible(state)
    n, options = state.n, state.game.options
    order = [(state.button + 1 + i) % n for i in range(n)]  # order[i] is p{i+1}
    names = list(players) if players is not None else [f"player_{s}" for s in range(n)]
    if len(names) != n:
        raise PHHError(f"players: {len(names)} names for {n} seats")
    lines = [
        f"# Dealer's Choice {record.variant}, {n} players; p1 is {names[order[0]]}, left of the button "
        f"{names[state.button]}",
        f"variant = {_toml(code)}",
        f"antes = {_toml([options.ante] * n)}",
        f"bring_in = {options.bring_in}",
        f"small_bet = {options.small_bet}",
        f"big_bet = {options.big_bet}",
        f"starting_stacks = {_toml([_stack(state, s) for s in order])}",
        "actions = [",
        *_action_lines(state, order, names),
        "]",
        f"players = {_toml([names[s] for s in order])}",
    ]
    if state.payoff is not None and not any(state.unlimited[s] for s in order):
        lines.append(f"finishing_stacks = {_toml([state.start_stack[s] + state.payoff[s] for s in order])}")
    extension = json.dumps(_extension(state), separators=(", ", ": "))
    lines.append(f"{EXTENSION} = '{extension}'")  # a TOML literal string: the JSON needs no escapes
    return "\n".join(lines) + "\n"


def to_phh_all(records: Iterable[HandRecord]) -> str:
    """Several hands in one PHH file (tables ``[1]``, ``[2]``, ... as PokerKit writes)."""
    return "\n".join(f"[{i}]\n{to_phh(r)}" for i, r in enumerate(records, 1))


def from_phh(text: str, *, check_finishing_stacks: bool = True) -> HandRecord:
    """A :class:`HandRecord` of the PHH hand, played with our engine.

    The dealt cards become a stacked deck (the cards PHH does not show follow in a fixed
    shuffled order); every action must be legal and every fixed-limit amount the one
    our engine makes; shown cards must be the cards dealt; a mucked hand must be one
    that wins nothing; ``finishing_stacks``, when given and ``check_finishing_stacks``,
    must equal ours. A history that stops before the end gives an unfinished hand.

    Raises:
        PHHError: naming the field or the action (numbered from 1) that is wrong.
    """
    return read_phh(_load(text), check_finishing_stacks=check_finishing_stacks)


def from_phh_all(text: str, *, check_finishing_stacks: bool = True) -> list[HandRecord]:
    """Every hand of a multi-hand PHH file (tables ``[1]``, ``[2]``, ...)."""
    data = _load(text)
    tables = [(k, v) for k, v in data.items() if isinstance(v, dict)]
    if not tables:
        raise PHHError("no hands: a multi-hand PHH file holds tables [1], [2], ...")
    records = []
    for key, table in tables:
        try:
            records.append(read_phh(table, check_finishing_stacks=check_finishing_stacks))
        except PHHError as err:
            raise PHHError(f"hand [{key}]: {err}") from None
    return records


def _load(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, TypeError) as err:
        raise PHHError(f"not a PHH (TOML) text: {err}") from None


# ------------------------------------------------------------------ what PHH cannot say
def _check_expressible(state: State) -> None:
    options, name = state.game.options, state.game.name
    if options.bring_in is None:
        raise PHHError("bring_in=None (no forced bet, the high card opens) has no PHH form: PHH stud has a bring-in")
    if name == "stud_hilo" and options.low_qualifier != 8:
        raise PHHError(f"low_qualifier={options.low_qualifier!r}: PHH's F7S/8 is eight-or-better only")
    if state.community:
        raise PHHError("the hand dealt a community card at seventh street (the deck ran out); PHH stud has none")
    if any(e.kind == "reshuffle" for e in state.events):
        raise PHHError("burned cards were reused at seventh street (the deck ran out); PHH cannot say so")
    bets: dict[int, int] = {}
    for e in state.events:
        if e.kind == "action" and e.action == RAISE:
            bets[e.street] = bets.get(e.street, 0) + 1
            if bets[e.street] > PHH_MAX_BETS:
                raise PHHError(
                    f"{_STREETS[e.street]} has {bets[e.street]} bets and raises; PHH (PokerKit) caps every "
                    f"street at {PHH_MAX_BETS}, heads-up too (raise_cap={options.raise_cap!r}, "
                    f"cap_heads_up={options.cap_heads_up!r})"
                )
    if getattr(options, "open_pair_big_bet", False) and options.big_bet != options.small_bet:
        paired = [
            s for s in range(state.n) if len(state.cards[s]) >= 4 and state.cards[s][2] >> 2 == state.cards[s][3] >> 2
        ]
        if paired and bets.get(1):
            raise PHHError(
                f"player_{paired[0]}'s open pair made fourth street's bets big bets (open_pair_big_bet); "
                "PHH stud always bets the small bet there"
            )


def _open_pair(cards: list[int]) -> bool:
    """The two up cards showing on fourth street (the 3rd and 4th dealt) pair."""
    return cards[2] >> 2 == cards[3] >> 2


def _extension(state: State) -> dict[str, Any]:
    options = state.game.options
    ext: dict[str, Any] = {
        "variant": state.game.name,
        "button": state.button,
        "raise_cap": options.raise_cap,
        "cap_heads_up": options.cap_heads_up,
        "burn_cards": options.burn_cards,
    }
    if state.game.name == "stud":
        ext["open_pair_big_bet"] = options.open_pair_big_bet
    if state.burned:
        ext["burned"] = format_cards(state.burned)
    return ext


# ------------------------------------------------------------------ actions
def _action_lines(state: State, order: list[int], names: list[str]) -> list[str]:
    """The actions, one TOML string a line, commented with streets and names."""
    player = {seat: f"p{i + 1}" for i, seat in enumerate(order)}
    lines: list[str] = []
    writer = _ShowdownTracker(state)
    pending: dict[int, list[int]] = {}

    def flush() -> None:
        for seat in sorted(pending, key=order.index):
            text = f"d dh {player[seat]} {''.join(format_card(c) for c in pending[seat])}"
            lines.append(f"  {_toml(text)},  # {names[seat]}")
        pending.clear()

    for e in state.events:
        if e.kind == "deal":
            pending.setdefault(e.seat, []).append(e.cards[0])
            writer.deal(e)
            continue
        flush()
        if e.kind == "street":
            lines += writer.showdown(player, last=False)
            lines.append(f"  # {e.text}")
        elif e.kind in ("ante", "action"):
            writer.chips(e)
            if e.kind == "action":
                verb = _VERBS.get(e.action, f"cbr {e.amount}")
                said = (
                    e.text
                    if e.action in (FOLD, CHECK_CALL) and e.text in ("folds", "checks")
                    else f"{e.text} {e.amount}"
                )
                lines.append(f"  {_toml(f'{player[e.seat]} {verb}')},  # {names[e.seat]}: {said}")
    flush()
    if state.is_over:
        lines += writer.showdown(player, last=True)
    return lines


class _ShowdownTracker:
    """Where PHH (PokerKit) shows hands: after the betting of the street on which at
    most one player still has chips behind (all-in), and again at the end."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.cards: list[list[int]] = [[] for _ in range(state.n)]
        self.committed = [0] * state.n
        self.contrib = [0] * state.n
        self.folded = [False] * state.n
        self.started = False
        self.all_in_shown = False

    def deal(self, e: Event) -> None:
        self.cards[e.seat].append(e.cards[0])

    def chips(self, e: Event) -> None:
        if e.kind == "ante":
            self.committed[e.seat] += e.amount
            return
        self.committed[e.seat] += e.amount - self.contrib[e.seat]
        self.contrib[e.seat] = e.amount
        self.folded[e.seat] = self.folded[e.seat] or e.action == FOLD

    def showdown(self, player: dict[int, str], *, last: bool) -> list[str]:
        """The show lines due at a street's end (``last``: the end of the hand)."""
        starting, self.started = not self.started, True
        self.contrib = [0] * self.state.n
        live = [s for s in player if not self.folded[s]]
        if starting or len(live) < 2 or (self.all_in_shown and not last):
            return []
        behind = [s for s in live if self.state.unlimited[s] or self.state.start_stack[s] - self.committed[s] > 0]
        if not last and len(behind) > 1:
            return []
        self.all_in_shown = True
        return [f"  {_toml(f'{player[s]} sm ' + ''.join(format_card(c) for c in self.cards[s]))}," for s in live]


# ------------------------------------------------------------------ TOML
def _stack(state: State, seat: int) -> float | int:
    return float("inf") if state.unlimited[seat] else state.start_stack[seat]


def _toml(value: Any) -> str:
    """A TOML value: strings as basic strings, numbers, ``inf``, lists."""
    if isinstance(value, str):
        return json.dumps(value)  # JSON's escapes are valid TOML basic-string escapes
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value == float("inf"):
        return "inf"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise PHHError(f"cannot write {quoted(value)} as TOML")
