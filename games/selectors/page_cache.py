"""Seat and spectator pages from cache, keyed by the game's version and by
every row the page shows (docs/architecture.md#caching).

A decision bumps the game's version, and with it the key: nothing is ever
deleted from the cache by hand. The key also carries the game's row (status,
deadline, pause), every seat's row (names, settings, autopilot), the
absences and the newest moderator's step, because those change the page
without a decision. So a page is never older than the rows it was asked
with. The rows come in one query, found by the link's hash (or the game's
public id), so a page from the cache costs that query and one cache read.

What differs between two requests for the same key is left out of the cached
page: the link's secret and the form's CSRF token are placeholders, filled in
for each request, so the cache never holds a seat's link."""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from django.core.cache import cache
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import page_marks
from games.models import Absence, Game, ModerationEntry, Seat
from games.prepared import Prepared
from games.services.links import TOKEN_MAX, seat_token_made_here, token_hash

# Longer than any public id we make.
PUBLIC_ID_MAX = 32
# Old versions are never asked for again; they go by age.
SEAT_PAGE_SECONDS = 6 * 3600
# Kept pieces each thread holds in memory: a page's sections are 10-20 kB.
KEPT_NEAR = 64

# Seat columns that change without changing any page.
_NOT_SHOWN = {"link_opened_at", "digest_sent_at"}
_SEAT_COLUMNS = tuple(f.attname for f in Seat._meta.concrete_fields if f.name not in _NOT_SHOWN)
_GAME_COLUMNS = tuple(
    f"game__{name}"
    for name in ("public_id", "version", "status", "deadline", "paused_at", "ended_at", "decision_hours", "absence_allowance_days")
)


@dataclass
class Table:
    """The rows a page of one game is made from, read at one moment; the
    viewer's row among them, or None for a spectator."""

    viewer: dict | None
    seats: list[dict]
    absences: list[tuple]
    read_by: Prepared

    @property
    def cacheable(self) -> bool:
        if self.viewer is None:
            return True
        # The invitation has a form of its own and changes as seats are taken.
        return self.viewer["game__status"] != Game.Status.INVITING and self.viewer["accepted_at"] is not None

    @property
    def moderated(self) -> bool:
        """Whether a moderator has stepped into the game: if not, a page
        made from these rows need not read the moderators' steps."""
        return self.seats[0]["moderated"] is not None

    def seats_of(self, game: Game) -> list[Seat]:
        """The seats as these rows hold them, as game_seats gives them but
        without reading them again; a page made from the rows shows the
        seats its key was made of. Columns no page shows are read if asked."""
        seats = []
        for row in self.seats:
            values = self.read_by.converted(row)
            seat = Seat.from_db("default", _SEAT_COLUMNS, [values[name] for name in _SEAT_COLUMNS])
            seat.game = game
            seats.append(seat)
        return seats

    @cached_property
    def rows_digest(self) -> str:
        """Every row read, in a few bytes: a page's key, and its sections'."""
        return hashlib.sha256(repr((self.seats, self.absences)).encode()).hexdigest()

    def key(self, since: int | None, language: str = "") -> str:
        row = self.viewer or self.seats[0]
        version = row["game__version"]
        # A "since" that is not an earlier version shows nothing, whatever it is.
        since = since if since is not None and 0 <= since < version else None
        page = f"seat-page:{self.viewer['id']}" if self.viewer else f"spectator-page:{row['game_id']}"
        return f"{page}:{version}:{self.rows_digest}:{since}:{language}"


def _table_queryset(game_of_page):
    """Every seat of one game, with the game's columns and the newest
    moderator's step."""
    newest_step = ModerationEntry.objects.filter(game_id=OuterRef("game_id")).order_by("-pk").values("pk")[:1]
    return (
        Seat.objects.filter(game_id=Subquery(game_of_page))
        .annotate(moderated=Subquery(newest_step))
        .order_by("position")
        .values(*_SEAT_COLUMNS, *_GAME_COLUMNS, "moderated")
    )


_COLUMNS = (*_SEAT_COLUMNS, *_GAME_COLUMNS, "moderated")
_BY_LINK = Prepared(lambda hashed: _table_queryset(Seat.objects.filter(token_hash=hashed).values("game_id")[:1]), _COLUMNS)
_BY_GAME = Prepared(lambda public_id: _table_queryset(Game.objects.filter(public_id=public_id).values("pk")[:1]), _COLUMNS)


def _absences(seats: list[dict]) -> list[tuple]:
    if not any(row["away_until"] is not None for row in seats):
        return []
    now = timezone.now()
    # Whether each has begun or ended is part of it: an absence that starts
    # or ends changes the page with no write at all.
    return [
        (*row, row[1] <= now, row[2] > now)
        for row in Absence.objects.filter(seat__game_id=seats[0]["game_id"])
        .order_by("pk")
        .values_list("seat_id", "starts_at", "ends_at", "days", "mode")
    ]


