"""The generated docs match the code (regenerate with ``python tools/gen_docs.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _gen_docs():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "tools" / "gen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_variants_doc_is_up_to_date() -> None:
    expected = _gen_docs().render()
    assert (ROOT / "docs" / "variants.md").read_text() == expected, "run: python tools/gen_docs.py"


def test_every_variant_is_documented() -> None:
    from envs.registry import ENV_SPECS

    text = (ROOT / "docs" / "variants.md").read_text()
    for spec in ENV_SPECS.values():
        assert f"(`{spec.env_id}`)" in text


def test_readme_python_examples_run() -> None:
    """Every ```python block of the README runs as printed."""
    import re

    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md python block {i}", "exec"), {"__name__": "readme"})
