"""Seven-card stud, razz, stud high-low and stud high-low declare.

Betting: equity against the live opponents, each holding its visible up cards plus
random down cards, with every card still to come dealt at random from the cards this
seat has not seen (its own, all up cards including folded players', the community
card). Stud high uses the high share, razz the ace-to-five low, the high-low games
the expected split-pot share (high half plus qualifying low half, ties shared).

Declaration (``stud_hilo_declare``): from the chances of winning each way (ties
count unless the swing rule is ``"outright"``); ``both`` only when the chance of
winning both ways is at least ``BOTH_AT`` and beats what either half is worth.

:func:`deal_samples` is shared with Cowpie, which deals exactly like stud.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.heuristic.betting import choose_bet
from agents.heuristic.equity import Context, hilo_shares, sample_cards, share_of_best, unseen, wins_or_ties
from envs.engine.actions import DECLARE_BOTH, DECLARE_HIGH, DECLARE_LOW
from envs.engine.hands import evaluate_high, evaluate_low
from envs.view import PublicView

DOWN = (True, True, False, False, False, False, True)  # face-down positions of the seven stud cards
SEVENTH = 4  # street index of seventh street (the last betting round)
BOTH_AT = 0.5  # least chance of winning both ways for a "both" declaration
HIGH_GAMES = ("stud", "cowpie")


@dataclass(frozen=True)
class StudSample:
    """Sampled seven-card hands in dealt order.

    Attributes:
        hands: ``(S, P, 7)`` cards; player 0 is the bot, then the live opponents.
        down: ``(P, 7)`` face-down flags (the community card, if any, counts as up).
        opponents: the opponents' seats, in column order.
    """

    hands: np.ndarray
    down: np.ndarray
    opponents: tuple[int, ...]


def deal_samples(view: PublicView, samples: int, rng: np.random.Generator) -> StudSample:
    """Random completions of every live hand consistent with what the seat has seen."""
    own = len(view.own_cards)
    opponents = [s for s in range(view.num_players) if s != view.seat and not view.folded[s]]
    pool = unseen(view.seen_cards())
    while True:
        template, down = _template(view, opponents)
        unknown = template == -1
        shared = not view.community and _short_stub(unknown, own, len(pool))
        if shared:  # the deck runs out at seventh street: one community card for everyone
            unknown[:, 6] = False
        need = int(unknown.sum()) + int(shared)
        if need <= len(pool) or len(opponents) <= 1:
            break
        opponents.pop()  # cannot happen with a real deck; keep the model within the cards
    draws = sample_cards(rng, pool, samples, need)
    hands = np.broadcast_to(template, (samples, *template.shape)).copy()
    hands[:, unknown] = draws[:, : need - int(shared)]
    if shared:
        hands[:, :, 6] = draws[:, -1:]
        down[:, 6] = False
    return StudSample(hands, down, tuple(opponents))


def _template(view: PublicView, opponents: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Known cards per (player, position), -1 where unknown; and the down flags."""
    template = np.full((1 + len(opponents), 7), -1, np.intp)
    down = np.tile(np.asarray(DOWN), (1 + len(opponents), 1))
    own = list(view.own_cards)
    template[0, : len(own)] = own
    down[0, : len(own)] = [not up for up in view.own_up]
    for row, seat in enumerate(opponents, start=1):
        up = view.up_cards[seat]
        template[row, 2 : 2 + len(up)] = up
    if view.community:
        template[:, 6] = view.community[0]
        down[:, 6] = False
    return template, down


def _short_stub(unknown: np.ndarray, own: int, pool: int) -> bool:
    """Will seventh street be a community card? Yes when the unseen cards cannot give
    every live player its own seventh card."""
    return own < 7 and int(unknown.sum()) > pool


def _values(view: PublicView, flat: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(high, low) strengths of ``(N, 7)`` hands as the variant needs them."""
    if view.variant == "razz":
        return None, evaluate_low(flat, None, validate=False)
    high = evaluate_high(flat, validate=False)
    if view.variant in HIGH_GAMES:
        return high, None
    return high, evaluate_low(flat, view.options.low_qualifier, validate=False)


def equity(view: PublicView, ctx: Context) -> float:
    """Expected pot share at the showdown against random hidden cards."""
    sample = deal_samples(view, ctx.samples, ctx.rng)
    s, p, _ = sample.hands.shape
    high, low = _values(view, sample.hands.reshape(-1, 7))
    if high is None:
        assert low is not None
        return float(share_of_best(low.reshape(s, p)).mean())
    if low is None:
        return float(share_of_best(high.reshape(s, p)).mean())
    return float(hilo_shares(high.reshape(s, p), low.reshape(s, p)).mean())


def declare(view: PublicView, ctx: Context) -> int:
    """Low, high or both, from the chances of winning each way."""
    sample = deal_samples(view, ctx.samples, ctx.rng)
    s, p, _ = sample.hands.shape
    flat = sample.hands.reshape(-1, 7)
    qualifier = view.options.low_qualifier
    high = evaluate_high(flat, validate=False).reshape(s, p)
    low = evaluate_low(flat, qualifier, validate=False).reshape(s, p)
    outright = view.options.swing_rule == "outright"
    qualified = qualifier is not None
    p_high = float(wins_or_ties(high).mean())
    p_low = float(wins_or_ties(low, qualified=qualified).mean())
    p_both = float((wins_or_ties(high, outright) & wins_or_ties(low, outright, qualified)).mean())
    return choose_declaration(p_high, p_low, p_both)


def choose_declaration(p_high: float, p_low: float, p_both: float) -> int:
    """``both`` when it is likely (``BOTH_AT``) and worth more than the better half
    (a scoop is the whole pot, a half is half of it), else the likelier half."""
    if p_both >= BOTH_AT and p_both >= max(p_high, p_low) / 2:
        return DECLARE_BOTH
    return DECLARE_LOW if p_low > p_high else DECLARE_HIGH


def decide(view: PublicView, ctx: Context) -> int:
    """Every decision of the stud family: bring-in, betting, declaration."""
    if DECLARE_LOW in view.legal_actions:
        return declare(view, ctx)
    return choose_bet(view, equity(view, ctx), rounds_left=max(0, SEVENTH - view.street))
