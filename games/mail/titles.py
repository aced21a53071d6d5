"""What a seat is asked to decide, in words, from its observation alone: the
subject of its email, the email's first line and the seat page all name the
decision the same way ("your bid in the second start auction")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import pgettext, pgettext_lazy

from games.engine.state import SUBSTITUTE_AUCTION

# Only ever placed before "auction" ("in the second start auction"), so a
# translator can give each the one form that position needs.
_ORDINALS = (
    pgettext_lazy("in the … auction", "first"),
    pgettext_lazy("in the … auction", "second"),
    pgettext_lazy("in the … auction", "third"),
    pgettext_lazy("in the … auction", "fourth"),
    pgettext_lazy("in the … auction", "fifth"),
    pgettext_lazy("in the … auction", "sixth"),
    pgettext_lazy("in the … auction", "seventh"),
    pgettext_lazy("in the … auction", "eighth"),
    pgettext_lazy("in the … auction", "ninth"),
    pgettext_lazy("in the … auction", "tenth"),
)

_TITLES = {
    "start": pgettext_lazy("decision, as a subject names it", "your bid in the %(nth)s start auction"),
    "substitute": pgettext_lazy(
        "decision, as a subject names it", "your bid in the %(nth)s substitute auction after race %(race)s"
    ),
    "roll": pgettext_lazy("decision, as a subject names it", "your roll in race %(race)s"),
    "push": pgettext_lazy("decision, as a subject names it", "the Devil's push in race %(race)s"),
    "remove": pgettext_lazy("decision, as a subject names it", "your removals after race %(race)s"),
    "other": pgettext_lazy("decision, as a subject names it", "your decision"),
}

_REQUESTS = {
    "start": pgettext_lazy("decision, as an instruction", "Bid or pass in the %(nth)s start auction"),
    "substitute": pgettext_lazy(
        "decision, as an instruction", "Bid or pass in the %(nth)s substitute auction after race %(race)s"
    ),
    "roll": pgettext_lazy("decision, as an instruction", "Roll the die in race %(race)s"),
    "push": pgettext_lazy(
        "decision, as an instruction", "Choose which chair your Devil pushes back, or none, in race %(race)s"
    ),
    "remove": pgettext_lazy(
        "decision, as an instruction", "Choose one bearer to remove from every display after race %(race)s"
    ),
    "other": pgettext_lazy("decision, as an instruction", "Make your decision"),
}


def ordinal(number: int) -> str:
    """ "first" … "tenth"; a numeral with its suffix beyond."""
    if 1 <= number <= len(_ORDINALS):
        return str(_ORDINALS[number - 1])
    # English picks the suffix by the last digits; a language with one form
    # for all (German "11.") translates the four alike.
    if number % 100 in (11, 12, 13) or number % 10 not in (1, 2, 3):
        return pgettext("ordinal numeral", "%(number)sth") % {"number": number}
    if number % 10 == 1:
        return pgettext("ordinal numeral", "%(number)sst") % {"number": number}
    if number % 10 == 2:
        return pgettext("ordinal numeral", "%(number)snd") % {"number": number}
    return pgettext("ordinal numeral", "%(number)srd") % {"number": number}


def _occasion(observation: Mapping[str, Any]) -> tuple[str, dict[str, object]]:
    """Which decision, and the auction or race it belongs to."""
    decision = observation.get("decision")
    auction = observation.get("auction") or {}
    race = observation.get("race") or {}
    # Substitute auctions and removals come between races: after the last result.
    races_run = len(observation.get("results") or ())
    if decision == "bid":
        nth = ordinal(auction.get("number") or 1)
        if auction.get("kind") == SUBSTITUTE_AUCTION:
            return "substitute", {"nth": nth, "race": races_run}
        return "start", {"nth": nth}
    if decision in ("roll", "push"):
        return decision, {"race": race.get("number") or races_run + 1}
    if decision == "remove":
        return "remove", {"race": races_run}
    return "other", {}


def decision_title(observation: Mapping[str, Any]) -> str:
    """The decision as a subject names it: "your bid in the second start auction"."""
    key, values = _occasion(observation)
    return str(_TITLES[key]) % values


def decision_request(observation: Mapping[str, Any]) -> str:
    """The decision as an instruction: "Bid or pass in the second start auction"."""
    key, values = _occasion(observation)
    return str(_REQUESTS[key]) % values
