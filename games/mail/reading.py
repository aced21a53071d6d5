"""The one decision in a reply by email, read the way people write one.

A reply is read like a person reads it: quoted text (">" lines, the quote
containers of HTML mail), what follows an "On ... wrote:" line or Outlook's
"From: ... Sent: ..." block, forwarded messages and signatures are not the
player's; greetings, thanks and filler words around the decision are not part
of it ("Hi, I bid twelve please!" is "bid 12"). Nothing above the quote but a
greeting: the reply was written below it, and is read there.

Never a guess: a reply with two different decisions, or one decision and
another line that speaks of deciding ("pass", "actually bid 14"), or a
question, is refused and says what it read. Words that are not known make a
line no decision, so "I won't pass" or "ich passe nicht" is never "pass".

Plain values in, plain values out: no database, so any layer may test it."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games import engine, notation_words
from games.narrate import colour_name

from . import scan
from .html_text import html_lines
from .words import COURTESY, FILLER, NEGATIONS, NOBODY, NUMBERS, VERBS, folded, is_courtesy

TEXT_LIMIT = 200_000
LINE_LIMIT = 2_000
LINE_CHARS = 1_000
# A line longer than this is a letter, not a decision.
WORD_LIMIT = 24
SAID_LIMIT = 200

_COLOUR = {
    folded(word): notation for notation, words in notation_words.COLOURS.items() for spelled in words.values()
    for word in spelled
}
_ATTRIBUTION = re.compile(r"\b(wrote|writes|schrieb|schreibt|geschrieben)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_HEADER = re.compile(r"^\**(from|von|sent|gesendet|date|datum|to|an|subject|betreff|cc)\**\s*:", re.IGNORECASE)
_ORIGINAL = {
    "original message", "ursprüngliche nachricht", "urspruengliche nachricht", "forwarded message",
    "weitergeleitete nachricht", "begin forwarded message", "anfang der weitergeleiteten nachricht",
}
_DEVICE = (
    "sent from ", "sent with ", "sent via ", "get outlook for", "gesendet von ", "gesendet mit ", "gesendet vom ",
)


@dataclass(frozen=True)
class Reading:
    """What a reply says: ``notation`` when it holds one decision, else
    ``refusal``, why none is applied; ``said`` is what was read, as written."""

    said: str
    notation: str = ""
    refusal: str = ""


def read_reply(text: str, *, html: bool = False) -> Reading:
    """The decision in a reply's body (its HTML if ``html``), or why none."""
    text = html_lines(text) if html else text[:TEXT_LIMIT]
    own = _own_lines(text.splitlines()[:LINE_LIMIT])
    decisions: list[tuple[str, str]] = []
    mentions: list[str] = []
    for line in own:
        # "Pass. Good luck all!": each sentence is read as a line of its own.
        for sentence in _SENTENCE_END.split(line):
            kind, notation = _line(sentence)
            if kind == "decision":
                decisions.append((notation, line))
            elif kind == "mention":
                mentions.append(line)
    found = {notation for notation, _line_ in decisions}
    if len(found) > 1:
        first, second = decisions[0][1], next(line for notation, line in decisions if notation != decisions[0][0])
        return Reading(
            said=_said(own),
            refusal=_("'%(first)s' and '%(second)s' are two different decisions; write only one")
            % {"first": _cut(first), "second": _cut(second)},
        )
    if found and mentions:
        return Reading(
            said=_said(own),
            refusal=_("besides '%(decision)s' the reply says '%(other)s'; write only the decision")
            % {"decision": _cut(decisions[0][1]), "other": _cut(mentions[0])},
        )
    if found:
        return Reading(said=_cut(decisions[0][1]), notation=decisions[0][0])
    if mentions:
        return Reading(said=_cut(mentions[0]), refusal=_why_not(mentions[0]))
    said = _said(own)
    if not said:
        return Reading(said="", refusal=_("the reply is empty: no decision was found"))
    return Reading(said=said, refusal=_("no decision was found in '%(said)s'") % {"said": said})


