"""``HeuristicAgent``: one rule-based bot for every variant and every decision.

The bot reads the :class:`~envs.view.PublicView` (never the observation vector) and
hands it to its variant's family module, looked up in ``DECIDERS`` by the variant's
``family`` (what differs within a family, such as a hand's shape or how the pot is
won, the family module reads from the variant object):

==========  ==================================  =============================
family      variants                            module
==========  ==================================  =============================
stud        stud, razz, stud_hilo, declare,     :mod:`agents.heuristic.stud`
            five_card_stud, toy_stud
cowpie      cowpie                              :mod:`agents.heuristic.cowpie`
cowboy      cowboy, cowgirl, cowpattie          :mod:`agents.heuristic.cowboy`
chowaha     chowaha                             :mod:`agents.heuristic.chowaha`
mixed       dealers_choice (the dealer's        :mod:`agents.heuristic.mixed`
            choice; then the game in play's
            family decides)
==========  ==================================  =============================

A family missing from ``DECIDERS`` is an error (:class:`NoHeuristicError`), never a
silent random bot: a new family must come with its heuristic. Every decision is a
function of the bot's seed and the view (the Monte Carlo samples come from the bot's
own generator, reseeded by the arena every hand), so matches replay exactly.

How it plays is a :class:`~agents.heuristic.style.HeuristicStyle` (named presets
``default``, ``tight``, ``loose``, ``aggressive``; ``agents.load("heuristic:tight")``).

``act_batch(observations, views)`` decides many tables at once (the training
collector's call): each family plans every view, the bot's generator serves the
views' random numbers in order, and the Monte Carlo hands of all the views are
evaluated together (:mod:`agents.heuristic.plans`). It returns exactly what ``act``
called on each view in turn returns, and leaves the generator in the same state.

>>> import evaluation
>>> result = evaluation.run_match("razz", ["heuristic", "random"], deals=4, seed=3)
>>> len(result.hands)
8
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.base import Agent, Observation
from agents.heuristic import chowaha, cowboy, cowpie, mixed, stud
from agents.heuristic.plans import Family, groups
from agents.heuristic.sampling import draw
from agents.heuristic.style import DEFAULT_STYLE, PRESETS, HeuristicStyle, parse_style
from envs.variants import get_variant
from envs.view import PublicView

DECIDERS: dict[str, Family] = {
    "stud": stud.FAMILY,
    "cowpie": cowpie.FAMILY,
    "cowboy": cowboy.FAMILY,
    "chowaha": chowaha.FAMILY,
    "mixed": mixed.FAMILY,
}
DEFAULT_SAMPLES = 256
MIN_SAMPLES = 16


class NoHeuristicError(ValueError):
    """The heuristic bot has no rules for this variant."""


class HeuristicAgent(Agent):
    """Monte Carlo equity, pot odds and per-variant rules (see ``docs/agents.md``).

    Args:
        seed: seed of the bot's generator (the arena reseeds it every hand).
        samples: Monte Carlo samples per decision (at least ``MIN_SAMPLES``); more is
            steadier and slower.
        style: how it plays: a :class:`HeuristicStyle`, or a style spec such as
            ``"tight"`` or ``"raise_edge=0.1,call_margin=0.0"`` (see
            :func:`~agents.heuristic.style.parse_style`); default: the default style.
    """

    name = "heuristic"

    def __init__(
        self, seed: int | None = None, samples: int = DEFAULT_SAMPLES, style: HeuristicStyle | str = DEFAULT_STYLE
    ) -> None:
        super().__init__(seed)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < MIN_SAMPLES:
            raise ValueError(f"samples={samples!r} is not allowed: expected an int >= {MIN_SAMPLES}")
        if isinstance(style, str):
            style = parse_style(style)
        if not isinstance(style, HeuristicStyle):
            raise ValueError(f"style must be a HeuristicStyle or a style spec string, got {type(style).__name__}")
        self.samples = samples
        self.style = style
        if style != DEFAULT_STYLE:
            self.name = f"heuristic:{style.label}"

    def act(self, observation: Observation, view: PublicView) -> int:
        """The variant's rule for this decision; always one of ``view.legal_actions``."""
        return self.act_batch([observation], [view])[0]

    def act_batch(self, observations: Sequence[Observation], views: Sequence[PublicView]) -> list[int]:
        """Every view's decision, exactly as ``[act(o, v) for o, v in zip(...)]`` (the
        same actions, the generator left in the same state), in a few large numpy
        calls; see the module docstring. ``observations`` are not read (the views
        carry everything) but must match the views one to one."""
        if len(observations) != len(views):
            raise ValueError(f"act_batch got {len(observations)} observations for {len(views)} views")
        checked = [_checked(view) for view in views]
        views = [view for view, _ in checked]
        families = [family for _, family in checked]
        plans = [family.plan(view, self.style, self.samples) for family, view in zip(families, views, strict=True)]
        drawn = draw(self.rng, [p.request for p in plans])
        actions = [0] * len(views)
        for family, members in groups(families).items():
            assert isinstance(family, Family)
            chosen = family.finish([plans[i] for i in members], [drawn[i] for i in members])
            for i, action in zip(members, chosen, strict=True):
                actions[i] = int(action)
        for view, action in zip(views, actions, strict=True):
            if action not in view.legal_actions:  # a bug in a rule: say so, never remap
                raise RuntimeError(
                    f"heuristic for {view.variant} chose action {action}, not among the legal {view.legal_names}"
                )
        return actions

    def __repr__(self) -> str:
        style = "" if self.style == DEFAULT_STYLE else f", style={self.style.label!r}"
        return f"HeuristicAgent(samples={self.samples}{style})"


def _checked(view: PublicView) -> tuple[PublicView, Family]:
    """The view of the rules in play and their family, after checking that it is a
    view of a seat to act at a table the bot knows (at a dealer's choice table, once
    the game is named: the game's own view and family)."""
    if not isinstance(view, PublicView):
        raise ValueError("HeuristicAgent needs the PublicView (env.public_view(agent)); got " + repr(type(view)))
    if not view.legal_actions:
        raise ValueError(f"player_{view.seat} is not to act: the view has no legal actions")
    family = decider(view.variant)
    if view.game and view.game != view.variant:
        view = mixed.game_view(view)
        family = decider(view.variant)
    return view, family


def decider(variant: str) -> Family:
    """The heuristic family of a variant (by its ``family``); a clear error when there
    is none."""
    try:
        family = get_variant(variant).family
    except ValueError as err:
        raise NoHeuristicError(f"no heuristic: {err}") from None
    try:
        return DECIDERS[family]
    except KeyError:
        known = ", ".join(sorted(DECIDERS))
        raise NoHeuristicError(
            f"no heuristic for variant {variant!r} (family {family!r}); families with one: {known}"
        ) from None


__all__ = [
    "DECIDERS",
    "PRESETS",
    "HeuristicAgent",
    "HeuristicStyle",
    "NoHeuristicError",
    "decider",
    "parse_style",
]
