"""Dealer's choice: the button names a game at random; every other decision is the
game in play's.

At the choice (``choose_<game>`` actions) the bot picks uniformly among the listed
games with one number from its own generator: it has no opinion about which game
suits it, and a uniform dealer keeps every game in its matches. Once the game is
named, :func:`game_view` turns the table's view into the game's own (``variant`` and
``options`` of the game in play), so the game's family decides as it does at a
single-game table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from agents.heuristic.plans import Family
from agents.heuristic.sampling import Drawn, Request
from agents.heuristic.style import HeuristicStyle
from envs.view import PublicView

NO_CARDS = np.empty(0, np.intp)


@dataclasses.dataclass(frozen=True)
class ChoicePlan:
    """The choice: the view and one uniform number."""

    view: PublicView
    request: Request | None


def game_view(view: PublicView) -> PublicView:
    """The view as the game in play's own table would give it: its ``variant`` and
    ``options`` (the view itself at a single-game table, or while the dealer chooses)."""
    if not view.game or view.game == view.variant:
        return view
    return dataclasses.replace(view, variant=view.game, options=view.game_options)


def plan(view: PublicView, style: HeuristicStyle, samples: int) -> ChoicePlan:
    """One number to pick a game with."""
    return ChoicePlan(view, Request(pool=NO_CARDS, samples=1, count=0, extra=1))


def finish(plans: Sequence[ChoicePlan], drawn: Sequence[Drawn | None]) -> list[int]:
    """Each choice: the listed game the number falls on."""
    out = []
    for p, d in zip(plans, drawn, strict=True):
        assert d is not None
        legal = p.view.legal_actions
        out.append(legal[min(int(float(d.extra[0]) * len(legal)), len(legal) - 1)])
    return out


FAMILY = Family(plan, finish)
