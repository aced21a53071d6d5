"""The choices forms offer, from the rulesets and the models, so that the web
layer needs neither the engine nor the ORM."""

from __future__ import annotations

from games import engine
from games.models import DECISION_HOURS, DEFAULT_DECISION_HOURS, Absence, Game, Seat

__all__ = [
    "ABSENCE_MODES", "CLASSIC_RULESET", "DECISION_HOURS", "DEFAULT_DECISION_HOURS", "EMAIL_MODES",
    "GAME_STATUSES", "RULESET_NAMES", "players_range",
]

RULESET_NAMES = sorted(engine.RULESETS)
CLASSIC_RULESET = engine.CLASSIC.name
ABSENCE_MODES = Absence.Mode.choices
EMAIL_MODES = Seat.EmailMode.choices
GAME_STATUSES = Game.Status.choices


def players_range(ruleset_name: str) -> tuple[int, int]:
    """The fewest and most players, the host included, of a ruleset."""
    ruleset = engine.get_ruleset(ruleset_name or CLASSIC_RULESET)
    return ruleset.min_players, ruleset.max_players
