"""Reading a PHH hand of stud, razz or stud eight-or-better into a :class:`HandRecord`
(the user API is :func:`envs.phh.from_phh`; the mapping is documented there).

The file's dealt cards become a stacked deck in our dealing order (each street, one
card at a time clockwise from the seat left of the button, folded seats skipped,
a burned card first with ``burn_cards``); the cards it does not show follow in a fixed
shuffled order (seed :data:`SEED`). The players' actions are then applied one by one;
every disagreement is a :class:`PHHError` naming the field or the action.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.cards import format_cards, parse, parse_card
from envs.engine.errors import IllegalActionError
from envs.engine.game import Game
from envs.engine.history import HandRecord
from envs.engine.record import dealt_of, quoted
from envs.engine.state import State
from envs.variants import make_game

PHH_VARIANTS = {"F7S": "stud", "FR": "razz", "F7S/8": "stud_hilo"}
REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
EXTENSION = "_dealers_choice"
EXTENSION_KEYS = frozenset(
    {"variant", "button", "raise_cap", "cap_heads_up", "burn_cards", "open_pair_big_bet", "burned"}
)
SEED = 0  # the undealt cards of an imported hand follow in this fixed shuffle
_ACTIONS = {"pb": BRING_IN, "f": FOLD, "cc": CHECK_CALL, "cbr": RAISE}
_PLAYER = re.compile(r"p([1-9][0-9]*)")
_NOTATION = "d dh pN cards, pN pb, pN f, pN cc, pN cbr amount, pN sm [cards]"


class PHHError(ValueError):
    """A hand PHH cannot express, or a PHH text we cannot read or replay; the message
    names the field or the action."""


@dataclass(frozen=True)
class _Step:
    """One parsed action: ``player`` is the PHH index (0 for p1); ``cards`` the dealt or
    shown cards (shown: known ones only); ``muck`` a show with no cards."""

    index: int
    text: str
    player: int
    verb: str
    cards: tuple[int, ...] = ()
    amount: int | None = None
    muck: bool = False

    @property
    def where(self) -> str:
        return f"action {self.index} {quoted(self.text)}"


def read_phh(data: dict[str, Any], *, check_finishing_stacks: bool = True) -> HandRecord:
    """The record of one parsed PHH hand (a TOML table)."""
    variant = _variant(data)
    stacks = _stacks(data.get("starting_stacks"))
    n = len(stacks)
    ext = _extension(data, variant, n)
    button = ext.get("button", n - 1)  # without it, p1 is seat 0
    order = [(button + 1 + i) % n for i in range(n)]  # order[i]: our seat of p{i+1}
    game = _game(variant, n, data, stacks, order, ext)
    steps = _steps(data.get("actions"), n)
    burned = _burned(ext) if game.options.burn_cards else None
    state = game.new_state(np.random.default_rng(SEED), button=button, deck=_deck(steps, n, burned))
    _play(state, steps, order)
    _check_dealt(state, steps, order)
    _check_shows(state, steps, order)
    if check_finishing_stacks:
        _check_finishing(data, state, order)
    return HandRecord.of(state)


# ------------------------------------------------------------------ fields
def _variant(data: dict[str, Any]) -> str:
    missing = [f for f in REQUIRED if f not in data]
    if "variant" in missing:
        raise PHHError("variant: missing (a PHH hand starts with variant = 'F7S', 'FR' or 'F7S/8')")
    code = data["variant"]
    if code not in PHH_VARIANTS:
        known = ", ".join(f"{c} ({name})" for c, name in PHH_VARIANTS.items())
        raise PHHError(f"variant: {quoted(code)} is not one we play; we read {known}")
    if missing:
        raise PHHError(f"{missing[0]}: missing (a {code} hand needs {', '.join(REQUIRED)})")
    for field in ("blinds_or_straddles", "min_bet"):
        if data.get(field) is not None:
            raise PHHError(f"{field}: not a field of {code} (stud games have a bring-in)")
    return PHH_VARIANTS[code]


def _chips(field: str, value: Any, low: int = 0, *, allow_inf: bool = False) -> int | None:
    """A whole number of chips (an integral float too); ``inf`` gives None."""
    if allow_inf and isinstance(value, float) and value == float("inf"):
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        allowed = f"a whole number of chips >= {low}" + (" or inf" if allow_inf else "")
        raise PHHError(f"{field}: {quoted(value)} is not allowed: expected {allowed}")
    return value


def _stacks(value: Any) -> list[int | None]:
    if not isinstance(value, list) or not 2 <= len(value) <= 8:
        raise PHHError(f"starting_stacks: {quoted(value)} is not allowed: expected a list of 2..8 stacks")
    stacks = [_chips(f"starting_stacks[{i}]", v, 1, allow_inf=True) for i, v in enumerate(value)]
    if None in stacks and any(s is not None for s in stacks):
        raise PHHError("starting_stacks: mixes inf and finite stacks; we play all unlimited or all finite")
    return stacks


def _extension(data: dict[str, Any], variant: str, n: int) -> dict[str, Any]:
    raw = data.get(EXTENSION)
    if raw is None:
        return {}
    try:
        ext = json.loads(raw) if isinstance(raw, str) else None
    except json.JSONDecodeError as err:
        raise PHHError(f"{EXTENSION}: not JSON ({err})") from None
    if not isinstance(ext, dict):
        raise PHHError(f"{EXTENSION}: {quoted(raw)} is not allowed: expected a JSON object in a string")
    unknown = sorted(set(ext) - EXTENSION_KEYS)
    if unknown:
        raise PHHError(f"{EXTENSION}: unknown key {quoted(unknown[0])}; keys: {', '.join(sorted(EXTENSION_KEYS))}")
    if ext.get("variant", variant) != variant:
        raise PHHError(f"{EXTENSION}: variant {quoted(ext['variant'])} but the PHH variant is {variant}")
    button = ext.get("button", 0)
    if isinstance(button, bool) or not isinstance(button, int) or not 0 <= button < n:
        raise PHHError(f"{EXTENSION}: button {quoted(button)} is not allowed: expected a seat 0..{n - 1}")
    if not isinstance(ext.get("burned", ""), str):
        raise PHHError(f"{EXTENSION}: burned {quoted(ext['burned'])} is not allowed: expected cards as text")
    return ext


def _burned(ext: dict[str, Any]) -> list[int]:
    try:
        return parse(ext.get("burned", ""))
    except ValueError as err:
        raise PHHError(f"{EXTENSION}: burned: {err}") from None


def _game(
    variant: str, n: int, data: dict[str, Any], stacks: list[int | None], order: list[int], ext: dict[str, Any]
) -> Game:
    """The game the fields describe."""
    antes = data["antes"] if isinstance(data["antes"], list) else [data["antes"]] * n
    if len(antes) != n:
        raise PHHError(f"antes: {len(antes)} entries for {n} players")
    ante = {_chips(f"antes[{i}]", a) for i, a in enumerate(antes)}
    if len(ante) > 1:
        raise PHHError(f"antes: {quoted(antes)} differ by player; we play one ante for everyone")
    by_seat = [stacks[order.index(seat)] for seat in range(n)]
    stack: Any = by_seat[0] if len(set(by_seat)) == 1 else tuple(by_seat)
    options: dict[str, Any] = {
        "ante": ante.pop(),
        "bring_in": _chips("bring_in", data["bring_in"], 1),
        "small_bet": _chips("small_bet", data["small_bet"], 1),
        "big_bet": _chips("big_bet", data["big_bet"], 1),
        "stack": stack,
        "raise_cap": ext.get("raise_cap", 4),  # PokerKit caps every street at four...
        "cap_heads_up": ext.get("cap_heads_up", True),  # ... heads-up too
        "burn_cards": ext.get("burn_cards", False),
    }
    if variant == "stud":
        options["open_pair_big_bet"] = ext.get("open_pair_big_bet", False)
    try:
        return make_game(variant, n, **options)
    except ValueError as err:
        raise PHHError(f"the PHH game has no {variant} equivalent here: {err}") from None


# ------------------------------------------------------------------ actions
def _steps(actions: Any, n: int) -> list[_Step]:
    if not isinstance(actions, list):
        raise PHHError(f"actions: {quoted(actions)} is not allowed: expected a list of action strings")
    steps = []
    for i, text in enumerate(actions, 1):
        if not isinstance(text, str):
            raise PHHError(f"action {i}: {quoted(text)} is not allowed: expected a string ({_NOTATION})")
        step = _parse_step(i, text, n)
        if step is not None:
            steps.append(step)
    return steps


def _parse_step(index: int, text: str, n: int) -> _Step | None:
    words = text.split("#", 1)[0].split()  # '# ...' is commentary
    where = f"action {index} {quoted(text)}"
    match words:
        case []:
            return None
        case ["d", "dh", player, cards]:
            dealt = _cards(cards, where)
            if None in dealt:
                raise PHHError(f"{where}: unknown cards ('??'); replaying needs every dealt card")
            return _Step(index, text, _player(player, n, where), "dh", tuple(c for c in dealt if c is not None))
        case ["d", "db", *_]:
            raise PHHError(f"{where}: board cards; our stud deals none a PHH file can describe")
        case [player, ("pb" | "f" | "cc") as verb]:
            return _Step(index, text, _player(player, n, where), verb)
        case [player, "cbr", amount]:
            try:
                chips = _chips("amount", float(amount), 1)
            except ValueError:
                raise PHHError(f"{where}: the amount {quoted(amount)} is not a whole number of chips") from None
            return _Step(index, text, _player(player, n, where), "cbr", amount=chips)
        case [player, "sm"]:
            return _Step(index, text, _player(player, n, where), "sm", muck=True)
        case [player, "sm", cards]:
            shown = () if cards == "-" else tuple(c for c in _cards(cards, where) if c is not None)
            return _Step(index, text, _player(player, n, where), "sm", shown)
        case [_, "sd", *_]:
            raise PHHError(f"{where}: draws ('sd') are not part of stud")
    raise PHHError(f"{where}: not PHH stud notation ({_NOTATION})")


def _player(word: str, n: int, where: str) -> int:
    m = _PLAYER.fullmatch(word)
    if m is None or int(m.group(1)) > n:
        raise PHHError(f"{where}: {quoted(word)} is not a player: expected p1..p{n}")
    return int(m.group(1)) - 1


def _cards(text: str, where: str) -> list[int | None]:
    """PHH cards: two characters each, no separators; '??' is unknown (None)."""
    if len(text) % 2:
        raise PHHError(f"{where}: {quoted(text)} is not a run of two-character cards")
    out: list[int | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i : i + 2]
        if chunk == "??":
            out.append(None)
            continue
        try:
            out.append(parse_card(chunk))
        except ValueError as err:
            raise PHHError(f"{where}: {err}") from None
    return out


# ------------------------------------------------------------------ the deal
def _deck(steps: list[_Step], n: int, burned: list[int] | None) -> list[int]:
    """The dealt cards in our dealing order: street by street, one card at a time
    clockwise from p1, players without a card on that street skipped."""
    received: list[list[int]] = [[] for _ in range(n)]
    for step in steps:
        if step.verb == "dh":
            received[step.player].extend(step.cards)
    for p, cards in enumerate(received):
        if len(cards) > 7:
            raise PHHError(f"p{p + 1} is dealt {len(cards)} cards; stud deals seven")
    deck: list[int] = []
    burns = iter(burned or [])
    for street in range(5):
        positions = [0, 1, 2] if street == 0 else [street + 2]
        live = [p for p in range(n) if len(received[p]) > positions[0]]
        if not live:
            break
        if burned is not None:
            card = next(burns, None)
            if card is None:
                raise PHHError(f"{EXTENSION}: burn_cards is on but fewer burned cards are listed than streets")
            deck.append(card)
        for k in positions:
            for p in live:
                if len(received[p]) <= k:
                    raise PHHError(f"p{p + 1} is dealt {len(received[p])} cards, part of a street")
                deck.append(received[p][k])
    seen: set[int] = set()
    for card in deck:
        if card in seen:
            raise PHHError(f"{format_cards([card])} is dealt twice")
        seen.add(card)
    return deck


def _play(state: State, steps: list[_Step], order: list[int]) -> None:
    for step in steps:
        if step.verb in ("dh", "sm"):
            continue
        if state.is_over:
            raise PHHError(f"{step.where}: the hand is already over")
        seat = order[step.player]
        if state.current_seat != seat:
            actor = "nobody" if state.current_seat is None else f"p{order.index(state.current_seat) + 1}"
            raise PHHError(f"{step.where}: p{step.player + 1} is not to act; {actor} is ({state.describe()})")
        try:
            state.apply(_ACTIONS[step.verb])
        except IllegalActionError as err:
            raise PHHError(f"{step.where}: not legal here ({err})") from None
        if step.amount is not None:
            made = next(e for e in reversed(state.events) if e.kind == "action").amount
            if made != step.amount:
                raise PHHError(
                    f"{step.where}: the fixed-limit bet makes p{step.player + 1}'s total this street {made}, "
                    f"not {step.amount}"
                )


def _check_dealt(state: State, steps: list[_Step], order: list[int]) -> None:
    ours = dealt_of(state)
    for p, seat in enumerate(order):
        theirs = [c for step in steps if step.verb == "dh" and step.player == p for c in step.cards]
        mine = [c for c, _ in ours[f"player_{seat}"]]
        if mine[: len(theirs)] != theirs:
            raise PHHError(
                f"p{p + 1} is dealt {format_cards(theirs)} in the file but {format_cards(mine)} in our replay "
                "(the file's dealing does not follow the hand)"
            )


def _check_shows(state: State, steps: list[_Step], order: list[int]) -> None:
    for step in steps:
        if step.verb != "sm":
            continue
        seat = order[step.player]
        if step.muck:
            if state.is_over and state.won[seat] > 0:
                raise PHHError(
                    f"{step.where}: p{step.player + 1} mucks, but every live hand is shown here and this one "
                    f"wins {state.won[seat]}; a mucked winner cannot be replayed"
                )
            continue
        stray = [c for c in step.cards if c not in state.cards[seat]]
        if stray:
            raise PHHError(
                f"{step.where}: p{step.player + 1} shows {format_cards(stray)}, not among the cards dealt "
                f"({format_cards(state.cards[seat])})"
            )


def _check_finishing(data: dict[str, Any], state: State, order: list[int]) -> None:
    finishing = data.get("finishing_stacks")
    if finishing is None or state.payoff is None or any(state.unlimited):
        return
    if not isinstance(finishing, list) or len(finishing) != state.n:
        raise PHHError(f"finishing_stacks: {quoted(finishing)} is not allowed: expected {state.n} stacks")
    for p, seat in enumerate(order):
        theirs = _chips(f"finishing_stacks[{p}]", finishing[p])
        mine = state.start_stack[seat] + state.payoff[seat]
        if theirs != mine:
            odd = " (the pot divided unevenly: odd-chip rules differ)" if state.odd_chips else ""
            raise PHHError(f"finishing_stacks: p{p + 1} ends with {theirs} in the file, {mine} in our replay{odd}")
