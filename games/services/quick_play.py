""""Play now": a seat in the listed open game that fits and starts soonest,
or a new listed game that the next person who asks will find."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from games import engine
from games.models import Game, JoinRequest

from .open_games import Opening, join_request_make
from .setup import game_create

# A new quick game: the person and three open seats, filled by computer
# players if nobody comes within the hour.
QUICK_OPEN_SEATS = 3
QUICK_WAIT_HOURS = 1


@dataclass(frozen=True)
class QuickPlay:
    """What "Play now" did: asked to join ``game`` (``joined``, a
    confirmation email is on its way) or made it (its invitation is)."""

    game: Game
    joined: JoinRequest | None


def fitting_game(*, language: str, decision_hours: int, email: str) -> Game | None:
    """The listed open game in this language and pace that starts soonest,
    where the address has no seat yet."""
    return (
        Game.objects.filter(
            status=Game.Status.INVITING, listed=True, hidden=False, open_seats__gt=0,
            language=language, decision_hours=decision_hours,
        )
        .exclude(seats__email=email.strip().lower())
        .order_by(F("open_until").asc(nulls_last=True), "created_at")
        .first()
    )


def quick_play(*, name: str, email: str, language: str, decision_hours: int) -> QuickPlay:
    game = fitting_game(language=language, decision_hours=decision_hours, email=email)
    if game is not None:
        return QuickPlay(game, join_request_make(game=game, name=name, email=email, language=language))
    opening = Opening(
        seats=QUICK_OPEN_SEATS, listed=True, language=language, wait_hours=QUICK_WAIT_HOURS,
        when_open=Game.WhenOpen.FILL,
    )
    created = game_create(
        host_name=name, host_email=email, other_emails=[], decision_hours=decision_hours,
        ruleset_name=engine.CLASSIC.name, language=language, opening=opening,
    )
    return QuickPlay(created, None)
