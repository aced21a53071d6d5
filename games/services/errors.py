"""What services refuse, each with a message fit to show the user."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.narrate import colour_name

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


class ServiceError(Exception):
    message: StrOrPromise = _("That could not be done.")
    # Stable, for programs (the JSON API's error codes): the message is for people.
    code = "refused"

    def __init__(self, message: StrOrPromise | None = None) -> None:
        super().__init__(message or self.message)
        if message is not None:
            self.message = message


class StaleDecision(ServiceError):
    code = "stale_decision"
    message = _("This decision was already made. Nothing was changed; here is the game as it stands now.")


class NotYourTurn(ServiceError):
    code = "not_your_turn"
    message = _("It is not your turn to decide. Nothing was changed.")


class GameNotRunning(ServiceError):
    code = "game_not_running"
    message = _("This game is not running, so nothing can be decided in it.")


class RefusedAction(ServiceError):
    """An engine refusal (illegal or malformed action), passed on verbatim."""

    code = "illegal_decision"


def engine_refusal(error: engine.EngineError) -> RefusedAction:
    """The engine's refusal in the reader's language, its colours named as
    the pages name them ("Blue", not "blue")."""
    refusal = RefusedAction(error.translated(gettext, colour_name))
    if isinstance(error, engine.NotationError):
        refusal.code = "malformed_decision"
    return refusal
