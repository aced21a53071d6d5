"""Names people give themselves: one line of visible text.

A name goes into email subjects and headers, the board and every page; a line
break in it breaks the header (or injects one), a bidi override or an
invisible character lets one player pass for another."""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from .errors import ServiceError

NAME_MAX = 40  # Seat.display_name
# Control, format, surrogate, private-use, unassigned, and line/paragraph
# separators.
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# Joiners are format characters that real names need: ZWNJ in Persian and
# Indic scripts, ZWJ in emoji sequences.
_ALLOWED_FORMAT = {"\u200c", "\u200d"}


def name_problem(name: str) -> str | None:
    """Why ``name`` (already stripped) cannot be used, or None."""
    if not name or len(name) > NAME_MAX:
        return _("Give a name of 1 to %(max)d characters.") % {"max": NAME_MAX}
    for char in name:
        if char in _ALLOWED_FORMAT:
            continue
        if unicodedata.category(char) in _FORBIDDEN_CATEGORIES:
            return _("A name cannot contain line breaks, tabs or other invisible control characters.")
    return None


def name_clean(name: str) -> str:
    """The name, stripped; ServiceError if it cannot be used."""
    name = (name or "").strip()
    problem = name_problem(name)
    if problem:
        raise ServiceError(problem)
    return name
