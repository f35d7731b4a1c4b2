"""``BatchedHeuristic`` against the scalar ``HeuristicAgent``.

* Exact where the rule is deterministic: the betting facts each seat reads, the deal
  (unseen pool, known cards, cards to draw, the community last card), the betting
  rules for given equities (every style, bluff coins, thresholds hit exactly), the
  declaration for given chances, Cowpie's split.
* In distribution where it samples: on fixed situations (stacked decks and scripted
  actions, each repeated over many tables and, in the scalar bot, over many draws of
  its generator) the mean equity (or declaring chances) agrees within a 99.9% bound
  (Bonferroni over every comparison of the test), and so does the frequency of every
  action for every style; where both are certain they are equal.
* The sampler: distinct cards of the pool only, uniform over it.
* No leak: reshuffling the cards the seat cannot see leaves every action unchanged.
* Against random: the batched bot's mean is inside the scalar's interval (a 99.9%
  two-sample bound; a larger run is ``-m slow``).
"""

from __future__ import annotations

from collections import Counter
from statistics import NormalDist
from typing import Any

import numpy as np
import pytest
import torch

from agents.batched import BatchedRandom, load_batched
from agents.heuristic import PRESETS, HeuristicAgent, cowpie, stud
from agents.heuristic.batched import BatchedHeuristic
from agents.heuristic.batched_deal import deal_plan, fill_hands, live_first, sample_pool
from agents.heuristic.batched_equity import cowpie_splits
from agents.heuristic.batched_rules import bet_facts, choose_bets, choose_declarations
from agents.heuristic.batched_values import assignment, high_values, low_values
from agents.heuristic.betting import choose_bet, thresholds
from agents.heuristic.equity import Context
from agents.heuristic.plans import rules_of, seen_cards, unseen_cards
from agents.heuristic.sampling import draw
from agents.heuristic.style import parse_style
from envs.batched import make
from envs.batched.hands import torch_hands
from envs.engine.actions import DECLARE_LOW, FOLD, SPLIT_BASE
from tests.agents.batched_situations import replicate, scalar_view, situations, subset

torch.set_num_threads(1)
STYLES = tuple(PRESETS)
CASES = [  # (variant, players, options): heads-up and multiway
    ("stud", 2, {}),
    ("stud", 5, {"ante": 1}),
    ("razz", 2, {}),
    ("razz", 4, {}),
    ("stud_hilo", 2, {}),
    ("stud_hilo", 4, {"low_qualifier": None}),
    ("stud_hilo_declare", 2, {}),
    ("stud_hilo_declare", 3, {"swing_rule": "outright"}),
    ("five_card_stud", 2, {}),
    ("five_card_stud", 6, {}),
    ("toy_stud", 2, {}),
    ("toy_stud", 2, {"streets": 3, "ranks": "9TJQKA", "suits": "cdhs"}),
    ("cowpie", 2, {"bet_after_split": True}),
    ("cowpie", 3, {"illegal_split": "forfeit"}),
    ("stud", 8, {}),  # the community seventh card
]
IDS = [f"{n}-{p}{'-' + '-'.join(map(str, o.values())) if o else ''}" for n, p, o in CASES]
SITUATIONS, COPIES = 3, 256


def _bound(comparisons: int, level: float = 0.999) -> float:
    """Two-sided normal quantile of a ``level`` bound shared by ``comparisons``."""
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * comparisons))


def _same_proportion(a: int, n_a: int, b: int, n_b: int, z: float) -> bool:
    pooled = (a + b) / (n_a + n_b)
    if pooled in (0.0, 1.0):
        return True  # both certain, and equal
    se = (pooled * (1 - pooled) * (1 / n_a + 1 / n_b)) ** 0.5
    return abs(a / n_a - b / n_b) <= z * se


