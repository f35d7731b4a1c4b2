"""What a batched table runs, read from the scalar engine's own program.

A batch is derived from the same :class:`~envs.engine.variant.Variant` as the scalar
env: ``variant.game(num_players, **options)`` builds the scalar step program (antes,
``StudDeal`` and ``Betting`` per street, ``Declare``, Cowpie's ``Split``, the
``Showdown``) and its observation pieces, and this module turns each step into a
:class:`Stage` of plain data (what to deal, the bet size, the opener, the shares of
the pot). A new stud-shaped variant added as data therefore gets a batched engine
with no batched code of its own. A step, hook or piece with no batched form raises
:class:`NoBatchedFormError` naming it, so nothing is ever run approximately.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from envs.engine.betting import LIMIT, Betting
from envs.engine.game import Game
from envs.engine.observation import Piece
from envs.engine.options import stacks_for
from envs.engine.steps import Ante, Declare, Showdown
from envs.variants.cowpie import rules as cowpie_rules
from envs.variants.stud import rules as stud_rules

__all__ = ["NoBatchedFormError", "ShareSpec", "Spec", "Stage", "compile_game"]

MAX_BATCH_CHIPS = 1 << 40  # int64 chips with room for sums, and exact float64 quotients


class NoBatchedFormError(NotImplementedError):
    """A variant's step, hook, piece or option has no batched form yet."""


@dataclass(frozen=True)
class Stage:
    """One step of the program, as data (``kind`` says which fields matter)."""

    kind: str  # "deal", "bet", "declare", "split", "phase", "reveal", "showdown"
    contested_only: bool = True
    label: str = ""  # the street label a deal or phase logs
    street: int = -1  # betting / phase street index (history, observation)
    deal: tuple[bool, ...] = ()  # deal: the face (True: up) of each card to each live seat
    burn: bool = False
    spare_burns: bool = False
    still_to_deal: int = 0
    community_when_short: bool = False
    unit: int = 0  # bet: the limit bet size
    open_pair_unit: int = 0  # bet: the big bet when an open pair shows (0: no such rule)
    bring_in: bool = False  # bet: the forced-bet round with a bring-in
    low_game: bool = False  # bet: the opener reads cards aces low (razz)
    forfeit: bool = False  # split: every split offered, an illegal one wins nothing


@dataclass(frozen=True)
class ShareSpec:
    """One share of every pot: how hands are valued and who gets odd chips."""

    hand: str  # "high", "low", "short", "cowpie_five", "cowpie_two"
    threshold: int  # low: the qualifier's smallest value (0: none)
    tie: str  # "highest_card" or "lowest_card" (aces low)
    direction: int  # declare games: the declaration that competes for it


@dataclass(frozen=True)
class Spec:
    """A compiled game: its stages, betting rules, shares, sizes and pieces."""

    game: Game
    stages: tuple[Stage, ...]
    shares: tuple[ShareSpec, ...]
    declare: bool
    swing_outright: bool
    ante: int
    bring_in: int  # 0: no bring-in
    raise_cap: int  # 0: no cap
    cap_heads_up: bool
    stacks: tuple[int, ...]  # 0 where unlimited
    unlimited: tuple[bool, ...]
    slots: int  # most cards a seat holds
    streets: int  # betting rounds with a history block
    pieces: tuple[Piece, ...]
    num_actions: int
    unit: int
    deck: tuple[int, ...]
    split: bool = field(default=False)
    burns: int = field(default=0)  # deal stages that burn a card (burn positions kept per table)

    @property
    def num_players(self) -> int:
        return self.game.num_players


def _missing(what: str, game: Game) -> NoBatchedFormError:
    return NoBatchedFormError(f"{game.name} has no batched engine: {what} has no batched form yet")


def _deal_stage(step: Any) -> Stage:
    street = step.street
    return Stage(
        kind="deal",
        label=street.label,
        deal=tuple(bool(u) for u in street.deal),
        burn=step.burn,
        spare_burns=step.spare_burns,
        still_to_deal=step.still_to_deal,
        community_when_short=street.community_when_short,
    )


def _opener(step: Betting, game: Game) -> tuple[bool, bool]:
    """(bring-in opener, aces low) from the step's opener hook."""
    opener = step.opener
    known = (stud_rules.bring_in_seat, stud_rules.best_showing)
    if not isinstance(opener, functools.partial) or opener.func not in known:
        raise _missing(f"the opener {opener!r} of {step.label}", game)
    return opener.func is stud_rules.bring_in_seat, bool(opener.keywords.get("low_game", False))


def _bet_stage(step: Betting, game: Game) -> Stage:
    if step.rules.structure != LIMIT or step.forced is not None:
        raise _missing(f"{step.rules.structure} betting or forced blinds ({step.label})", game)
    by_bring_in, low = _opener(step, game)
    pair_unit = 0
    if step.unit_rule is not None:
        rule = step.unit_rule
        if not isinstance(rule, functools.partial) or rule.func is not stud_rules.open_pair_unit:
            raise _missing(f"the bet-size rule {rule!r} of {step.label}", game)
        pair_unit = rule.keywords["big"]
    return Stage(
        kind="bet",
        label=step.label,
        street=step.street,
        unit=step.unit,
        open_pair_unit=pair_unit,
        bring_in=step.bring_in and by_bring_in,
        low_game=low,
    )


