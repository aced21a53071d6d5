"""What tells whether a game's page is still the one in the cache.

A decision bumps the game's version, and with it every key: nothing is
deleted from the cache by hand. Some changes reach a page without a
decision (a name, a language, a setting, an absence, a moderator's step),
so a page's key also carries a digest of every row the page shows: the
game's, every seat's, the absences' and the newest moderator's step. A page
is never older than the rows it was asked with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games.models import Absence, Game, ModerationEntry, Seat

# Old versions are never asked for again; they go by age.
PAGE_SECONDS = 6 * 3600

# Seat columns that change without changing any page.
_NOT_SHOWN = {"link_opened_at", "digest_sent_at"}
SHOWN_SEAT_COLUMNS = tuple(f.attname for f in Seat._meta.concrete_fields if f.name not in _NOT_SHOWN)
SHOWN_GAME_COLUMNS = (
    "public_id", "version", "status", "deadline", "paused_at", "ended_at", "decision_hours", "absence_allowance_days",
)


@dataclass(frozen=True)
class PageRows:
    """The rows a game's page is made from, as read at one moment, in a few
    bytes: ``digest`` keys the page; ``moderated`` says whether a moderator
    ever stepped in (if not, the page need not read their steps);
    ``absences`` whether anyone is or will be away (if so, the players'
    table tells until when, in the viewer's time zone)."""

    digest: str
    moderated: bool
    absences: bool

    def shared_key(self, time_zone: str) -> str:
        """The key of what every viewer of the game sees alike."""
        return f"{self.digest}:{time_zone}" if self.absences else self.digest


def page_rows(game: Game) -> PageRows:
    """One query for the seats (with the newest moderator's step), one more
    only while someone has an absence declared."""
    newest_step = ModerationEntry.objects.filter(game_id=OuterRef("game_id")).order_by("-pk").values("pk")[:1]
    seats = list(
        Seat.objects.filter(game_id=game.pk)
        .annotate(newest_step=Subquery(newest_step))
        .order_by("position")
        .values_list(*SHOWN_SEAT_COLUMNS, "newest_step")
    )
    absences = _absences(game, seats)
    game_row = tuple(getattr(game, name) for name in SHOWN_GAME_COLUMNS)
    digest = hashlib.sha256(repr((game_row, seats, absences)).encode()).hexdigest()
    moderated = bool(seats) and seats[0][-1] is not None
    return PageRows(digest=digest, moderated=moderated, absences=bool(absences))


def _absences(game: Game, seats: list[tuple]) -> list[tuple]:
    away_until = SHOWN_SEAT_COLUMNS.index("away_until")
    if not any(row[away_until] is not None for row in seats):
        return []
    now = timezone.now()
    # Whether each has begun or ended is part of it: an absence that starts
    # or ends changes the page with no write at all.
    return [
        (*row, row[1] <= now, row[2] > now)
        for row in Absence.objects.filter(seat__game_id=game.pk)
        .order_by("pk")
        .values_list("seat_id", "starts_at", "ends_at", "days", "mode")
    ]
