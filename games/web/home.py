"""A player's home: the page of every game one address plays, opened by a
link of its own; it lists and links, and decides nothing."""

from __future__ import annotations

from functools import wraps

from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from games.selectors.home import home_games, home_link_by_token
from games.selectors.open_games import open_requests_of
from games.services.home import home_link_revoke, home_link_state

from .decorators import private


def _closed(request, why: str):
    return render(request, "home/closed.html", {"why": why}, status=404 if why == "unknown" else 410)


def _with_home_link(view):
    """Resolve the link, or answer with a clear page for one we never made."""

    @wraps(view)
    def wrapped(request, token):
        link = home_link_by_token(token)
        if link is None:
            return _closed(request, "unknown")
        return view(request, link, token)

    return wrapped


@require_safe
@private
@_with_home_link
def home_games_view(request, link, token):
    state = home_link_state(link)
    if state != "open":
        return _closed(request, state)
    context = {
        "games": home_games(link), "email": link.email, "token": token, "expires": link.expires_at,
        "requests": open_requests_of(link.email),
    }
    return render(request, "home/games.html", context)


@require_POST
@private
@_with_home_link
def home_revoke_view(request, link, token):
    home_link_revoke(link=link)
    return redirect("home_games", token=token)
