"""The German catalogue is whole (issue 12): every message translated and
none fuzzy, nothing in the code that the catalogue lacks, and the compiled
catalogue Django loads says what the .po says."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .catalogue import BASE_DIR, GERMAN_MO, GERMAN_PO, Entry, active, header, header_fields, read_po

GERMAN_PLURALS = "nplurals=2; plural=(n != 1);"
# What makemessages must see: the code and templates that speak, the settings
# it starts from, and the catalogue it merges into. Not the tests, the
# virtualenv or var/, whose strings are not the site's.
SOURCES = ("games", "templates", "versailles_site", "locale", "manage.py")
GETTEXT_TOOLS = ("xgettext", "msgmerge", "msguniq", "msgfmt")
SETTINGS_MODULE = "versailles_site.settings"


def _gettext_tools() -> None:
    """Skip without GNU gettext, but not where CI promises every tool."""
    missing = [tool for tool in GETTEXT_TOOLS if shutil.which(tool) is None]
    if not missing:
        return
    reason = f"GNU gettext is not installed (no {', '.join(missing)}): `make gettext` installs Debian's"
    if os.environ.get("VERSAILLES_REQUIRE_SERVICES") == "1":
        pytest.fail(f"VERSAILLES_REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


def _listed(entries: list[Entry]) -> str:
    return "\n".join(entry.where() for entry in entries)


def _keys(entries: list[Entry]) -> set[tuple[str | None, str]]:
    return {entry.key for entry in active(entries)}


def test_every_german_message_is_translated_and_none_is_fuzzy():
    entries = read_po(GERMAN_PO)
    untranslated = [entry for entry in active(entries) if entry.untranslated]
    fuzzy = [entry for entry in active(entries) if entry.fuzzy]
    assert active(entries), "the German catalogue has no messages"
    assert not untranslated, f"{len(untranslated)} untranslated in {GERMAN_PO.name}:\n{_listed(untranslated)}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {GERMAN_PO.name}:\n{_listed(fuzzy)}"


def test_every_plural_message_has_both_german_forms():
    plurals = [entry for entry in active(read_po(GERMAN_PO)) if entry.msgid_plural is not None]
    short = [entry for entry in plurals if sorted(entry.msgstrs) != [0, 1]]
    assert not short, _listed(short)


def test_the_catalogue_counts_plurals_as_german_does():
    fields = header_fields(header(read_po(GERMAN_PO)))
    assert fields.get("Language") == "de", fields
    assert fields.get("Plural-Forms") == GERMAN_PLURALS, fields
    assert fields.get("Content-Type") == "text/plain; charset=UTF-8", fields


def test_the_catalogue_keeps_no_obsolete_messages():
    obsolete = [entry for entry in read_po(GERMAN_PO) if entry.obsolete]
    assert not obsolete, f"obsolete (#~) entries left in {GERMAN_PO.name}:\n{_listed(obsolete)}"


def _copy_sources(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo")
    for name in SOURCES:
        source = BASE_DIR / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=ignore)
        else:
            shutil.copy2(source, target / name)


def _makemessages(copy: Path) -> subprocess.CompletedProcess:
    env = {name: value for name, value in os.environ.items() if not name.startswith("PYTEST")}
    env["DJANGO_SETTINGS_MODULE"] = SETTINGS_MODULE
    return subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "de", "--no-obsolete"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_makemessages_finds_no_string_the_german_catalogue_lacks(tmp_path):
    _gettext_tools()
    _copy_sources(tmp_path)
    run = _makemessages(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr

    committed = read_po(GERMAN_PO)
    regenerated = read_po(tmp_path / "locale" / "de" / "LC_MESSAGES" / "django.po")
    # msgmerge adds a message new in the code with an empty translation, and
    # marks one whose English changed fuzzy, guessing from its old twin.
    new = [entry for entry in active(regenerated) if entry.untranslated]
    changed = [entry for entry in active(regenerated) if entry.fuzzy]
    gone = sorted(_keys(committed) - _keys(regenerated), key=str)
    problems = []
    if new:
        problems.append(f"{len(new)} strings in the code that the catalogue lacks:\n{_listed(new)}")
    if changed:
        problems.append(f"{len(changed)} strings whose English changed since they were translated:\n{_listed(changed)}")
    if gone:
        listed = "\n".join(repr(msgid) + (f" (context {context!r})" if context else "") for context, msgid in gone)
        problems.append(f"{len(gone)} translations of strings no longer in the code:\n{listed}")
    assert not problems, "\n\n".join(problems) + "\n\nRun makemessages -l de --no-obsolete and translate."
    assert _keys(regenerated) == _keys(committed)


def test_msgfmt_compiles_the_german_catalogue_without_complaint(tmp_path):
    _gettext_tools()
    # --check: the placeholders of each translation match its English, the
    # header is complete, and plural forms are well formed.
    run = subprocess.run(
        ["msgfmt", "--check", "--output-file", str(tmp_path / "django.mo"), str(GERMAN_PO)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr


def _compiled_catalogue() -> gettext.GNUTranslations:
    with GERMAN_MO.open("rb") as compiled:
        return gettext.GNUTranslations(compiled)


# A number German words with each plural form (n == 1, then n != 1).
PLURAL_FORM_NUMBERS = {0: 1, 1: 2}


def _compiled_translation(compiled: gettext.GNUTranslations, entry) -> dict[int, str]:
    """What the compiled catalogue gives for ``entry``, by plural form, as
    Django asks gettext for it."""
    if entry.msgid_plural is None:
        if entry.msgctxt is None:
            return {0: compiled.gettext(entry.msgid)}
        return {0: compiled.pgettext(entry.msgctxt, entry.msgid)}
    found = {}
    for form in entry.msgstrs:
        n = PLURAL_FORM_NUMBERS[form]
        if entry.msgctxt is None:
            found[form] = compiled.ngettext(entry.msgid, entry.msgid_plural, n)
        else:
            found[form] = compiled.npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
    return found


def test_the_compiled_catalogue_django_loads_says_what_the_po_says():
    assert GERMAN_MO.exists(), f"no {GERMAN_MO.relative_to(BASE_DIR)}: run `make messages`"
    compiled = _compiled_catalogue()
    stale = []
    for entry in active(read_po(GERMAN_PO)):
        # msgfmt leaves these out; the tests above name them.
        if entry.fuzzy or entry.untranslated:
            continue
        if _compiled_translation(compiled, entry) != entry.msgstrs:
            stale.append(entry)
    assert not stale, f"{GERMAN_MO.name} is older than {GERMAN_PO.name}; run `make messages`:\n{_listed(stale)}"
