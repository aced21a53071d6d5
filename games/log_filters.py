"""Keep link and reply-address secrets out of every log line.

A seat link (/s/<token>/...) or an unsubscribe link (/u/<token>/) opens a seat
to whoever holds it, a home link (/h/<token>/...) every seat of an address
and the making of player API tokens, an open game's confirmation link (/open/c/<token>/)
holds one, a join link (/open/j/<token>/) may be the host's to give, and a
reply address (reply+<seat>.<version>.<hmac>@...)
lets its holder act by email; logs are read by more people, and kept longer,
than either should be.
"""

from __future__ import annotations

import logging
import re

HIDDEN = "<hidden>"

# The token ends where a path segment, a query, a fragment or the quoting
# around a logged URL does. "<" ends it too, so that already hidden text is
# left as it is when a record passes through a second filtered handler.
# Not after another "/": in "http://h/..." the "h" is a host, not a home link.
_LINK = re.compile(r"(?<!/)(/[suh]/|/open/[cj]/)[^/\s\"'?#<>]+")
# Everything between "reply+" and "@" is secret; mail servers change the case.
_REPLY = re.compile(r"(reply\+)[^@\s\"'<>,;]+(?=@)", re.IGNORECASE)


def redact_secrets(text: str) -> str:
    """``text`` with the secret of every seat link, unsubscribe link and
    reply address replaced by <hidden>."""
    # Nearly every line has none of these, and is returned without running a
    # regular expression; lower() only for the few lines with a "+".
    if "/s/" in text or "/u/" in text or "/h/" in text or "/open/" in text:
        text = _LINK.sub(rf"\g<1>{HIDDEN}", text)
    if "+" in text and "reply+" in text.lower():
        text = _REPLY.sub(rf"\g<1>{HIDDEN}", text)
    return text


class HideSeatTokens(logging.Filter):
    """Put on a handler (not a logger): a logger's filters do not see records
    that propagate up to it from its children."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            # The handler would report a broken format string by printing msg
            # and args as they are; print them here instead, redacted.
            message = f"{record.msg} {record.args!r}"
            record.msg, record.args = redact_secrets(message), ()
        else:
            redacted = redact_secrets(message)
            if redacted != message:
                record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            # Formatters reuse exc_text rather than formatting exc_info again.
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact_secrets(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_secrets(record.stack_info)
        return True