def _own_lines(lines: list[str]) -> list[str]:
    """The lines the player wrote, in order (quotes, what follows them and
    signatures left out)."""
    own: list[str] = []
    wrote = False  # more than greetings
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith(">"):
            i += 1
            continue
        if _ends_own_text(line, lines, i):
            break
        attribution = _attribution(line, lines, i)
        if attribution:
            # A quote follows. If anything but greetings stood above it, that
            # was the reply; else it is below the quote, if the quote is
            # marked as one (a client that quotes without ">" would have the
            # original read as the player's).
            following = next((j for j in range(i + attribution, len(lines)) if lines[j].strip()), None)
            if wrote or following is None or not lines[following].lstrip().startswith(">"):
                break
            i = following
            continue
        if line:
            # A longer line is a letter, not a decision: what is read of it is bounded.
            line = scan.clean(line[:LINE_CHARS])
            own.append(line)
            wrote = wrote or not is_courtesy(_words(line))
        i += 1
    return own


def _ends_own_text(line: str, lines: list[str], i: int) -> bool:
    """A signature, a forwarded or quoted original begins here."""
    if line in ("--", "-- ", "—") or (len(line) >= 2 and set(line) <= {"_"}):
        return True
    lowered = folded(line)
    if lowered.startswith(_DEVICE) or (lowered.startswith("von meinem ") and "gesendet" in lowered):
        return True
    if lowered.strip("-–—_=*:<> ").strip() in {folded(marker) for marker in _ORIGINAL}:
        return True
    if _HEADER.match(line):
        following = next((lines[j].strip() for j in range(i + 1, min(i + 4, len(lines))) if lines[j].strip()), "")
        return bool(_HEADER.match(following))
    return False


def _attribution(line: str, lines: list[str], i: int) -> int:
    """How many lines the "On ... wrote:" line here takes (0: none here);
    clients wrap a long one onto a second line."""
    lowered = line.casefold()
    if not line or len(line) > 400:
        return 0
    if _wrote(lowered):
        return 1
    if lowered.startswith(("on ", "am ")) and i + 1 < len(lines) and _wrote(lines[i + 1].strip().casefold()[:400]):
        return 2
    return 0


def _wrote(lowered: str) -> bool:
    return lowered.endswith(":") and _ATTRIBUTION.search(lowered) is not None


def _words(line: str) -> list[str]:
    """The line's words, folded, without punctuation, symbols or emoji
    around them ("Bid 15!" is "bid", "15")."""
    words = []
    for raw in line.replace("’", "'").replace(",", " ").replace(";", " ").split():
        end = len(raw)
        while end and _around(raw[end - 1]):
            end -= 1
        start = 0
        while start < end and _around(raw[start]) and raw[start] != "+":
            start += 1
        if start < end:
            words.append(folded(raw[start:end]))
    return words


def _around(char: str) -> bool:
    """Punctuation, symbols, emoji and their joiners around a word."""
    category = unicodedata.category(char)
    return category[0] in "PSZM" or category == "Cf"


def _line(line: str) -> tuple[str, str]:
    """("decision", notation), ("mention", "") for a line that speaks of a
    decision without being exactly one, or ("other", "")."""
    words = _words(line)
    if not any(_verb(word) for word in words):
        return "other", ""
    if "?" in line or len(words) > WORD_LIMIT:
        return "mention", ""
    notation = _notation(_meaningful(line, words))
    return ("decision", notation) if notation else ("mention", "")


def _verb(word: str) -> str:
    return VERBS.get(word.split(":")[0], "")


