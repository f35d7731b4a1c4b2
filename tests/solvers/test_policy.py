"""Tabular policies: checks, the .npz round trip, and refusing another game's file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from solvers.cfr import CFRSolver
from solvers.exploit import exploitability
from solvers.infosets import InfoSets
from solvers.policy import FORMAT, TabularPolicy, tabulate
from solvers.toy import NUM_ACTIONS, ToyParams
from solvers.tree import PublicTree

PARAMS = ToyParams(ranks="QKA", suits="cd", streets=1)


@pytest.fixture(scope="module")
def infosets() -> InfoSets:
    return InfoSets(PublicTree(PARAMS))


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    solver = CFRSolver(PARAMS)
    solver.iterate(30)
    policy = solver.average_policy()
    path = policy.save(tmp_path / "p.npz", iterations=30)
    loaded = TabularPolicy.load(path, PARAMS)
    assert loaded.params == PARAMS
    assert np.allclose(loaded.table, policy.table, atol=1e-6)
    tree = PublicTree(PARAMS)
    assert exploitability(loaded, tree).nash_conv == pytest.approx(exploitability(policy, tree).nash_conv, abs=1e-5)
    with np.load(path) as data:
        header = json.loads(str(data["header"]))
    assert header["format"] == FORMAT and header["metadata"] == {"iterations": 30}


def test_a_file_for_other_options_is_refused(tmp_path: Path) -> None:
    path = TabularPolicy.uniform(PARAMS).save(tmp_path / "p.npz")
    with pytest.raises(ValueError, match=r"saved for toy_stud ranks='QKA' \(asked: 'JQKA'\)"):
        TabularPolicy.load(path, ToyParams(ranks="JQKA", suits="cd", streets=1))


def test_files_that_are_not_policies_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        TabularPolicy.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not a toy_stud policy file"):
        TabularPolicy.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", header=np.array(json.dumps({"format": "something/else"})), table=np.zeros(3))
    with pytest.raises(ValueError, match="has format 'something/else'"):
        TabularPolicy.load(tmp_path / "other.npz")


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda t: t[:-1], "has shape"),
        (lambda t: np.where(np.arange(len(t))[:, None] == 3, np.array([0.5, 0.5, 0.0, 0.0]), t), "illegal action"),
        (lambda t: t * 2.0, "does not sum to 1"),
        (lambda t: np.where(np.arange(len(t))[:, None] == 0, -t, t), "negative or non-finite"),
        (lambda t: np.where(np.arange(len(t))[:, None] == 0, np.nan, t), "negative or non-finite"),
    ],
    ids=["shape", "illegal", "sum", "negative", "nan"],
)
def test_bad_tables_are_refused_with_the_row(infosets: InfoSets, corrupt, message: str) -> None:  # type: ignore[no-untyped-def]
    good = TabularPolicy.uniform(PARAMS, infosets=infosets).table
    with pytest.raises(ValueError, match=message):
        TabularPolicy(PARAMS, corrupt(good), infosets=infosets)


def test_row_three_is_a_bet_or_check_node(infosets: InfoSets) -> None:
    """The illegal-action case above relies on row 3 offering no fold."""
    assert not infosets.legal_mask()[3, 0]


def test_small_rounding_is_renormalised(infosets: InfoSets) -> None:
    table = TabularPolicy.uniform(PARAMS, infosets=infosets).table * (1 + 1e-6)
    assert np.allclose(TabularPolicy(PARAMS, table, infosets=infosets).table.sum(axis=1), 1.0, atol=1e-12)


def test_a_callable_with_the_wrong_shape_is_an_error(infosets: InfoSets) -> None:
    with pytest.raises(ValueError, match=r"policy answered shape \(\d+, 3\)"):
        tabulate(infosets, lambda batch: np.ones((len(batch), 3)) / 3)


def test_batches_cover_every_row_once(infosets: InfoSets) -> None:
    seen = []
    tabulate(infosets, lambda b: seen.append(b.index.copy()) or b.legal / b.legal.sum(1, keepdims=True), batch_size=37)
    assert np.array_equal(np.concatenate(seen), np.arange(infosets.count))
    assert infosets.batch(5, 5).legal.shape == (0, NUM_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        infosets.batch(0, infosets.count + 1)
