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


def _docstring_modules() -> list[tuple[str, list[str]]]:
    """(module, the variants its docstring speaks for): env modules and family modules."""
    from envs.registry import ENV_SPECS
    from envs.variants import VARIANTS

    modules = [(f"envs.{spec.env_id}", [spec.variant]) for spec in ENV_SPECS.values()]
    families: dict[str, list[str]] = {}
    for variant in VARIANTS.values():
        families.setdefault(variant.family, []).append(variant.name)
    return modules + [(f"envs.variants.{family}", names) for family, names in families.items()]


def test_player_ranges_stated_in_docstrings_match_the_code() -> None:
    """Wherever a docstring says "two to eight players" or "``hole_cards=4``: up to 10",
    the variant objects agree (Variant.seats; Chowaha's player check per option)."""
    import importlib
    import re

    from envs.variants import get_variant

    gen = _gen_docs()
    words = "|".join(NUMBER_WORDS)
    checked = 0
    for module_name, names in _docstring_modules():
        doc = " ".join((importlib.import_module(module_name).__doc__ or "").split())
        for low, high in re.findall(rf"\b({words}) to ({words}) players", doc, re.IGNORECASE):
            low, high = low.lower(), high.lower()
            for name in names:
                assert (NUMBER_WORDS[low], NUMBER_WORDS[high]) == get_variant(name).seats, (module_name, low, high)
                checked += 1
        for option, value, most in re.findall(r"``(\w+)=(\w+)``: up to (\d+)", doc):
            for name in names:
                assert gen.most_players(get_variant(name), {option: int(value)}) == int(most), (module_name, option)
                checked += 1
        for low, high in re.findall(r"``remaining_as_hole``:? (\d+) to (\d+)", doc):
            chowaha = get_variant("chowaha")
            assert (int(low), gen.most_players(chowaha, {"remaining_as_hole": True})) == (2, int(high))
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
