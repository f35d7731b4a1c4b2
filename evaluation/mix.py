"""How a bot plays: its decision mix, counted from each hand's event log.

The arena calls :func:`decision_mix` on every finished hand when asked to record
decisions; it reads the *whole* log (secret declarations and splits included: the
arena is the referee, and each count is the seat's own choice). Counts add up over
hands, and :func:`summarize` turns a bot's totals into the rates players quote:

==================  ================================================================
rate                meaning
==================  ================================================================
``vpip``            share of hands where the seat put chips in voluntarily (a call,
                    bet, raise or completion; posting a bring-in or blind is not)
``aggression``      aggression factor: (bets + raises + completions) / calls
``aggression_freq`` aggressive actions / all betting actions (fold, check, call, bet,
                    raise, complete)
``fold``            share of hands the seat folded in a betting round
``showdown``        showdowns per hand (several per Cowboy game)
``declare_*``       share of declarations that were low, high or both
``split_pair``      Cowpie: share of splits whose two-card hand is a pair
``split_top``       Cowpie: mean rank (2 = deuce .. 14 = ace) of the two-card hand's
                    higher card
``split_illegal``   Cowpie with ``illegal_split="forfeit"``: share of illegal splits
``stay``            Cowboy family: share of stay-or-fold decisions that stayed
``draw_mean``       Cowboy family: mean number of cards drawn per draw
``draw_<k>``        Cowboy family: share of draws of exactly k cards
``choose_<game>``   dealer's choice: share of the seat's choices (on the button, with
                    ``choice="dealer"``) that named this game
==================  ================================================================

A rate whose denominator is zero for a bot (no declarations in plain stud, no draws
in Cowpattie) is left out rather than reported as zero.

Trainers read the same choices from the action masks of their rollouts (no event
log there): :func:`choice_actions`, :func:`choice_rows` and
:func:`choice_frequencies` find the ``choose_<game>`` actions by name, so a
dealer's choice decision is never counted as a betting decision.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from envs.engine.actions import DECLARATION_NAMES, DECLARE_LOW, STAY
from envs.engine.cards import rank_of
from envs.engine.events import EventKind, Verb
from envs.variants.mixed import CHOOSE_PREFIX

# verbs of betting ``action`` events -> counter name (completions, bets and raises are "raises")
_COUNTERS = {Verb.FOLD: "folds", Verb.CHECK: "checks", Verb.CALL: "calls", Verb.BRING_IN: "bring_ins"}
BETTING_COUNTERS = ("folds", "checks", "calls", "raises")


def decision_mix(state: Any) -> list[Counter[str]]:
    """Per-seat counters of one finished hand (or Cowboy game)."""
    mix: list[Counter[str]] = [Counter(hands=1) for _ in range(state.n)]
    voluntary = [False] * state.n
    for e in state.events:
        if e.kind == EventKind.ACTION:
            name = _COUNTERS.get(e.verb, "raises")
            mix[e.seat][name] += 1
            voluntary[e.seat] |= name in ("calls", "raises")
        elif e.kind == "declare":
            mix[e.seat]["declare_" + DECLARATION_NAMES[e.action - DECLARE_LOW]] += 1
        elif e.kind == "split":  # secret: the seat's own choice, cards = (two..., five...)
            _count_split(mix[e.seat], e.cards[:2], e.verb == Verb.ILLEGAL_SPLIT)
        elif e.kind == "stay":
            mix[e.seat]["stay_decisions"] += 1
            mix[e.seat]["stays"] += e.action == STAY
        elif e.kind == "draw" and not e.secret:
            mix[e.seat]["draws"] += 1
            mix[e.seat]["draw_cards"] += e.amount
            mix[e.seat][f"drew_{e.amount}"] += 1
        elif e.kind == "show":
            mix[e.seat]["showdowns"] += 1
        elif e.kind == EventKind.CHOOSE and e.verb == Verb.CHOOSE:  # the dealer's decision, not a rotation
            mix[e.seat]["choices"] += 1
            mix[e.seat][state.game.action_names[e.action]] += 1
    for seat, counter in enumerate(mix):
        counter["vpip_hands"] += voluntary[seat]
    return mix


def _count_split(counter: Counter[str], two: tuple[int, ...], illegal: bool) -> None:
    ranks = [rank_of(c) for c in two]
    counter["splits"] += 1
    counter["split_pairs"] += ranks[0] == ranks[1]
    counter["split_top_sum"] += max(ranks) + 2  # rank index 0 is the deuce
    counter["split_illegal"] += illegal


def total(counters: Iterable[Counter[str]]) -> Counter[str]:
    """Sum of many counters (one bot's seat-hands)."""
    out: Counter[str] = Counter()
    for c in counters:
        out.update(c)
    return out


def summarize(c: Counter[str]) -> dict[str, float]:
    """Rates from a bot's summed counters (see the module docstring); inapplicable
    rates are absent."""
    out: dict[str, float] = {}
    betting = sum(c[k] for k in BETTING_COUNTERS)
    if betting:
        out["vpip"] = c["vpip_hands"] / c["hands"]
        if c["calls"]:
            out["aggression"] = c["raises"] / c["calls"]
        out["aggression_freq"] = c["raises"] / betting
        out["fold"] = c["folds"] / c["hands"]
    if c["hands"]:
        out["showdown"] = c["showdowns"] / c["hands"]
    declared = sum(c["declare_" + d] for d in DECLARATION_NAMES)
    for d in DECLARATION_NAMES if declared else ():
        out["declare_" + d] = c["declare_" + d] / declared
    if c["splits"]:
        out["split_pair"] = c["split_pairs"] / c["splits"]
        out["split_top"] = c["split_top_sum"] / c["splits"]
        out["split_illegal"] = c["split_illegal"] / c["splits"]
    if c["stay_decisions"]:
        out["stay"] = c["stays"] / c["stay_decisions"]
    if c["draws"]:
        out["draw_mean"] = c["draw_cards"] / c["draws"]
        for k in range(6):
            if c[f"drew_{k}"]:
                out[f"draw_{k}"] = c[f"drew_{k}"] / c["draws"]
    for key in sorted(k for k in c if k.startswith(CHOOSE_PREFIX)) if c["choices"] else ():
        out[key] = c[key] / c["choices"]
    return out


# ------------------------------------------------- the dealer's choices in rollouts
def choice_actions(action_names: Sequence[str]) -> dict[int, str]:
    """Action index -> game of every ``choose_<game>`` action of an action layout
    (empty outside dealer's choice)."""
    return {
        i: name.removeprefix(CHOOSE_PREFIX) for i, name in enumerate(action_names) if name.startswith(CHOOSE_PREFIX)
    }


def choice_rows(masks: np.ndarray, action_names: Sequence[str]) -> np.ndarray:
    """Boolean row selector: the decisions (rows of ``(N, actions)`` masks) that are a
    dealer naming the game. Every other decision kind leaves these rows out."""
    columns = list(choice_actions(action_names))
    if not columns:
        return np.zeros(len(masks), bool)
    return np.asarray(masks[:, columns].any(axis=1))


def choice_frequencies(masks: np.ndarray, actions: np.ndarray, action_names: Sequence[str]) -> dict[str, float]:
    """``choose_<game>`` -> share of the choice decisions that named the game, over
    every listed game (zeros included); empty when no row is a choice. For a
    trainer's ``actions/`` scalars."""
    rows = choice_rows(masks, action_names)
    if not rows.any():
        return {}
    chosen = np.asarray(actions)[rows]
    return {
        CHOOSE_PREFIX + game: float(np.mean(chosen == index)) for index, game in choice_actions(action_names).items()
    }