def table_read(token: str) -> Table | None:
    """The rows of the game whose seat ``token`` opens, or None for a link
    that opens no seat (handed over, revoked, forged: with_seat says which)."""
    if not token or len(token) > TOKEN_MAX:
        return None
    hashed = token_hash(token)
    seats = _BY_LINK.rows(hashed)
    viewer = next((row for row in seats if row["token_hash"] == hashed), None)
    if viewer is None or not seat_token_made_here(
        token, public_id=viewer["game__public_id"], position=viewer["position"], nonce=viewer["link_nonce"]
    ):
        return None
    return Table(viewer=viewer, seats=seats, absences=_absences(seats), read_by=_BY_LINK)


def spectator_table_read(public_id: str) -> Table | None:
    seats = _BY_GAME.rows(public_id) if len(public_id) <= PUBLIC_ID_MAX else []
    return Table(viewer=None, seats=seats, absences=_absences(seats), read_by=_BY_GAME) if seats else None


@dataclass
class Lookup:
    """A page looked up in the cache: ``html`` when found; otherwise the rows
    it was looked up with, under whose key the page made next is kept."""

    html: str | None
    table: Table | None
    since: int | None = None
    language: str = ""

    def key(self) -> str | None:
        return self.table.key(self.since, self.language) if self.table is not None and self.table.cacheable else None


def _looked_up(table: Table | None, since: int | None, language: str) -> Lookup:
    lookup = Lookup(html=None, table=table, since=since, language=language)
    key = lookup.key()
    if key is not None:
        lookup.html = cache.get(key)
    return lookup


def seat_page_cached(token: str, since: int | None) -> Lookup:
    """The seat page if the cache has it as the rows are now."""
    return _looked_up(table_read(token), since, "")


def spectator_page_cached(public_id: str, language: str) -> Lookup:
    return _looked_up(spectator_table_read(public_id), None, language)


def page_store(lookup: Lookup, render: Callable[[], str]) -> str:
    """The page ``render`` makes (with the placeholders), kept under the key
    of the rows the lookup read before it was made: a page is never filed
    under rows newer than the ones it shows."""
    html = render()
    key = lookup.key()
    if key is not None:
        cache.set(key, html, SEAT_PAGE_SECONDS)
    return html


def _inputs_key(kind: str, name: str, inputs: tuple) -> str:
    return f"{kind}:{name}:{hashlib.sha256(repr(inputs).encode()).hexdigest()}"


def _near() -> OrderedDict:
    """The pieces this thread used last, newest last: one per cache
    connection, which Django gives each thread (and each test) of its own."""
    near = getattr(cache, "_kept_near", None)
    if near is None:
        near = cache._kept_near = OrderedDict()
    return near


def near_forget() -> None:
    """Drop the pieces this thread holds in memory, as a process starts."""
    _near().clear()


def kept(name: str, inputs: tuple, make: Callable[[], object]):
    """What ``make`` returns for ``inputs`` (a piece of a page, or what one
    is made from), made once for everyone who asks with the same inputs:
    ``inputs`` must hold everything it depends on. A piece never changes
    under its key, so the newest ones are also held in memory: the forms
    nearly every page shows cost no round trip to the cache. What is held
    there is handed to every caller, so it must not be changed (HTML is a
    string)."""
    key = _inputs_key("kept", name, inputs)
    near = _near()
    value = near.get(key)
    if value is not None:
        near.move_to_end(key)
        return value
    value = cache.get(key)
    if value is None:
        value = make()
        cache.set(key, value, SEAT_PAGE_SECONDS)
    near[key] = value
    if len(near) > KEPT_NEAR:
        near.popitem(last=False)
    return value


def kept_growing(name: str, inputs: tuple, version: int, grow: Callable[[int, int], list], limit: int) -> list:
    """The newest ``limit`` items of a list that only grows with a game's
    version (what its log tells), oldest first, as at ``version``.
    ``grow(after, upto)`` gives the items of the versions after ``after`` up
    to ``upto``. The list is kept with the version it was made at; a later
    version grows it by what came since, an earlier one is made whole and
    not kept. ``inputs`` must hold everything an item depends on."""
    key = _inputs_key("growing", name, inputs)
    kept = cache.get(key)
    if kept is not None and kept[0] <= version:
        made_at, items = kept
        if made_at == version:
            return items
        items = (items + grow(made_at, version))[-limit:]
    else:
        items = grow(0, version)
    if kept is None or kept[0] < version:
        cache.set(key, (version, items), SEAT_PAGE_SECONDS)
    return items


def placeholders_fill(html: str, token: str, csrf_token: str) -> str:
    """The page as this request gets it; ``token`` is "" for a page that
    holds no seat link (the spectator's)."""
    if token:
        html = html.replace(page_marks.SEAT_LINK, token)
    return html.replace(page_marks.CSRF_TOKEN, csrf_token)
