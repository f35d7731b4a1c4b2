"""The torch evaluators equal the numpy ones (random hands here; every seven-card hand
in the ``slow`` test)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch

from envs.batched.hands import torch_hands
from envs.engine.hands import cowpie_splits, evaluate_high, evaluate_low
from envs.engine.hands.short import evaluate_short

H = torch_hands("cpu")


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k]


def flushy_hands(n: int, k: int, seed: int) -> np.ndarray:
    """Hands drawn from two suits only: flushes and straight flushes are common."""
    rng = np.random.default_rng(seed)
    pool = np.array([r * 4 + s for r in range(13) for s in (0, 3)])
    return pool[np.argsort(rng.random((n, len(pool))), axis=1)[:, :k]]


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("maker", [random_hands, flushy_hands], ids=["random", "flushy"])
def test_high_equals_numpy(k: int, maker) -> None:
    hands = maker(20000, k, k)
    got = H.high_value(torch.as_tensor(hands)).numpy()
    np.testing.assert_array_equal(got, evaluate_high(hands))


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("qualifier", [None, 8, 5, 13])
def test_low_equals_numpy(k: int, qualifier: int | None) -> None:
    from envs.engine.hands import low_threshold

    hands = random_hands(20000, k, 10 + k)
    threshold = 0 if qualifier is None else low_threshold(qualifier)
    got = H.low_value(torch.as_tensor(hands), threshold).numpy()
    np.testing.assert_array_equal(got, evaluate_low(hands, qualifier))
    if qualifier == 8:
        assert (got == 0).any() and (got > 0).any()  # both sides of the qualifier reached


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_short_equals_numpy(k: int) -> None:
    # a toy deck (few ranks) makes pairs, two pair and trips common
    rng = np.random.default_rng(k)
    deck = np.array([r * 4 + s for r in (9, 10, 11, 12) for s in range(4)])
    hands = deck[np.argsort(rng.random((5000, len(deck))), axis=1)[:, :k]]
    got = H.short_value(torch.as_tensor(hands)).numpy()
    np.testing.assert_array_equal(got, evaluate_short(hands))
    big = random_hands(5000, k, 40 + k)
    np.testing.assert_array_equal(H.short_value(torch.as_tensor(big)).numpy(), evaluate_short(big))


@pytest.mark.parametrize("maker", [random_hands, flushy_hands], ids=["random", "flushy"])
def test_cowpie_splits_equal_numpy(maker) -> None:
    hands = maker(5000, 7, 3)
    rng = np.random.default_rng(4)
    down = rng.random((5000, 7)) < 0.45
    want = cowpie_splits(hands, down)
    five, two, legal = H.cowpie_splits(torch.as_tensor(hands), torch.as_tensor(down))
    np.testing.assert_array_equal(five.numpy(), want.five)
    np.testing.assert_array_equal(two.numpy(), want.two)
    np.testing.assert_array_equal(legal.numpy(), want.legal)
    assert want.legal.any() and not want.legal.all()  # both outcomes covered


@pytest.mark.slow
def test_every_seven_card_hand() -> None:
    """All 133,784,560 seven-card hands, high and ace-to-five low, in blocks."""
    combos = itertools.combinations(range(52), 7)
    while True:
        block = np.array(list(itertools.islice(combos, 2_000_000)), dtype=np.int64)
        if not len(block):
            break
        t = torch.as_tensor(block)
        np.testing.assert_array_equal(H.high_value(t).numpy(), evaluate_high(block, validate=False))
        np.testing.assert_array_equal(H.low_value(t).numpy(), evaluate_low(block, validate=False))
