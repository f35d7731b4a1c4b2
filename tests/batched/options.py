"""Random option sets for the differential tests, drawn from what each variant accepts."""

from __future__ import annotations

from typing import Any

import numpy as np

from envs.variants import get_variant


def random_options(name: str, num_players: int, rng: np.random.Generator) -> dict[str, Any]:
    """A random valid option set of ``name`` for ``num_players``."""
    accepted = get_variant(name).option_names
    small = int(rng.choice([1, 2, 3, 4]))
    opts: dict[str, Any] = {
        "ante": int(rng.choice([0, 1, 2])),
        "small_bet": small,
        "big_bet": int(rng.choice([small, 2 * small])),
        "raise_cap": [None, 1, 2, 4][int(rng.integers(4))],
        "button": ["rotate", "random", int(rng.integers(num_players))][int(rng.integers(3))],
    }
    choice = int(rng.integers(4))
    if choice == 1:
        opts["stack"] = None
    elif choice == 2:
        opts["stack"] = int(rng.integers(6, 60))
    elif choice == 3:
        opts["stack"] = tuple(int(x) for x in rng.integers(3, 60, num_players))
    optional = {
        "bring_in": [None, 1, small][int(rng.integers(3))],
        "cap_heads_up": bool(rng.integers(2)),
        "open_pair_big_bet": bool(rng.integers(2)),
        "burn_cards": bool(rng.integers(2)),
        "low_qualifier": [8, 5, 13, None][int(rng.integers(4))],
        "swing_rule": ["win_or_tie", "outright"][int(rng.integers(2))],
        "illegal_split": ["mask", "forfeit"][int(rng.integers(2))],
        "bet_after_split": bool(rng.integers(2)),
        "up_by_street": bool(rng.integers(2)),
    }
    opts.update({k: v for k, v in optional.items() if k in accepted})
    if name == "toy_stud":
        opts["streets"] = int(rng.integers(1, 4))
        opts["ranks"], opts["suits"] = [("JQKA", "cdh"), ("TJQKA", "cd"), ("9TJQKA", "cdhs")][int(rng.integers(3))]
    return {k: v for k, v in opts.items() if k in accepted}
