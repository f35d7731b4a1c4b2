"""Fixtures of the web tests: a folder of hand histories and a report, a server on a
free loopback port, and a small JSON client.

Browser tests (marker ``browser``) run only when asked for (``-m browser``): they
need Debian's chromium and chromium-driver and selenium, and take longer than the
default run allows.
"""

from __future__ import annotations

import contextlib
import io
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from envs.engine.history import HandRecord
from envs.engine.state import State
from envs.phh import to_phh
from envs.registry import ENV_SPECS
from envs.variants import get_variant, make_game
from evaluation.web.server import Server, make_server, start_in_thread

CHEAP_OPTIONS = {"cowboy": {"match_cap": 4}, "cowgirl": {"match_cap": 4}, "cowpattie": {"match_cap": 4}}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: drives headless Chromium against the server (run with -m browser)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if "browser" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="a browser test: run with -m browser")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def played_state(variant: str, seed: int, players: int | None = None) -> State:
    """A hand played to the end with seeded actions that rarely fold (so hands reach
    splits, declarations, draws and showdowns)."""
    low, high = get_variant(ENV_SPECS[variant].variant).seats
    n = players or min(high, max(3, low))
    game = make_game(ENV_SPECS[variant].variant, n, **CHEAP_OPTIONS.get(variant, {}))
    state = game.new_state(seed, button=0)
    rng = np.random.default_rng(seed)
    while not state.is_over:
        legal = state.legal_actions()
        # no folding, except in the Cowboy family, where a game of players who always stay never ends
        keep = [a for a in legal if state.action_name(a) != "fold" or variant in CHEAP_OPTIONS] or legal
        state.apply(int(rng.choice(keep)))
    return state


@pytest.fixture(scope="session")
def web_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every variant's record, a PHH file, and an evaluate.py tournament folder."""
    import evaluate

    root = tmp_path_factory.mktemp("web_root")
    for variant in ENV_SPECS:
        (root / f"{variant}.json").write_text(HandRecord.of(played_state(variant, 11)).to_json())
    (root / "stud.phh").write_text(to_phh(HandRecord.of(played_state("stud", 12))))
    out = root / "eval_stud"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        args = ["stud", "call", "random", "heuristic", "--tournament", "--deals", "4", "--seed", "3"]
        evaluate.main([*args, "--histories", "json", "--out", str(out), "--workers", "1"])
    (root / "not_a_report").mkdir()
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.json").write_text('{"secret": 1}')
    with contextlib.suppress(OSError):
        (root / "link_out").symlink_to(outside)
    return root


@pytest.fixture(scope="session")
def server(web_root: Path) -> Iterator[Server]:
    srv = make_server([web_root], port=0, max_upload=2 * 2**20)
    start_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


class Client:
    """JSON requests to the test server: ``(status, parsed body)``."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def raw(self, method: str, path: str, data: bytes | None = None, content_type: str = "application/json") -> Any:
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as err:
            return err.code, err.headers, err.read()

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        if method == "POST" and data is None:
            data = b"{}"
        status, _, payload = self.raw(method, "/api/" + path, data)
        return status, json.loads(payload)

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, data = self.call(method, path, body)
        assert status == 200, data
        return data


@pytest.fixture(scope="session")
def client(server: Server) -> Client:
    return Client(server.url)


def tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``root`` with its size and modification time (nothing written?)."""
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*") if p.is_file()}
