"""A person at the table: the seat's view drawn as text, legal actions by name, and
input read until it names one of them.

Everything shown comes from :func:`envs.view.public_view` and the hand history seen
by the person's seat, so the terminal never shows a card the seat could not see.
Input and output are any text streams (``play.py`` passes stdin/stdout, tests pass
``io.StringIO``). An answer is a number from the list, an action's name (``fold``,
``check_call``, ``split_Ah_9d``) or one of the words shown (``call``, ``check``,
``stay``, ``low``); anything else is explained and asked again, so a typo never costs
a hand. ``q`` quits, ``h`` shows the hand so far, ``?`` lists the options again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from envs.engine.actions import DRAW_BASE, NUM_DRAWS, SPLIT_BASE, STAY
from envs.engine.cards import SUIT_SYMBOLS, format_card, parse
from envs.variants import get_variant
from envs.variants.mixed import CHOOSE_PREFIX
from envs.view import PublicView

QUIT, HISTORY, HELP = ("q", "quit", "exit"), ("h", "history"), ("?", "help")
_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII only: int() also reads "٣" and "１"
QUOTE_LIMIT = 40  # characters of an answer quoted back in a message
YES, NO = ("y", "yes", ""), ("n", "no", *QUIT)  # an empty answer to a [Y/n] question is yes
_CARD_TOKEN = re.compile(r"\b([2-9TJQKA])([cdhs])\b")
_ANSI = re.compile(r"\033\[[0-9;]*m")
_CARD_WORDS = {"discard", "split", "two-card", "hand", "keep"}  # words around cards in answers
_RED = "\033[31m"
_RESET = "\033[0m"


class Quit(Exception):  # noqa: N818 (a request to stop, not an error)
    """The person asked to stop (``q``) or the input ended."""


@dataclass
class Cards:
    """Card drawing: suit symbols, optionally red hearts and diamonds (ANSI)."""

    color: bool = False

    def card(self, c: int) -> str:
        """One card as ``A♠``."""
        text = format_card(c, symbols=True)
        return f"{_RED}{text}{_RESET}" if self.color and c & 3 in (1, 2) else text

    def cards(self, cards: Sequence[int]) -> str:
        """Several cards, space separated."""
        return " ".join(self.card(c) for c in cards)

    def text(self, line: str) -> str:
        """A history line with ``As`` written as ``A♠``."""
        return _CARD_TOKEN.sub(lambda m: self._symbol(m.group(1), m.group(2)), line)

    def _symbol(self, rank: str, suit: str) -> str:
        text = rank + SUIT_SYMBOLS["cdhs".index(suit)]
        return f"{_RED}{text}{_RESET}" if self.color and suit in "dh" else text


def table_text(view: PublicView, names: Sequence[str], title: str, draw: Cards, unit: str = "units") -> str:
    """The table as ``view.seat`` sees it: every seat's visible cards and chips
    (``unit``: what one reward unit is called, e.g. ``"big bets"``)."""
    if "phase" in view.extra:  # Cowboy family
        where = f"deal {view.extra['deal']}, {view.extra['phase']}"
    else:  # the latest street or phase (Cowpie's split has no street of its own)
        where = next((e.text for e in reversed(view.events) if e.kind == "street"), view.street_label)
    chips = f"{view.pot} chip{'' if view.pot == 1 else 's'}"
    lines = [f"--- {title} | {where} | pot {chips} = {view.pot / view.unit:g} {unit} ---"]
    if view.community:
        lines.append("community: " + _community(view, draw))
    for seat in range(view.num_players):
        lines.append(_seat_line(view, seat, names, draw))
    dummy = view.extra.get("dummy_cards")
    if dummy and view.extra.get("phase") == "dummy":
        lines.append(f"the dummy hand (you draw for it): {draw.cards(dummy)}")
    if view.is_my_turn and view.to_call:
        lines.append(f"to call: {view.to_call}")
    return "\n".join(lines)


def _community(view: PublicView, draw: Cards) -> str:
    groups: dict[str, list[int]] = {}
    for c, label in zip(view.community, view.community_labels, strict=False):
        groups.setdefault(label.rstrip(" 0123456789"), []).append(c)
    return " | ".join(f"{label} {draw.cards(cards)}" for label, cards in groups.items())


def _seat_line(view: PublicView, seat: int, names: Sequence[str], draw: Cards) -> str:
    if seat == view.seat:
        own = zip(view.own_cards, view.own_up, strict=True)
        shown = " ".join(draw.card(c) if up else f"[{draw.card(c)}]" for c, up in own)
    else:
        hidden = _down_count(view, seat)
        shown = " ".join(["??"] * hidden + [draw.card(c) for c in view.up_cards[seat]])
    marks = [m for m, on in (("button", seat == view.button), ("folded", view.folded[seat])) if on]
    stack = view.stacks[seat]
    chips = f"in pot {view.committed[seat]}" + ("" if stack is None else f", stack {stack}")
    if "net" in view.extra:
        chips += f", net {view.extra['net'][seat]:+d}"
    who = f"player_{seat} {names[seat]}" + (f" ({', '.join(marks)})" if marks else "")
    pointer = ">" if view.is_my_turn and seat == view.seat else " "
    return f"{pointer} {who}: {shown or '-'}  [{chips}]"


def _down_count(view: PublicView, seat: int) -> int:
    """Face-down cards another seat holds now, drawn as ``??`` (the view has their
    number, never their faces)."""
    if "phase" in view.extra:  # Cowboy: five cards each deal, all face down
        return 0 if view.folded[seat] else 5
    return sum(1 for e in view.events if e.kind == "deal" and e.seat == seat and not e.up)


@dataclass(frozen=True)
class Option:
    """One legal action as the person sees it."""

    action: int  # the stable index sent to the env
    name: str  # stable name (``check_call``, ``split_0_3``)
    label: str  # the env's label (``split_Ah_9d``)
    words: str  # what the list shows (``call 2``, ``discard 3♣ 9♠``)
    cards: frozenset[int] = frozenset()  # cards an answer may name: discards, two-card hand


def options_for(view: PublicView, labels: Sequence[str], draw: Cards) -> list[Option]:
    """The seat's legal actions (``labels``: the env's labels, same order) in words."""
    return [
        Option(a, n, label, *_describe(a, n, label, view, draw))
        for a, n, label in zip(view.legal_actions, view.legal_names, labels, strict=True)
    ]


def _describe(action: int, name: str, label: str, view: PublicView, draw: Cards) -> tuple[str, frozenset[int]]:
    if SPLIT_BASE <= action < DRAW_BASE:
        two = parse(label.split("_")[1:])
        five = [c for c in view.own_cards if c not in two]
        return f"split: two-card hand {draw.cards(two)}, five-card hand {draw.cards(five)}", frozenset(two)
    if DRAW_BASE <= action < DRAW_BASE + NUM_DRAWS:
        own = view.extra.get("dummy_cards", ()) if view.extra.get("phase") == "dummy" else view.own_cards
        mask = action - DRAW_BASE
        discards = [own[i] for i in range(min(5, len(own))) if mask >> i & 1]
        return ("stand pat" if not discards else f"discard {draw.cards(discards)}"), frozenset(discards)
    return _words(action, name, view), frozenset()


def _words(action: int, name: str, view: PublicView) -> str:
    if name.startswith(CHOOSE_PREFIX):  # dealer's choice: the person on the button names the game
        return f"deal {get_variant(name.removeprefix(CHOOSE_PREFIX)).title}"
    if name == "check_call":
        return "check" if view.to_call == 0 else f"call {view.to_call}"
    if name == "raise":
        completing = "bring_in" in view.legal_names or (view.street == 0 and 0 < view.current_bet < view.bet_unit)
        return "complete" if completing else _bet_word(view)
    if name.startswith("declare_"):
        return "declare " + name.removeprefix("declare_")
    if name == "fold" and view.extra.get("phase") == "stay":
        return "fold (sit out this deal)"
    if name.startswith("bet_") and name.endswith("_pot"):
        return f"{_bet_word(view)} {name[4:-4]} x pot"
    return "stay" if action == STAY else name.replace("_", " ")


def _bet_word(view: PublicView) -> str:
    return "bet" if view.current_bet == 0 else "raise"


class Prompt:
    """Asks until the answer names a legal action; raises :class:`Quit` on ``q`` or EOF."""

    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.echo = not _is_tty(stdin)  # piped or scripted input: show the answers in the output

    def say(self, text: str = "") -> None:
        """Print a line."""
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str:
        """One line of input (raises Quit at the end of input)."""
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            raise Quit("end of input")
        if self.echo:
            self.say(line.rstrip("\n"))
        return line.strip()

    def confirm(self, question: str) -> bool:
        """Ask a ``[Y/n]`` question until the answer is y, yes, n or no (any case;
        empty is yes, ``q`` is no)."""
        while True:
            answer = self.ask(question)
            if answer.lower() in YES:
                return True
            if answer.lower() in NO:
                return False
            self.say(f"{quoted(answer)} is not an answer here; type y or n (empty: y)")

    def choose(self, options: Sequence[Option], history: str) -> int:
        """Ask until the answer names one of ``options``; its action index."""
        self._list(options)
        while True:
            answer = self.ask(f"your action [1-{len(options)} or a name; ? help, h history, q quit]: ")
            lowered = answer.lower()
            if lowered in QUIT:
                raise Quit("quit")
            if lowered in HISTORY:
                self.say(history)
                continue
            if lowered in HELP:
                self._list(options)
                continue
            action, problem = match_answer(answer, options)
            if action is not None:
                return action
            self.say(problem)

    def _list(self, options: Sequence[Option]) -> None:
        for i, o in enumerate(options, 1):
            self.say(f"  {i}. {o.words}" + (f"   ({o.name})" if _plain(o.words) != o.name else ""))


def _plain(text: str) -> str:
    """Text without ANSI colour codes."""
    return _ANSI.sub("", text)


def _cards(text: str) -> frozenset[int]:
    """The cards an answer names (words such as "discard" ignored); empty if any
    other word is in it."""
    tokens = [t for t in text.replace(":", " ").replace(",", " ").split() if t not in _CARD_WORDS]
    try:
        return frozenset(parse(tokens)) if tokens else frozenset()
    except ValueError:
        return frozenset()


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def match_answer(answer: str, options: Sequence[Option]) -> tuple[int | None, str]:
    """The action an answer names, or None and what was wrong with it.

    Accepted: the number on the list; the action's name or label (``check_call``,
    ``split_Ah_9d``), a dealer's choice game by its name (``razz``); the words shown
    (``call 2``), or their first or last word when only one option has it (``call``,
    ``low``, ``pat``); the cards of a draw or split (``3c 9s``, ``discard 3♣ 9♠``)."""
    text = " ".join(answer.lower().split())
    n = len(options)
    if n <= 8:
        allowed = f"type a number 1-{n} or one of: " + ", ".join(o.words for o in options)
    else:
        allowed = f"type a number 1-{n}, a name from the list, or the cards (e.g. 'Ah 9d')"
    if not text:
        return None, f"no action given; {allowed}"
    if _NUMBER.fullmatch(text):
        return _by_number(text, options, allowed)
    if any(c.isdigit() and not c.isascii() for c in text):  # ², ①, ٣: str.isdigit() says yes, int() no
        return None, f"{quoted(answer)} is not a number on the list (type the digits 0-9); {allowed}"
    for o in options:
        if text in (o.name.lower(), o.label.lower(), _plain(o.words).lower()) or text.replace(" ", "_") in (
            o.name,
            o.name.removeprefix(CHOOSE_PREFIX),  # a game by its name: "razz", "stud hilo"
        ):
            return o.action, ""
    cards = _cards(text)
    hits = [o for o in options if cards and o.cards == cards]
    if not hits:
        hits = [o for o in options if text in (_plain(o.words).lower().split()[0], _plain(o.words).lower().split()[-1])]
    if len(hits) == 1:
        return hits[0].action, ""
    if hits:
        return None, f"{quoted(answer)} could mean {len(hits)} actions; {allowed}"
    if cards:
        return None, f"no legal action here uses exactly {quoted(answer)}; {allowed}"
    return None, f"{quoted(answer)} is not a legal action here; {allowed}"


def _by_number(text: str, options: Sequence[Option], allowed: str) -> tuple[int | None, str]:
    """The option numbered ``text`` (ASCII digits, optional sign). Compared as digits
    first, so a 5,000-digit answer is refused without ``int()`` (which refuses over
    4,300 digits)."""
    negative = text.startswith("-")
    digits = text.lstrip("+-").lstrip("0") or "0"
    n = len(options)
    if negative and digits != "0":
        return None, f"-{quoted(digits, bare=True)} is not on the list; {allowed}"
    if len(digits) > len(str(n)) or not 1 <= int(digits) <= n:
        return None, f"{quoted(digits, bare=True)} is not on the list; {allowed}"
    return options[int(digits) - 1].action, ""


def quoted(answer: str, limit: int = QUOTE_LIMIT, *, bare: bool = False) -> str:
    """``answer`` for an error message: ``repr`` (or as is with ``bare``), cut to
    ``limit`` characters with its length noted, so a pasted page stays one line.

    >>> quoted("zzz")
    "'zzz'"
    >>> quoted("9" * 5000, 8, bare=True)
    '99999999... (5000 characters)'
    """
    text = answer if len(answer) <= limit else answer[:limit]
    shown = text if bare else repr(text)
    return shown if len(answer) <= limit else f"{shown}... ({len(answer)} characters)"
