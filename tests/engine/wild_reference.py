"""A brute-force reference for wild-card hands (docs/rules.md section 11), in plain Python.

It shares no code with :mod:`envs.engine.hands.wild`: every five-card choice of the
cards, every card of the standard deck substituted for each wild card (duplicates
allowed), for the bug only the substitutions section 11 permits (an ace, or a card that
makes the five a straight, a flush or a straight flush), each scored by a small
``Counter``-based ranking written from section 1's words. Scores are tuples that compare
lexicographically; the tests check that the engine's integers order hands exactly as
these tuples do.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

JOKER = 52
DECK = [(r, s) for r in range(13) for s in range(4)]
STRAIGHT_CATS = (4, 5, 8)  # straight, flush, straight flush: what the bug may complete


def is_wild(card: int, wild: str) -> bool:
    """Whether a card is wild under the rule."""
    return card < 4 if wild == "deuces" else card == JOKER


def high_score(hand: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Section 1's ranking of five (rank, suit) cards, five of a kind on top; a flush
    compares its ranks from the top, repeats included."""
    ranks = [r for r, _ in hand]
    counts = Counter(ranks)
    grouped = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    by_count = tuple(r for r, _ in grouped)
    shape = sorted(counts.values(), reverse=True)
    flush = len({s for _, s in hand}) == 1
    distinct = sorted(counts, reverse=True)
    top = None
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [12, 3, 2, 1, 0]:
        top = 3
    if shape[0] == 5:
        return (9, ranks[0])
    if top is not None and flush:
        return (8, top)
    if shape[0] == 4:
        return (7, *by_count)
    if shape[:2] == [3, 2]:
        return (6, *by_count)
    if flush:
        return (5, *sorted(ranks, reverse=True))
    if top is not None:
        return (4, top)
    if shape[0] == 3:
        return (3, *by_count)
    if shape[:2] == [2, 2]:
        return (2, *by_count)
    if shape[0] == 2:
        return (1, *by_count)
    return (0, *by_count)


def low_score(hand: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Section 1's ace-to-five low of five cards: LOWER is better."""
    faces = [(r + 1) % 13 for r, _ in hand]  # ace = 0 .. king = 12
    counts = Counter(faces)
    shape = sorted(counts.values(), reverse=True)
    category = {1: 0, 2: 1 if shape[1:2] != [2] else 2, 3: 3 if shape[1:2] != [2] else 4, 4: 5, 5: 6}[shape[0]]
    grouped = sorted(counts.items(), key=lambda fc: (fc[1], fc[0]), reverse=True)
    return (category, *(f for f, _ in grouped))


def _substitutions(natural: list[tuple[int, int]], wilds: int, wild: str, low: bool) -> Iterable[list[tuple[int, int]]]:
    """Every five-card hand the wild cards can make with ``natural`` cards."""
    if wilds == 0:
        yield natural
        return
    for extra in itertools.combinations_with_replacement(DECK, wilds):
        hand = natural + list(extra)
        if wild == "bug" and not low and extra[0][0] != 12 and high_score(hand)[0] not in STRAIGHT_CATS:
            continue  # the bug is an ace, or completes a straight or a flush
        yield hand


def reference(cards: Sequence[int], wild: str, *, low: bool = False) -> tuple[tuple[int, ...], int]:
    """Best score of a hand of 5-7 cards and the fewest wild cards that make it.

    High: the largest ``high_score``; low: the smallest ``low_score`` (returned as is,
    lower is better). The count is over the five cards chosen."""
    best: tuple[int, ...] | None = None
    fewest = 9
    for five in itertools.combinations(cards, 5):
        natural = [(c >> 2, c & 3) for c in five if not is_wild(c, wild)]
        wilds = 5 - len(natural)
        for hand in _substitutions(natural, wilds, wild, low):
            score = low_score(hand) if low else high_score(hand)
            better = best is None or (score < best if low else score > best)
            if better:
                best, fewest = score, wilds
            elif score == best:
                fewest = min(fewest, wilds)
    assert best is not None
    return best, fewest


def two_card_reference(cards: Sequence[int], wild: str) -> tuple[int, ...]:
    """Section 4's two-card ranking with every substitution (the bug: an ace only)."""
    options = []
    for c in cards:
        if not is_wild(c, wild):
            options.append([c >> 2])
        elif wild == "bug":
            options.append([12])
        else:
            options.append(list(range(13)))
    best = None
    for a, b in itertools.product(*options):
        score = (1, a) if a == b else (0, max(a, b), min(a, b))
        best = score if best is None or score > best else best
    assert best is not None
    return best


def order_mismatches(values: Sequence[int], scores: Sequence[tuple[int, ...]], *, lower_better: bool = False) -> int:
    """How many adjacent pairs (sorted by score) the values order differently: 0 when
    ``values`` rank the hands exactly as ``scores`` do (equal iff equal)."""
    keyed = sorted(zip(scores, values, strict=True), reverse=lower_better)
    bad = 0
    for (s1, v1), (s2, v2) in itertools.pairwise(keyed):
        if (s1 == s2) != (v1 == v2) or (s1 != s2 and not v1 < v2):
            bad += 1
    return bad


def five_outranks_two_reference(five: tuple[int, ...], two: tuple[int, ...]) -> bool:
    """Section 4's "the five-card hand ranks higher than the two-card hand", from the
    reference scores of each (as the wild cards make them)."""
    category = five[0]
    if category >= 2:  # two pair or better (straights, flushes, five of a kind too)
        return True
    if two[0] == 1:  # the two-card hand is a pair
        return category == 1 and five[1] >= two[1]
    if category == 1:
        return True
    return (five[1], five[2]) >= (two[1], two[2])
