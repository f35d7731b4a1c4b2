"""Imports run one way: engine <- variants <- env layer <- bots <- evaluation <- training
<- commands (the ``dealers-choice`` console command) <- the checkout's thin scripts.

Every import statement of every module is read from the source (module level, inside
functions and under ``TYPE_CHECKING`` alike: a lazy import is still a dependency), and
each project module may import only from its own layer or the layers below it. The
engine may use nothing but the standard library, numpy and itself. No two project
modules may import each other, directly or around a longer cycle.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("envs", "agents", "evaluation", "training", "solvers", "dealers_choice")
# (module prefix, layer name, rank): the longest matching prefix decides
LAYERS = (
    ("envs.engine", "engine", 0),
    ("envs.variants", "variants", 1),
    ("solvers", "solvers", 2),
    ("envs", "env layer", 2),
    ("agents", "bots", 3),
    ("evaluation", "evaluation", 4),
    ("training", "training", 5),
    ("dealers_choice", "commands", 6),
)
ENGINE_THIRD_PARTY = {"numpy"}


def layer_of(module: str) -> tuple[str, int] | None:
    """The layer of a project module, or None for anything else."""
    for prefix, name, rank in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return name, rank
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    return {
        module_name(p): p
        for package in PACKAGES
        if (ROOT / package).is_dir()
        for p in sorted((ROOT / package).rglob("*.py"))
    }


def _typing_only_lines(tree: ast.AST) -> set[int]:
    """Lines inside ``if TYPE_CHECKING:`` blocks (annotations only, never run)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(module: str, path: Path, *, typing_only: bool = True) -> list[tuple[str, int]]:
    """(imported module, line) for every import statement in the file (without those
    under ``if TYPE_CHECKING:`` when ``typing_only`` is False)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skip = set() if typing_only else _typing_only_lines(tree)
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            for alias in node.names:  # `from envs import variants` imports a module too
                candidate = f"{target}.{alias.name}"
                if candidate in MODULES:
                    found.append((candidate, node.lineno))
    return found


MODULES = project_modules()


def _violations() -> list[str]:
    out = []
    for module, path in MODULES.items():
        own = layer_of(module)
        assert own is not None
        for target, line in imports_of(module, path):
            top = target.split(".")[0]
            where = f"{path.relative_to(ROOT)}:{line}"
            theirs = layer_of(target)
            if theirs is None:
                allowed = top == "__future__" or top in sys.stdlib_module_names or top in ENGINE_THIRD_PARTY
                if own[0] == "engine" and not allowed:
                    out.append(f"{where}: the engine imports {target} (only stdlib and numpy are allowed)")
                continue
            if theirs[1] > own[1]:
                out.append(f"{where}: {own[0]} module {module} imports {theirs[0]} module {target} (upward)")
    return out


def test_imports_run_one_way() -> None:
    assert len(MODULES) > 40, "the scan found too few modules: is ROOT right?"
    problems = _violations()
    assert not problems, "imports against the layering:\n" + "\n".join(problems)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, _ in imports_of(module, path, typing_only=False):
            # resolve `from pkg import name` to the deepest project module it names
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != module and not module.startswith(target + "."):
                graph[module].add(target)
    return graph


def test_no_import_cycles() -> None:
    """No module imports one that (directly or not) imports it back, at run time
    (imports for type annotations only are not counted). A package's ``__init__``
    re-exporting its own submodules is not a cycle."""
    graph = _graph()
    state: dict[str, int] = {}
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = [*stack[stack.index(nxt) :], nxt]
                if not _is_package_reexport(cycle):
                    cycles.append(cycle)
            elif state.get(nxt) is None:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles[:20])


def _is_package_reexport(cycle: list[str]) -> bool:
    """A package __init__ that imports its submodule, which imports a sibling through
    the package, is how Python packages re-export; only cross-package cycles count."""
    inits = [m for m in cycle if MODULES[m].name == "__init__.py"]
    return bool(inits) and all(m == inits[0] or m.startswith(inits[0] + ".") for m in cycle)


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("envs.engine.state", "envs.variants", False),
        ("envs.variants.stud", "envs.engine.state", True),
        ("envs.gym_env", "agents.loading", False),
        ("agents.base", "envs.engine.actions", True),
        ("training.trainer", "evaluation.arena", True),
        ("evaluation.arena", "training.rollout", False),
        ("training.run", "dealers_choice.cli", False),
        ("dealers_choice.cli", "training.run", True),
    ],
)
def test_layer_rule(importer: str, imported: str, allowed: bool) -> None:
    """The rule itself: the ranks say which direction is allowed."""
    a, b = layer_of(importer), layer_of(imported)
    assert a is not None and b is not None
    assert (b[1] <= a[1]) is allowed


SCRIPTS = ("train.py", "evaluate.py", "play.py", "solve.py", "exploitability.py")


@pytest.mark.parametrize("script", SCRIPTS)
def test_root_scripts_are_thin(script: str) -> None:
    """A root script defines nothing: it imports one library entry point and calls it,
    so ``python train.py`` and ``dealers-choice train`` cannot drift apart, and no
    library module imports a script (the scripts are not installed)."""
    tree = ast.parse((ROOT / script).read_text(encoding="utf-8"))
    defined = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)]
    assert not defined, f"{script} defines {[n.name for n in defined]}: move them into the library"
    targets = {t for t, _ in imports_of(script.removesuffix(".py"), ROOT / script)}
    project = {t for t in targets if layer_of(t) is not None}
    assert project and all(layer_of(t)[0] in ("evaluation", "training") for t in project), project  # type: ignore[index]


def test_no_module_imports_a_root_script() -> None:
    names = {s.removesuffix(".py") for s in (*SCRIPTS, "approx_exploitability.py")}
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {target}"
        for module, path in MODULES.items()
        for target, line in imports_of(module, path)
        if target.split(".")[0] in names
    ]
    assert not found, found


def test_the_commands_layer_is_on_top() -> None:
    """Nothing below the command layer imports it (the check the ranks make, named)."""
    assert layer_of("dealers_choice.cli") == ("commands", 6)
    assert any(m.startswith("dealers_choice.") for m in MODULES), "the scan misses the command layer"