def _views_and_batch(case: tuple[str, int, dict[str, Any]], seed: int) -> tuple[Any, list[Any]]:
    """Close decisions, where a wrong equity or rule shows: of twelve scripted
    situations, the ones whose scalar equity (one estimate) lies nearest the default
    style's raising or calling threshold, plus one more."""
    name, players, options = case
    sit = situations(name, players, 12, seed, **options)
    views = [scalar_view(sit, i) for i in range(12)]
    rng = np.random.default_rng(seed)
    closeness = []
    for view in views:
        equity = (cowpie if name == "cowpie" else stud).equity if not _splits_now(view) else None
        if equity is None:
            closeness.append(1.0)
            continue
        e = equity(view, Context(rng, 256))
        calling = view.to_call / (view.pot + view.to_call) if view.to_call > 0 else 2.0
        closeness.append(min(abs(e - thresholds(view.live_opponents)[0]), abs(e - calling)))
    keep = [int(i) for i in np.argsort(closeness, kind="stable")[: SITUATIONS - 1]]
    keep.append(next(i for i in range(12) if i not in keep))
    chosen = subset(sit, keep)
    return replicate(chosen, COPIES), [views[i] for i in keep]


def _splits_now(view: Any) -> bool:
    return any(a >= SPLIT_BASE for a in view.legal_actions)


# ------------------------------------------------------------------ exact rules
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_facts_and_deal_equal_the_scalar_view(case: tuple[str, int, dict[str, Any]]) -> None:
    """What the seat reads (pot, call, bet, unit, opponents, rounds left) and the deal
    plan (the pool, the known cards of every live hand, the cards to draw, the shared
    last card, face-down flags) equal the scalar heuristic's, table for table."""
    sit = situations(case[0], case[1], 12, seed=7, **case[2])
    batch = replicate(sit, 1)
    bot = BatchedHeuristic(batch)
    tables = torch.arange(batch.num_tables)
    facts = bet_facts(batch, tables, bot.last_street)
    deal = deal_plan(batch, bot.rules, tables)
    for i in range(batch.num_tables):
        view = scalar_view(sit, i)
        assert int(facts.pot[i]) == view.pot and int(facts.to_call[i]) == view.to_call
        assert int(facts.current_bet[i]) == view.current_bet and int(facts.bet_unit[i]) == view.bet_unit
        assert int(facts.opponents[i]) == view.live_opponents
        assert int(facts.rounds_left[i]) == stud.rounds_left(view)
        want = stud.deal_plan(view)
        pool = deal.pool[i, : int(deal.pool_size[i])].tolist()
        assert pool == want.pool.tolist() == unseen_cards(seen_cards(view), rules_of(view).deck).tolist()
        assert int(deal.need[i]) == want.need <= bot.rules.most_needed(batch.num_players)
        seats = [view.seat, *want.opponents]
        assert deal.live[i].nonzero().squeeze(1).tolist() == sorted(seats)
        flat = np.full(want.players * want.size, -1)
        flat[want.known_slots] = want.known_cards
        for row, seat in enumerate(seats):
            assert deal.known[i, seat].tolist() == flat[row * want.size : (row + 1) * want.size].tolist()
            assert deal.down[i, seat].tolist() == want.down[row].tolist()
        assert bool(deal.shared[i]) == (want.drawn_columns is not None)


def test_betting_rules_equal_choose_bet() -> None:
    """Every style's bet for random equities, bluff coins and the exact thresholds
    equals ``choose_bet`` on the same view (stud with a bring-in, razz, five-card
    stud multiway, capped and uncapped)."""
    rng = np.random.default_rng(3)
    styles = [parse_style(s) for s in (*STYLES, "max_raises=1", "call_margin=-0.3,implied_bets=3", "bluff=0.5")]
    checked = Counter()
    for name, players, options in [("stud", 2, {}), ("razz", 3, {"raise_cap": None}), ("five_card_stud", 6, {})]:
        sit = situations(name, players, 40, seed=11, call=0.5, **options)
        batch = replicate(sit, 1)
        tables = torch.arange(batch.num_tables)
        facts = bet_facts(batch, tables, BatchedHeuristic(batch).last_street)
        views = [scalar_view(sit, i) for i in range(batch.num_tables)]
        legal = batch.legal_mask()
        for style in styles:
            edges = [t for v in views for t in thresholds(v.live_opponents, style)]
            equity = torch.as_tensor(
                np.where(rng.random(len(views)) < 0.3, rng.choice(edges, len(views)), rng.random(len(views)))
            )
            luck = torch.as_tensor(rng.random(len(views)))
            got = choose_bets(legal, facts, equity, style, luck if style.bluff else None).tolist()
            for i, view in enumerate(views):
                want = choose_bet(
                    view, float(equity[i]), stud.rounds_left(view), style, float(luck[i]) if style.bluff else None
                )
                assert got[i] == want, f"{name} table {i} style {style.label}: {got[i]} vs {want} at {float(equity[i])}"
                checked[want] += 1
    assert len(checked) == 4  # fold, call, bring-in and raise all reached