def _share(share: Any, game: Game) -> ShareSpec:
    value, tie = share.value, share.tie_order
    ties = {stud_rules._highest_card_first: "highest_card", stud_rules._lowest_card_first: "lowest_card"}
    if tie not in ties:
        raise _missing(f"the odd-chip order {tie!r} of the {share.name} share", game)
    if value is stud_rules._high:
        hand, threshold = "high", 0
    elif value is stud_rules._short:
        hand, threshold = "short", 0
    elif isinstance(value, functools.partial) and value.func is stud_rules._low:
        hand, threshold = "low", int(value.keywords["threshold"])
    elif isinstance(value, functools.partial) and value.func is cowpie_rules._half_value:
        hand, threshold = ("cowpie_five", "cowpie_two")[value.keywords["half"]], 0
    else:
        raise _missing(f"the hand value {value!r} of the {share.name} share", game)
    return ShareSpec(hand=hand, threshold=threshold, tie=ties[tie], direction=share.direction)


def _shares(step: Showdown, game: Game) -> tuple[ShareSpec, ...]:
    hook = step.shares
    if isinstance(hook, functools.partial) and hook.func is stud_rules._fixed_shares:
        shares = hook.keywords["shares"]
    elif hook is cowpie_rules.cowpie_shares:
        shares = cowpie_rules.SHARES
    else:
        raise _missing(f"the showdown's shares hook {hook!r}", game)
    return tuple(_share(s, game) for s in shares)


def _stages(game: Game) -> tuple[list[Stage], tuple[ShareSpec, ...], Showdown, int]:
    stages: list[Stage] = []
    shares: tuple[ShareSpec, ...] = ()
    showdown: Showdown | None = None
    ante = 0
    for index, step in enumerate(game.program):
        if isinstance(step, Ante):
            if index != 0:
                raise _missing("an ante after the first step", game)
            ante = step.amount
        elif isinstance(step, stud_rules.StudDeal):
            stages.append(_deal_stage(step))
        elif isinstance(step, Betting):
            stages.append(_bet_stage(step, game))
        elif isinstance(step, Declare):
            stages.append(Stage(kind="declare"))
        elif isinstance(step, cowpie_rules.Split):
            stages.append(Stage(kind="split", forfeit=step.forfeit))
        elif isinstance(step, cowpie_rules.Phase):
            stages.append(Stage(kind="phase", label=step.label, street=step.street))
        elif isinstance(step, cowpie_rules.RevealSplits):
            stages.append(Stage(kind="reveal"))
        elif isinstance(step, Showdown):
            showdown = step
            shares = _shares(step, game)
            stages.append(Stage(kind="showdown", contested_only=False))
        else:
            raise _missing(f"the step {type(step).__name__}", game)
    if showdown is None or stages[-1].kind != "showdown":
        raise _missing("a program that does not end in a showdown", game)
    return stages, shares, showdown, ante


def _check_chips(game: Game, stacks: list[int | None], ante: int) -> None:
    options = game.options
    big = max(options.big_bet, ante, *(s for s in stacks if s is not None))
    if big > MAX_BATCH_CHIPS:
        raise NoBatchedFormError(
            f"{game.name}: chips of {big} are beyond the batched engine's int64 range "
            f"(at most {MAX_BATCH_CHIPS} per stack, ante or bet); use the scalar env"
        )


def compile_game(game: Game) -> Spec:
    """The batched form of a scalar game (raises :class:`NoBatchedFormError`)."""
    if game.variant.episode != "hand":
        raise _missing(f"an episode of a {game.variant.episode}", game)
    stages, shares, showdown, ante = _stages(game)
    options = game.options
    stacks = stacks_for(getattr(options, "stack", None), game.num_players)
    _check_chips(game, stacks, ante)
    pieces = tuple(game.variant.pieces(game))
    return Spec(
        game=game,
        stages=tuple(stages),
        shares=shares,
        declare=showdown.declare,
        swing_outright=showdown.swing_rule == "outright",
        ante=ante,
        bring_in=options.bring_in or 0,
        raise_cap=options.raise_cap or 0,
        cap_heads_up=options.cap_heads_up,
        stacks=tuple(0 if s is None else s for s in stacks),
        unlimited=tuple(s is None for s in stacks),
        slots=sum(len(s.deal) for s in stages if s.kind == "deal"),
        streets=max((s.street for s in stages if s.kind == "bet"), default=-1) + 1,
        pieces=pieces,
        num_actions=game.num_actions,
        unit=game.unit,
        deck=tuple(game.deck),
        split=any(s.kind == "split" for s in stages),
        burns=sum(1 for s in stages if s.kind == "deal" and s.burn),
    )
