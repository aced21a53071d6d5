"""Layers as an allowlist: every module of games/ and versailles_site/ sits in
exactly one layer of LAYERS, and imports only its own layer, the layers its
row names, the packages its row names and the standard library.

Read from the source, not from what happens to be loaded: every import
statement, at the top or inside a function. An import under
``if TYPE_CHECKING:`` never runs; it is held to its layer's row all the same
(a layer has no business naming the type of what it may not use), but it is
left out of the circles. Imports by string (settings, ``include()``,
Celery's task names) are not imports here."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TREES = ("games", "versailles_site")
MAX_LINES = 400


@dataclass(frozen=True)
class Layer:
    # "a.b" is that module; "a.b.**" is a.b and every module below it, so
    # "games.models.**" holds games/models.py and a games/models/ package alike.
    modules: tuple[str, ...]
    # The layers it may import besides itself.
    layers: tuple[str, ...] = ()
    # Anything else it may import, with everything below it: a third-party
    # package, module or name ("django.db.close_old_connections" is that one
    # name), or single modules of a layer it may not import as a whole.
    packages: tuple[str, ...] = ()


# From the bottom up. django.db is for the layers that hold the database
# (models, services, selectors, migrations) and no other: drawing, words and
# mail take plain values, and web, tasks and commands go through services
# and selectors.
LAYERS: dict[str, Layer] = {
    # The rules (docs/rules-notes.md) as pure functions. games/__init__.py runs before
    # any module of games/ does, the engine's included, so it keeps the
    # engine's rule: importing the engine loads no Django.
    "engine": Layer(modules=("games", "games.engine.**")),
    # Computer players: what a seat may see in, an action out.
    "players": Layer(
        modules=("games.players.**",),
        layers=("engine",),
    ),
    # The seed and the chance outcomes it gives.
    "randomness": Layer(modules=("games.randomness",), layers=("engine",)),
    # History sentences and reply words, in the reader's language.
    "words": Layer(
        modules=("games.narrate", "games.notation_words"),
        layers=("engine",),
        packages=("django.utils",),
    ),
    # The board as SVG, PNG and text, and the rules page's pictures.
    "drawing": Layer(
        modules=("games.board.**",),
        layers=("engine", "words"),
        packages=("django.utils", "PIL"),
    ),
    # An email from a template and plain values; decision titles; reading a
    # reply's text; the dev mailbox.
    "mail": Layer(
        modules=("games.mail.**",),
        layers=("engine", "words", "drawing"),
        packages=("django.conf", "django.core.mail", "django.template", "django.utils"),
    ),
    # Settings and how the processes start; nothing of the game.
    "config": Layer(
        modules=(
            "versailles_site.settings",
            "versailles_site.api_settings",
            "versailles_site.env",
            "versailles_site.broker",
            "versailles_site.gunicorn_conf",
            "versailles_site.gunicorn_logging",
            "versailles_site.release",
            "games.log_filters",
        ),
        packages=("django.core.exceptions", "django.utils.translation", "kombu", "gunicorn"),
    ),
    # The Celery app, loaded with Django. It closes stale database
    # connections around a task, as Django's request handler does around a
    # request, and queries nothing: that one name of django.db.
    "celery_app": Layer(
        modules=("versailles_site", "versailles_site.celery"),
        layers=("config",),
        packages=("celery", "kombu", "django.db.close_old_connections"),
    ),
    "models": Layer(
        modules=("games.models.**",),
        packages=("django.db", "django.conf", "django.utils"),
    ),
    # Every write, and handing work to Celery after commit.
    "services": Layer(
        modules=("games.services.**",),
        layers=("engine", "players", "randomness", "words", "drawing", "mail", "models", "celery_app"),
        packages=(
            "django.db",
            "django.conf",
            "django.contrib.auth",
            "django.core.exceptions",
            "django.core.mail",
            "django.core.serializers",
            "django.core.validators",
            "django.core.cache",  # the rate limits' counters (services.limits)
            "django_redis",  # the rate limits' counters in one round trip
            "django.urls",
            "django.utils",
            "anymail",
            "django_stubs_ext",  # types only (StrOrPromise), under TYPE_CHECKING
        ),
    ),
    # Every read pages need, with the services' read helpers and no write.
    "selectors": Layer(
        modules=("games.selectors.**",),
        layers=("engine", "randomness", "words", "drawing", "models"),
        packages=(
            "asgiref.sync.sync_to_async",  # the waits' reads, off the event loop (selectors.waits)
            "games.services.links",
            "games.services.seats",
            "games.services.statements",
            "games.services.timing",
            "django.db",
            "django.conf",
            "django.contrib.auth",
            "django.utils",
        ),
    ),
    # Template filters format the plain values a view hands its template.
    "templatetags": Layer(
        modules=("games.templatetags.**",),
        layers=("engine", "words", "drawing"),
        packages=("games.mail.titles", "django.template", "django.utils"),
    ),
    # Views call services and selectors, never the engine or the ORM.
    "web": Layer(
        modules=("games.web.**", "games.urls"),
        layers=("selectors", "services", "words", "mail", "config"),
        packages=(
            "asgiref.sync.iscoroutinefunction",
            "asgiref.sync.markcoroutinefunction",
            "asgiref.sync.sync_to_async",
            "django.core.handlers.asgi.ASGIRequest",  # whether reads leave the event loop (api.runs_on_pool)
            "django.conf",
            "django.contrib.auth.views",
            "django.contrib.messages",
            "django.core.cache",  # the rate limits' counters and the pages' cache
            "django.core.exceptions",
            "django.core.validators",
            "django.forms",
            "django.http",
            "django.middleware",
            "django.shortcuts",
            "django.template",
            "django.urls",
            "django.utils",
            "django.views",
        ),
    ),
    # Celery tasks and the mail provider's signals: ids in, one service.
    "handlers": Layer(
        modules=("games.tasks", "games.receivers"),
        layers=("services", "mail"),
        packages=("celery",),
    ),
    # Django's admin is the ORM's own pages, so it alone above the database
    # may import models.
    "admin": Layer(
        modules=("games.admin",),
        layers=("models",),
        packages=("django.contrib.admin", "django.contrib.auth", "django.core.exceptions"),
    ),
    # manage.py's commands, thin as the tasks are.
    "management": Layer(
        modules=("games.management.**",),
        layers=("engine", "players", "words", "services", "selectors"),
        packages=("django.core.management", "django.utils"),
    ),
    # The app's config connects the signals when Django is ready.
    "app": Layer(
        modules=("games.apps",),
        layers=("handlers",),
        packages=("django.apps", "django.utils", "anymail.signals"),
    ),
    # The site's URLs (games.urls by string) and the WSGI entry.
    "site": Layer(
        modules=(
            "versailles_site.urls",
            "versailles_site.wsgi",
            "versailles_site.asgi",
            "versailles_site.headers",
            "versailles_site.static_files",
        ),
        layers=("config",),
        packages=(
            "asgiref.sync",
            "django.conf",
            "django.contrib.admin",
            "django.core.asgi",
            "django.core.wsgi",
            "django.http",
            "django.urls",
            "django.views",
            "whitenoise.middleware",
        ),
    ),
    "migrations": Layer(
        modules=("games.migrations.**",),
        layers=("models",),
        packages=("django.db", "django.conf"),
    ),
}


def _module_name(path: Path) -> str:
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _tree() -> dict[str, Path]:
    """Every module of games/ and versailles_site/, by name, with its path
    relative to the repository."""
    return {
        _module_name(path.relative_to(ROOT)): path.relative_to(ROOT)
        for tree in TREES
        for path in (ROOT / tree).rglob("*.py")
    }


TREE = _tree()


def _ours(name: str) -> bool:
    return name.split(".")[0] in TREES


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _matches(module: str, pattern: str) -> bool:
    if pattern.endswith(".**"):
        return _under(module, pattern[: -len(".**")])
    return module == pattern


def layers_of(module: str) -> list[str]:
    return [name for name, layer in LAYERS.items() if any(_matches(module, p) for p in layer.modules)]


@dataclass(frozen=True)
class Import:
    name: str  # a module of ours, or "package.module.name" from outside
    line: int
    typing_only: bool


@dataclass(frozen=True)
class Problem:
    module: str
    imported: str
    line: int
    why: str

    def __str__(self) -> str:
        return f"{self.module} line {self.line}: {self.why}"


@cache
def _names_bound_in(path: Path) -> frozenset[str]:
    """The names a package's __init__.py binds at its top level."""
    names = set()
    for node in ast.parse((ROOT / path).read_text()).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return frozenset(names)


