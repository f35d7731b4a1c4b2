"""Local best response on toy stud: never above the exact best response, Bayes ranges
that follow the opponent's policy, the one-step rule, and exact equities."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from solvers.cfr import CFRSolver
from solvers.exploit import best_response_values, policy_values
from solvers.infosets import InfoSets
from solvers.policy import TabularPolicy
from solvers.toy import CHECK_CALL, FOLD, RAISE, ToyParams, hand_key
from solvers.tree import PublicTree
from training import lbr

SMALL = ToyParams(ranks="QKA", suits="cd")  # 6 cards, 22,320 information sets


@pytest.fixture(scope="module")
def infosets() -> InfoSets:
    return InfoSets(PublicTree(SMALL))


def random_policy(infosets: InfoSets, seed: int) -> TabularPolicy:
    legal = infosets.legal_mask()
    rng = np.random.default_rng(seed)
    table = rng.dirichlet(np.ones(4) * 0.5, size=infosets.count) * legal
    return TabularPolicy(SMALL, table / table.sum(axis=1, keepdims=True), infosets=infosets)


def fixed_policy(infosets: InfoSets, weights: list[float]) -> TabularPolicy:
    """The same preference over the legal actions everywhere (fold, call, -, raise)."""
    table = infosets.legal_mask() * np.array(weights)
    table[table.sum(axis=1) == 0] = infosets.legal_mask()[table.sum(axis=1) == 0]
    return TabularPolicy(SMALL, table / table.sum(axis=1, keepdims=True), infosets=infosets)


def cfr_policy(infosets: InfoSets) -> TabularPolicy:
    solver = CFRSolver(SMALL)
    solver.iterate(60)
    return TabularPolicy(SMALL, solver.average_policy().table, infosets=infosets)


POLICIES = {
    "uniform": lambda s: TabularPolicy.uniform(SMALL, infosets=s),
    "random-1": lambda s: random_policy(s, 1),
    "random-2": lambda s: random_policy(s, 2),
    "calling-station": lambda s: fixed_policy(s, [0, 1, 0, 0]),
    "maniac": lambda s: fixed_policy(s, [0, 0, 0, 1]),
    "cfr": cfr_policy,
}


@pytest.mark.parametrize("name", POLICIES)
def test_lbr_is_never_above_the_exact_best_response(name: str, infosets: InfoSets) -> None:
    opponent = POLICIES[name](infosets)
    tree = infosets.tree
    br = best_response_values(tree, opponent.source())
    local = lbr.LocalBestResponse(opponent)
    for seat in (0, 1):
        value = policy_values(tree, local.strategy(seat).source())[seat]
        assert value <= br[seat] + 1e-9, (name, seat, value, br[seat])
        own = policy_values(tree, opponent.source())[seat]
        if name in ("uniform", "calling-station", "maniac"):  # exploitable: LBR must win from them
            assert value > max(own, 0.0) + 0.1, (name, seat, value, own)


def test_the_report_against_the_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped heuristic, tabulated as exploitability.py does: LBR below the exact BR."""
    report = lbr.main(["toy_stud", "heuristic", "--option", "ranks=QKA", "--option", "suits=cd", "-q"])
    for seat in (0, 1):
        assert report["lbr_values"][seat] <= report["br_values"][seat] + 1e-9
    assert 0 < report["lbr"] <= report["exploitability"]


