"""What several views need around them: private pages, seat links, debug-only
pages."""

from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.utils import translation

from games.selectors.public import game_by_public_id
from games.selectors.seat import seat_for_link


def private(view):
    """Pages opened by a secret link: never cached, never leak the link as a
    referrer to another site. same-origin rather than no-referrer, because with
    no-referrer Chromium posts our own forms with "Origin: null", which the
    CSRF check refuses."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Cache-Control"] = "no-store"
        response["Referrer-Policy"] = "same-origin"
        return response

    return wrapped


def with_seat(view):
    """Resolve the link's seat, or answer with a clear page for a bad link."""

    @wraps(view)
    def wrapped(request, token, *args, **kwargs):
        seat, why = seat_for_link(token)
        if why == "handed_over":
            return render(request, "seat/handed_over.html", status=410)
        if seat is None:
            return render(request, "seat/link_invalid.html", status=404)
        if seat.accepted_at is None:
            # Not chosen yet: the invitation speaks the browser's language,
            # which its form offers as the seat's.
            return view(request, seat, token, *args, **kwargs)
        # The seat's language, not the browser's: the same link reads the
        # same on the player's phone and laptop, and as their emails do.
        with translation.override(seat.language):
            request.LANGUAGE_CODE = seat.language
            response = view(request, seat, token, *args, **kwargs)
        response["Content-Language"] = seat.language
        return response

    return private(wrapped)


def number_in_query(request, name: str, default: str = "", digits: int = 10) -> int | None:
    """A whole number 0 or more of at most ``digits`` digits from the query
    string, or None for anything else (missing without a default, signs,
    other digits, too long)."""
    raw = request.GET.get(name, default)
    if not raw.isascii() or not raw.isdigit() or len(raw) > digits:
        return None
    return int(raw)


def debug_only(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not settings.DEBUG:
            raise Http404()
        return view(request, *args, **kwargs)

    return wrapped


def game_or_404(public_id: str):
    """The game a public id names, for every page addressed by one."""
    game = game_by_public_id(public_id)
    if game is None:
        raise Http404()
    return game