def _resolve(base: str, alias: str, tree: dict[str, Path]) -> str:
    """What ``from base import alias`` imports: the module base.alias if
    there is one, else a name of base (outside our trees, "base.alias")."""
    full = f"{base}.{alias}"
    if not _ours(full) or full in tree:
        return full
    if base in tree and tree[base].name == "__init__.py" and alias not in _names_bound_in(tree[base]):
        return full  # a module of the package that is not there
    return base


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, source: str, tree: dict[str, Path] = TREE) -> list[Import]:
    """Every import of the module at ``path``, resolved to the module of ours
    it names (not the names in it), wherever in the module it stands."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno, typing_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.extend(Import(_resolve(base, alias.name, tree), node.lineno, typing_only) for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(source), False)
    return found


def import_problems(path: Path, source: str, tree: dict[str, Path] = TREE) -> list[Problem]:
    """What the module at ``path`` with this source imports that its layer
    does not allow. The test of the tree and the forbidden imports
    written into a module both ask this one function."""
    module = _module_name(path)
    homes = layers_of(module)
    if len(homes) != 1:
        where = " and ".join(homes) or "no layer"
        return [Problem(module, "", 0, f"is in {where}; LAYERS must put it in exactly one")]
    home = homes[0]
    layer = LAYERS[home]
    problems = []
    for imported in imports_of(path, source, tree):
        name = imported.name
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or any(_under(name, p) for p in layer.packages):
            continue
        if _ours(name):
            if name not in tree:
                why = f"imports {name}, which is no module of {' or '.join(TREES)}"
            elif len(targets := layers_of(name)) != 1:
                why = f"imports {name}, which LAYERS puts in {' and '.join(targets) or 'no layer'}"
            elif (target := targets[0]) == home or target in layer.layers:
                continue
            else:
                why = f"imports {name} ({target}); {home} may not import {target}"
        else:
            why = f"imports {name}; {home} may not import that package"
        problems.append(Problem(module, name, imported.line, why))
    return problems


def _problems_in_the_tree() -> list[Problem]:
    return [problem for path in TREE.values() for problem in import_problems(path, (ROOT / path).read_text())]


def test_the_layer_test_sees_the_modules_it_guards():
    # A broken walk would make every rule below pass vacuously.
    assert {
        "games",
        "games.engine.rules",
        "games.services.decisions",
        "games.web.seat",
        "versailles_site.settings",
    } <= set(TREE)
    assert any(m.startswith("games.migrations.") for m in TREE)
    names = {i.name for i in imports_of(TREE["games.web.seat"], (ROOT / TREE["games.web.seat"]).read_text())}
    assert "games.services.decisions" in names


def test_every_module_is_in_exactly_one_layer():
    wrong = {module: layers_of(module) for module in TREE if len(layers_of(module)) != 1}
    assert not wrong, wrong


def test_every_row_of_the_table_names_a_module_that_is_there():
    # So a row cannot outlive the module it was written for.
    unused = [
        (name, pattern)
        for name, layer in LAYERS.items()
        for pattern in layer.modules
        if not any(_matches(module, pattern) for module in TREE)
    ]
    assert not unused, unused


def test_each_module_imports_only_what_its_layer_allows():
    found = _problems_in_the_tree()
    assert not found, "\n".join(map(str, found))


def _allowed_layers(name: str) -> set[str]:
    """The layers ``name`` may import directly, single modules included."""
    layer = LAYERS[name]
    singles = {target for p in layer.packages if _ours(p) for target in layers_of(p)}
    return set(layer.layers) | singles


def _below(name: str) -> set[str]:
    """Every layer ``name`` may reach, however indirectly."""
    reached: set[str] = set()
    todo = [name]
    while todo:
        for target in _allowed_layers(todo.pop()) - reached:
            reached.add(target)
            todo.append(target)
    return reached


def test_the_table_names_only_layers_it_has():
    unknown = {(name, target) for name in LAYERS for target in LAYERS[name].layers if target not in LAYERS}
    assert not unknown, unknown


def test_no_layer_may_import_itself_round_a_circle():
    assert not [name for name in LAYERS if name in _below(name)]


def _database_grants(layer: Layer) -> list[str]:
    return [p for p in layer.packages if _under(p, "django.db") or _under("django.db", p)]


def test_only_the_database_layers_may_import_django_db():
    grants = {name: found for name, layer in LAYERS.items() if (found := _database_grants(layer))}
    assert grants == {
        "models": ["django.db"],
        "services": ["django.db"],
        "selectors": ["django.db"],
        "migrations": ["django.db"],
        "celery_app": ["django.db.close_old_connections"],
    }


@pytest.mark.parametrize("plain", ["engine", "players", "randomness", "words", "drawing", "mail", "templatetags"])
def test_drawing_words_and_mail_take_plain_values(plain):
    assert not _below(plain) & {"models", "services", "selectors", "migrations"}
    assert not _database_grants(LAYERS[plain])


# The imports the blocklist this test replaced let through, each written
# into a module where it must be refused.
FORBIDDEN = [
    pytest.param("games/board/svg.py", "from django.db import connection", id="django.db-in-board"),
    pytest.param("games/narrate.py", "from django.db.models import Q", id="django.db-in-narrate"),
    pytest.param("games/templatetags/games_tags.py", "from games.models import Game", id="templatetags-models"),
    pytest.param(
        "games/templatetags/decision_titles.py",
        "from games.services.decisions import decision_submit",
        id="templatetags-services.decisions",
    ),
    pytest.param("games/web/seat.py", "from games.models import Seat", id="web.seat-models"),
    pytest.param("games/web/seat.py", "from games.models.webhooks import Webhook", id="web.seat-webhook-models"),
    pytest.param("games/mail/compose.py", "from games.services import enqueue", id="mail.compose-enqueue"),
    pytest.param("games/mail/compose.py", "from django.db import transaction", id="django.db-in-mail"),
    # Layers the blocklist had no rule for.
    pytest.param("games/notation_words.py", "import django.db", id="django.db-in-notation_words"),
    pytest.param("games/receivers.py", "from games.models import Seat", id="receivers-models"),
    pytest.param("games/admin.py", "from games.services import decisions", id="admin-services"),
    pytest.param("games/management/commands/verify_game.py", "from games.models import Game", id="management-models"),
    pytest.param("games/apps.py", "from games.web import seat", id="apps-web"),
    pytest.param("games/engine/rules.py", "import django", id="django-in-engine"),
    # Inside a function, as a lazy import would be, and typing-only.
    pytest.param("games/board/png.py", "def f():\n    from games.models import Game", id="in-a-function"),
    pytest.param(
        "games/mail/titles.py",
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from games.models import Seat",
        id="typing-only",
    ),
]


@pytest.mark.parametrize("path, forbidden", FORBIDDEN)
def test_a_forbidden_import_written_into_a_module_is_reported(path, forbidden):
    path = Path(path)
    source = (ROOT / path).read_text().rstrip("\n")
    first_new_line = len(source.splitlines()) + 1
    reported = [p for p in import_problems(path, f"{source}\n{forbidden}\n") if p.line >= first_new_line]
    assert reported, f"{path} may {forbidden!r}"


def test_an_import_of_a_module_that_is_not_there_is_reported():
    # As an import of a removed module is, whatever layer would have held it.
    found = import_problems(Path("games/web/seat.py"), "from games import no_such_module\n")
    assert [(p.imported, p.why) for p in found] == [
        ("games.no_such_module", "imports games.no_such_module, which is no module of games or versailles_site")
    ]


def test_an_import_under_type_checking_is_typing_only():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from games.engine import state\n"
        "from games import engine\n"
    )
    found = imports_of(Path("games/board/svg.py"), source)
    assert [(i.name, i.typing_only) for i in found] == [
        ("typing.TYPE_CHECKING", False),
        ("games.engine.state", True),
        ("games.engine", False),
    ]


def _runtime_edges() -> dict[str, set[str]]:
    # Typing-only imports never run, so they close no circle.
    return {
        name: {
            i.name
            for i in imports_of(path, (ROOT / path).read_text())
            if _ours(i.name) and i.name in TREE and not i.typing_only
        }
        - {name}
        for name, path in TREE.items()
    }


def test_no_module_imports_itself_round_a_circle():
    edges = _runtime_edges()
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == "open":
                circle = path[path.index(target) :] + [target]
                raise AssertionError("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target)
        path.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)


def test_no_module_of_games_is_longer_than_a_newcomer_reads_at_once():
    long = {
        name: n
        for name, path in TREE.items()
        if _under(name, "games")
        and not _under(name, "games.migrations")
        and (n := len((ROOT / path).read_text().splitlines())) > MAX_LINES
    }
    assert not long, long
