"""Confidence intervals, per-set results, pairwise summaries and the decision mix."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from evaluation.arena import HandRecordLite, MatchResult, mean_ci, run_match
from evaluation.cli import parse_options, parse_value
from evaluation.mix import summarize, total
from evaluation.stats import bot_mix, pair_matrix, summarize_pair, unique_names
from evaluation.student_t import t_quantile, t_upper_tail

T_975_7 = 2.364624  # Student's t, 0.975 quantile, 7 degrees of freedom (tables)
T_975_2 = 4.302653


def test_mean_ci_against_a_hand_computed_case() -> None:
    # mean 5; squared deviations 9+1+1+1+0+0+4+16 = 32; sample variance 32/7; t(0.975, 7)
    stat = mean_ci([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert stat.mean == 5.0 and stat.n == 8
    assert stat.half_width == pytest.approx(T_975_7 * math.sqrt(32 / 7) / math.sqrt(8))  # 1.7875
    assert stat.half_width == pytest.approx(1.7875, abs=1e-4)
    assert (stat.low, stat.high) == pytest.approx((5 - 1.7875, 5 + 1.7875), abs=1e-4)
    assert math.isnan(mean_ci([]).mean)
    assert mean_ci([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0], z=1.96).half_width == pytest.approx(1.4817, abs=1e-4)


@pytest.mark.parametrize(
    ("p", "df", "expected", "digits"),
    [
        (0.975, 9, 2.262157, 6),
        (0.975, 1, 12.7062, 4),
        (0.975, 29, 2.045230, 6),
        (0.975, 2, 4.302653, 6),
        (0.975, 7, 2.364624, 6),
        (0.995, 5, 4.032143, 6),
        (0.95, 3, 2.353363, 6),
        (0.975, 1000, 1.962339, 6),
        (0.975, 10**9, 1.959964, 6),
        (0.025, 9, -2.262157, 6),
        (0.5, 4, 0.0, 12),
    ],
    ids=lambda v: str(v),
)
def test_t_quantiles_match_the_tables(p: float, df: float, expected: float, digits: int) -> None:
    assert round(t_quantile(p, df), digits) == pytest.approx(expected, abs=10**-digits)


def test_t_quantiles_approach_the_normal_one() -> None:
    values = [t_quantile(0.975, df) for df in (1, 2, 5, 10, 30, 100, 10_000, 10**6)]
    assert values == sorted(values, reverse=True)
    assert values[-1] == pytest.approx(1.959964, abs=1e-5)
    assert t_upper_tail(t_quantile(0.9, 6.5), 6.5) == pytest.approx(0.1, abs=1e-12)  # fractional df too


def test_bad_t_arguments_are_named() -> None:
    with pytest.raises(ValueError, match=r"p=1\.0 is not allowed"):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="df=0 is not allowed"):
        t_quantile(0.9, 0)
    with pytest.raises(ValueError, match="confidence=95 is not allowed"):
        mean_ci([1.0, 2.0], confidence=95)


def test_small_sample_intervals_cover_95_percent() -> None:
    """Five normal samples, 4,000 times: Student's t intervals contain the true mean
    about 95% of the time; the old 1.96 intervals only about 88%."""
    rng = np.random.default_rng(0)
    draws = rng.normal(3.0, 2.0, size=(4000, 5)).tolist()
    t_stats, z_stats = [mean_ci(row) for row in draws], [mean_ci(row, z=1.96) for row in draws]
    t_cover = np.mean([s.low <= 3.0 <= s.high for s in t_stats])
    z_cover = np.mean([s.low <= 3.0 <= s.high for s in z_stats])
    assert 0.935 <= t_cover <= 0.965 and z_cover < 0.91


def test_ten_samples_widen_the_interval_by_the_t_to_z_ratio() -> None:
    samples = [0.3, -1.2, 2.5, 0.0, 1.1, -0.4, 0.9, 3.3, -2.0, 0.7]
    ratio = mean_ci(samples).half_width / mean_ci(samples, z=1.959964).half_width
    assert ratio == pytest.approx(2.262157 / 1.959964, abs=1e-6)  # 15% wider: 1.96 was 13% too narrow


def _hand(deal: int, rotation: int, lineup: list[int], rewards: list[float]) -> HandRecordLite:
    return HandRecordLite(deal, rotation, lineup, rewards)


def test_per_set_means_and_the_interval_over_sets() -> None:
    hands = [
        _hand(0, 0, [0, 1], [2.0, -2.0]),
        _hand(0, 1, [1, 0], [1.0, -1.0]),  # deal 0: bot 0 gets +2 and -1 -> +0.5 per hand
        _hand(1, 0, [0, 1], [-1.0, 1.0]),
        _hand(1, 1, [1, 0], [-2.0, 2.0]),  # deal 1: bot 0 gets -1 and +2 -> +0.5
        _hand(2, 0, [0, 1], [3.0, -3.0]),
        _hand(2, 1, [1, 0], [0.0, 0.0]),  # deal 2: +1.5
    ]
    result = MatchResult(["a", "b"], hands, sets=3, unit_name="big bets")
    np.testing.assert_allclose(result.per_set()[:, 0], [0.5, 0.5, 1.5])
    np.testing.assert_allclose(result.per_set()[:, 1], [-0.5, -0.5, -1.5])
    stat = result.result(0)  # per 100 hands: mean 83.33, sd of (50, 50, 150) = 57.74
    assert stat.mean == pytest.approx(250 / 3)
    assert stat.half_width == pytest.approx(T_975_2 * 100 * math.sqrt(1 / 3) / math.sqrt(3))
    assert result.win_rate(0) == pytest.approx(3 / 6)
    pair = summarize_pair(result, 0, 1)
    assert pair.set_win_rate == 1.0 and pair.result.mean == pytest.approx(stat.mean)
    merged = MatchResult.merge(
        [MatchResult(["a", "b"], hands[4:], 1, "big bets"), MatchResult(["a", "b"], hands[:4], 2, "big bets")]
    )
    assert [(h.deal, h.rotation) for h in merged.hands] == [(h.deal, h.rotation) for h in hands] and merged.sets == 3


def test_pair_matrix_is_antisymmetric_with_an_empty_diagonal() -> None:
    hands = [
        _hand(d, r, lu, rw)
        for d in range(4)
        for r, (lu, rw) in enumerate([([0, 1], [1.0, -1.0]), ([1, 0], [d - 1.0, 1.0 - d])])
    ]
    pair = summarize_pair(MatchResult(["a", "b"], hands, 4, "big bets"), 0, 2)
    mean, half = pair_matrix([pair], 3)
    assert mean[0, 2] == -mean[2, 0] == pytest.approx(pair.result.mean)
    assert half[0, 2] == half[2, 0] == pytest.approx(pair.result.half_width)
    assert np.isnan(mean[0, 0]) and np.isnan(mean[0, 1])


def test_unique_display_names() -> None:
    assert unique_names(["random", "random", "call"]) == ["random", "random#2", "call"]
    assert unique_names(["runs/a/agent.pt", "tests.evaluate.bots:PairRaiser"]) == ["agent.pt", "PairRaiser"]
    assert unique_names(["runs/a/agent.pt", "runs/b/agent.pt"]) == ["runs/a/agent.pt", "runs/b/agent.pt"]


@pytest.mark.parametrize(
    ("text", "value"),
    [("1", 1), ("-2", -2), ("0.5", 0.5), ("1e3", 1000.0), ("none", None), ("Null", None), ("True", True),
     ("false", False), ("no_limit", "no_limit"), ("0.5,1", (0.5, 1)), ("(0.33, 0.75)", (0.33, 0.75)),
     ("[100,200]", (100, 200)), ("()", ()), ("__import__('os')", "__import__('os')")],
)  # fmt: skip
def test_option_values_are_parsed_as_data(text: str, value: object) -> None:
    assert parse_value(text) == value and type(parse_value(text)) is type(value)


def test_bad_option_syntax_is_named() -> None:
    with pytest.raises(ValueError, match="expected key=value"):
        parse_options(["ante"])
    with pytest.raises(ValueError, match="expected key=value"):
        parse_options(["=3"])


def test_calling_station_mix() -> None:
    result = run_match("stud", ["call", "random"], deals=40, seed=3, record_decisions=True)
    call = summarize(total(h.mix[s] for h in result.hands for s, b in enumerate(h.lineup) if b == 0))
    rand = summarize(total(h.mix[s] for h in result.hands for s, b in enumerate(h.lineup) if b == 1))
    assert call["fold"] == 0 and call["aggression_freq"] == 0 and call["aggression"] == 0
    assert 0 < call["vpip"] <= 1 and 0 < call["showdown"] <= 1
    assert rand["fold"] > 0 and rand["aggression_freq"] > 0
    assert "declare_low" not in call and "stay" not in call  # nothing to declare or stay in stud


def test_folded_mix_totals_match_the_per_hand_counts() -> None:
    result = run_match("razz", ["call", "random", "random"], deals=15, seed=9, record_decisions=True)
    per_hand = [bot_mix([(result, b)]) for b in range(3)]
    result.fold_mix()
    assert all(not h.mix and not h.decisions for h in result.hands)
    assert [bot_mix([(result, b)]) for b in range(3)] == per_hand
    assert result.mix_totals[0]["hands"] == 15 * 3


def test_mix_counts_follow_the_event_log() -> None:
    result = run_match("stud", ["random", "random"], deals=10, seed=4, record_decisions=True)
    for h in result.hands:
        for seat, counter in enumerate(h.mix):
            made = Counter(name for s, name, _ in h.decisions if s == seat)
            assert counter["folds"] == made["fold"]
            assert counter["raises"] == made["raise"]
            assert counter["checks"] + counter["calls"] == made["check_call"]
            assert counter["bring_ins"] == made["bring_in"]
            assert counter["hands"] == 1


@pytest.mark.parametrize(
    ("variant", "players", "options", "keys"),
    [
        ("stud_hilo_declare", 3, {}, ("declare_low", "declare_high", "declare_both")),
        ("cowpie", 2, {}, ("split_pair", "split_top", "split_illegal")),
        ("cowboy", 3, {"match_cap": 4, "max_deals": 12}, ("stay", "draw_mean", "declare_low")),
        ("chowaha", 3, {}, ("vpip", "aggression_freq")),
    ],
    ids=["declare", "cowpie", "cowboy", "chowaha"],
)
def test_variant_specific_mix(variant: str, players: int, options: dict[str, object], keys: tuple[str, ...]) -> None:
    result = run_match(variant, ["random"] * players, deals=12, seed=2, options=options, record_decisions=True)
    rates = summarize(total(c for h in result.hands for c in h.mix))
    for key in keys:
        assert key in rates, f"{key} missing from {sorted(rates)}"
    if "declare_low" in rates:
        assert sum(rates[f"declare_{d}"] for d in ("low", "high", "both")) == pytest.approx(1.0)
    if "split_top" in rates:
        assert 2 <= rates["split_top"] <= 14 and rates["split_illegal"] == 0  # masked: never illegal
    if "draw_mean" in rates:
        assert 0 <= rates["draw_mean"] <= 4
        assert sum(v for k, v in rates.items() if k.startswith("draw_") and k != "draw_mean") == pytest.approx(1.0)
