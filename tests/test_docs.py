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


def test_gymnasium_ids_table_is_up_to_date() -> None:
    """docs/gymnasium.md's table of ids and player counts is generated from the variants."""
    text = (ROOT / "docs" / "gymnasium.md").read_text()
    assert _gen_docs().update_gymnasium(text) == text, "run: python tools/gen_docs.py"
    assert "| `DealersChoice/Chowaha-v0` | Chowaha | 2-20 (`hole_cards=4`: up to 10) |" in text


NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "ten": 10, "twenty": 20}


def _stated_texts() -> list[tuple[str, str, list[str]]]:
    """(where, text, the variants it speaks for): each variant's rules and generated
    module docstring, and each family package's docstring."""
    import importlib

    from envs.variants import VARIANTS

    texts = []
    families: dict[str, list[str]] = {}
    for variant in VARIANTS.values():
        texts.append((f"{variant.name}.rules", variant.rules, [variant.name]))
        module = importlib.import_module(f"envs.{variant.env_id}")
        texts.append((module.__name__, module.__doc__ or "", [variant.name]))
        families.setdefault(variant.family, []).append(variant.name)
    for family, names in families.items():
        for module_name in (f"envs.variants.{family}", f"envs.variants.{family}.rules"):
            texts.append((module_name, importlib.import_module(module_name).__doc__ or "", names))
    return texts


def test_player_ranges_stated_in_docstrings_match_the_code() -> None:
    """Wherever the rules or a docstring say "two to eight players" or "``hole_cards=4``:
    up to 10", the variant objects agree (Variant.seats; Chowaha's player check per
    option)."""
    import re

    from envs.variants import get_variant

    words = "|".join(NUMBER_WORDS)
    checked = 0
    for where, text, names in _stated_texts():
        doc = " ".join(text.split())
        for low, high in re.findall(rf"\b({words}) to ({words}) players", doc, re.IGNORECASE):
            low, high = low.lower(), high.lower()
            for name in names:
                assert (NUMBER_WORDS[low], NUMBER_WORDS[high]) == get_variant(name).seats, (where, low, high)
                checked += 1
        for option, value, most in re.findall(r"``(\w+)=(\w+)``: up to (\d+)", doc):
            for name in names:
                assert get_variant(name).most_players(**{option: int(value)}) == int(most), (where, option)
                checked += 1
        for low, high in re.findall(r"``remaining_as_hole``:? (\d+) to (\d+)", doc):
            chowaha = get_variant("chowaha")
            assert (int(low), chowaha.most_players(remaining_as_hole=True)) == (2, int(high))
            checked += 1
    assert checked >= 12


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
