"""A player's home: the page of every game one address plays, opened by a
link of its own; it lists and links, and decides nothing."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.selectors.home import home_games, home_link_by_token
from games.selectors.open_games import open_requests_of
from games.services.errors import ServiceError
from games.services.home import home_link_revoke, home_link_state
from games.services.player_tokens import (
    TOKENS_PER_ADDRESS,
    player_token_create,
    player_token_revoke,
    player_tokens_live,
)

from .decorators import private
from .forms import ApiTokenForm


def _closed(request, why: str):
    return render(request, "home/closed.html", {"why": why}, status=404 if why == "unknown" else 410)


def _with_home_link(view):
    """Resolve the link, or answer with a clear page for one we never made."""

    @wraps(view)
    def wrapped(request, token, *args, **kwargs):
        link = home_link_by_token(token)
        if link is None:
            return _closed(request, "unknown")
        return view(request, link, token, *args, **kwargs)

    return wrapped


def _with_open_home_link(view):
    """As _with_home_link, and a revoked or expired link opens nothing."""

    @wraps(view)
    def wrapped(request, link, token, *args, **kwargs):
        state = home_link_state(link)
        if state != "open":
            return _closed(request, state)
        return view(request, link, token, *args, **kwargs)

    return _with_home_link(wrapped)


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


def _tokens_page(request, link, token, *, secret=None, form=None, status=200):
    context = {
        "email": link.email,
        "token": token,
        "tokens": player_tokens_live(link.email),
        "tokens_max": TOKENS_PER_ADDRESS,
        "secret": secret,
        "form": form or ApiTokenForm(),
    }
    return render(request, "home/api_tokens.html", context, status=status)


@require_safe
@private
@_with_open_home_link
def home_api_tokens_view(request, link, token):
    return _tokens_page(request, link, token)


@require_POST
@private
@_with_open_home_link
def home_api_token_new(request, link, token):
    form = ApiTokenForm(request.POST)
    if not form.is_valid():
        return _tokens_page(request, link, token, form=form, status=400)
    try:
        _made, secret = player_token_create(link=link, label=form.cleaned_data["label"])
    except ServiceError as refusal:
        form.add_error(None, refusal.message)
        return _tokens_page(request, link, token, form=form, status=400)
    # Shown in this answer only, which is no-store: never kept in a message or the session.
    return _tokens_page(request, link, token, secret=secret)


@require_POST
@private
@_with_open_home_link
def home_api_token_end(request, link, token, token_id):
    if player_token_revoke(email=link.email, token_id=token_id):
        messages.success(request, _("The token is ended: it opens nothing any more."))
    else:
        messages.error(
            request, _("There is no such token for this address, or it was ended already. Nothing was changed.")
        )
    return redirect("home_api_tokens", token=token)