def test_declarations_equal_choose_declaration() -> None:
    rng = np.random.default_rng(5)
    grid = np.array([0.0, 0.2, 0.25, 0.4, 0.5, 0.6, 1.0])
    chances = np.where(rng.random((4000, 3)) < 0.5, rng.choice(grid, (4000, 3)), rng.random((4000, 3)))
    for both_at in (0.4, 0.5, 0.6):
        got = choose_declarations(torch.as_tensor(chances), both_at).tolist()
        want = [stud.choose_declaration(*map(float, c), both_at=both_at) for c in chances]
        assert got == want


def _splitting(mask: torch.Tensor) -> torch.Tensor:
    return mask[:, SPLIT_BASE:].any(1)


@pytest.mark.parametrize("options", [{}, {"illegal_split": "forfeit"}], ids=["mask", "forfeit"])
@pytest.mark.parametrize("players", [2, 5])
def test_cowpie_split_equals_the_scalar_split(players: int, options: dict[str, Any]) -> None:
    """At the split every table's choice is the scalar bot's (deterministic)."""
    sit = situations("cowpie", players, 40, seed=17, depth=80, call=0.9, stop=_splitting, **options)
    batch = replicate(sit, 1)
    splitting = _splitting(batch.legal_mask())
    assert bool(splitting.all())
    got = BatchedHeuristic(batch).act(batch, torch.ones(batch.num_tables, dtype=torch.bool))
    for i in splitting.nonzero().squeeze(1).tolist():
        assert int(got[i]) == HeuristicAgent(seed=0).act(None, scalar_view(sit, i))


@pytest.mark.parametrize("case", [CASES[1], CASES[5], CASES[9], CASES[14]], ids=[IDS[1], IDS[5], IDS[9], IDS[14]])
def test_key_sums_equal_the_evaluators_on_filled_hands(case: tuple[str, int, dict[str, Any]]) -> None:
    """The strengths summed from known parts and drawn keys equal the torch
    evaluators on the completed hands (and those equal the numpy ones: tests/batched)."""
    sit = situations(case[0], case[1], 8, seed=29, **case[2])
    batch = replicate(sit, 1)
    bot = BatchedHeuristic(batch)
    deal = deal_plan(batch, bot.rules, torch.arange(batch.num_tables))
    drawn = sample_pool(deal, 64, int(deal.need.max()), torch.Generator().manual_seed(4))
    cards = fill_hands(deal, drawn)
    share = assignment(deal, drawn.shape[2])
    live = deal.live.unsqueeze(1).expand(-1, 64, -1)
    assert torch.equal(high_values(bot.hands, deal, drawn, share)[live], bot.hands.high_value(cards)[live])
    for threshold in (0, bot.threshold):
        got = low_values(bot.hands, deal, drawn, share, threshold)[live]
        assert torch.equal(got, bot.hands.low_value(cards, threshold)[live])
    compact = live_first(deal, int(deal.live.sum(1).max()))  # live seats first, the rest dropped
    assert torch.equal((compact.me & compact.live).sum(1), torch.ones(batch.num_tables, dtype=torch.long))
    kept = compact.live.unsqueeze(1).expand(-1, 64, -1)
    values = high_values(bot.hands, compact, drawn, assignment(compact, drawn.shape[2]))
    assert torch.equal(values[kept], bot.hands.high_value(cards)[live])


