"""The action layout shared by every variant.

Indices never change meaning between variants; a variant's ``Discrete`` space is the
prefix of this layout that it needs, plus its sized bets. New kinds of action were
appended, never inserted, so an agent trained on stud keeps its fold/call/raise
indices in Cowpie, Cowboy and Chowaha.

=========  ===================  ================================================
index      name                 meaning
=========  ===================  ================================================
0          ``fold``             give up the hand (only when facing a bet)
1          ``check_call``       check, or call the amount to call
2          ``bring_in``         post the stud bring-in (third street only)
3          ``raise``            limit: complete, bet or raise one unit; pot- and
                                no-limit: the minimum legal bet or raise
4, 5, 6    ``declare_*``        declare low, high or both (secret until revealed)
7 - 27     ``split_i_j``        Cowpie: cards i and j (of seven) form the two-card hand
28 - 59    ``discard_...``      Cowboy draw: discard the cards whose bits are set
60         ``stay``             Cowboy: stay in this deal (fold is index 0)
61 -       ``bet_<f>_pot``      pot- and no-limit: bet or raise to a fraction f of
                                the pot (after calling), one action per ``bet_sizes``
last       ``all_in``           no-limit only
=========  ===================  ================================================
"""

from __future__ import annotations

import itertools

FOLD = 0
CHECK_CALL = 1
BRING_IN = 2
RAISE = 3
DECLARE_LOW = 4
DECLARE_HIGH = 5
DECLARE_BOTH = 6
SPLIT_BASE = 7
NUM_SPLITS = 21
DRAW_BASE = SPLIT_BASE + NUM_SPLITS  # 28
NUM_DRAWS = 32
STAY = DRAW_BASE + NUM_DRAWS  # 60
SIZED_BASE = STAY + 1  # 61

BETTING_ACTIONS = 4  # fold, check_call, bring_in, raise
DECLARE_ACTIONS = 7  # ... plus the three declarations
SPLIT_ACTIONS = DRAW_BASE  # ... plus the 21 splits
DRAW_ACTIONS = SIZED_BASE  # ... plus discards and stay

LOW, HIGH, BOTH = 0, 1, 2  # declaration values
DECLARATION_NAMES = ("low", "high", "both")
SPLIT_PAIRS: tuple[tuple[int, int], ...] = tuple(itertools.combinations(range(7), 2))


def _discard_name(mask: int) -> str:
    positions = [str(i) for i in range(5) if mask >> i & 1]
    return "discard_" + ("_".join(positions) if positions else "none")


def fraction_name(fraction: float) -> str:
    """``bet_0.5_pot`` for 0.5, ``bet_1_pot`` for 1.0."""
    return f"bet_{fraction:g}_pot"


BASE_NAMES: tuple[str, ...] = (
    "fold",
    "check_call",
    "bring_in",
    "raise",
    "declare_low",
    "declare_high",
    "declare_both",
    *(f"split_{i}_{j}" for i, j in SPLIT_PAIRS),
    *(_discard_name(m) for m in range(NUM_DRAWS)),
    "stay",
)
assert len(BASE_NAMES) == SIZED_BASE


def action_names(size: int, bet_sizes: tuple[float, ...] = (), all_in: bool = False) -> tuple[str, ...]:
    """Names of a variant's actions: the first ``size`` base names, then sized bets."""
    names = BASE_NAMES[:size]
    if bet_sizes or all_in:
        names = BASE_NAMES + tuple(fraction_name(f) for f in bet_sizes) + (("all_in",) if all_in else ())
    return names


def split_action(i: int, j: int) -> int:
    """Action index of the split whose two-card hand is cards i and j (i < j)."""
    return SPLIT_BASE + SPLIT_PAIRS.index((min(i, j), max(i, j)))


def draw_action(discard_positions: list[int] | tuple[int, ...]) -> int:
    """Action index discarding the cards at these positions (0..4)."""
    return DRAW_BASE + sum(1 << p for p in set(discard_positions))
