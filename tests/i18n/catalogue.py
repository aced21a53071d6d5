"""A reader for gettext .po files, enough for the tests to hold the German
catalogue up against the pages: written here so that checking the catalogue
needs no package beyond what the site itself runs on."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
GERMAN_PO = BASE_DIR / "locale" / "de" / "LC_MESSAGES" / "django.po"
GERMAN_MO = GERMAN_PO.with_suffix(".mo")

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*")\s*$')
_CONTINUATION = re.compile(r'^(".*")\s*$')


@dataclass
class Entry:
    msgid: str = ""
    msgctxt: str | None = None
    msgid_plural: str | None = None
    # msgstr alone is form 0; msgstr[n] fills form n.
    msgstrs: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.msgctxt is None

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translations(self) -> list[str]:
        return [self.msgstrs[form] for form in sorted(self.msgstrs)]

    @property
    def untranslated(self) -> bool:
        return not self.msgstrs or any(text == "" for text in self.msgstrs.values())

    @property
    def key(self) -> tuple[str | None, str]:
        """What gettext looks an entry up by."""
        return (self.msgctxt, self.msgid)

    def where(self) -> str:
        context = f" (context {self.msgctxt!r})" if self.msgctxt is not None else ""
        return f"line {self.line}: {self.msgid!r}{context}"


class PoSyntaxError(ValueError):
    pass


def unquote(literal: str, line: int = 0) -> str:
    """The text of one C-style quoted string as a .po file writes it."""
    if len(literal) < 2 or literal[0] != '"' or literal[-1] != '"':
        raise PoSyntaxError(f"line {line}: not a quoted string: {literal}")
    body = literal[1:-1]
    text = []
    index = 0
    while index < len(body):
        char = body[index]
        if char != "\\":
            text.append(char)
            index += 1
            continue
        if index + 1 >= len(body):
            raise PoSyntaxError(f"line {line}: a backslash ends the string")
        code = body[index + 1]
        if code not in _ESCAPES:
            raise PoSyntaxError(f"line {line}: unknown escape \\{code}")
        text.append(_ESCAPES[code])
        index += 2
    return "".join(text)


def header_fields(entry: Entry) -> dict[str, str]:
    fields = {}
    for line in entry.msgstrs.get(0, "").splitlines():
        name, _, value = line.partition(":")
        if name.strip():
            fields[name.strip()] = value.strip()
    return fields


def read_po(path: Path) -> list[Entry]:
    return parse_po(path.read_text(encoding="utf-8"))


def parse_po(text: str) -> list[Entry]:
    entries: list[Entry] = []
    current: Entry | None = None
    pending_flags: set[str] = set()
    # Which string continuation lines add to: ("msgid", None) or ("msgstr", n).
    target: tuple[str, int | None] | None = None
    seen_string = False

    def finish() -> None:
        nonlocal current, seen_string
        if current is not None and seen_string:
            entries.append(current)
        current, seen_string = None, False

    def append(entry: Entry, where: tuple[str, int | None], text: str) -> None:
        name, form = where
        if name == "msgstr":
            entry.msgstrs[form] = entry.msgstrs.get(form, "") + text
        else:
            setattr(entry, name, (getattr(entry, name) or "") + text)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
            # "#~|" is the previous msgid of an obsolete entry: a comment.
            if line.startswith("|"):
                continue
        elif line.startswith("#"):
            # A comment after the strings starts the next entry.
            if seen_string:
                finish()
            if line.startswith("#,"):
                pending_flags |= {flag.strip() for flag in line[2:].split(",") if flag.strip()}
            continue
        if not line:
            finish()
            target = None
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            name, form, literal = keyword.group(1), keyword.group(2), keyword.group(3)
            # A second msgid (or a msgctxt after strings) starts the next entry,
            # for files that leave out the blank line between entries.
            if name in ("msgid", "msgctxt") and seen_string and (current.msgstrs or name == "msgctxt"):
                finish()
            if current is None:
                current = Entry(flags=pending_flags, obsolete=obsolete, line=number)
                pending_flags = set()
            target = ("msgstr", int(form) if form is not None else 0) if name.startswith("msgstr") else (name, None)
            append(current, target, unquote(literal, number))
            seen_string = True
            continue
        continuation = _CONTINUATION.match(line)
        if continuation and current is not None and target is not None:
            append(current, target, unquote(continuation.group(1), number))
            continue
        raise PoSyntaxError(f"line {number}: cannot read {raw!r}")
    finish()
    return entries


def active(entries: list[Entry]) -> list[Entry]:
    """The entries gettext uses: not the header, not obsolete."""
    return [entry for entry in entries if not entry.is_header and not entry.obsolete]


def header(entries: list[Entry]) -> Entry | None:
    return next((entry for entry in entries if entry.is_header and not entry.obsolete), None)
