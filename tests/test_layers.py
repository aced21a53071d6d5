"""The arrows of DESIGN.md hold: each layer imports only what lies below it,
and no module of games/ imports itself round a circle. Read from the source
(every import statement, at the top or inside a function), not from what
happens to be loaded."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent.parent / "games"
MAX_LINES = 400


def _module_name(path: Path) -> str:
    parts = path.relative_to(GAMES.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _module_name(path): path
        for path in GAMES.rglob("*.py")
        if "migrations" not in path.parts
    }


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """Every module ``name`` imports, resolved to the module (not the names in it)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                # "from games import engine" imports the module games.engine.
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in MODULES else base)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _in(module: str, *prefixes: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _ours(imports: set[str]) -> set[str]:
    return {m for m in imports if _in(m, "games")}


def test_the_engine_imports_only_the_standard_library_and_itself():
    for name, imports in GRAPH.items():
        if not _in(name, "games.engine"):
            continue
        for module in imports:
            top = module.split(".")[0]
            assert _in(module, "games.engine") or top in sys.stdlib_module_names or top == "__future__", (
                f"{name} imports {module}"
            )


@pytest.mark.parametrize(
    "layer, forbidden",
    [
        ("games.services", ("games.web", "games.selectors", "games.tasks", "games.urls", "games.receivers")),
        ("games.selectors", ("games.web", "games.tasks", "games.urls")),
        ("games.board", ("games.models", "games.services", "games.selectors", "games.web", "games.mail")),
        ("games.mail", ("games.models", "games.services", "games.selectors", "games.web")),
        ("games.players", ("games.models", "games.services", "games.selectors", "games.web", "games.tasks", "django")),
        ("games.narrate", ("games.models", "games.services", "games.selectors", "games.web", "games.board")),
        ("games.web", ("games.engine", "games.models", "games.tasks", "django.db")),
        ("games.tasks", ("games.engine", "games.models", "games.selectors", "games.web", "django.db")),
    ],
)
def test_a_layer_imports_nothing_above_it_or_beside_its_rules(layer, forbidden):
    for name, imports in GRAPH.items():
        if not _in(name, layer):
            continue
        wrong = sorted(m for m in imports if _in(m, *forbidden))
        assert not wrong, f"{name} imports {wrong}"


def test_selectors_use_only_the_services_read_helpers():
    allowed = ("games.services.links", "games.services.timing", "games.services.seats")
    for name, imports in GRAPH.items():
        if _in(name, "games.selectors"):
            wrong = sorted(m for m in imports if _in(m, "games.services") and not _in(m, *allowed))
            assert not wrong, f"{name} imports {wrong}"


def test_no_module_of_games_imports_itself_round_a_circle():
    edges = {name: {m for m in _ours(imports) if m in MODULES and m != name} for name, imports in GRAPH.items()}
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                circle = path[path.index(target):] + [target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target)
        path.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)


def test_no_module_of_games_is_longer_than_a_newcomer_reads_at_once():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, long


def test_the_layer_test_sees_the_modules_it_guards():
    # A broken walk would make every rule above pass vacuously.
    assert {"games.engine.rules", "games.services.decisions", "games.web.seat", "games.tasks"} <= set(MODULES)
    assert "games.services.decisions" in GRAPH["games.web.seat"]
