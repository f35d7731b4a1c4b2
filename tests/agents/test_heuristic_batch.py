"""``HeuristicAgent.act_batch``: exactly what ``act`` returns view by view, in every
variant, on many random states; the batched sampler draws exactly the reference
``sample_cards``' cards; the batched equities are the one-view reference arithmetic."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import numpy as np
import pytest

from agents.heuristic import HeuristicAgent, chowaha, stud
from agents.heuristic.equity import Context, hilo_shares, sample_cards, share_of_best, unseen
from agents.heuristic.sampling import Request, draw, first_sorted
from envs.engine.actions import CHECK_CALL, DECLARE_LOW, DRAW_BASE, NUM_DRAWS, SPLIT_BASE, STAY
from envs.engine.hands import best_board_hands, evaluate_high, evaluate_low
from envs.registry import make_raw
from envs.variants import VARIANTS
from envs.variants.chowaha import BOARDS, LAYOUT, LAYOUT_SIZE, LOW_QUALIFIER
from envs.view import PublicView
from tests.envs.cases import OPTIONS, PLAYER_RANGE

COWBOY_FAMILY = ("cowboy", "cowgirl", "cowpattie")
VIEWS_PER_TABLE = 6
KEEP = {"bet": 0.5, "stay": 0.25, "choose": 0.5}  # chance of keeping a view of the common decisions (rare ones: always)


def table_options(variant: str) -> list[tuple[int, dict[str, Any]]]:
    """(players, options) of every env test option set at the fewest, three more and
    the most seats (eight-seat stud deals a community seventh card; the Cowboy
    family's dummy needs four seats; the costliest Chowaha rule, twenty hole cards
    each, only heads-up)."""
    low, high = PLAYER_RANGE[variant]
    out = []
    for n in sorted({low, min(high, low + 3), high}):
        for options in OPTIONS[variant]:
            options = dict(options)
            if options.get("remaining_as_hole") and n > 2:
                continue
            if variant in COWBOY_FAMILY:
                options.setdefault("match_cap", 40)
            out.append((n, options))
    return out


def random_views(variant: str, seed: int, per_table: int = VIEWS_PER_TABLE) -> list[PublicView]:
    """Views of the seat to act along random play (checks and calls preferred, so
    hands reach their later streets) over every table of :func:`table_options`."""
    rng = np.random.default_rng(seed)
    views = []
    for n, options in table_options(variant):
        env = make_raw(variant, n, **options)
        env.reset(seed=int(rng.integers(2**31)))
        taken = 0
        while taken < per_table:
            state = env.state
            assert state is not None
            if state.is_over:
                env.reset(seed=int(rng.integers(2**31)))
                continue
            view = env.public_view(env.possible_agents[state.current_seat])
            if rng.random() < KEEP.get(decision_kind(view), 1.0):  # skip some: later streets get their turn
                views.append(view)
                taken += 1
            legal = view.legal_actions
            calls = CHECK_CALL in legal and rng.random() < 0.6
            env.step(CHECK_CALL if calls else int(legal[rng.integers(len(legal))]))
    return views


def decision_kind(view: PublicView) -> str:
    legal = view.legal_actions
    if view.legal_names[0].startswith("choose_"):  # dealer's choice: the button names the game
        return "choose"
    if STAY in legal:
        return "stay"
    if DECLARE_LOW in legal:
        return "declare"
    if any(SPLIT_BASE <= a < SPLIT_BASE + 21 for a in legal):
        return "split"
    if any(DRAW_BASE <= a < DRAW_BASE + NUM_DRAWS for a in legal):
        return "dummy_draw" if "dummy_cards" in view.extra else "draw"
    return "bet"


EXPECTED_KINDS = {
    "stud": {"bet"},
    "razz": {"bet"},
    "stud_hilo": {"bet"},
    "stud_hilo_declare": {"bet", "declare"},
    "cowpie": {"bet", "split"},
    "chowaha": {"bet"},
    "cowboy": {"stay", "draw", "declare", "dummy_draw"},
    "cowgirl": {"stay", "draw", "declare", "dummy_draw"},
    "cowpattie": {"stay", "declare"},
    "five_card_stud": {"bet"},
    "toy_stud": {"bet"},
    "dealers_choice": {"choose", "bet", "declare"},
}


ViewSet = tuple[str, list[PublicView]]


@pytest.fixture(scope="module", params=sorted(VARIANTS))
def variant_views(request: pytest.FixtureRequest) -> ViewSet:
    per_table = 2 * VIEWS_PER_TABLE if request.param in COWBOY_FAMILY else VIEWS_PER_TABLE  # dummy draws are rare
    views = random_views(request.param, seed=sorted(VARIANTS).index(request.param), per_table=per_table)
    kinds = Counter(decision_kind(v) for v in views)
    assert EXPECTED_KINDS[request.param] <= set(kinds), f"the sample never reached {EXPECTED_KINDS[request.param]}"
    return request.param, views


def one_by_one(bot: HeuristicAgent, views: list[PublicView]) -> list[int]:
    return [bot.act({}, v) for v in views]


def in_batches(bot: HeuristicAgent, views: list[PublicView], sizes: tuple[int, ...]) -> list[int]:
    """``act_batch`` over consecutive chunks of the given sizes (cycled)."""
    out: list[int] = []
    start = 0
    for size in itertools.cycle(sizes):
        if start >= len(views):
            return out
        part = views[start : start + size]
        out += bot.act_batch([{}] * len(part), part)
        start += size
    raise AssertionError("unreachable")


@pytest.mark.parametrize("style", ["default", "aggressive"])
def test_act_batch_returns_what_act_returns_view_by_view(variant_views: ViewSet, style: str) -> None:
    variant, views = variant_views
    alone = HeuristicAgent(seed=7, style=style)
    expected = one_by_one(alone, views)
    for sizes in [(len(views),), (1, 16, 5, 64)]:
        batched = HeuristicAgent(seed=7, style=style)
        assert in_batches(batched, views, sizes) == expected, f"{variant}, batches of {sizes}"
        assert batched.rng.bit_generator.state == alone.rng.bit_generator.state  # the same numbers drawn


def test_a_batch_may_mix_variants() -> None:
    views = [v for variant in sorted(VARIANTS) for v in random_views(variant, seed=3, per_table=1)]
    order = np.random.default_rng(0).permutation(len(views))
    mixed = [views[i] for i in order]
    assert in_batches(HeuristicAgent(seed=2), mixed, (len(mixed),)) == one_by_one(HeuristicAgent(seed=2), mixed)


def test_act_batch_rejects_what_act_rejects() -> None:
    bot = HeuristicAgent(seed=0)
    view = random_views("razz", seed=0, per_table=1)[0]
    with pytest.raises(ValueError, match="needs the PublicView"):
        bot.act_batch([{}, {}], [view, None])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="act_batch got 1 observations for 2 views"):
        bot.act_batch([{}], [view, view])
    assert bot.act_batch([], []) == []


# ----------------------------------------------------------------- sampling
class CoarseGenerator:
    """A generator stand-in whose float32 keys take only 16 values: rows full of ties."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def random(self, size: Any, dtype: Any = np.float64) -> np.ndarray:
        return (np.floor(self.rng.random(size, dtype=np.float32) * 16) / 16).astype(np.float32)


