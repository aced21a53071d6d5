"""The project's documents stay true to the repository they describe.

- Nothing in the repository points a reader at a document kept outside it.
- Every repository path a document writes in backticks exists, and every
  ``path.py::name`` (or ``path.py:name``) it cites names something that file
  defines.
- Every ``docs/<file>.md#<anchor>`` cited anywhere lands on a heading of
  that file.
- The README's layout section lists every module and package of ``games/``
  and ``versailles_site/``, and nothing that is not there.

Plain file reading and ``ast``: no Django, no database."""

from __future__ import annotations

import ast
import functools
import os
import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
README = ROOT / "README.md"

# Generated, installed or version control's own: not the project's text.
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "var",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    "node_modules",
}
SKIPPED_SUFFIXES = {".mo", ".png", ".jpg", ".jpeg", ".gif", ".ico", ".woff", ".woff2", ".sqlite3", ".pyc"}


def _project_files() -> list[Path]:
    found = []
    for folder, subfolders, files in os.walk(ROOT):
        # Pruned here, so the walk never enters them.
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_DIRS]
        found.extend(Path(folder) / name for name in files if Path(name).suffix not in SKIPPED_SUFFIXES)
    return sorted(found)


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return None  # not text


PROJECT_FILES = _project_files()


# --- (a) no document outside the repository ------------------------------------

# Built from parts, so that this file does not name them itself.
OUTSIDE = ["DESIGN" + ".md", "RULES" + ".md", ".." + "/shared", "/work/" + "shared", "seed-de" + ".txt"]


def test_no_file_points_at_a_document_kept_outside_the_repository():
    hits = []
    for path in PROJECT_FILES:
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            hits.extend(f"{path.relative_to(ROOT)}:{number}: {name}" for name in OUTSIDE if name in line)
    assert not hits, "\n".join(hits)


def test_the_search_for_outside_documents_reads_the_code_docs_and_templates():
    # A walk that skipped everything would make the test above pass vacuously.
    names = {str(path.relative_to(ROOT)) for path in PROJECT_FILES}
    assert {
        "README.md",
        "docs/architecture.md",
        "games/services/sweeps.py",
        "templates/base.html",
        "bench/sweep.py",
    } <= names
    assert not any(name.startswith((".venv/", "var/", ".git/")) for name in names)


# --- (b) paths and names written in backticks --------------------------------------

FENCE = re.compile(r"^```.*?^```", re.M | re.S)
SPAN = re.compile(r"`([^`\n]+)`")
# `games/services/sweeps.py::deadlines_sweep`, `games/tasks.py:deadlines_sweep`,
# `games/engine/ruleset.py::Ruleset._check`
REFERENCE = re.compile(r"^(?P<path>[\w./-]+\.py)::?(?P<name>[A-Za-z_][\w.]*)$")
# Paths written from the top of the repository, or (in the README's tour of
# the code) from inside games/.
BASES = [ROOT, ROOT / "games"]
# Top-level entries that are made, not kept: a path into them names no file of
# the repository.
GENERATED = ("var/", ".venv/")
PATH_CHARS = re.compile(r"^[\w.*/-]+$")


def _spans(path: Path) -> list[str]:
    return SPAN.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def _first_segments() -> set[str]:
    """Names a path in a document may start with: the repository's top-level
    entries and the packages inside games/ (which the README's tour of the
    code writes without the games/ prefix)."""
    names = {entry.name for entry in ROOT.iterdir()}
    names |= {entry.name for entry in (ROOT / "games").iterdir() if entry.is_dir()}
    return names - {"var", ".venv", ".git"}


def _is_repository_path(span: str) -> bool:
    """A span is taken for a path into the repository when it is a plain path
    (no spaces, no URL, no placeholder) that either has a slash after one of
    the repository's own names or is a Python or Markdown file name."""
    span = span.split("#", 1)[0]
    if not span or not PATH_CHARS.match(span) or span.startswith(("/", "http")) or span.startswith(GENERATED):
        return False
    if "/" in span:
        return span.split("/", 1)[0] in _first_segments()
    return span.endswith((".py", ".md"))


def _exists(span: str) -> Path | None:
    span = span.split("#", 1)[0]
    for base in BASES:
        if "*" in span:
            matches = sorted(base.glob(span))
            if matches:
                return matches[0]
        elif (base / span).exists():
            return base / span
    return None


