"""Wild cards (docs/rules.md section 11) have no batched form yet: building such a batch
fails at once with a clear error naming the wild hand value, never plays wrong hands."""

from __future__ import annotations

import pytest

import envs.batched
from envs.batched import NoBatchedFormError


@pytest.mark.parametrize("wild", ["joker", "bug", "deuces"])
@pytest.mark.parametrize("name", ["stud", "razz", "cowpie"])
def test_a_wild_card_game_has_no_batched_engine_yet(name: str, wild: str) -> None:
    with pytest.raises(NoBatchedFormError, match="no batched form"):
        envs.batched.make(name, 4, wild=wild)


def test_wild_none_still_builds() -> None:
    assert envs.batched.make("stud", 4, wild="none").num_tables == 4