def test_cowpie_splits_equal_the_torch_evaluator() -> None:
    rng = np.random.default_rng(8)
    cards = torch.as_tensor(np.stack([rng.permutation(52)[:7] for _ in range(3000)]))
    down = torch.as_tensor(rng.random((3000, 7)) < 0.5)
    hands = torch_hands("cpu")
    for got, want in zip(cowpie_splits(hands, cards, down), hands.cowpie_splits(cards, down), strict=True):
        assert torch.equal(got, want)


def test_sync_free_path_agrees_in_distribution() -> None:
    """The GPU path (every table computed, a fixed number of draws, no host reads) run
    on the CPU: legal actions, and the same mean equity as the CPU path."""
    batch, _ = _views_and_batch(CASES[1], seed=31)
    rows = ~batch.state.done
    fast = BatchedHeuristic(batch, seed=1, sync_free=True, check=True)
    actions = fast.act(batch, rows)
    assert batch.legal_mask().gather(1, actions.unsqueeze(1)).all()
    free = fast.estimate(batch, rows).equity.view(SITUATIONS, COPIES)
    cpu = BatchedHeuristic(batch, seed=2).estimate(batch, rows).equity.view(SITUATIONS, COPIES)
    se = (free.var(1) / COPIES + cpu.var(1) / COPIES).sqrt()
    assert ((free.mean(1) - cpu.mean(1)).abs() <= _bound(SITUATIONS) * se + 1e-12).all()


# ------------------------------------------------------------- in distribution
def test_sampler_draws_distinct_pool_cards_uniformly() -> None:
    sit = situations("stud", 3, 6, seed=2)
    batch = replicate(sit, 1)
    bot = BatchedHeuristic(batch)
    deal = deal_plan(batch, bot.rules, torch.arange(6))
    drawn = sample_pool(deal, 4000, 8, torch.Generator().manual_seed(1))
    z = _bound(6 * 52 * 8)
    for i in range(6):
        pool = deal.pool[i, : int(deal.pool_size[i])]
        cards = drawn[i]
        assert torch.isin(cards, pool).all()
        assert (cards.sort(1).values.diff(1) != 0).all()  # no card twice in a sample
        n = len(pool)
        for column in range(8):  # every draw is uniform over the pool
            counts = torch.bincount(cards[:, column], minlength=52)[pool].double()
            assert ((counts - 4000 / n).abs() <= z * (4000 * (1 / n) * (1 - 1 / n)) ** 0.5).all()


def _styles(case: tuple[str, int, dict[str, Any]]) -> tuple[str, str]:
    """The default style and one preset per case, in turn: every preset is compared
    in several variants (the rules of every style are compared exactly above)."""
    k = CASES.index(case)
    return "default", STYLES[1 + k % (len(STYLES) - 1)]


