"""What a regular install gets: every package the code imports, the data it reads, one
console command, and no root script installed as a top-level module.

The listing checks read pyproject.toml and the source (fast); ``test_the_wheel`` builds
the wheel itself (a few seconds, without build isolation) and reads what is inside.
``tools/check_wheel.py`` (run by CI) goes further: it installs that wheel into a fresh
virtual environment and runs the commands from a folder outside the checkout.
"""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
LISTED = set(SETUPTOOLS["packages"])
MAPPED = SETUPTOOLS.get("package-dir", {})  # package -> folder, for packages not at their dotted path
TOP = sorted({p.split(".")[0] for p in LISTED})
SCRIPTS = ("train", "evaluate", "play", "solve", "exploitability", "approx_exploitability")


def tree_packages() -> set[str]:
    """Every folder of a top-level package holding Python files (the package itself)."""
    found = set()
    for top in TOP:
        for init in (ROOT / top).rglob("*.py"):
            parts = init.parent.relative_to(ROOT).parts
            if "__pycache__" not in parts:
                found.add(".".join(parts))
    return found


def imported_names() -> set[str]:
    """Every module named by an absolute import statement anywhere in the shipped code."""
    names = set()
    for top in TOP:
        for path in (ROOT / top).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names |= {a.name for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module)
    return names


def imported_modules() -> set[str]:
    """Every project module named by an import statement anywhere in the shipped code."""
    return {n for n in imported_names() if n.split(".")[0] in TOP}


def test_shipped_code_imports_nothing_that_stays_in_the_checkout() -> None:
    """tests/, tools/, benchmarks/, examples/ and the root scripts are not installed."""
    local = {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")} - set(TOP)
    local |= {p.stem for p in ROOT.glob("*.py")}
    found = sorted(n for n in imported_names() if n.split(".")[0] in local)
    assert not found, f"shipped modules import checkout-only code: {found}"


def unshipped(modules: set[str], listed: set[str]) -> list[str]:
    """Modules whose package is not listed (a module ``a.b.c`` needs ``a.b.c`` or ``a.b``)."""
    return sorted(m for m in modules if m not in listed and m.rpartition(".")[0] not in listed)


DATA_PACKAGES = ("agents.pretrained", "evaluation.web.static")
"""Listed packages with no Python in them: the shipped agents and the web page's files."""


def test_every_package_of_the_tree_is_listed() -> None:
    missing = sorted(tree_packages() - LISTED)
    assert not missing, f"add to [tool.setuptools] packages in pyproject.toml: {missing}"
    stale = sorted(p for p in LISTED - tree_packages() if p not in MAPPED and p not in DATA_PACKAGES)
    assert not stale, f"listed but not in the tree: {stale}"


def test_every_imported_module_is_shipped() -> None:
    modules = imported_modules()
    assert "envs.engine.state" in modules and "evaluation.arena" in modules  # the scan works
    assert not unshipped(modules, LISTED)


def test_the_check_can_fail() -> None:
    """A package dropped from the listing is caught, by the tree check and the import check."""
    listed = LISTED - {"evaluation"}
    assert "evaluation" in tree_packages() - listed
    assert any(m.startswith("evaluation") for m in unshipped(imported_modules(), listed))


def test_no_root_script_is_installed_as_a_module() -> None:
    assert "py-modules" not in SETUPTOOLS
    assert not set(SCRIPTS) & LISTED
    assert PYPROJECT["project"]["scripts"] == {"dealers-choice": "dealers_choice.cli:main"}


def test_shipped_data_globs_match_files() -> None:
    """Each package-data glob finds files where that package's files live."""
    for package, globs in SETUPTOOLS["package-data"].items():
        folder = ROOT / MAPPED.get(package, package.replace(".", "/"))
        for pattern in globs:
            assert list(folder.glob(pattern)), f"{package}: {pattern} matches nothing in {folder}"


def _build_wheel(out: Path) -> Path:
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return next(out.glob("dealers_choice-*.whl"))


@pytest.mark.skipif(importlib.util.find_spec("setuptools") is None, reason="needs setuptools (the dev extra)")
def test_the_wheel(tmp_path: Path) -> None:
    """The built wheel holds every module of every listed package, the shipped agents and
    configs, the web page's files, the console command, and nothing named after a script."""
    wheel = zipfile.ZipFile(_build_wheel(tmp_path))
    names = set(wheel.namelist())
    for package in LISTED - set(MAPPED):
        for path in (ROOT / package.replace(".", "/")).glob("*.py"):
            assert path.relative_to(ROOT).as_posix() in names, f"{path.relative_to(ROOT)} is not in the wheel"
    for config in (ROOT / "configs").glob("*.toml"):
        assert f"training/configs/{config.name}" in names
    for agent in (ROOT / "agents" / "pretrained").glob("*.pt"):
        assert f"agents/pretrained/{agent.name}" in names
    for page in (ROOT / "evaluation" / "web" / "static").iterdir():  # the web page's files
        assert f"evaluation/web/static/{page.name}" in names, f"{page.name} is not in the wheel"
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == set(TOP), tops
    assert not {f"{s}.py" for s in SCRIPTS} & names
    entry = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = wheel.read(entry).decode()
    assert "dealers-choice = dealers_choice.cli:main" in text
