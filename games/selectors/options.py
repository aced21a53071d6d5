"""The choices forms offer, from the rulesets and the models, so that the web
layer needs neither the engine nor the ORM."""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import get_language_info

from games import engine
from games.models import DECISION_HOURS, DEFAULT_DECISION_HOURS, OPEN_WAIT_HOURS, Absence, Game, Seat

__all__ = [
    "ABSENCE_MODES",
    "CLASSIC_RULESET",
    "COMPUTER_SIMPLE",
    "COMPUTER_EXPERT",
    "COMPUTER_LEVELS",
    "COMPUTER_STRONG",
    "DECISION_HOURS",
    "DEFAULT_DECISION_HOURS",
    "EMAIL_MODES",
    "GAME_STATUSES",
    "LANGUAGE_CHOICES",
    "OPEN_WAIT_HOURS",
    "WHEN_OPEN_CHOICES",
    "WHEN_OPEN_FILL",
    "RULESET_NAMES",
    "players_range",
]

RULESET_NAMES = sorted(engine.RULESETS)
CLASSIC_RULESET = engine.CLASSIC.name
ABSENCE_MODES = Absence.Mode.choices
COMPUTER_EXPERT = Seat.Computer.EXPERT.value
COMPUTER_LEVELS = tuple(Seat.Computer.values)
COMPUTER_STRONG = Seat.Computer.STRONG.value
COMPUTER_SIMPLE = Seat.Computer.SIMPLE.value
EMAIL_MODES = Seat.EmailMode.choices
GAME_STATUSES = Game.Status.choices
WHEN_OPEN_CHOICES = Game.WhenOpen.choices
WHEN_OPEN_FILL = Game.WhenOpen.FILL.value
# Each language named in itself ("Deutsch", not "German"): a player who reads
# only one of them finds theirs whatever language the page is in now.
LANGUAGE_CHOICES = [(code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES]


def players_range(ruleset_name: str) -> tuple[int, int]:
    """The fewest and most players, the host included, of a ruleset."""
    ruleset = engine.get_ruleset(ruleset_name or CLASSIC_RULESET)
    return ruleset.min_players, ruleset.max_players