@functools.cache
def _module_body(path: Path) -> list[ast.stmt]:
    return ast.parse(path.read_text(encoding="utf-8")).body


def _defined(path: Path, dotted: str) -> bool:
    """Whether ``dotted`` (``name`` or ``Class.name``) is defined at the top of
    the module at ``path``, or in the body of the class named before it: a
    function, a class, or a name assigned there."""
    body = _module_body(path)
    for part in dotted.split("."):
        found = None
        for node in body:
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                and node.name == part
                or isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == part for t in node.targets)
                or isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id == part
            ):
                found = node
        if found is None:
            return False
        body = found.body if isinstance(found, ast.ClassDef) else []
    return True


DOCUMENTS = [README, *DOCS]


def _document_id(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_documents_this_test_reads_are_there():
    assert {"docs/architecture.md", "docs/rules-notes.md"} <= {_document_id(p) for p in DOCS}


@pytest.mark.parametrize("document", DOCUMENTS, ids=_document_id)
def test_every_repository_path_a_document_writes_in_backticks_exists(document):
    missing = []
    for span in _spans(document):
        if REFERENCE.match(span):
            continue  # the next test
        if _is_repository_path(span) and _exists(span) is None:
            missing.append(span)
    assert not missing, missing


@pytest.mark.parametrize("document", DOCUMENTS, ids=_document_id)
def test_every_name_a_document_cites_in_a_python_file_is_defined_there(document):
    wrong = []
    for span in _spans(document):
        match = REFERENCE.match(span)
        if match is None:
            continue
        path = _exists(match["path"])
        if path is None:
            wrong.append(f"{span}: no such file")
        elif not _defined(path, match["name"]):
            wrong.append(f"{span}: {match['name']} is not defined in {path.relative_to(ROOT)}")
    assert not wrong, "\n".join(wrong)


def test_the_reference_check_tells_a_defined_name_from_a_missing_one():
    sweeps = ROOT / "games/services/sweeps.py"
    assert _defined(sweeps, "deadlines_sweep") and _defined(sweeps, "BATCH")
    assert not _defined(sweeps, "no_such_sweep")
    assert _defined(ROOT / "games/engine/ruleset.py", "Ruleset._check")
    assert not _defined(ROOT / "games/engine/ruleset.py", "Ruleset.no_such_check")


def test_the_path_check_takes_paths_for_paths_and_nothing_else():
    for span in [
        "games/services/sweeps.py",
        "docs/rules-notes.md#readings",
        "board/svg.py",
        "manage.py",
        "tests/i18n/",
    ]:
        assert _is_repository_path(span), span
    for span in [
        "/rules/",
        "var/mail/",
        "manage.py verify_game <id>",
        "?since=<version>",
        "HOME_LINK_DAYS",
        "seat-in-an-auction.png",
    ]:
        assert not _is_repository_path(span), span


# --- (c) citations of a heading in docs/ ------------------------------------------------

CITATION = re.compile(r"docs/([\w.-]+\.md)#([\w-]+)")


def github_slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading: its text in lower case, with
    inline-code marks and punctuation dropped and each space a hyphen."""
    text = heading.strip().lower()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in " -_" or category[0] in "LN" or category == "Mn":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


@functools.cache
def anchors(document: Path) -> set[str]:
    """Every heading's anchor; a heading that repeats another gets -1, -2, …"""
    seen: dict[str, int] = {}
    found = set()
    for line in FENCE.sub("", document.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        slug = github_slug(match[1])
        if slug in seen:
            seen[slug] += 1
            slug = f"{slug}-{seen[slug]}"
        else:
            seen[slug] = 0
        found.add(slug)
    return found


def test_github_slugs_are_made_as_github_makes_them():
    assert github_slug("One deadline's path") == "one-deadlines-path"
    assert github_slug("Time and deadlines") == "time-and-deadlines"
    assert github_slug("The `ruleset` (classic)") == "the-ruleset-classic"
    assert github_slug("Deutsch / languages") == "deutsch--languages"


def test_every_citation_of_a_heading_in_docs_lands_on_one():
    wrong = []
    cited = 0
    for path in PROJECT_FILES:
        text = _text(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for name, anchor in CITATION.findall(line):
                cited += 1
                target = ROOT / "docs" / name
                where = f"{path.relative_to(ROOT)}:{number}: docs/{name}#{anchor}"
                if not target.exists():
                    wrong.append(f"{where}: no such document")
                elif anchor not in anchors(target):
                    wrong.append(f"{where}: no such heading")
    assert not wrong, "\n".join(wrong)
    assert cited, "no citation found: the search is broken"


def test_links_between_the_documents_land_on_a_heading():
    # [text](rules-notes.md#defaults-when-a-deadline-passes) and [text](#layers)
    wrong = []
    for document in DOCUMENTS:
        text = FENCE.sub("", document.read_text(encoding="utf-8"))
        for target, anchor in re.findall(r"\]\(([\w./-]*)#([\w-]+)\)", text):
            linked = document if not target else (document.parent / target).resolve()
            if not linked.exists() or anchor not in anchors(linked):
                wrong.append(f"{_document_id(document)}: {target}#{anchor}")
    assert not wrong, wrong


# --- (d) the README's layout section ------------------------------------------------------

LAYOUT_HEADING = "## How the code is laid out"
# A folder at the start of a layout line opens it for the lines below that
# are indented further; "management/commands/" opens both at once.
FOLDER = re.compile(r"^((?:[\w.-]+/)+)")
MODULE = re.compile(r"(?<![\w./])([\w/]*\w\.py)\b")


def layout_block() -> str:
    text = README.read_text(encoding="utf-8")
    assert LAYOUT_HEADING in text, "the README has no layout section"
    section = text.split(LAYOUT_HEADING, 1)[1]
    match = re.search(r"^```[^\n]*\n(.*?)^```", section, re.M | re.S)
    assert match, "the layout section has no block"
    return match[1]


def layout_entries(block: str) -> set[str]:
    """The folders and modules the layout names, as paths from the top.

    A line that starts with a folder (``services/``) opens it inside the
    nearest open folder less indented than it; every other line belongs to
    the nearest open folder less indented than it, and each ``name.py`` on a
    line (``board/svg.py`` too) is a module of that line's folder."""
    open_folders: list[tuple[int, str]] = []
    entries: set[str] = set()
    for line in block.splitlines():
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        while open_folders and open_folders[-1][0] >= indent:
            open_folders.pop()
        parent = open_folders[-1][1] if open_folders else ""
        rest = line.strip()
        folder = FOLDER.match(rest)
        if folder:
            path = parent + folder[1]
            parts = path.rstrip("/").split("/")
            entries.update("/".join(parts[: i + 1]) + "/" for i in range(len(parts)))
            open_folders.append((indent, path))
            parent = path
            rest = rest[len(folder[1]) :]
        entries.update(parent + name for name in MODULE.findall(rest))
    return entries


def expected_entries() -> set[str]:
    """Every module of games/ and versailles_site/ but __init__.py, and every
    package (a folder with an __init__.py) in games/, migrations excepted:
    the engine's modules included, since the layout says what each holds."""
    expected = {"games/", "versailles_site/"}
    for top in ("games", "versailles_site"):
        for path in (ROOT / top).rglob("*.py"):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or "__pycache__" in relative.parts:
                continue
            if path.name == "__init__.py":
                expected.add(str(relative.parent) + "/")
            else:
                expected.add(str(relative))
    return expected


def test_the_layout_parser_reads_folders_and_modules_by_indentation():
    block = "\n".join(
        [
            "manage.py",
            "games/",
            "  engine/      rules.py, state.py",
            "               (continued) flow.py",
            "  services/    every write",
            "    sweeps.py  what the beat runs",
            "  models.py  tasks.py",
            "  management/commands/  simulate.py",
            "templates/     base.html",
        ]
    )
    assert layout_entries(block) == {
        "manage.py",
        "games/",
        "games/engine/",
        "games/engine/rules.py",
        "games/engine/state.py",
        "games/engine/flow.py",
        "games/services/",
        "games/services/sweeps.py",
        "games/models.py",
        "games/tasks.py",
        "games/management/",
        "games/management/commands/",
        "games/management/commands/simulate.py",
        "templates/",
    }


def test_the_readme_layout_lists_every_module_and_package_of_games_and_versailles_site():
    listed = layout_entries(layout_block())
    ours = {entry for entry in listed if entry.startswith(("games/", "versailles_site/"))}
    missing = sorted(expected_entries() - ours)
    assert not missing, f"the README's layout does not list {missing}"


def test_the_readme_layout_lists_nothing_that_is_not_there():
    listed = layout_entries(layout_block())
    gone = sorted(entry for entry in listed if not (ROOT / entry).exists())
    assert not gone, f"the README's layout lists {gone}, which do not exist"
