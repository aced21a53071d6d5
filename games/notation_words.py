"""The words of the reply notation in each language a player may write in.

The engine reads one notation, the English one (``bid 12``, ``push none``,
``remove red:3 blue:1``); a reply by email may also be written in German
(``biete 12``, ``niemand schieben``, ``entfernen rot:3 blau:1``). This is the
only place those words are kept: the inbound service turns a reply into the
engine's notation with ``to_notation``, and the examples shown to a player
(emails, refusals, the rules page) come from ``in_language``.

Pure: no Django, no database, so the mail templates and the services can
both use it."""

from __future__ import annotations

ENGLISH = "en"
LANGUAGES = (ENGLISH, "de")

# Per notation word, the words of each language; the first is the one shown,
# the others are read as well. Spellings without umlauts ("wuerfeln",
# "gruen", "weiss") need no entry: words are compared folded (see _folded).
VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "bid": {"en": ("bid",), "de": ("biete", "bieten")},
    "pass": {"en": ("pass",), "de": ("passe", "passen")},
    "roll": {"en": ("roll",), "de": ("würfeln", "würfle", "würfel")},
    "push": {"en": ("push",), "de": ("schieben", "schiebe")},
    "remove": {"en": ("remove",), "de": ("entfernen", "entferne")},
}
NOBODY: dict[str, tuple[str, ...]] = {"en": ("none",), "de": ("niemand", "niemanden")}
COLOURS: dict[str, dict[str, tuple[str, ...]]] = {
    "red": {"en": ("red",), "de": ("rot",)},
    "yellow": {"en": ("yellow",), "de": ("gelb",)},
    "green": {"en": ("green",), "de": ("grün",)},
    "blue": {"en": ("blue",), "de": ("blau",)},
    "white": {"en": ("white",), "de": ("weiß",)},
    "black": {"en": ("black",), "de": ("schwarz",)},
}
# One example of each decision, in the engine's notation: what emails and the
# rules page show (the rules page next to each other in every language).
EXAMPLES = ("bid 12", "pass", "roll", "push blue", "push none", "remove red:3 blue:1 green:4")

_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def _folded(word: str) -> str:
    """A word as compared: any case, and "ü" the same as "ue" (casefold
    already makes "ß" "ss"), since many keyboards have no umlauts."""
    return word.casefold().translate(_UMLAUTS)


def _reading(table: dict[str, dict[str, tuple[str, ...]]]) -> dict[str, str]:
    return {
        _folded(word): notation for notation, words in table.items() for spelled in words.values() for word in spelled
    }


_VERB_OF = _reading(VERBS)
_COLOUR_OF = _reading(COLOURS)
_NOBODY_WORDS = {_folded(word) for words in NOBODY.values() for word in words}


def _argument(word: str) -> str:
    colour, colon, slot = word.partition(":")
    if colon:
        return f"{_COLOUR_OF.get(_folded(colour), colour)}:{slot}"
    folded = _folded(word)
    if folded in _NOBODY_WORDS:
        return "none"
    return _COLOUR_OF.get(folded, word)


def to_notation(text: str) -> str:
    """A first line in any of the languages, in the engine's notation. Words
    it does not know are left as written, so the engine's own error names
    what the player wrote."""
    words = text.split()
    if not words:
        return text
    # German says whom before the verb as often as after it ("niemand
    # schieben"); the engine reads the verb first.
    if len(words) == 2 and _VERB_OF.get(_folded(words[1])) == "push" and _folded(words[0]) not in _VERB_OF:
        words.reverse()
    verb = _VERB_OF.get(_folded(words[0]), words[0])
    return " ".join([verb] + [_argument(word) for word in words[1:]])


def _shown(table: dict[str, dict[str, tuple[str, ...]]], notation: str, language: str) -> str:
    words = table.get(notation)
    return words[language][0] if words else notation


def in_language(notation: str, language: str | None) -> str:
    """An action in the engine's notation as a player of ``language`` writes
    it ("push blue" -> "schieben blau"); unknown languages get English."""
    language = (language or ENGLISH).split("-")[0].lower()
    if language == ENGLISH or language not in LANGUAGES:
        return notation
    words = notation.split()
    if not words:
        return notation
    verb, args = words[0], words[1:]
    if verb == "push" and args == ["none"]:
        # Shown as a German speaker says it; both orders are read.
        return f"{NOBODY[language][0]} {_shown(VERBS, verb, language)}"
    shown = []
    for arg in args:
        colour, colon, slot = arg.partition(":")
        shown.append(f"{_shown(COLOURS, colour, language)}{colon}{slot}")
    return " ".join([_shown(VERBS, verb, language)] + shown)


def _spellings(notation_word: str, language: str) -> tuple[str, ...]:
    if notation_word == "none":
        return NOBODY[language]
    table = VERBS if notation_word in VERBS else COLOURS
    return table[notation_word][language]


def word_in(notation_word: str, language: str) -> str:
    """One verb, colour or "none" of the notation as ``language`` shows it."""
    return _spellings(notation_word, language)[0]


def also_read(notation_word: str, language: str) -> tuple[str, ...]:
    """The other spellings read for a verb, colour or "none" in ``language``
    besides the one shown, for the rules page."""
    return _spellings(notation_word, language)[1:]
