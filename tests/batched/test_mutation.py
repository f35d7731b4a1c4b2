"""The differential test catches a broken rule: the odd chip given to the wrong seat
(the batched engine's tie order reversed) makes the lockstep run fail."""

from __future__ import annotations

import pytest

from envs.batched import showdown
from tests.batched.lockstep import run_lockstep
from tests.batched.test_rare_paths import NEVER_FOLD, stacked

TIED = {1: "As Ks Qh Jd 9c 7s 5h", 2: "Ah Kh Qd Jc 9d 7h 5c", 0: "2c 3d 4h 6s 8c Tc Jh"}


def _run() -> None:
    decks = stacked(8, 3, 0, TIED)
    run_lockstep("stud", 3, 8, 30, 3, decks=decks, buttons=[0] * 8, weights=NEVER_FOLD, ante=1)


def test_odd_chip_to_the_wrong_seat_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _run()  # the unbroken engine passes this very run
    real = showdown._tie_key
    monkeypatch.setattr(showdown, "_tie_key", lambda s, share: -real(s, share))
    with pytest.raises(AssertionError, match="rewards"):
        _run()


def test_a_wrong_opener_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Another mutation: the worst showing hand opens instead of the best."""
    from envs.batched import dealing

    real = dealing._first_best
    monkeypatch.setattr(dealing, "_first_best", lambda s, seats, key, lowest: real(s, seats, key, not lowest))
    with pytest.raises(AssertionError):
        run_lockstep("stud", 3, 4, 20, 1)
