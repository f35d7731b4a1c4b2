"""Wild-card hand evaluation (docs/rules.md section 11) against a brute-force reference.

``tests/engine/wild_reference.py`` substitutes every card for each wild card (the bug:
only the meanings section 11 permits) over every five-card choice and ranks with its
own code; these tests check that the batched evaluators order hands exactly as it
does, count the same fewest wild cards, and that the comparison would catch a wrong
evaluator (a deliberate mutation).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.engine.cards import JOKER, parse
from envs.engine.hands import describe_low, evaluate_high, evaluate_low, low_threshold
from envs.engine.hands import wild_tables as wt
from envs.engine.hands.wild import (
    WILD_KINDS,
    WildRules,
    describe_wild_high,
    max_wild_high,
    wild_high,
    wild_high_category,
    wild_high_values,
    wild_low,
    wild_low_values,
    wild_two_card,
)
from envs.engine.hands.wild_split import SPLITS, wild_splits
from tests.engine.wild_reference import (
    five_outranks_two_reference,
    order_mismatches,
    reference,
    two_card_reference,
)


def random_hands(wild: str, k: int, count: int, seed: int, most_wilds: int = 2) -> np.ndarray:
    """Hands of k cards from the rule's deck, most of them holding a wild card."""
    rng = np.random.default_rng(seed)
    size = 53 if wild != "deuces" else 52
    hands = []
    while len(hands) < count:
        hand = rng.choice(size, k, replace=False)
        if wild != "deuces" and JOKER not in hand and len(hands) % 4:
            hand[0] = JOKER  # three hands in four hold the joker
        wilds = int((hand == JOKER).sum() if wild != "deuces" else (hand < 4).sum())
        if len(set(hand.tolist())) == k and wilds <= most_wilds:
            hands.append(hand)
    return np.array(hands)


def check_against_reference(hands: np.ndarray, wild: str, *, low: bool = False) -> None:
    values = wild_low_values(hands, wild) if low else wild_high_values(hands, wild)
    refs = [reference(h.tolist(), wild, low=low) for h in hands]
    assert order_mismatches(values[:, 0].tolist(), [r[0] for r in refs], lower_better=low) == 0
    fewest = [r[1] for r in refs]
    assert values[:, 1].tolist() == fewest, "the fewest wild cards that make the best hand"


CASES = [(wild, k) for wild in WILD_KINDS for k in (5, 6, 7)]


@pytest.mark.parametrize(("wild", "k"), CASES, ids=[f"{w}-{k}" for w, k in CASES])
def test_high_matches_brute_force(wild: str, k: int) -> None:
    count = {5: 300, 6: 120, 7: 40}[k]
    check_against_reference(random_hands(wild, k, count, seed=k), wild)


@pytest.mark.parametrize(("wild", "k"), CASES, ids=[f"{w}-{k}" for w, k in CASES])
def test_low_matches_brute_force(wild: str, k: int) -> None:
    count = {5: 300, 6: 120, 7: 40}[k]
    check_against_reference(random_hands(wild, k, count, seed=10 + k), wild, low=True)


def _many_deuces(k: int, wilds: int, count: int) -> np.ndarray:
    rng = np.random.default_rng(3 + wilds)
    rows = []
    for _ in range(count):
        deuces = rng.choice(4, wilds, replace=False)
        rows.append(np.concatenate([deuces, rng.choice(np.arange(4, 52), k - wilds, replace=False)]))
    return np.array(rows)


def test_three_wild_deuces_match_brute_force() -> None:
    hands = _many_deuces(5, 3, 6)
    check_against_reference(hands, "deuces")
    check_against_reference(hands, "deuces", low=True)


@pytest.mark.slow
@pytest.mark.parametrize(("k", "wilds"), [(5, 4), (6, 3), (6, 4), (7, 3)])
def test_three_and_four_wild_deuces_match_brute_force(k: int, wilds: int) -> None:
    hands = _many_deuces(k, wilds, 3)
    check_against_reference(hands, "deuces")
    check_against_reference(hands, "deuces", low=True)


def _five_card_one_joker(step: int) -> np.ndarray:
    fours = np.array(list(itertools.combinations(range(52), 4))[::step])
    return np.concatenate([fours, np.full((len(fours), 1), JOKER)], axis=1)


@pytest.mark.parametrize("wild", ["joker", "bug"])
def test_five_card_hands_with_the_joker_slice(wild: str) -> None:
    """A regular slice (every 97th) of all 270,725 five-card hands with the joker."""
    check_against_reference(_five_card_one_joker(97), wild)


