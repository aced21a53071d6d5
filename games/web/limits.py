"""Rate limits on the pages that send email to an address someone types in,
or look up a name someone typed in (a webhook's), counted in Django's cache
by games.services.limits (the answers to replies by email count there too)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.services.limits import Limit, Standing, limits_counted, limits_hit, limits_standing

__all__ = ["Limit", "Standing", "limits_counted", "limits_hit", "limits_standing", "client_ip", "too_many"]

# "Send me my links again": a player who lost the email asks once or twice;
# more than that is someone else mailing the address.
LINKS_PER_ADDRESS = Limit("links-address", 3, 3600)
# Several players behind one home or office address may ask in the same hour.
LINKS_PER_CLIENT = Limit("links-client", 20, 3600)
# Each new game mails up to five addresses someone typed in; friends start a
# few games, not dozens.
GAMES_PER_CLIENT = Limit("games-client", 5, 3600)
# Asking to join an open game (or "Play now") mails a confirmation to the
# address typed in: a person joins a few games an hour, and one client
# typing address after address is filling a game with made-up players.
JOINS_PER_ADDRESS = Limit("joins-address", 3, 3600)
JOINS_PER_CLIENT = Limit("joins-client", 6, 3600)
# Adding a webhook makes the server look up a name the player chose: a few
# tries an hour set one up; more would drive look-ups at will.
WEBHOOK_ADDS_PER_SEAT = Limit("webhook-adds-seat", 10, 3600)
WEBHOOK_ADDS_PER_CLIENT = Limit("webhook-adds-client", 30, 3600)


def client_ip(request: HttpRequest) -> str:
    """REMOTE_ADDR, or behind TRUSTED_PROXY_HOPS proxies the address the
    outermost of them appended to X-Forwarded-For (the entries left of it are
    whatever the client sent). Also used by django-axes for sign-in lockouts."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    hops = getattr(settings, "TRUSTED_PROXY_HOPS", 0)
    if hops <= 0:
        return remote
    header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [part.strip() for part in header.split(",") if part.strip()]
    if len(forwarded) < hops:
        # Not through every proxy we were told of: take what we can see.
        return remote
    return forwarded[-hops][:64]


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The page for a refused request: 429, and when to try again."""
    response = render(request, "public/too_many.html", {"minutes": max(1, (retry_after + 59) // 60)}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
