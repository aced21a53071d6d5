"""What an open game page asks every few seconds (games/static/games/follow.js):
the game's version, with an ETag, so that an unchanged game costs one small
read and a 304.

The version is the one the page was made from (its script carries it), so
the script asks with If-None-Match and hears 304 until the game moves. No
rate limit: like the page itself and its JSON, it is a read by a link that
is already secret, and cheaper than either."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import condition, require_safe

from games.selectors.game_page import seat_version, spectator_version


def _answer(version: int | None) -> HttpResponse:
    if version is None:
        # The same 404 for a forged, revoked or handed-over link, or an
        # unknown game: nothing tells them apart.
        raise Http404()
    response = HttpResponse(str(version), content_type="text/plain; charset=utf-8")
    # Set here, from the same read as the body: the decorator's own read may
    # be a version older.
    response["ETag"] = f'"{version}"'
    return response


def _seat_etag(request, token: str) -> str | None:
    version = seat_version(token)
    return None if version is None else str(version)


def _spectator_etag(request, public_id: str) -> str | None:
    version = spectator_version(public_id)
    return None if version is None else str(version)


# The seat's answer is the seat link's: kept by no shared cache, and asked
# again every time (no-cache lets the browser revalidate with the ETag).
@require_safe
@cache_control(private=True, no_cache=True)
@condition(etag_func=_seat_etag)
def seat_version_view(request, token):
    """The version of the seat's game; 304 while it is the one asked with.
    Read again for a 200: that answer comes once per version."""
    return _answer(seat_version(token))


@require_safe
@cache_control(no_cache=True)
@condition(etag_func=_spectator_etag)
def spectator_version_view(request, public_id):
    return _answer(spectator_version(public_id))
