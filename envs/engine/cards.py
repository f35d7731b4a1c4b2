"""Cards as small integers, and their text forms.

A card is an ``int`` in ``0..51`` equal to ``rank * 4 + suit``:

* rank ``0`` is the deuce, ``12`` the ace (``RANKS = "23456789TJQKA"``);
* suit ``0..3`` is clubs, diamonds, hearts, spades (``SUITS = "cdhs"``). This order is
  also the stud suit order used to break bring-in and odd-chip ties (clubs lowest).

Integers keep hands cheap to copy, hash and index into numpy tables; the text forms
exist for people (tests, hand histories, ``render()``).

>>> parse("As Td 10h K♠")
[51, 33, 34, 47]
>>> parse("As as")
Traceback (most recent call last):
...
ValueError: duplicate card 'As' in 'As as'
>>> format_cards(parse("As Td"))
'As Td'
>>> parse_deck(["As", 45, "Qh Jc"])
[51, 45, 42, 36]
>>> parse_deck([51, 1.5])
Traceback (most recent call last):
...
ValueError: stacked deck entry 1 is 1.5 (float), not a card: expected a card int 0..51 or a card string such as 'As'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from envs.engine.options import quoted

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANK_PLURALS = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)
NUM_CARDS = 52
DECK: tuple[int, ...] = tuple(range(NUM_CARDS))
# The joker of the wild-card house rules (docs/rules.md section 11): one card past the
# standard 52, so every natural card keeps its integer. Its rank (52 >> 2 = 13) is no
# rank of the standard deck, and it is never in a 52-wide one-hot block.
JOKER = 52
JOKER_NAME = "Jk"
DECK_WITH_JOKER: tuple[int, ...] = (*DECK, JOKER)

_SUIT_ALIASES = {
    **{s: i for i, s in enumerate(SUITS)},
    **{s: i for i, s in enumerate(SUIT_SYMBOLS)},
    **{s: i for i, s in enumerate("♧♢♡♤")},
}
_RANK_ALIASES = {**{r: i for i, r in enumerate(RANKS)}, "10": 8}
_CARD_RE = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠♧♢♡♤])", re.IGNORECASE)
_ACCEPTED = "rank 2-9, T or 10, J, Q, K, A followed by suit c, d, h, s or ♣ ♦ ♥ ♠ (e.g. 'As', '10d', 'K♠')"


def card(rank: int, suit: int) -> int:
    """The card of a given rank (0 = deuce .. 12 = ace) and suit (0 = clubs .. 3 = spades)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"rank must be 0..12 and suit 0..3, got rank={rank}, suit={suit}")
    return rank * 4 + suit


def rank_of(c: int) -> int:
    """Rank index of a card: 0 (deuce) .. 12 (ace)."""
    return c >> 2