@pytest.mark.parametrize("coarse", [False, True], ids=["numpy", "ties"])
def test_draw_gives_the_reference_cards_and_numbers(coarse: bool) -> None:
    rng = np.random.default_rng(0)
    for trial in range(60):
        requests: list[Request | None] = []
        for _ in range(int(rng.integers(1, 6))):
            size = int(rng.integers(1, 53))
            count = int(rng.integers(0, size + 1))
            pool = np.sort(rng.choice(52, size, replace=False))
            requests.append(Request(pool, int(rng.integers(1, 80)), count, int(rng.integers(0, 2))))
            if rng.random() < 0.2:
                requests.append(None)
        mine = CoarseGenerator(trial) if coarse else np.random.default_rng(trial)
        reference = CoarseGenerator(trial) if coarse else np.random.default_rng(trial)
        for r, d in zip(requests, draw(mine, requests), strict=True):  # type: ignore[arg-type]
            if r is None:
                assert d is None
                continue
            assert d is not None
            assert np.array_equal(d.cards, sample_cards(reference, r.pool, r.samples, r.count))  # type: ignore[arg-type]
            extra = reference.random(r.extra, dtype=np.float32) if r.extra else np.empty(0, np.float32)
            assert np.array_equal(d.extra, extra)
        if not coarse:
            assert mine.bit_generator.state == reference.bit_generator.state  # type: ignore[union-attr]


