"""What several forms share: the wording of a number of hours, and the check of a name."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import ngettext

from games.services.names import name_problem


def _hours_text(hours: int) -> str:
    if hours % 24 == 0 and hours >= 24:
        days = hours // 24
        return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}
    return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}


# The choices are made once, at import; each label is worded only when a page
# shows it, in that page's language (a lazy ngettext filled with % is not).
hours_label = lazy(_hours_text, str)


def validate_name(value: str) -> None:
    problem = name_problem(value)
    if problem:
        raise ValidationError(problem)
