"""The seat's game as a stream of server-sent events (/api/v1/seat/events):
one event each time the game moves, with the seat's view and the history
entries since the event before, so a bot decides the moment it may and
polls nothing.

The stream is an async generator that waits as ?wait= does
(games/selectors/waits.py): under ASGI an open stream holds no thread and
no database connection between events. It ends when the game is over or
aborted, or after API_STREAM_SECONDS; a client reconnects with the
Last-Event-ID header (or ?after=) and misses nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from django.conf import settings
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _

from games.selectors import api as api_reads
from games.selectors.waits import database_call, version_after

from .api import AFTER_DIGITS, api_view, error, runs_on_pool, with_api_seat

# The game will not move again: the stream's last event.
FINISHED = ("over", "aborted")


def _event(event: dict) -> bytes:
    data = json.dumps(event, separators=(",", ":"))
    return f"id: {event['version']}\nevent: game\ndata: {data}\n\n".encode()


async def _events(seat_id: int, game_id: int, after: int | None, language: str, pooled: bool) -> AsyncIterator[bytes]:
    loop = asyncio.get_running_loop()
    ends = loop.time() + settings.API_STREAM_SECONDS
    # How long a client should wait before reconnecting, in milliseconds.
    yield b"retry: 1000\n\n"
    while True:
        event = await database_call(api_reads.stream_event, seat_id, after, language, pooled=pooled)
        if after is None or event["version"] > after:
            yield _event(event)
            after = event["version"]
        left = ends - loop.time()
        if event["view"]["game"]["status"] in FINISHED or left <= 0:
            return
        moved = await version_after(game_id, after, min(settings.API_WAIT_SECONDS, left), pooled=pooled)
        if moved is None:
            # A comment: clients ignore it, and proxies see the line is alive.
            yield b": waiting\n\n"


def _version(raw: str | None) -> int | None | str:
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > AFTER_DIGITS:
        return ""
    return int(raw)


def _after(request) -> int | None | str:
    """The version the stream starts after: Last-Event-ID's, else ?after's;
    "" when either is no version."""
    header, query = _version(request.headers.get("Last-Event-ID")), _version(request.GET.get("after"))
    if "" in (header, query):
        return ""
    return header if header is not None else query


@api_view(["GET"])
@with_api_seat
async def seat_events(request, token):
    after = _after(request)
    if after == "":
        return error(400, "bad_request", _("'Last-Event-ID' and 'after' must be a version of the game (0 or more)."))
    assert not isinstance(after, str)
    seat = token.seat
    stream = _events(seat.pk, seat.game_id, after, seat.language, runs_on_pool(request))
    response = StreamingHttpResponse(stream, content_type="text/event-stream; charset=utf-8")
    # Nginx and its kind would otherwise hold events back to fill a buffer.
    response["X-Accel-Buffering"] = "no"
    return response