def _scalar_outcomes(view: Any, copies: int, seed: int) -> np.ndarray:
    """``copies`` of the scalar Monte Carlo outcome (equity, or the declaring chances)
    of one view: the bot's own plans and evaluation, independent draws."""
    rng = np.random.default_rng(seed)
    if view.variant == "cowpie":
        p = cowpie.plan(view, PRESETS["default"], 256)
        drawn = draw(rng, [p.request] * copies)
        return np.array(cowpie._equities([p] * copies, drawn, p.deal.players, max(1, view.live_opponents)))
    p = stud.plan(view, PRESETS["default"], 256)
    drawn = draw(rng, [p.request] * copies)
    return np.array(stud._outcomes(stud._ways(view), [p] * copies, drawn, p.deal.players), dtype=float)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_equity_and_actions_agree_in_distribution(case: tuple[str, int, dict[str, Any]]) -> None:
    batch, views = _views_and_batch(case, seed=sum(map(ord, str(case))))
    live = ~batch.state.done
    comparisons = SITUATIONS * 3 + SITUATIONS * 2 * batch.num_actions
    z = _bound(comparisons)
    estimate = BatchedHeuristic(batch, seed=1).estimate(batch, live)
    uncertain = 0
    for i, view in enumerate(views):
        rows = slice(i * COPIES, (i + 1) * COPIES)
        want = _scalar_outcomes(view, COPIES, seed=i)
        declaring = DECLARE_LOW in view.legal_actions
        got = (estimate.chances[rows] if declaring else estimate.equity[rows].unsqueeze(1)).numpy()
        want = want.reshape(COPIES, -1)
        se = np.sqrt(got.var(0) / COPIES + want.var(0) / COPIES)
        gap = np.abs(got.mean(0) - want.mean(0))
        assert (gap <= z * se + 1e-12).all(), f"situation {i}: batched {got.mean(0)} vs scalar {want.mean(0)} (se {se})"
    for style in _styles(case):
        bot = BatchedHeuristic(batch, style=style, seed=2)
        actions = bot.act(batch, live)
        agent = HeuristicAgent(seed=3, style=style)
        for i, view in enumerate(views):
            got = Counter(actions[i * COPIES : (i + 1) * COPIES].tolist())
            want = Counter(agent.act_batch([None] * COPIES, [view] * COPIES))
            for action in set(got) | set(want):
                assert _same_proportion(got[action], COPIES, want[action], COPIES, z), (
                    f"situation {i} style {style}: batched {dict(got)} vs scalar {dict(want)}"
                )
            uncertain += len(want) > 1
    assert uncertain > 0 or case[0] in ("toy_stud", "stud_hilo_declare"), "no situation tested a close decision"


# -------------------------------------------------------------------- no leak
@pytest.mark.parametrize("case", [CASES[0], CASES[7], CASES[13], CASES[14]], ids=[IDS[0], IDS[7], IDS[13], IDS[14]])
def test_hidden_cards_do_not_change_any_action(case: tuple[str, int, dict[str, Any]]) -> None:
    """Reshuffle, table by table, every card the seat to act cannot see (the others'
    down cards and the stub) in the state: the same seed gives the same actions."""
    sit = situations(case[0], case[1], 16, seed=23, **case[2])
    batch = replicate(sit, 8)
    rows = ~batch.state.done
    style = "aggressive"
    before = BatchedHeuristic(batch, style=style, seed=9).act(batch, rows)
    equity = BatchedHeuristic(batch, seed=9).estimate(batch, rows).equity
    s = batch.state
    rng = np.random.default_rng(0)
    changed = 0
    for i in range(batch.num_tables):
        seat = int(s.actor[i])
        n = s.ncards[i]
        hidden = [
            (p, c) for p in range(batch.num_players) for c in range(int(n[p])) if p != seat and not bool(s.up[i, p, c])
        ]
        stub = list(range(int(s.dptr[i]), s.deck.shape[1]))
        cards = [int(s.cards[i, p, c]) for p, c in hidden] + [int(s.deck[i, k]) for k in stub]
        shuffled = rng.permutation(cards).tolist()
        changed += shuffled != cards
        for (p, c), card in zip(hidden, shuffled[: len(hidden)], strict=True):
            s.cards[i, p, c] = card
        for k, card in zip(stub, shuffled[len(hidden) :], strict=True):
            s.deck[i, k] = card
    assert changed > batch.num_tables // 2
    after = BatchedHeuristic(batch, style=style, seed=9).act(batch, rows)
    assert torch.equal(before, after)
    assert torch.equal(equity, BatchedHeuristic(batch, seed=9).estimate(batch, rows).equity)


# ------------------------------------------------------------ against random
def _batched_vs_random(name: str, tables: int, hands: int, seed: int) -> np.ndarray:
    """Per-hand results of seat 0 (the heuristic; the button rotates) against random."""
    batch = make(name, tables, 2)
    out = batch.reset(seed=seed)
    bot, rand = BatchedHeuristic(batch, seed=seed), BatchedRandom(seed + 1)
    results: list[torch.Tensor] = []
    while sum(len(r) for r in results) < hands:
        mine = out.seat == 0
        actions = torch.where(mine, bot.act(batch, mine), rand.act(batch, ~mine))
        out = batch.step(actions)
        results.append(out.rewards[out.done, 0])
    return torch.cat(results)[:hands].double().numpy()


