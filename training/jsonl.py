"""Result rows as JSON lines: the sweep's and approx-curve's ``results.jsonl``, where a
row is appended as soon as it is measured, so a command cut short keeps what it has
and a rerun skips it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``results.jsonl`` (none if it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def append_row(path: Path, row: dict[str, Any]) -> None:
    """One row more, written at once."""
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
