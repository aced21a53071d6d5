"""What tells whether a game's page is still the one in the cache.

The rows a page is keyed by are found by the seat's link in one statement,
and an open page asks for the bare version every few seconds
(games/web/follow.py): both are hand-written statements
(games.services.statements), as are the seats and the game a page is made
from when it is not in the cache.

A decision bumps the game's version, and with it every key: nothing is
deleted from the cache by hand. Some changes reach a page without a
decision (a name, a language, a setting, a webhook, an absence, a
moderator's step), so a page's key also carries a digest of every row the
page shows: the game's, every seat's and, while someone is away, the
absences'. A page is never older than the rows it was asked with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils import timezone

from games.models import Absence, Game, Seat
from games.services import statements
from games.services.links import TOKEN_MAX, seat_token_made_here, token_hash
from games.services.seats import game_seats

from .public import PUBLIC_ID_MAX

# Old versions are never asked for again; they go by age.
PAGE_SECONDS = 6 * 3600

# Seat columns that change without changing any page.
_NOT_SHOWN = {"link_opened_at", "digest_sent_at"}
_SHOWN_SEAT = tuple(f for f in Seat._meta.concrete_fields if f.name not in _NOT_SHOWN)
SHOWN_SEAT_FIELDS = tuple(f.name for f in _SHOWN_SEAT)
SHOWN_SEAT_COLUMNS = tuple(f.attname for f in _SHOWN_SEAT)
SHOWN_GAME_COLUMNS = (
    "public_id",
    "version",
    "status",
    "deadline",
    "paused_at",
    "ended_at",
    "decision_hours",
    "absence_allowance_days",
    "moderation_steps",
)
_SEAT = {name: place for place, name in enumerate(SHOWN_SEAT_COLUMNS)}
_GAME = {name: len(SHOWN_SEAT_COLUMNS) + place for place, name in enumerate(SHOWN_GAME_COLUMNS)}


@dataclass(frozen=True)
class Viewer:
    """The seat whose link asked for the page, as its row says."""

    seat_id: int
    game_id: int
    language: str
    time_zone: str
    # Taken, in a game that has started: the page that can be kept.
    playing: bool


@dataclass(frozen=True)
class PageRows:
    """The rows a game's page is made from, as read at one moment, in a few
    bytes: ``digest`` keys the page; ``moderated`` says whether a moderator
    ever stepped in (if not, the page need not read their steps);
    ``absences`` whether anyone is or will be away (if so, the players'
    table tells until when, in the viewer's time zone)."""

    version: int
    digest: str
    moderated: bool
    absences: bool
    viewer: Viewer | None = None

    def shared_key(self, time_zone: str) -> str:
        """The key of what every viewer of the game sees alike."""
        return f"{self.digest}:{time_zone}" if self.absences else self.digest


def _made(rows: list[tuple], game_id: int, viewer: Viewer | None = None) -> PageRows:
    absences = _absences(game_id, rows)
    digest = hashlib.sha256(repr((rows, absences)).encode()).hexdigest()
    first: tuple = rows[0] if rows else ()
    return PageRows(
        version=first[_GAME["version"]] if first else 0,
        digest=digest,
        moderated=bool(first) and first[_GAME["moderation_steps"]] > 0,
        absences=bool(absences),
        viewer=viewer,
    )


def _rows(game_id: int | None = None, hashed_token: str = "") -> list[tuple]:
    """The rows as the database driver gives them: compared and digested,
    never used as model values."""
    return statements.page_rows(
        seat_fields=SHOWN_SEAT_FIELDS, game_columns=SHOWN_GAME_COLUMNS, game_id=game_id, hashed_token=hashed_token
    )


def page_rows(game: Game) -> PageRows:
    """The rows of ``game``'s page, in one statement (one more only while
    someone has an absence declared)."""
    return _made(_rows(game_id=game.pk), game.pk)


def seat_page_rows(token: str) -> PageRows | None:
    """The rows of the game whose seat ``token`` opens, found by the link in
    the same one query, with the viewer among them; None for a link that
    opens no seat (handed over, revoked, forged: with_seat says which)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    hashed = token_hash(token)
    rows = _rows(hashed_token=hashed)
    row = next((row for row in rows if row[_SEAT["token_hash"]] == hashed), None)
    if row is None or not seat_token_made_here(
        token, public_id=row[_GAME["public_id"]], position=row[_SEAT["position"]], nonce=row[_SEAT["link_nonce"]]
    ):
        return None
    viewer = Viewer(
        seat_id=row[_SEAT["id"]],
        game_id=row[_SEAT["game_id"]],
        language=row[_SEAT["language"]],
        time_zone=row[_SEAT["time_zone"]],
        playing=row[_SEAT["accepted_at"]] is not None and row[_GAME["status"]] != Game.Status.INVITING,
    )
    return _made(rows, row[_SEAT["game_id"]], viewer)


def _absences(game_id: int, rows: list[tuple]) -> list[tuple]:
    if not any(row[_SEAT["away_until"]] is not None for row in rows):
        return []
    now = timezone.now()
    # Whether each has begun or ended is part of it: an absence that starts
    # or ends changes the page with no write at all.
    return [
        (*row, row[1] <= now, row[2] > now)
        for row in Absence.objects.filter(seat__game_id=game_id)
        .order_by("pk")
        .values_list("seat_id", "starts_at", "ends_at", "days", "mode")
    ]


def seat_version(token: str) -> int | None:
    """The version of the game whose seat ``token`` opens, in one statement;
    None for any link that opens no seat (as seat_page_rows)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    row = statements.version_by_link(token_hash(token))
    if row is None or not seat_token_made_here(token, public_id=row[1], position=row[2], nonce=row[3]):
        return None
    return row[0]


def spectator_version(public_id: str) -> int | None:
    """The version of the game ``public_id`` names, in one statement; None
    if it names none."""
    if not public_id or len(public_id) > PUBLIC_ID_MAX:
        return None
    return statements.version_by_public_id(public_id)


def seat_and_its_table(viewer: Viewer) -> tuple[Seat, list[Seat]] | None:
    """The viewer's seat and every seat of its game by position (itself among
    them), all holding one game object; None if the seat is gone: by the
    ids the rows gave: the game by a hand-written statement
    (games.services.statements), its seats as a decision reads them
    (game_seats), each cheaper than the queryset it replaced."""
    game = statements.game_by_id(viewer.game_id)
    if game is None:
        return None
    seats = game_seats(game)
    seat = next((seat for seat in seats if seat.pk == viewer.seat_id), None)
    return None if seat is None else (seat, seats)
