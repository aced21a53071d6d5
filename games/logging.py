"""A log filter that blanks seat-link secrets out of request lines."""

from __future__ import annotations

import logging
import re

_SEAT_PATH = re.compile(r"/s/[^/\s\"?]+")


class HideSeatTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "/s/" in message:
            record.msg = _SEAT_PATH.sub("/s/<hidden>", message)
            record.args = ()
        return True
