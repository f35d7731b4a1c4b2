"""docs/batched.md's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "batched.md"


def test_the_example_runs(capsys) -> None:  # type: ignore[no-untyped-def]
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None
    source = code.group(1).replace("num_tables=1024", "num_tables=8").replace("range(60)", "range(20)")
    exec(compile(source, str(DOC), "exec"), {})
    done, total = capsys.readouterr().out.split()
    assert float(total) == 0.0 and int(done) >= 0
