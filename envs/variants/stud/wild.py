"""Wild cards in the stud family (docs/rules.md section 11): openers, shares, odd chips.

* The deck: :func:`envs.engine.wild_options.deck_with_wild` adds the joker; the
  seventh-street community-card rule counts the stub actually left, so it already
  counts the 53 cards of a joker deck.
* The bring-in reads a face-up wild card as an ace in high games and as the lowest
  card in razz, so a wild card never brings in while a natural up card can (when
  every up card is wild, the lowest by suit brings in, the joker's suit below clubs).
* The best showing hand (later streets, and the first without a bring-in) counts a
  face-up wild card at its best value: in high games every wild card joins the rank
  that makes the best pattern (pairs, trips ...; no straights or flushes, as stud's
  showing hands), in razz each is the lowest rank missing (it never pairs).
* Showdowns evaluate every hand with :class:`~envs.engine.hands.wild.WildRules`.
* Odd chips by suit: the joker ranks as an ace with a suit below clubs (the highest
  card but the four aces, the lowest card aces low); a wild deuce is the deuce it is.
"""

from __future__ import annotations

import functools
from typing import Any

from envs.engine.cards import JOKER
from envs.engine.hands.wild import WildRules
from envs.engine.pots import Share

ACE = 12
_ACE_LOW_ORDER = (ACE, *range(12))  # card ranks from the ace up, ace-to-five


def wild_suit(card: int) -> int:
    """A card's suit for tie-breaks: clubs 0 .. spades 3, the joker -1 (below clubs)."""
    return -1 if card == JOKER else card & 3


def bring_in_key(card: int, low_game: bool, rules: WildRules | None) -> int:
    """Order of an up card for the bring-in: the lowest (high games) or the highest
    (razz) brings in. A wild card is an ace (high) or the lowest card (razz), placed
    beyond every natural card so that it never brings in while a natural card can."""
    wild = rules is not None and rules.is_wild(card)
    if low_game:
        return -100 + wild_suit(card) if wild else (((card >> 2) + 1) % 13) * 4 + (card & 3)
    return 100 + wild_suit(card) if wild else card


def showing_candidates(cards: list[int], low_game: bool, rules: WildRules) -> list[list[int]]:
    """The up cards as their wild cards may make them, for the best showing hand: in
    razz each wild card the lowest rank missing (it never pairs: one candidate), in
    high games every wild card one rank (adding them to one rank makes the best
    pattern: one candidate per rank). The caller ranks them with ``showing_key``."""
    naturals = [c for c in cards if not rules.is_wild(c)]
    wilds = len(cards) - len(naturals)
    if not wilds:
        return [cards]
    if low_game:
        present = {c >> 2 for c in naturals}
        missing = [r for r in _ACE_LOW_ORDER if r not in present][:wilds]
        return [naturals + [r * 4 for r in missing]]
    return [naturals + [r * 4] * wilds for r in range(13)]


def shows_pair(cards: list[int], rules: WildRules | None) -> bool:
    """An open pair among up cards (a wild card pairs any other up card)."""
    if rules is None:
        ranks = [c >> 2 for c in cards]
        return len(set(ranks)) < len(ranks)
    naturals = [c >> 2 for c in cards if not rules.is_wild(c)]
    return len(cards) >= 2 and (len(naturals) < len(cards) or len(set(naturals)) < len(naturals))


def _wild_high(st: Any, seat: int, rules: WildRules) -> int:
    return int(rules.high(st.cards[seat] + st.community))


def _wild_low(st: Any, seat: int, rules: WildRules, qualifier: int | None) -> int:
    return int(rules.low(st.cards[seat] + st.community, qualifier))


def wild_shares(shares: tuple[Share, ...], rules: WildRules, qualifier: int | None) -> tuple[Share, ...]:
    """Stud's shares (high, low or both) with their values under the wild-card rule."""
    out = []
    for share in shares:
        if share.name == "high":
            value = functools.partial(_wild_high, rules=rules)
        else:
            low_qualifier = qualifier if len(shares) > 1 else None  # razz has no qualifier
            value = functools.partial(_wild_low, rules=rules, qualifier=low_qualifier)
        out.append(Share(name=share.name, value=value, tie_order=share.tie_order, direction=share.direction))
    return tuple(out)


def describe_wild_share(st: Any, seat: int, share: int, low: bool, rules: WildRules) -> str:
    """The history's name of a seat's hand for a share (``'five of a kind, aces'``)."""
    cards = st.cards[seat] + st.community
    if low:
        return rules.describe_low(int(rules.low(cards)))
    return rules.describe_high(int(rules.high(cards)))
