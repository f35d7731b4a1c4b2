"""Property tests over random legal play, for every variant and player count.

Chips are conserved, rewards sum to zero, no card is in two places at once, there is
a legal action at every decision, every episode ends, and the recorded hand replays
to the same result.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.engine.history import HandRecord, hand_history
from envs.engine.state import State
from envs.variants import replay
from tests.envs.cases import OPTIONS, PLAYER_RANGE, WILD_CASES, WILD_NAMES
from tests.envs.play import play_random


def _check_cards(state: State) -> None:
    places = state.card_locations()
    cards = sorted(c for pile in places.values() for c in pile)
    assert cards == sorted(state.game.deck), f"cards out of place: {places}"


class ChipCheck:
    """The chips on the table (stacks plus pot) never change during a hand."""

    def __init__(self) -> None:
        self.total: int | None = None

    def __call__(self, state: State) -> None:
        total = sum(state.stack) + state.pot()
        if self.total is None:
            self.total = total
        assert total == self.total, f"chips changed: {total} != {self.total} in {state.describe()}"
        # chips behind never go negative (a seat with unlimited chips has no such limit: None)
        assert all(chips is None or chips >= 0 for chips in map(state.behind, range(state.n)))


@pytest.mark.parametrize("name", sorted(PLAYER_RANGE))
@given(data=st.data())
def test_random_play_invariants(name: str, data: st.DataObject) -> None:
    _invariants(name, data, OPTIONS[name])


WILD = [(name, i) for name in WILD_NAMES for i in range(len(WILD_CASES))]


@pytest.mark.parametrize(("name", "case"), WILD, ids=[f"{n}-{WILD_CASES[i]}" for n, i in WILD])
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_random_play_invariants_with_wild_cards(name: str, case: int, data: st.DataObject) -> None:
    """Every wild-card option of section 11, over the variant's other option sets."""
    base = data.draw(st.sampled_from(OPTIONS[name]), label="base options")
    _invariants(name, data, ({**base, **WILD_CASES[case]},))


def _invariants(name: str, data: st.DataObject, option_sets: tuple[dict[str, object], ...]) -> None:
    low, high = PLAYER_RANGE[name]
    n = data.draw(st.integers(low, high), label="players")
    options = data.draw(st.sampled_from(option_sets), label="options")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    button = data.draw(st.integers(0, n - 1), label="button")
    chips = ChipCheck()

    def check(state: State) -> None:
        _check_cards(state)
        chips(state)
        if not state.is_over:
            assert state.legal_actions(), "empty legal set at a decision"
            assert (state.current_seat is not None and not state.folded[state.current_seat]) or name.startswith("cow")

    state = play_random(name, n, dict(options), seed, check, button)
    payoffs = state.payoffs()
    assert sum(payoffs) == 0
    rewards = state.rewards()
    assert abs(sum(rewards)) <= 1e-9 * max(1.0, sum(abs(r) for r in rewards))  # floats of huge Cowboy pots
    assert sum(state.won) == sum(state.committed) + state.carry or name.startswith("cow")
    replayed = replay(HandRecord.from_json(HandRecord.of(state).to_json()))
    assert replayed.payoffs() == payoffs
    assert hand_history(replayed) == hand_history(state)