@pytest.mark.slow
@pytest.mark.parametrize("wild", ["joker", "bug"])
@pytest.mark.parametrize("low", [False, True])
def test_every_five_card_hand_with_the_joker(wild: str, low: bool) -> None:
    check_against_reference(_five_card_one_joker(1), wild, low=low)


@pytest.mark.slow
@pytest.mark.parametrize("wild", WILD_KINDS)
def test_seven_card_hands_many(wild: str) -> None:
    hands = random_hands(wild, 7, 600, seed=77)
    check_against_reference(hands, wild)
    check_against_reference(hands, wild, low=True)


def test_the_brute_force_comparison_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mutation: flushes made only with the wild card's duplicates of natural cards
    (no repeats allowed) would rank A-A-K-9-5 of spades below A-K-Q-9-5; the check sees it."""
    hands = random_hands("joker", 5, 300, seed=5)
    good = wild_high_values(hands, "joker")[:, 0]
    refs = [reference(h.tolist(), "joker")[0] for h in hands]
    assert order_mismatches(good.tolist(), refs) == 0
    natural_only = wt.nat_to_wild()[wt.get_tables().flush_mask.astype(np.int64)].astype(np.uint16)
    monkeypatch.setattr(wt, "flush_table", lambda w: natural_only if w == 0 else _no_repeat_flush(w))
    mutated = wild_high_values(hands, "joker")[:, 0]
    assert order_mismatches(mutated.tolist(), refs) > 0


def _no_repeat_flush(w: int) -> np.ndarray:
    """Flush table where a wild card may only be a rank missing from the suit."""
    subsets = np.array(list(itertools.combinations(range(13), 5 - w)))
    best = np.zeros(len(subsets), np.int64)
    for i, s in enumerate(subsets):
        for extra in itertools.combinations(sorted(set(range(13)) - set(s.tolist())), w):
            hand = np.array([[*s.tolist(), *extra]])
            best[i] = max(best[i], int(wt.strength_of(wt.wild_codes(hand, suited=True))[0]))
    return wt._by_mask(subsets, best)


# ------------------------------------------------------------- section 11's rules
HIGH_ORDER = [  # (stronger, weaker, rule): each pair must compare as stated
    ("As Ks Jk 9s 5s", "As Ks Qs 9s 5s", "a flush may hold a duplicated card"),
    ("Ah Ad Ac As Jk", "As Ks Qs Js Ts", "five of a kind beats a royal flush"),
    ("Kh Kd Kc Jk 2c", "Qh Qd Qc Qs 2d", "four kings with the wild card beat natural quads"),
    ("9h Th Jh Qh Jk", "9c Tc Jc Qc 8c", "the wild card completes the straight flush at the top"),
    ("2h 2d 2c 2s 7c", "As Ks Qs Js Ts", "four wild deuces and a seven: five sevens"),
]


@pytest.mark.parametrize(("strong", "weak", "rule"), HIGH_ORDER, ids=[r[2] for r in HIGH_ORDER])
def test_high_ranking_with_wild_cards(strong: str, weak: str, rule: str) -> None:
    wild = "deuces" if "2h 2d" in strong else "joker"
    assert wild_high(strong, wild) > wild_high(weak, wild)


BUG = [  # (hand, name): the bug is an ace, or completes a straight or a flush
    ("Ah Ad Ac As Jk", "five of a kind, aces"),
    ("Kh Kd Kc Ks Jk", "four of a kind, kings"),  # not five kings
    ("Kh Kd 7c 4s Jk", "pair of kings"),  # the bug is an ace kicker, not a third king
    ("Ah Kd 7c 4s Jk", "pair of aces"),
    ("9h Td Jc Qs Jk", "king-high straight"),
    ("9h 6h 4h 2h Jk", "ace-high flush"),
    ("Ah 9h 6h 2h Jk", "flush, A-A-9-6-2"),  # the bug completing a flush may repeat the ace
    ("9h Th Jh Qh Jk", "king-high straight flush"),
]


@pytest.mark.parametrize(("hand", "name"), BUG, ids=[b[1] for b in BUG])
def test_the_bug_is_an_ace_or_completes_a_straight_or_flush(hand: str, name: str) -> None:
    assert describe_wild_high(wild_high(hand, "bug")) == name


def test_a_fully_wild_joker_is_any_card() -> None:
    assert describe_wild_high(wild_high("Kh Kd Kc Ks Jk", "joker")) == "five of a kind, kings"
    assert describe_wild_high(wild_high("Kh Kd 7c 4s Jk", "joker")) == "three of a kind, kings"
    assert wild_high_category(wild_high("Ah Ad Ac As Jk", "joker")) == wt.FIVE_OF_A_KIND
    assert wild_high("Ah Ad Ac As Jk", "joker") == max_wild_high()


LOWS = [  # (hand, wild, qualifier, description)
    ("7c 5d 4h 3s Jk", "joker", None, "7-5-4-3-A"),
    ("Ac 2d 3h 4s Jk", "joker", None, "5-4-3-2-A"),  # the lowest rank missing is the five
    ("Ac 2d 3h 4s Jk", "bug", None, "5-4-3-2-A"),  # the bug too: the lowest rank missing
    ("2c 7d 4h 8s 3d", "deuces", None, "8-7-4-3-A"),
]


@pytest.mark.parametrize(("hand", "wild", "qualifier", "name"), LOWS, ids=[x[3] for x in LOWS])
def test_a_wild_card_in_a_low_is_the_lowest_rank_missing(hand: str, wild: str, qualifier, name: str) -> None:  # type: ignore[no-untyped-def]
    assert describe_low(wild_low(hand, wild, qualifier)) == name


def test_two_wild_deuces_never_pair_in_a_low() -> None:
    # K K Q and two wild deuces: the lowest ranks missing, the ace and the deuce itself
    assert describe_low(wild_low("2c 2d Kh Ks Qd", "deuces")) == "pair of kings, Q-2-A"


def test_the_eight_or_better_qualifier_applies_to_the_result() -> None:
    assert wild_low("Jk 9c 8d 7h 6s", "joker", qualifier=8) == 0  # 9-8-7-6-A does not qualify
    assert wild_low("Jk 8c 7d 6h 5s", "joker", qualifier=8) >= low_threshold(8)


def test_hands_without_wild_cards_rank_as_natural_hands() -> None:
    rng = np.random.default_rng(0)
    hands = np.array([rng.choice(np.arange(4, 52), 7, replace=False) for _ in range(2000)])
    for wild in WILD_KINDS:
        assert (wild_high(hands, wild) == wt.nat_to_wild()[evaluate_high(hands)]).all()
        assert (wild_low(hands, wild, 8) == evaluate_low(hands, 8)).all()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), wild=st.sampled_from(WILD_KINDS))
def test_a_wild_card_never_makes_a_hand_worse(seed: int, wild: str) -> None:
    """Replacing a natural card by a wild card keeps or improves high and low."""
    rng = np.random.default_rng(seed)
    hand = rng.choice(np.arange(4, 52), 7, replace=False)
    with_wild = hand.copy()
    with_wild[0] = JOKER if wild != "deuces" else 0
    if wild == "bug":  # the bug's meaning is restricted: only the low and an ace-high hand compare
        assert wild_low(with_wild, wild) >= wild_low(hand, wild)
        return
    assert wild_high(with_wild, wild) >= wild_high(hand, wild)
    assert wild_low(with_wild, wild) >= wild_low(hand, wild)


# -------------------------------------------------------------------- the tie rule
def test_natural_beats_wild_breaks_only_exact_ties() -> None:
    plain, strict = WildRules("joker"), WildRules("joker", natural_beats_wild=True)
    natural, wild = parse("Ah Ad Kc 9s 5h"), parse("Ah Jk Kc 9s 5h")
    assert plain.high(natural) == plain.high(wild)  # no preference for natural hands
    assert strict.high(natural) > strict.high(wild)  # fewer wild cards win the tie
    better = parse("Ah Jk Kc Ks 5h")  # aces up with the joker beats a natural pair of aces
    assert strict.high(better) > strict.high(natural)
    assert strict.low(parse("Ac 2d 3h 4s 5c")) > strict.low(parse("Ac 2d 3h 4s Jk"))
    assert plain.low(parse("Ac 2d 3h 4s 5c")) == plain.low(parse("Ac 2d 3h 4s Jk"))
    assert strict.two_card(parse("Kh Kd")) > strict.two_card(parse("Kh Jk"))
    assert plain.two_card(parse("Kh Kd")) == plain.two_card(parse("Kh Jk"))


def test_natural_beats_wild_counts_the_fewest_wild_cards_used() -> None:
    """Seven cards with a natural flush and the joker: the count is the fewest wild
    cards among the five-card choices that make the best hand."""
    best, used = wild_high_values("As Ks Qs 9s 5s Jk 2c", "joker")
    assert describe_wild_high(best) == "flush, A-A-K-Q-9" and used == 1  # the joker beats the natural flush
    best, used = wild_high_values("As Ks Qs Js Ts Jk 2c", "joker")
    assert describe_wild_high(best) == "royal flush" and used == 0  # a natural royal: the joker is not needed
    strict = WildRules("joker", natural_beats_wild=True)
    assert strict.high(parse("As Ks Qs Js Ts Jk 2c")) > strict.high(parse("Ah Kh Qh Jh Jk 3c 4d"))


# ------------------------------------------------------------ two-card hands
@pytest.mark.parametrize("wild", WILD_KINDS)
def test_two_card_hands_every_pair(wild: str) -> None:
    size = 53 if wild != "deuces" else 52
    pairs = np.array(list(itertools.combinations(range(size), 2)))
    values = wild_two_card(pairs, wild)
    refs = [two_card_reference(p.tolist(), wild) for p in pairs]
    assert order_mismatches(values.tolist(), refs) == 0


def test_two_card_wild_pairs_the_other_card_and_two_wilds_are_aces() -> None:
    assert wild_two_card("Kh Jk", "joker") == wild_two_card("Kh Kd", "joker")
    assert wild_two_card("2c 2d", "deuces") == wild_two_card("Ah Ad", "deuces")
    assert wild_two_card("Kh Jk", "bug") == wild_two_card("Kh Ad", "bug")  # the bug is an ace


# ------------------------------------------------------------------ Cowpie splits
@pytest.mark.parametrize("wild", WILD_KINDS)
def test_split_legality_at_the_hands_wild_values(wild: str) -> None:
    hands = random_hands(wild, 7, 40, seed=21)
    down = np.zeros((len(hands), 7), bool)
    down[:, [0, 1, 6]] = True
    splits = wild_splits(hands, down, WildRules(wild))
    for h, legal in zip(hands.tolist(), splits.legal, strict=True):
        for i, (a, b) in enumerate(SPLITS):
            two = [h[a], h[b]]
            five = [c for k, c in enumerate(h) if k not in (a, b)]
            has_down = a in (0, 1, 6) or b in (0, 1, 6), len({0, 1, 6} - {a, b}) > 0
            expected = all(has_down) and five_outranks_two_reference(
                reference(five, wild)[0], two_card_reference(two, wild)
            )
            assert bool(legal[i]) == expected, (h, SPLITS[i])
        assert legal.any(), "a legal split always exists"


def test_split_examples() -> None:
    rules = WildRules("joker")
    s = wild_splits(parse("Kh Kc 7s 4d 2c Jk 9d"), [True] * 7, rules)
    assert s.legal[SPLITS.index((5, 6))]  # K-K-7-4-2 against a pair of nines (Jk 9d)
    assert not s.legal[SPLITS.index((0, 5))]  # K-7-4-2-9 against a pair of kings (Kh Jk)
    # 9-9 five-card hand against J-J made with the joker: illegal, as 9-9-x-x-x against J-J
    s = wild_splits(parse("9h 9c 7s 4d 2c Jh Jk"), [True] * 7, rules)
    assert not s.legal[SPLITS.index((5, 6))]


# ------------------------------------------------------------------ bad input
def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="wild='jokers' is not a wild-card rule"):
        wild_high("As Ks Qs Js Ts", "jokers")
    with pytest.raises(ValueError, match="deals no joker"):
        wild_high("As Ks Qs Js Jk", "deuces")
    with pytest.raises(ValueError, match="same card twice"):
        wild_high([51, 51, 3, 4, 5], "joker")
    with pytest.raises(ValueError, match="5 or 6 or 7 cards"):
        wild_high("As Ks Jk", "joker")
    with pytest.raises(ValueError, match="wild"):
        WildRules("none")


def test_natural_beats_wild_in_cowpie_splits() -> None:
    """A natural hand's split keys carry "no wild card" too (the fast natural path)."""
    strict, plain = WildRules("joker", natural_beats_wild=True), WildRules("joker")
    split = SPLITS.index((5, 6))  # five: the first five cards; two: 3c 2d
    natural, wild = parse("Ah Ad Kc 9s 5h 3c 2d"), parse("Ah Jk Kc 9s 5h 3c 2d")
    assert wild_splits(natural, [True] * 7, strict).five[split] > wild_splits(wild, [True] * 7, strict).five[split]
    assert wild_splits(natural, [True] * 7, plain).five[split] == wild_splits(wild, [True] * 7, plain).five[split]
    assert wild_splits(natural, [True] * 7, strict).two[split] == wild_splits(wild, [True] * 7, strict).two[split]
