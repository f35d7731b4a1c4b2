"""The three skeleton bots (examples/bots: Python, C built here with cc, JavaScript on
Node) play every variant through the dealer: every answer legal (the dealer accepts
only legal actions, so a single illegal one would forfeit the match), every hand
zero-sum, and every kind of decision met (betting, bring-in, declare, split, draw,
stay, the dealer's choice of game)."""

from __future__ import annotations

from collections import Counter

import pytest

from evaluation.arena import run_match
from tests.envs.cases import PLAYER_RANGE
from tests.protocol.conftest import BOTS

# (variant, options): every variant, and the sized bets of a no-limit game
TABLES = [(name, {}) for name in sorted(PLAYER_RANGE)] + [
    ("chowaha", {"betting": "no_limit"}),
    ("cowpie", {"illegal_split": "forfeit"}),
    ("dealers_choice", {"games": ("stud_hilo_declare", "cowpie", "razz")}),
]
DEALS = 4  # per table: two bots at three seats play six seatings of each deal
KINDS = ("fold", "check_call", "bring_in", "raise", "declare", "split", "discard", "stay", "choose", "bet")


def kind(name: str) -> str:
    """``declare_low`` -> ``declare``, ``split_0_1`` -> ``split``, ``bet_0.5_pot`` -> ``bet``."""
    return next((k for k in KINDS if name == k or name.startswith(k + "_")), name)


@pytest.mark.parametrize("language", ["python", "c", "javascript"])
def test_a_skeleton_plays_every_variant_legally(language: str, skeletons: dict[str, str]) -> None:
    spec = skeletons[language]
    taken: Counter[str] = Counter()
    hands = 0
    for variant, options in TABLES:
        players = min(3, PLAYER_RANGE[variant][1])
        result = run_match(variant, [spec, "call"], deals=DEALS, num_players=players, seed=11,
                           options=options, record_decisions=True)  # fmt: skip
        assert result.forfeit is None, f"{variant}: {result.forfeit.reason}"
        assert len(result.hands) == DEALS * (6 if players == 3 else 2)
        for hand in result.hands:
            assert abs(sum(hand.rewards)) < 1e-9, f"{variant}: a hand that is not zero-sum: {hand.rewards}"
            taken.update(kind(name) for seat, name, _ in hand.decisions if hand.lineup[seat] == 0)
        hands += len(result.hands)
    assert hands >= 300
    met = {"fold", "check_call", "bring_in", "declare", "split", "discard", "stay", "choose"}
    assert met <= set(taken), f"the skeleton never met: {sorted(met - set(taken))}"


def test_the_skeletons_are_short() -> None:
    """Skeletons to read and copy: each under 150 lines."""
    for name in ("skeleton.py", "skeleton.c", "skeleton.js"):
        lines = (BOTS / name).read_text().count("\n")
        assert lines < 150, f"{name} has {lines} lines"


def test_the_skeletons_play_each_other(skeletons: dict[str, str]) -> None:
    """Three programs at one table, from three languages: the same rule, so every
    seat's result is zero over duplicate seatings of each deal."""
    result = run_match("stud", list(skeletons.values()), deals=10, seed=3)
    assert result.forfeit is None
    assert len(result.hands) == 30
    assert all(abs(result.result(b).mean) < 1e-9 for b in range(3))