def test_first_sorted_breaks_ties_as_argsort_does() -> None:
    keys = (np.random.default_rng(1).integers(0, 4, (500, 40)) / 4).astype(np.float32)  # ties everywhere
    for count in (1, 5, 39, 40):
        assert np.array_equal(first_sorted(keys, count), keys.argsort(axis=1)[:, :count])
    with pytest.raises(ValueError, match="cannot draw 9 cards from 8"):
        Request(np.arange(8), 4, 9)


# ------------------------------------------- the reference arithmetic, one view
def reference_stud_equity(view: PublicView, ctx: Context) -> float:
    """The one-view computation the batched code must reproduce: a (players, 7)
    template of known cards, ``sample_cards`` for the unknown ones (a community
    seventh card when the deck runs short), one evaluator call, the mean share."""
    own = len(view.own_cards)
    opponents = [s for s in range(view.num_players) if s != view.seat and not view.folded[s]]
    pool = unseen(view.seen_cards())
    template = np.full((1 + len(opponents), 7), -1)
    template[0, :own] = view.own_cards
    for row, seat in enumerate(opponents, start=1):
        template[row, 2 : 2 + len(view.up_cards[seat])] = view.up_cards[seat]
    if view.community:
        template[:, 6] = view.community[0]
    unknown = template == -1
    shared = not view.community and own < 7 and int(unknown.sum()) > len(pool)
    if shared:
        unknown[:, 6] = False
    need = int(unknown.sum()) + int(shared)
    draws = sample_cards(ctx.rng, pool, ctx.samples, need)
    hands = np.broadcast_to(template, (ctx.samples, *template.shape)).copy()
    hands[:, unknown] = draws[:, : need - int(shared)]
    if shared:
        hands[:, :, 6] = draws[:, -1:]
    s, p, _ = hands.shape
    flat = hands.reshape(-1, 7)
    if view.variant == "razz":
        return float(share_of_best(evaluate_low(flat, None).reshape(s, p)).mean())
    high = evaluate_high(flat).reshape(s, p)
    if view.variant == "stud":
        return float(share_of_best(high).mean())
    low = evaluate_low(flat, view.options.low_qualifier).reshape(s, p)
    return float(hilo_shares(high, low).mean())


@pytest.mark.parametrize("variant", ["stud", "razz", "stud_hilo", "stud_hilo_declare"])
def test_stud_equity_is_the_reference_arithmetic_bit_for_bit(variant: str) -> None:
    for i, view in enumerate(random_views(variant, seed=11, per_table=4)):
        got = stud.equity(view, Context(np.random.default_rng(i), 64))
        assert got == reference_stud_equity(view, Context(np.random.default_rng(i), 64))


def reference_chowaha_equity(view: PublicView, ctx: Context) -> float:
    """One view: the hidden layout positions and the opponents' hole cards from one
    ``sample_cards`` call, one ``best_board_hands`` call, the mean share."""
    samples, hole, opponents = chowaha.sample_count(view, ctx), len(view.own_cards), view.live_opponents
    layout = np.full(LAYOUT_SIZE, -1)
    for card, label in zip(view.community, view.community_labels, strict=True):
        layout[LAYOUT.index(label)] = card
    hidden = np.flatnonzero(layout < 0)
    draws = sample_cards(ctx.rng, unseen(view.seen_cards()), samples, len(hidden) + opponents * hole)
    layouts = np.broadcast_to(layout, (samples, LAYOUT_SIZE)).copy()
    layouts[:, hidden] = draws[:, : len(hidden)]
    holes = np.empty((samples, 1 + opponents, hole), int)
    holes[:, 0] = view.own_cards
    holes[:, 1:] = draws[:, len(hidden) :].reshape(samples, opponents, hole)
    best = best_board_hands(holes, layouts[:, np.asarray(BOARDS)][:, None], qualifier=LOW_QUALIFIER)
    if not view.options.hi_lo:
        return float(share_of_best(best.high).mean())
    return float(hilo_shares(best.high, best.low).mean())


def test_chowaha_equity_is_the_reference_arithmetic_bit_for_bit() -> None:
    for i, view in enumerate(random_views("chowaha", seed=12, per_table=2)):
        got = chowaha.equity(view, Context(np.random.default_rng(i), 64))
        assert got == reference_chowaha_equity(view, Context(np.random.default_rng(i), 64))
