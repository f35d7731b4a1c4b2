"""Evaluation tables: the rank weights' uniqueness, and the disk cache's integrity."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from envs.engine.hands import tables


@pytest.mark.parametrize("k", [5, 6, 7])
def test_rank_weights_give_unique_sums(k: int) -> None:
    """Every k-card rank multiset (at most four of a rank) has its own weight sum."""
    hands = np.array(list(itertools.combinations_with_replacement(range(13), k)))
    counts = (hands[:, :, None] == np.arange(13)).sum(axis=1)
    hands = hands[counts.max(axis=1) <= 4]
    sums = np.asarray(tables.RANK_WEIGHTS[k])[hands].sum(axis=1)
    assert np.unique(sums).size == len(hands)
    assert sums.max() < 2**tables.SUIT_SHIFT


def test_suit_counters_identify_the_flush_suit() -> None:
    table = tables._flush_suit_table()
    for counts in itertools.product(range(8), repeat=4):
        if sum(counts) > 7:
            continue
        part = sum(c << (tables.SUIT_BITS * s) for s, c in enumerate(counts))
        expected = next((s for s, c in enumerate(counts) if c >= 5), -1)
        assert table[part] == expected


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DEALERS_CHOICE_CACHE_DIR", str(tmp_path))
    return tmp_path


def _same(a: tables.Tables, b: tables.Tables) -> bool:
    fa, fb = tables._flatten(a), tables._flatten(b)
    return fa.keys() == fb.keys() and all(np.array_equal(fa[k], fb[k]) for k in fa)


def test_cache_round_trip(cache_dir: Path) -> None:
    built = tables.load_tables()
    assert tables.cache_path().parent == cache_dir and tables.cache_path().exists()
    assert _same(tables.load_tables(), built)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_corrupt_cache_is_rebuilt(cache_dir: Path, damage: str) -> None:
    good = tables.load_tables()
    path = tables.cache_path()
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[len(data) // 2] ^= 0xFF
    elif damage == "garbage":
        data = bytearray(b"not a numpy file" * 100)
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert tables._load(path) is None  # detected, never trusted
    assert _same(tables.load_tables(), good)  # rebuilt
    assert tables._load(path) is not None  # and re-cached


def test_unwritable_cache_still_gives_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    monkeypatch.setenv("DEALERS_CHOICE_CACHE_DIR", str(blocker / "sub"))
    with pytest.warns(UserWarning, match="could not cache"):
        built = tables.load_tables()
    assert built.high[7].size > 0


def test_cache_name_has_format_and_content_hash(cache_dir: Path) -> None:
    """The cache file is named by the table format and a digest of the code that builds
    the tables (the engine names no package version: it imports nothing outside itself)."""
    name = tables.cache_path().name
    assert f"-f{tables.TABLE_FORMAT}-" in name and name.endswith(".npz") and len(name.split("-")[-1]) > 8
