"""The example bot of docs/agents.md runs as printed."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "agents.md"


def test_the_example_bot_plays_a_match(capsys) -> None:  # type: ignore[no-untyped-def]
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None, "docs/agents.md lost its example"
    namespace: dict[str, object] = {"__name__": "docs_example"}
    exec(compile(code.group(1), str(DOC), "exec"), namespace)
    result = namespace["result"]
    assert len(result.hands) == 400  # type: ignore[attr-defined]
    assert "±" in capsys.readouterr().out
