"""Cheap, bounded looks at an email that nobody has parsed yet.

Anyone can mail the reply domain, and Python's email parser takes seconds or
minutes over a message built to hurt it (thousands of recipients, parts or
nesting levels). Everything here is a handful of linear scans over text of
bounded length, so it can run in the web request and before the worker parses
anything; only messages within these limits are ever parsed."""

from __future__ import annotations

import re
from email.message import Message
from email.policy import EmailPolicy

from django.utils.translation import gettext as _

# What the worker reads of one message; the rest is cut off when stored, and a
# message that was cut is refused, not half read.
RAW_LIMIT = 1_000_000
# A real reply has a few dozen header fields (Received, DKIM, ARC, ...), one
# or two multipart levels and a handful of parts.
HEADER_LIMIT = 64_000
FIELD_LIMIT = 300
NESTING_LIMIT = 20
PART_LIMIT = 200
# Reply addresses tried per message: each costs a database look-up.
CANDIDATE_LIMIT = 5

# The door (games.web.webhooks): a provider's request body is looked at before
# django-anymail parses the email in it. These limits are far above any real
# reply, so what they refuse is hostile, and they keep the provider's parse
# (which we do not control) well under a second.
DOOR_PARTS = 500
DOOR_NESTING = 50
DOOR_ADDRESSES = 1000
DOOR_LINES = 60_000

_FIELD_START = re.compile(r"^[^ \t\r\n]", re.MULTILINE)
_NESTING = re.compile(r"content-type[ \t]*:\s*(?:multipart|message)/", re.IGNORECASE)
_BOUNDARY = re.compile(r'boundary[ \t]*=[ \t]*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))', re.IGNORECASE)
_MESSAGE_ID = re.compile(r"<[^<>@\s]{1,200}@[^<>@\s]{1,200}>")
_REPLY_ADDRESS = re.compile(r"reply\+[0-9]{1,18}\.[0-9]{1,18}\.[0-9a-f]{1,64}@", re.IGNORECASE)
RECIPIENT_FIELDS = ("x-envelope-to", "delivered-to", "x-original-to", "to", "cc")
AUTO_PRECEDENCE = {"bulk", "junk", "list", "auto_reply"}


def clean(text: str) -> str:
    """Text any database takes: PostgreSQL refuses NUL, and no database takes a
    lone surrogate (what a parser leaves of bytes that were not UTF-8)."""
    text = text.replace("\x00", "\ufffd")
    if text.isascii():
        return text
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _lines(raw: str) -> str:
    """Line ends as "\n" only: the parser takes "\r" alone as one too, and so
    must every count that stands for one of its steps."""
    return raw.replace("\r\n", "\n").replace("\r", "\n") if "\r" in raw else raw


def header_block(raw: str) -> str:
    text = _lines(raw)
    if text.startswith("\n"):
        return ""
    end = text.find("\n\n")
    return text if end < 0 else text[:end]


