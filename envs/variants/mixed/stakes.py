"""The stakes of a dealer's choice table, and the one table that maps them onto every
game's own options, so that a chip means the same in every game (docs/rules.md section 9).

=====================================  ==============================================
games                                  options set from the stakes
=====================================  ==============================================
stud, razz, stud_hilo,                 ``ante``; ``bring_in`` = small_bet // 2;
stud_hilo_declare, five_card_stud,     ``small_bet``; ``big_bet``; ``stack``
cowpie
toy_stud (no bring-in)                 ``ante`` (when the stakes' ante is 0: the
                                       bring-in, small_bet // 2, so that the toy has a
                                       forced bet); ``small_bet``; ``big_bet``; its
                                       stack is fixed at 100 big bets
chowaha (limit)                        ``ante``; ``small_blind`` = small_bet // 2;
                                       ``big_blind`` = small_bet (its big bet is twice
                                       the big blind, so big_bet must be
                                       2 * small_bet); ``stack``
chowaha (pot or no limit)              the same blinds and stack; the big bet plays no
                                       part
cowboy, cowgirl, cowpattie             ``ante`` = small_bet // 2 (stacks unlimited, as
                                       the Cowboy family always plays)
=====================================  ==============================================

Rewards are in big bets of the stakes (``big_bet`` chips) in every game, and the
observation's chip amounts too. Per-game options (``game_options``) are applied on top
of this table and may change anything but the button (the table's ``button`` option
moves it for every game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from envs.engine.options import DEFAULT_DEPTH, check_int, quoted
from envs.engine.variant import Variant

MAX_CHIPS = 10**14  # Chowaha's bound on chip options, the tightest of the games


@dataclass(frozen=True)
class Stakes:
    """The table's stakes, in chips.

    Attributes:
        ante: from every player in the stud games and Chowaha (0: none).
        small_bet: the small bet; half of it is the stud bring-in, Chowaha's small
            blind and the Cowboy ante, and all of it Chowaha's big blind.
        big_bet: the big bet; also the reward unit of the table.
    """

    ante: int = 0
    small_bet: int = 2
    big_bet: int = 4

    def __post_init__(self) -> None:
        check_int("stakes.ante", self.ante, 0, MAX_CHIPS)
        # half the small bet is a bring-in, a small blind and an ante: at least one chip
        check_int("stakes.small_bet", self.small_bet, 2, MAX_CHIPS)
        check_int("stakes.big_bet", self.big_bet, self.small_bet, MAX_CHIPS)

    @property
    def half_bet(self) -> int:
        """``small_bet // 2``: the bring-in, Chowaha's small blind, the Cowboy ante."""
        return self.small_bet // 2

    @classmethod
    def of(cls, value: Any) -> Stakes:
        """Stakes from a :class:`Stakes` or a mapping of its fields (a record's JSON)."""
        if isinstance(value, Stakes):
            return value
        if isinstance(value, Mapping):
            unknown = sorted(set(value) - {"ante", "small_bet", "big_bet"}, key=str)
            if unknown:
                raise ValueError(
                    f"option stakes has an unknown field {quoted(unknown[0])}: expected ante, small_bet, big_bet"
                )
            return cls(**value)
        raise ValueError(
            f"option stakes={quoted(value)} is not allowed: expected a Stakes or a dict "
            "with ante, small_bet and big_bet (chips)"
        )


def mapped_options(variant: Variant, stakes: Stakes, stack: Any) -> dict[str, Any]:
    """The options the stakes (and the table's ``stack``) give ``variant``, by the
    module's table; only options the variant takes."""
    if variant.family == "cowboy":
        wanted: dict[str, Any] = {"ante": stakes.half_bet}
    elif variant.family == "chowaha":
        wanted = {"ante": stakes.ante, "small_blind": stakes.half_bet, "big_blind": stakes.small_bet, "stack": stack}
    else:  # the stud family and Cowpie
        has_bring_in = "bring_in" in variant.option_names
        ante = stakes.ante if has_bring_in or stakes.ante else stakes.half_bet
        wanted = {"ante": ante, "small_bet": stakes.small_bet, "big_bet": stakes.big_bet, "stack": stack}
        if has_bring_in:
            wanted["bring_in"] = stakes.half_bet
    return {name: value for name, value in wanted.items() if name in variant.option_names}


def default_stack(stakes: Stakes) -> int:
    """The table's default stack: 100 big bets of the stakes, in every game."""
    return DEFAULT_DEPTH * stakes.big_bet
