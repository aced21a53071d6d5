"""Rate limits on the pages that send email to an address someone types in,
or look up a name someone typed in (a webhook's), counted in Django's cache (shared by every web process: see CACHES).

Each limit is a fixed window: at most ``count`` requests per ``seconds``,
counted from the start of the window, so the page can say when it opens again.
Keys are hashed: the cache never holds an email or client address."""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django_redis import get_redis_connection

# The cache backend whose Redis connection the counters may use directly.
REDIS_CACHE = "django_redis.cache.RedisCache"


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int


# "Send me my links again": a player who lost the email asks once or twice;
# more than that is someone else mailing the address.
LINKS_PER_ADDRESS = Limit("links-address", 3, 3600)
# Several players behind one home or office address may ask in the same hour.
LINKS_PER_CLIENT = Limit("links-client", 20, 3600)
# Each new game mails up to five addresses someone typed in; friends start a
# few games, not dozens.
GAMES_PER_CLIENT = Limit("games-client", 5, 3600)
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


def _key(limit: Limit, who: str, window: int) -> str:
    digest = hashlib.sha256(f"{limit.name}:{who}".encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"limit:{limit.name}:{digest}:{window}"


def _windows(checks: list[tuple[Limit, str]]) -> list[tuple[Limit, str, float]]:
    """Each limit with the key of its current window and the seconds left in it."""
    now = time.time()
    keyed = []
    for limit, who in checks:
        window = int(now // limit.seconds)
        keyed.append((limit, _key(limit, who, window), (window + 1) * limit.seconds - now))
    return keyed


def _add_one(key: str, seconds: int) -> int:
    """The counter after adding one. add() then incr(): atomic on Redis; a
    race elsewhere costs one extra request at most."""
    cache.add(key, 0, timeout=seconds)
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=seconds)
        return 1


def limits_hit(checks: list[tuple[Limit, str]]) -> int | None:
    """Count one request against each (limit, who); None if all allow it,
    else the seconds until the latest of the full ones opens again. A refused
    request is not counted, so waiting out the window always works."""
    keys = _windows(checks)
    counts = cache.get_many([key for _, key, _ in keys])
    full = [left for limit, key, left in keys if counts.get(key, 0) >= limit.count]
    if full:
        return max(1, int(max(full)) + 1)
    over = []
    for limit, key, left in keys:
        if _add_one(key, int(left) + 60) > limit.count:
            over.append(left)
    return max(1, int(max(over)) + 1) if over else None


def limits_counted(checks: list[tuple[Limit, str]]) -> int | None:
    """limits_hit for requests that come often (the API's): one round trip to
    Redis for every limit together. Each request is counted, a refused one
    too; the windows are fixed, so waiting one out still always works."""
    keyed = _windows(checks)
    if settings.CACHES["default"]["BACKEND"] == REDIS_CACHE:
        counts = _added_in_one_round_trip([(key, int(left) + 60) for _, key, left in keyed])
    else:
        counts = [_add_one(key, int(left) + 60) for _, key, left in keyed]
    over = [left for (limit, _, left), count in zip(keyed, counts, strict=True) if count > limit.count]
    return max(1, int(max(over)) + 1) if over else None


def _added_in_one_round_trip(keys_and_seconds: list[tuple[str, int]]) -> list[int]:
    """Add one to each counter (made at 0 if absent) and keep it for its
    seconds: every counter in one round trip to Redis, each INCR atomic
    (the cache API's incr() takes two round trips a key)."""
    pipeline = get_redis_connection("default").pipeline(transaction=False)
    for key, seconds in keys_and_seconds:
        key = cache.make_and_validate_key(key)
        pipeline.incr(key)
        pipeline.expire(key, seconds)
    return [int(count) for count in pipeline.execute()[::2]]


def too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The page for a refused request: 429, and when to try again."""
    response = render(request, "public/too_many.html", {"minutes": max(1, (retry_after + 59) // 60)}, status=429)
    response["Retry-After"] = str(retry_after)
    return response