def _scalar_vs_random(name: str, hands: int, seed: int) -> np.ndarray:
    """The scalar heuristic's mean result per duplicate deal against random."""
    import evaluation

    result = evaluation.run_match(name, ["heuristic", "random"], deals=hands // 2, seed=seed)
    per_deal: dict[int, list[float]] = {}
    for h in result.hands:  # a duplicate deal's two seatings: one independent result per deal
        per_deal.setdefault(h.deal, []).append(h.rewards[h.lineup.index(0)])
    return np.array([np.mean(r) for r in per_deal.values()])


def _agree_with_scalar(name: str, batched_hands: int, scalar_hands: int) -> None:
    got = _batched_vs_random(name, 256, batched_hands, seed=41)
    want = _scalar_vs_random(name, scalar_hands, seed=43)
    se = np.sqrt(got.var() / len(got) + want.var() / len(want))
    assert abs(got.mean() - want.mean()) <= _bound(1) * se, (
        f"{name}: batched {got.mean()} vs scalar {want.mean()} (se {se})"
    )
    assert got.mean() > 0  # it beats random


@pytest.mark.parametrize("name", ["toy_stud", "razz"])
def test_results_against_random_agree(name: str) -> None:
    _agree_with_scalar(name, 2048, 400)


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "toy_stud", "cowpie"]
)
def test_results_against_random_agree_long(name: str) -> None:
    _agree_with_scalar(name, 8192, 4000)


# --------------------------------------------------------------- the contract
def test_contract_and_bad_input() -> None:
    batch = make("stud", 4, 3)
    batch.reset(seed=0)
    bot = load_batched("heuristic:tight", batch, seed=1)
    assert isinstance(bot, BatchedHeuristic) and bot.name == "heuristic:tight" and bot.style == PRESETS["tight"]
    assert load_batched("heuristic", batch).name == "heuristic"
    rows = torch.ones(4, dtype=torch.bool)
    actions = bot.act(batch, rows)
    assert actions.dtype == torch.int64 and actions.shape == (4,)
    assert batch.legal_mask().gather(1, actions.unsqueeze(1)).all()
    bot.seed(5)
    first = bot.act(batch, rows)
    bot.seed(5)
    assert torch.equal(first, bot.act(batch, rows))
    with pytest.raises(ValueError, match="rows must be a bool tensor"):
        bot.act(batch, torch.ones(4, dtype=torch.long))
    with pytest.raises(ValueError, match="rows must be a bool tensor"):
        bot.act(batch, torch.ones(3, dtype=torch.bool))
    with pytest.raises(ValueError, match="plays stud tables"):
        bot.act(make("razz", 4, 3), rows)
    with pytest.raises(ValueError, match="other seats or options"):
        bot.act(make("stud", 4, 2), rows)
    with pytest.raises(ValueError, match="unknown heuristic knob"):
        BatchedHeuristic(batch, style="tight,edge=1")
    with pytest.raises(ValueError, match="samples"):
        BatchedHeuristic(batch, samples=4)


def test_an_illegal_choice_is_an_error_not_remapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule that picks an illegal action (here: fold with nothing to call) is
    reported, never turned into a legal one."""
    import agents.heuristic.batched as module

    batch = make("stud", 8, 2, bring_in=None)
    out = batch.reset(seed=0)
    assert not out.action_mask[:, FOLD].any()  # the opener may check: folding is not offered
    monkeypatch.setattr(module, "choose_bets", lambda legal, *_: torch.full((len(legal),), FOLD))
    with pytest.raises(RuntimeError, match="not among the legal"):
        BatchedHeuristic(batch).act(batch, torch.ones(8, dtype=torch.bool))