def suit_of(c: int) -> int:
    """Suit index of a card: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return c & 3


def _parse_token(token: str, text: str) -> list[int]:
    """Parse one whitespace-free token holding one or more cards ('As', 'AsKd', 'Jk')."""
    cards: list[int] = []
    pos = 0
    while pos < len(token):
        if token[pos : pos + 2].lower() == "jk":
            cards.append(JOKER)
            pos += 2
            continue
        m = _CARD_RE.match(token, pos)
        if m is None:
            raise ValueError(f"unknown card {quoted(token)} in {quoted(text)}: expected {_ACCEPTED}")
        rank = _RANK_ALIASES[m.group(1).upper()]
        cards.append(rank * 4 + _SUIT_ALIASES[m.group(2).lower()])
        pos = m.end()
    return cards


def parse(text: str | Iterable[str]) -> list[int]:
    """Parse cards from text such as ``"As Kd 10h"`` (or ``"AsKd"``, or a list of tokens).

    Raises:
        ValueError: naming the bad token and the accepted forms, or a duplicated card.
    """
    tokens = re.split(r"[\s,]+", text.strip()) if isinstance(text, str) else list(text)
    shown = text if isinstance(text, str) else " ".join(tokens)
    cards: list[int] = []
    for token in tokens:
        if token:
            cards.extend(_parse_token(token, shown))
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"duplicate card {format_card(c)!r} in {quoted(shown)}")
        seen.add(c)
    return cards


def parse_card(text: str) -> int:
    """Parse exactly one card."""
    cards = parse(text)
    if len(cards) != 1:
        raise ValueError(f"expected exactly one card, got {len(cards)} in {quoted(text)}")
    return cards[0]


def format_card(c: int, symbols: bool = False) -> str:
    """``'As'`` (or ``'A♠'`` with ``symbols=True``) for a card integer; ``'Jk'`` for the joker."""
    if c == JOKER:
        return JOKER_NAME
    if not 0 <= c < NUM_CARDS:
        raise ValueError(f"card must be an integer 0..51, got {quoted(c)}")
    return RANKS[c >> 2] + (SUIT_SYMBOLS if symbols else SUITS)[c & 3]


def format_cards(cards: Sequence[int] | Iterable[int], symbols: bool = False) -> str:
    """Space-separated text of several cards."""
    return " ".join(format_card(int(c), symbols) for c in cards)


_DECK_ENTRY = "a card int 0..51 or a card string such as 'As'"


def parse_deck(deck: Any, *, joker: bool = False) -> list[int]:
    """A stacked deck (top card first) as card ints, every entry checked.

    ``deck`` is a string of cards (``"As Kd Qh"``) or a sequence (list, tuple, numpy
    array) whose entries are card ints 0..51 (Python or numpy integers) or card
    strings. Floats, bools, None and nested sequences are refused rather than
    truncated to ints: ``1.5`` is not a card, and dealing it as the 3c would hide the
    caller's mistake.

    ``joker``: the game deals the joker (``wild="joker"`` or ``"bug"``), so ``'Jk'``
    and ``52`` are cards too; without it the joker is refused, naming the option.

    Raises:
        ValueError: naming the bad entry, its position and what is allowed, or a card
            given twice.
    """
    if isinstance(deck, str):
        parsed = parse(deck)
        if JOKER in parsed and not joker:
            raise ValueError(_no_joker(parsed.index(JOKER)))
        return parsed
    if isinstance(deck, np.ndarray) and deck.ndim != 1:
        raise ValueError(f"a stacked deck must be one-dimensional, got an array of shape {deck.shape}")
    if not isinstance(deck, (Sequence, np.ndarray)) or isinstance(deck, (bytes, bytearray)):
        raise ValueError(
            "a stacked deck must be a string of cards or a sequence of card ints 0..51 and card strings, "
            f"got {type(deck).__name__} {quoted(deck)}"
        )
    cards: list[int] = []
    where: dict[int, int] = {}  # card -> the entry that gave it
    for position, entry in enumerate(deck):
        for c in _deck_entry(entry, position, joker):
            if c in where:
                raise ValueError(
                    f"stacked deck holds {format_card(c)} twice (entries {where[c]} and {position}): "
                    "every card can be dealt once"
                )
            where[c] = position
            cards.append(c)
    return cards


def _no_joker(position: int) -> str:
    return (
        f"stacked deck entry {position} is the joker {JOKER_NAME!r}, but this game has no joker: "
        "the joker is dealt only with option wild='joker' or wild='bug'"
    )


def _deck_entry(entry: Any, position: int, joker: bool = False) -> list[int]:
    """The cards of one deck entry: one int card, or the cards a string names."""
    if isinstance(entry, str):
        try:
            cards = parse(entry)
        except ValueError as err:
            raise ValueError(f"stacked deck entry {position}: {err}") from None
        if JOKER in cards and not joker:
            raise ValueError(_no_joker(position))
        return cards
    if isinstance(entry, (int, np.integer)) and not isinstance(entry, (bool, np.bool_)):
        if 0 <= entry < NUM_CARDS or (joker and entry == JOKER):
            return [int(entry)]
        raise ValueError(f"stacked deck entry {position} is {quoted(entry)}, not a card: expected {_DECK_ENTRY}")
    kind = type(entry).__name__
    raise ValueError(f"stacked deck entry {position} is {quoted(entry)} ({kind}), not a card: expected {_DECK_ENTRY}")