def fields(header: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(name, unfolded value) of the fields called one of ``names``, in order."""
    pattern = re.compile(
        r"^(" + "|".join(re.escape(n) for n in names) + r")[ \t]*:(.*(?:\n[ \t].*)*)",
        re.IGNORECASE | re.MULTILINE,
    )
    return [(m.group(1).lower(), re.sub(r"\n[ \t]", " ", m.group(2)).strip()) for m in pattern.finditer(header)]


def message_id(raw: str) -> str | None:
    """The Message-ID, if the message has one that looks like one (a missing
    or broken one such as <@> would make unrelated messages look the same)."""
    found = fields(header_block(raw), ("message-id",))
    if not found:
        return None
    value = found[0][1]
    return value if _MESSAGE_ID.fullmatch(value) else None


def over_limit(raw: str, size: int) -> str | None:
    """Why this message is too much to read, or None. ``size`` is its length
    as received, before it was cut to RAW_LIMIT."""
    if size > RAW_LIMIT:
        return _("the message is too large (%(size)d characters; at most %(limit)d are read)") % {
            "size": size,
            "limit": RAW_LIMIT,
        }
    raw = _lines(raw)
    header = header_block(raw)
    if len(header) > HEADER_LIMIT or len(_FIELD_START.findall(header)) > FIELD_LIMIT:
        return _("the message has too many or too long header lines")
    if len(_NESTING.findall(raw)) > NESTING_LIMIT:
        return _("the message has too many nested parts")
    boundaries = {a or b for a, b in _BOUNDARY.findall(raw)}
    if len(boundaries) > NESTING_LIMIT:
        return _("the message has too many nested parts")
    if sum(raw.count("\n--" + boundary) for boundary in boundaries) > PART_LIMIT:
        return _("the message has too many parts (attachments)")
    return None


def reply_candidates(raw: str) -> list[str]:
    """Reply addresses among the recipients, envelope first; unchecked."""
    found: list[str] = []
    header = header_block(raw)
    for name in RECIPIENT_FIELDS:
        for _name, value in fields(header, (name,)):
            for match in _REPLY_ADDRESS.finditer(value):
                address = match.group(0).lower()
                if address not in found:
                    found.append(address)
                if len(found) >= CANDIDATE_LIMIT:
                    return found
    return found


def is_automatic(raw: str) -> bool:
    """An auto-reply (vacation notice, bounce, list mail): never answered, so
    two robots cannot keep each other busy."""
    values = dict(
        reversed(
            fields(
                header_block(raw),
                ("auto-submitted", "precedence", "x-autoreply", "x-autorespond", "x-auto-response-suppress"),
            )
        )
    )
    if values.get("auto-submitted", "no").lower() not in ("no", ""):
        return True
    if values.get("precedence", "").lower() in AUTO_PRECEDENCE:
        return True
    return any(values.get(name) for name in ("x-autoreply", "x-autorespond", "x-auto-response-suppress"))


def message_text(message: Message) -> str:
    """A parsed message as text again, without reading its headers: the
    standard serialisation re-parses every long header (a minute for a To:
    of 15,000 addresses); with refold_source="none" lines go out as received."""
    policy = message.policy
    if isinstance(policy, EmailPolicy):  # compat32 has no refold_source
        policy = policy.clone(refold_source="none")
    try:
        return message.as_string(policy=policy)
    except Exception:  # e.g. 8-bit text in a charset Python does not know
        pass
    try:
        # Bytes go out as they came, whatever charset they claim.
        return message.as_bytes(policy=policy).decode("utf-8", "replace")
    except Exception:  # too odd to write out at all: keep the headers
        head = "".join(f"{name}: {value}\r\n" for name, value in message.raw_items())
        return head + "\r\n"


# Half a UTF-16 pair in a JSON string: no email holds one, and anymail's
# parser raises on it (a 500, which the provider would retry for hours).
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


def door_refusal(body: bytes) -> tuple[int, str] | None:
    """(HTTP status, reason) if a webhook request body holds more than any
    reply could, or what no parser should be given; None if it may pass.

    The email in it may be plain (multipart form), JSON-escaped or URL-encoded,
    so each marker is counted in all three spellings. A body that carries the
    email base64-encoded (Amazon SES) is bounded by its size only."""
    if _LONE_SURROGATE.search(body):
        return 400, "text that is not Unicode"
    reason = _door_count(body.lower())
    return (413, reason) if reason else None


def _door_count(text: bytes) -> str | None:
    def count(*markers: bytes) -> int:
        return sum(text.count(marker) for marker in markers)

    newline = (b"\n", b"\\n", b"%0a", b"\\u000a", b"\r", b"\\r", b"%0d", b"\\u000d")
    if count(*(n + b"--" for n in newline)) > DOOR_PARTS:
        return "too many parts"
    if count(b"multipart", b"message/", b"message\\/", b"message%2f") > DOOR_NESTING:
        return "too much nesting"
    if count(b"@", b"%40", b"\\u0040") > DOOR_ADDRESSES:
        return "too many addresses"
    if count(b"\n", b"\\n", b"%0a", b"\\u000a") > DOOR_LINES:
        return "too many lines"
    return None
