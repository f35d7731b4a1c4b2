"""The arena: seatings, determinism across processes, and honest results."""

from __future__ import annotations

import importlib.util
import itertools
from collections import Counter

import numpy as np
import pytest

from evaluation.arena import MatchResult, lineups, run_match
from evaluation.runner import MatchSpec, chunks, play_chunk, play_matches

STRONG = "tests.evaluate.bots:PairRaiser"


def _fingerprint(result: MatchResult) -> list[tuple[object, ...]]:
    return [
        (h.deal, h.rotation, tuple(h.lineup), tuple(h.rewards), tuple(map(tuple, h.decisions))) for h in result.hands
    ]


@pytest.mark.parametrize(
    ("bots", "seats"),
    [(2, 2), (3, 3), (2, 3), (2, 4), (3, 5), (4, 6), (1, 4), (5, 7)],
    ids=lambda v: str(v),
)
def test_every_bot_sits_in_every_seat_equally_often(bots: int, seats: int) -> None:
    rows = lineups(bots, seats, duplicate=True)
    assert len({tuple(r) for r in rows}) == len(rows)  # no lineup played twice
    for seat in range(seats):
        counts = Counter(r[seat] for r in rows)
        assert sorted(counts) == list(range(bots)), f"seat {seat} misses a bot"
        assert len(set(counts.values())) == 1, f"seat {seat}: {counts}"
    per_bot = Counter(b for r in rows for b in r)
    assert len(set(per_bot.values())) == 1  # as many seat-hands for every bot


def test_permute_plays_every_ordering() -> None:
    rows = lineups(3, 3, duplicate=True, seating="permute")
    assert sorted(map(tuple, rows)) == sorted(itertools.permutations(range(3)))
    assert len(lineups(2, 3, duplicate=True, seating="permute")) == 6  # A-A-B and A-B-B orderings
    with pytest.raises(ValueError, match="over 720 lineups"):
        lineups(7, 7, duplicate=True, seating="permute")


def test_bad_lineups_are_refused() -> None:
    with pytest.raises(ValueError, match="3 bots cannot share 2 seats"):
        lineups(3, 2, duplicate=True)
    with pytest.raises(ValueError, match="seating='shuffle' is not allowed"):
        lineups(2, 2, duplicate=True, seating="shuffle")
    with pytest.raises(ValueError, match="3 bots cannot share 2 seats"):
        run_match("stud", ["random", "call", "random"], deals=1, num_players=2)


def test_duplicate_match_deals_each_deal_in_every_seating() -> None:
    result = run_match("razz", ["call", "random"], deals=5, num_players=3, seed=2)
    by_deal: dict[int, list[list[int]]] = {}
    for h in result.hands:
        by_deal.setdefault(h.deal, []).append(h.lineup)
    assert sorted(by_deal) == list(range(5))
    for rows in by_deal.values():
        assert rows == lineups(2, 3, duplicate=True)


def test_without_duplicate_each_deal_is_played_once_and_seatings_take_turns() -> None:
    result = run_match("stud", ["call", "random"], deals=6, seed=1, duplicate=False)
    assert [h.deal for h in result.hands] == list(range(6))
    assert [h.lineup for h in result.hands] == [[0, 1], [1, 0]] * 3


def test_match_is_deterministic_for_a_seed() -> None:
    a = run_match("cowpie", ["random", "call", "random"], deals=8, seed=11, record_decisions=True)
    b = run_match("cowpie", ["random", "call", "random"], deals=8, seed=11, record_decisions=True)
    c = run_match("cowpie", ["random", "call", "random"], deals=8, seed=12, record_decisions=True)
    assert _fingerprint(a) == _fingerprint(b)
    assert [h.mix for h in a.hands] == [h.mix for h in b.hands]
    assert _fingerprint(a) != _fingerprint(c)


def test_chunking_does_not_change_results() -> None:
    spec = MatchSpec("stud_hilo_declare", ("random", "call"), 3, seed=5)
    whole = play_chunk((0, spec, range(30)))[1]
    parts = [play_chunk((0, spec, r))[1] for r in (range(0, 7), range(7, 19), range(19, 30))]
    merged = MatchResult.merge(parts)
    assert _fingerprint(merged) == _fingerprint(whole)
    assert merged.mix_totals == whole.mix_totals
    assert whole.mix_totals[1]["hands"] == 30 * 9  # 6 lineups x 3 seats, half each
    assert [r.stop - r.start for r in chunks(1000, 2)][:2] == [63, 63]
    assert sum(len(r) for r in chunks(1001, 3)) == 1001


def test_worker_processes_give_the_same_result_as_one_process() -> None:
    specs = [MatchSpec("razz", ("random", STRONG), 2, seed=3), MatchSpec("cowpie", ("call", "random"), 2, seed=3)]
    single = play_matches(specs, 24, workers=1, progress=False)
    pooled = play_matches(specs, 24, workers=2, progress=False)
    for one, two in zip(single, pooled, strict=True):
        assert _fingerprint(one) == _fingerprint(two)
        assert one.mix_totals == two.mix_totals and sum(one.mix_totals[0].values()) > 0
        assert one.names == two.names


def test_two_copies_of_a_bot_come_out_even() -> None:
    """Over several seeds (not one lucky draw): the interval holds zero nearly always,
    and the two copies' results are exact opposites."""
    inside = 0
    for seed in range(8):
        result = run_match("stud", ["random", "random"], deals=60, seed=seed)
        stat = result.result(0)
        assert stat.half_width > 0  # random bots: real variance, not a trivial zero
        assert result.result(1).mean == pytest.approx(-stat.mean)
        inside += stat.low <= 0 <= stat.high
    assert inside >= 7, f"zero inside the 95% interval for only {inside} of 8 seeds"


def test_a_stronger_bot_beats_a_weaker_one_with_the_interval_above_zero() -> None:
    for seed in (6, 7):  # the margin is about 100 +- 40 big bets per 100 hands at 120 deals
        result = run_match("stud", [STRONG, "random"], deals=120, seed=seed)
        strong, weak = result.result(0), result.result(1)
        assert strong.low > 0, strong
        assert weak.high < 0, weak


@pytest.mark.skipif(
    importlib.util.find_spec("agents.heuristic") is None,
    reason="agents.heuristic is not in this tree yet (another issue writes it); runs once it is merged",
)
def test_heuristic_beats_random() -> None:
    result = run_match("stud", ["heuristic", "random"], deals=150, seed=6)
    assert result.result(0).low > 0, result.result(0)


def test_results_are_per_game_in_the_cowboy_family() -> None:
    result = run_match("cowboy", ["call", "random", "random"], deals=4, seed=1, options={"match_cap": 4})
    assert result.per == 1 and result.rate_label == "antes per game"
    per_game = np.mean(result.per_set()[:, 0])
    assert result.result(0).mean == pytest.approx(per_game)
    stud = run_match("stud", ["call", "random"], deals=3)
    assert stud.rate_label == "big bets per 100 hands"
    assert stud.result(0).mean == pytest.approx(100 * np.mean(stud.per_set()[:, 0]))
