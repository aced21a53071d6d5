"""What a reader of one language must never meet in the other, taken from the
catalogue itself: the pieces of English text (msgids) that no German
translation repeats, and the pieces of German (msgstrs) no English text
repeats. A page or email is then looked through for them as a person reads
it: tags gone, entities decoded, whitespace as one space."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

from .catalogue import Entry, active

# Between pieces: what the code fills in, markup, and what ends a sentence or
# a clause. A fragment then never straddles a name or a number.
_PLACEHOLDER = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrfiouxXeEgGc%]")
_TAG = re.compile(r"<[^>]*>")
# An apostrophe between letters belongs to the word (player's); others quote.
_PUNCTUATION = re.compile(r"[.!?:;,()\[\]{}\"„“”‚‘«»…—–/=+×\n\t]+|(?<![^\W\d_])['’]|['’](?![^\W\d_])")
_WORD = re.compile(r"[^\W\d_]+")
_SPACE = re.compile(r"\s+")

FRAGMENT_MIN_WORDS = 3
FRAGMENT_MIN_LETTERS = 15


def normal(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def pieces(message: str) -> list[str]:
    """A message cut at placeholders, tags and punctuation."""
    text = _TAG.sub("\n", _PLACEHOLDER.sub("\n", message))
    return [normal(piece) for piece in _PUNCTUATION.split(text) if piece.strip()]


def telling(piece: str) -> bool:
    """Long enough that meeting it means meeting the sentence, not a word
    the two languages share."""
    words = _WORD.findall(piece)
    return len(words) >= FRAGMENT_MIN_WORDS and sum(len(word) for word in words) >= FRAGMENT_MIN_LETTERS


@dataclass(frozen=True)
class Fragments:
    english: frozenset[str]
    german: frozenset[str]


def fragments(entries: list[Entry]) -> Fragments:
    messages = active(entries)
    english_texts = [text for entry in messages for text in (entry.msgid, entry.msgid_plural) if text]
    german_texts = [text for entry in messages for text in entry.translations if text]
    all_english = normal(" \n ".join(english_texts))
    all_german = normal(" \n ".join(german_texts))
    english = {piece for text in english_texts for piece in pieces(text) if telling(piece) and piece not in all_german}
    german = {piece for text in german_texts for piece in pieces(text) if telling(piece) and piece not in all_english}
    return Fragments(english=frozenset(english), german=frozenset(german))


def found_in(text: str, candidates: frozenset[str]) -> list[str]:
    """The candidates that stand in ``text`` (normalised) as whole words."""
    found = []
    for fragment in candidates:
        if fragment not in text:
            continue
        bounded = r"(?<![^\W_])" + re.escape(fragment) + r"(?![^\W_])"
        if re.search(bounded, text):
            found.append(fragment)
    return sorted(found)


# Read by people though not between tags: a button's label in value, a
# picture's alt, a tooltip, what a screen reader says.
_SHOWN_ATTRIBUTES = ("alt", "title", "placeholder", "aria-label")
_UNSHOWN = ("script", "style", "head")


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.language: str | None = None
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "html":
            self.language = attributes.get("lang")
        if tag in _UNSHOWN:
            self._hidden += 1
        if tag == "title":
            # The tab's title is shown even though it sits in <head>.
            self._hidden -= 1
        for name in _SHOWN_ATTRIBUTES:
            if attributes.get(name):
                self.parts.append("\n" + attributes[name] + "\n")
        if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
            self.parts.append("\n" + attributes["value"] + "\n")

    def handle_endtag(self, tag):
        if tag in _UNSHOWN:
            self._hidden -= 1
        if tag == "title":
            self._hidden += 1
        # Block ends part words: "<li>a</li><li>b</li>" reads "a b", not "ab".
        self.parts.append(" ")

    def handle_data(self, data):
        if self._hidden <= 0:
            self.parts.append(data)


@dataclass
class Read:
    text: str
    language: str | None


def read_html(markup: str) -> Read:
    reader = _Reader()
    reader.feed(markup)
    reader.close()
    return Read(text=normal("".join(reader.parts)), language=reader.language)


def read_plain(text: str) -> str:
    # A text part is what the reader sees already: nothing to unescape.
    return normal(text)