def test_the_range_follows_the_opponents_actions(infosets: InfoSets) -> None:
    """An opponent that bets with probability rising with its down card's rank: after it
    bets, LBR's range is the prior times that probability, renormalised (Bayes)."""
    legal = infosets.legal_mask()
    batch = infosets.batch(0, infosets.count)
    bet_p = {10: 0.1, 11: 0.5, 12: 0.9}  # engine ranks Q, K, A
    p = np.array([bet_p[int(d) // 4] for d in batch.down])
    table = legal * 0.0
    table[:, RAISE] = np.where(legal[:, RAISE], p, 0.0)
    table[:, CHECK_CALL] = 1.0 - table[:, RAISE]
    table[:, FOLD] = 0.0
    opponent = TabularPolicy(SMALL, table, infosets=infosets)
    local = lbr.LocalBestResponse(opponent)
    checked = 0
    for row in range(infosets.count):
        n = int(batch.num_actions[row])
        seat = int(batch.seat[row])
        if n != 1 or int(batch.action_seat[row, 0]) == seat or int(batch.action[row, 0]) != RAISE:
            continue
        cards, weights = local.range_of(row)
        prior = np.array([bet_p[c // 4] for c in cards])
        np.testing.assert_allclose(weights, prior / prior.sum())
        seen = {int(batch.down[row]), int(batch.own_up[row, 0]), int(batch.opp_up[row, 0])}
        assert set(cards) == set(SMALL.engine_cards().tolist()) - seen
        checked += 1
    assert checked > 100


def test_against_a_calling_station_lbr_raises_exactly_with_the_better_hand(infosets: InfoSets) -> None:
    """A calling station never folds: raising beats calling by r * (2 * equity - 1)."""
    local = lbr.LocalBestResponse(fixed_policy(infosets, [0, 1, 0, 0]))
    rows = np.flatnonzero(infosets.legal_mask()[:, RAISE])[::97]
    for row in rows:
        cards, weights = local.range_of(int(row))
        wp = float(weights @ local.equities(int(row), cards))
        if abs(wp - 0.5) > 1e-9:
            assert (local.action(int(row)) == RAISE) == (wp > 0.5), row


def test_equity_enumerates_the_remaining_cards() -> None:
    deck = tuple(int(c) for c in SMALL.engine_cards())  # Qc Qd Kc Kd Ac Ad
    qc, qd, kc, kd, ac, ad = deck
    assert lbr._equity(deck, (ac, ad, qc), (kc, kd, qd), 2) == 1.0  # aces up beat kings, nothing to come
    assert lbr._equity(deck, (qc, kc, ac), (qd, kd, ad), 2) == 0.5  # same ranks: a split
    # one round to come: A-A against K-K with Q-Q left: the kings never catch up (one card each)
    assert lbr._equity(deck, (ac, ad), (kc, kd), 2) == 1.0
    mine, theirs = (ac, kc), (qc, kd)
    rest = [x for x in deck if x not in (*mine, *theirs)]
    wins = []
    for x in rest:
        for y in rest:
            if x != y:
                a = hand_key([c // 4 for c in (*mine, x)])
                b = hand_key([c // 4 for c in (*theirs, y)])
                wins.append(1.0 if a > b else 0.5 if a == b else 0.0)
    assert lbr._equity(deck, mine, theirs, 2) == pytest.approx(np.mean(wins))
    assert lbr._equity(deck, mine, theirs, 2) + lbr._equity(deck, theirs, mine, 2) == pytest.approx(1.0)


def test_help_and_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        lbr.main(["stud", "uniform"])  # the stud games go to training.lbr_stud, which plays bots
    assert info.value.code == 2 and "the bot uniform over the legal actions is 'random'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        lbr.main(["chowaha", "uniform"])
    assert info.value.code == 2 and "LBR has no form for 'chowaha'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        lbr.main(["--help"])
    assert info.value.code == 0 and "Lisý and Bowling" in capsys.readouterr().out


def test_a_saved_table_gives_the_same_figures(tmp_path: Path) -> None:
    small = ["--option", "ranks=QKA", "--option", "suits=cd", "-q"]
    first = lbr.main(["toy_stud", "uniform", *small, "--save-table", str(tmp_path / "uniform.npz")])
    again = lbr.main(["toy_stud", str(tmp_path / "uniform.npz"), *small])
    assert again["lbr_values"] == pytest.approx(first["lbr_values"], abs=1e-6)  # float32 in the file
    assert again["nash_conv"] == pytest.approx(first["nash_conv"], abs=1e-6)