def _meaningful(line: str, words: list[str]) -> list[str]:
    """The words that carry the decision: greeting, thanks and filler out,
    number words as numbers ("zwölf" is "12")."""
    if "," in line and words and words[0] in COURTESY and not _verb(words[0]):
        # "Hi Anna, bid 12": the greeting runs to the first comma.
        before = len(_words(line.split(",", 1)[0]))
        if not any(_verb(word) for word in words[:before]):
            words = words[before:]
    out: list[str] = []
    for word in words:
        verb, colon, rest = word.partition(":")
        if colon and _verb(verb) and rest:
            out += [verb, rest]  # "bid:12"
        elif word not in FILLER:
            out.append(word)
    return _numbers(out)


def _numbers(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        parts = word.split("-")
        if len(parts) == 2 and parts[0] in NUMBERS and parts[1] in NUMBERS:
            word = str(_sum(NUMBERS[parts[0]], NUMBERS[parts[1]]))
        elif word in NUMBERS:
            value = NUMBERS[word]
            previous = out[-1] if out else ""
            if previous.isdigit() and (combined := _combined(int(previous), value, previous)) is not None:
                out[-1] = str(combined)
                continue
            word = str(value)
        out.append(word)
    return out


def _combined(before: int, value: int, written: str) -> int | None:
    """"twenty four" (20, 4) and "one hundred" (1, 100) as one number."""
    if value == 100 and before == 1:
        return 100
    if before >= 20 and before % 10 == 0 and before < 100 and 0 < value < 10:
        return before + value
    return None


def _sum(tens: int, unit: int) -> int:
    return tens + unit if tens >= 20 and tens % 10 == 0 and 0 < unit < 10 else -1


def _notation(words: list[str]) -> str:
    """The decision these words are exactly, in the notation, or ""."""
    verbs = [index for index, word in enumerate(words) if _verb(word)]
    if len(verbs) != 1:
        return ""
    verb = _verb(words[verbs[0]])
    args = words[: verbs[0]] + words[verbs[0] + 1 :]
    if verb in ("pass", "roll"):
        return "" if args else verb
    if verb == "bid":
        return f"bid {int(args[0])}" if len(args) == 1 and args[0].isascii() and args[0].isdigit() else ""
    if verb == "push":
        if args in (["no", "one"], ["no", "1"]):
            args = ["none"]
        if len(args) != 1:
            return ""
        whom = "none" if args[0] in NOBODY else _COLOUR.get(args[0], "")
        return f"push {whom}" if whom else ""
    return _removal(args)


def _removal(args: list[str]) -> str:
    """"red:3 blue:1" or "rot 3 blau 1" as "remove red:3 blue:1"."""
    picks: list[str] = []
    pending = ""
    for arg in args:
        colour, colon, slot = arg.partition(":")
        if pending and arg.isascii() and arg.isdigit():
            picks.append(f"{pending}:{int(arg)}")
            pending = ""
        elif colon and colour in _COLOUR and slot.isascii() and slot.isdigit() and not pending:
            picks.append(f"{_COLOUR[colour]}:{int(slot)}")
        elif not colon and arg in _COLOUR and not pending:
            pending = _COLOUR[arg]
        else:
            return ""
    if pending or not picks:
        return ""
    notation = "remove " + " ".join(picks)
    try:
        engine.parse(notation)
    except engine.NotationError:
        return ""
    return notation


def _why_not(line: str) -> str:
    """Why a line that speaks of a decision is none: the engine's words for
    it where it has them ("a bid must be a whole number, not 'lots'")."""
    words = _meaningful(line, _words(line))
    attempt = notation_words.to_notation(" ".join(words))
    if "?" not in line and not NEGATIONS & set(words):
        try:
            engine.parse(attempt)
        except engine.NotationError as error:
            return error.translated(_, colour_name)
    return _("'%(said)s' is not one decision I can read without guessing") % {"said": _cut(line)}


def _cut(text: str) -> str:
    return text if len(text) <= SAID_LIMIT else text[: SAID_LIMIT - 1] + "…"


def _said(own: list[str]) -> str:
    return _cut(" / ".join(own))
