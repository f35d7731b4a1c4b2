"""Replay a :class:`~envs.engine.record.HandRecord` and check every recorded fact.

The checks, in order (the first disagreement raises, naming it exactly):

1. the mac, when a key is given;
2. the game: every option of the record against the game it builds (options the
   variant does not take must hold the values the variant fixes), or against the
   ``game`` passed in;
3. the starting stacks (version 2);
4. the deck: version 2 records must give the deck that shuffling from ``rng_state``
   produces, apart from the first ``stacked`` cards the caller chose;
5. each decision: the recorded seat is the one to act and the action is legal;
6. the dealt cards, place by place and card by card (version 2) -- also checked first
   when a decision diverges, since a changed card is the usual reason;
7. the payoffs: required once the hand is over, equal to the replay's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from envs.engine.cards import format_card
from envs.engine.errors import IllegalActionError
from envs.engine.game import Game
from envs.engine.options import OBSERVATION_OPTIONS
from envs.engine.record import (
    Dealt,
    HandRecord,
    RecordFormatError,
    RecordMismatchError,
    dealt_of,
    json_value,
    ordinal,
    parse_dealt,
    quoted,
)
from envs.engine.state import State

_BIT_GENERATORS = {
    "PCG64": np.random.PCG64,
    "PCG64DXSM": np.random.PCG64DXSM,
    "MT19937": np.random.MT19937,
    "Philox": np.random.Philox,
    "SFC64": np.random.SFC64,
}


def replay_record(
    record: HandRecord,
    game: Game,
    *,
    key: bytes | None = None,
    on_decision: Callable[[State], None] | None = None,
) -> State:
    """Play ``record`` again on ``game`` and return the state; raise
    :class:`RecordMismatchError` at the first disagreement. (``envs.variants.replay``
    builds the game a record describes and calls this.) ``on_decision`` sees the state
    before each decision is applied (a replayer steps through the hand with it; it must
    not change the state: clone it to keep it)."""
    if key is not None:
        record.check_mac(key)
    game = _checked_game(record, game)
    state = _start(record, game)
    _check_stacks(record, state)
    _play(record, state, on_decision)
    if record.version >= 2:
        _check_dealt(record, state, complete=True)
    _check_payoffs(record, state)
    return state


# ----------------------------------------------------------------- the game
def record_inputs(record: HandRecord, option_names: frozenset[str]) -> dict[str, Any]:
    """The options to build a record's game with: those the variant takes, JSON lists
    back to the tuples option dataclasses hold."""
    return {k: _as_option(v) for k, v in record.options.items() if k in option_names}


def _checked_game(record: HandRecord, game: Game) -> Game:
    if game.name != record.variant or game.num_players != record.num_players:
        raise RecordMismatchError(
            f"game: the record is {record.variant} for {record.num_players} players, "
            f"the game given is {game.name} for {game.num_players}"
        )
    _check_options(record, game)
    return game


def _as_option(value: Any) -> Any:
    """JSON lists back to the tuples option dataclasses hold (per-seat stacks, bet sizes)."""
    return tuple(value) if isinstance(value, list) else value


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same kind: ``True`` is not ``1``, ``1`` is not ``1.0``."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _check_options(record: HandRecord, game: Game) -> None:
    """Every option: the game's value must be the record's. Version 2 records list all
    of them, so an option the variant fixes (stud's ``low_qualifier``) is checked too."""
    names = game.variant.option_names
    fields = [f.name for f in dataclasses.fields(game.options)]
    unknown = sorted(set(record.options) - set(fields))
    if unknown:
        raise RecordFormatError(
            f"options: unknown option {quoted(unknown[0])} for {game.name}; options: {', '.join(sorted(fields))}"
        )
    for name in fields:
        if name in OBSERVATION_OPTIONS:  # what a seat observes, not the game: never recorded, never checked
            continue
        built = json_value(getattr(game.options, name))
        if name not in record.options:
            if record.version >= 2:
                raise RecordFormatError(f"options: {name!r} is missing (a version 2 record lists every option)")
            continue
        if not _same(record.options[name], built):
            fixed = "" if name in names else f" ({game.name} does not take {name}: its value is fixed)"
            raise RecordMismatchError(
                f"option {name}: record {quoted(record.options[name])}, the game has {quoted(built)}{fixed}"
            )


# ----------------------------------------------------------------- the deal
def _generator(state: dict[str, Any]) -> np.random.Generator:
    name = state["bit_generator"]
    cls = _BIT_GENERATORS.get(name)
    if cls is None:
        raise RecordFormatError(
            f"rng_state: bit_generator {quoted(name)} is not allowed: expected one of {', '.join(_BIT_GENERATORS)}"
        )
    bit_generator = cls()
    try:
        bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as err:
        raise RecordFormatError(f"rng_state: not a valid {name} state ({quoted(err, 120)})") from None
    return np.random.Generator(bit_generator)


def _start(record: HandRecord, game: Game) -> State:
    if sorted(record.deck) != sorted(game.deck):
        raise RecordFormatError(
            f"deck: {len(record.deck)} cards; a record holds the game's whole deck of {len(game.deck)} cards, top "
            "first (a stacked deck's chosen cards come first and 'stacked' counts them)"
        )
    rng = _generator(record.rng_state)
    if record.version == 1:  # rng_state is after the shuffle: the whole deck is given
        return game.new_state(rng, button=record.button, deck=record.deck)
    stacked = record.deck[: record.stacked] if record.stacked else None
    state = game.new_state(rng, button=record.button, deck=stacked, hand=record.hand)
    for i, (mine, theirs) in enumerate(zip(record.deck, state.initial_deck, strict=True)):
        if mine != theirs:
            raise RecordMismatchError(
                f"deck card {i + 1} from the top: record {format_card(mine)}, the shuffle from rng_state gives "
                f"{format_card(theirs)} (only the first {record.stacked} cards were chosen by the caller; "
                "the rest follow from rng_state)"
            )
    return state


def _check_stacks(record: HandRecord, state: State) -> None:
    if record.stacks is None:
        return
    built = state.table_stacks  # a dealer's choice game may play with its own (Cowboy: unlimited)
    for seat, (mine, theirs) in enumerate(zip(record.stacks, built, strict=True)):
        if mine != theirs:
            raise RecordMismatchError(
                f"player_{seat}'s starting stack: record {_chips(mine)}, the game built from the options "
                f"(stack={quoted(record.options.get('stack'))}) gives {_chips(theirs)}"
            )


def _chips(value: int | None) -> str:
    return "unlimited" if value is None else str(value)


# ----------------------------------------------------------------- the play
def _play(record: HandRecord, state: State, on_decision: Callable[[State], None] | None = None) -> None:
    total = len(record.decisions)
    for i, (seat, action) in enumerate(record.decisions):
        if on_decision is not None:
            on_decision(state)
        where = f"decision {i + 1} of {total} (player_{seat}: {state.action_name(action)})"
        if state.is_over:
            _check_dealt(record, state, complete=False)
            raise RecordMismatchError(f"{where}: the replayed hand is already over after {i} decisions")
        if state.current_seat != seat:
            _check_dealt(record, state, complete=False)
            raise RecordMismatchError(f"{where}: the replay has player_{state.current_seat} to act")
        try:
            state.apply(action)
        except IllegalActionError as err:
            _check_dealt(record, state, complete=False)
            raise RecordMismatchError(f"{where}: illegal in the replay ({err})") from None


def _check_dealt(record: HandRecord, state: State, *, complete: bool) -> None:
    """Compare the cards dealt so far place by place; ``complete`` also requires the
    record to list no more cards than the replay dealt."""
    if record.dealt is None:
        return
    replayed = dealt_of(state)
    recorded: Dealt = {place: parse_dealt(text, f"dealt.{place}") for place, text in record.dealt.items()}
    for place in [*replayed, *(p for p in recorded if p not in replayed)]:
        mine, theirs = recorded.get(place, []), replayed.get(place, [])
        for k, ((card, up), (card2, up2)) in enumerate(zip(mine, theirs, strict=False)):
            if card != card2:
                raise RecordMismatchError(
                    f"{_card_name(place, k)}: record {format_card(card)}, replay {format_card(card2)}"
                )
            if up != up2:
                raise RecordMismatchError(
                    f"{_card_name(place, k)} ({format_card(card)}): record {_face(up)}, replay {_face(up2)}"
                )
        if len(theirs) > len(mine):
            extra = theirs[len(mine)]
            raise RecordMismatchError(
                f"{_card_name(place, len(mine))}: the replay dealt {format_card(extra[0])}, "
                f"the record lists {len(mine)} cards"
            )
        if complete and len(mine) > len(theirs):
            raise RecordMismatchError(
                f"{_card_name(place, len(theirs))}: the record lists {format_card(mine[len(theirs)][0])}, "
                f"the replay dealt only {len(theirs)} cards"
            )


def _card_name(place: str, k: int) -> str:
    if place.startswith("player_"):
        return f"{place}'s {ordinal(k + 1)} card"
    return f"the {ordinal(k + 1)} {place} card"


def _face(up: bool) -> str:
    return "face up" if up else "face down"


def _check_payoffs(record: HandRecord, state: State) -> None:
    decisions = len(record.decisions)
    if state.payoff is None:
        if record.payoffs is not None:
            raise RecordMismatchError(
                f"payoffs: the record gives {record.payoffs}, but its {decisions} decisions leave the hand "
                f"unfinished (player_{state.current_seat} to act)"
            )
        return
    if record.payoffs is None:
        raise RecordMismatchError(
            f"payoffs: missing (null), but the hand is over after its {decisions} decisions with payoffs "
            f"{state.payoff}; a finished hand's record gives its payoffs"
        )
    for seat, (mine, theirs) in enumerate(zip(record.payoffs, state.payoff, strict=True)):
        if mine != theirs:
            raise RecordMismatchError(
                f"player_{seat}'s payoff: record {mine:+d}, replay {theirs:+d} "
                f"(record {record.payoffs}, replay {state.payoff})"
            )
