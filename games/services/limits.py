"""Limits counted in Django's cache (shared by every web process and worker:
see CACHES): the pages that send email to an address someone types in, the
JSON API, and the answers to replies by email.

A limit allows at most ``count`` requests per ``seconds``. Most are fixed
windows, counted from the start of the window, so a page can say when it
opens again; a rolling one starts at its first request, so "one answer per
ten minutes" never lets two through a few seconds apart across a window's
edge. Keys are hashed: the cache never holds an email or client address."""

from __future__ import annotations

import contextlib
import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django_redis import get_redis_connection

# The cache backend whose Redis connection the counters may use directly.
REDIS_CACHE = "django_redis.cache.RedisCache"


@dataclass(frozen=True)
class Limit:
    name: str
    count: int
    seconds: int
    rolling: bool = False


def _key(limit: Limit, who: str, window: int | str) -> str:
    digest = hashlib.sha256(f"{limit.name}:{who}".encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return f"limit:{limit.name}:{digest}:{window}"


def _windows(checks: list[tuple[Limit, str]]) -> list[tuple[Limit, str, float, int]]:
    """Each limit with the key of its current window, the seconds left in it
    and how long its counter is kept."""
    now = time.time()
    keyed = []
    for limit, who in checks:
        if limit.rolling:
            # The counter lives exactly as long as the window it counts.
            keyed.append((limit, _key(limit, who, "rolling"), float(limit.seconds), limit.seconds))
            continue
        window = int(now // limit.seconds)
        left = (window + 1) * limit.seconds - now
        keyed.append((limit, _key(limit, who, window), left, int(left) + 60))
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
    else the seconds until the latest of the full ones opens again (for a
    rolling limit, at most). A refused request is not counted, so waiting out
    the window always works."""
    keys = _windows(checks)
    counts = cache.get_many([key for _, key, _, _ in keys])
    full = [left for limit, key, left, _ in keys if counts.get(key, 0) >= limit.count]
    if full:
        return max(1, int(max(full)) + 1)
    over = []
    for limit, key, left, keep in keys:
        if _add_one(key, keep) > limit.count:
            over.append(left)
    return max(1, int(max(over)) + 1) if over else None


@dataclass(frozen=True)
class Standing:
    """Where a client stands against the limit it is closest to: for the
    RateLimit-* headers the API sends with every answer."""

    limit: int
    remaining: int
    reset: int  # seconds until the window opens again
    retry_after: int | None  # set when the request was over a limit


def limits_counted(checks: list[tuple[Limit, str]]) -> int | None:
    """limits_hit for requests that come often (the API's): one round trip to
    Redis for every limit together. Each request is counted, a refused one
    too; the windows are fixed, so waiting one out still always works."""
    return limits_standing(checks).retry_after


def limits_standing(checks: list[tuple[Limit, str]]) -> Standing:
    """limits_counted, telling also how much is left of the tightest limit."""
    keyed = _windows(checks)
    if settings.CACHES["default"]["BACKEND"] == REDIS_CACHE:
        counts = _added_in_one_round_trip([(key, keep) for _, key, _, keep in keyed])
    else:
        counts = [_add_one(key, keep) for _, key, _, keep in keyed]
    over = [left for (limit, _, left, _), count in zip(keyed, counts, strict=True) if count > limit.count]
    standings = [
        (limit.count - count, limit.count, left)
        for (limit, _, left, _), count in zip(keyed, counts, strict=True)
    ]
    remaining, limit_count, left = min(standings)
    return Standing(
        limit=limit_count,
        remaining=max(0, remaining),
        reset=max(1, int(left) + 1),
        retry_after=max(1, int(max(over)) + 1) if over else None,
    )


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


def held_add(limit: Limit, who: str, *, keep: int) -> None:
    """Note one request the limit held back, for the next one it lets through
    to tell of (kept ``keep`` seconds)."""
    _add_one(_key(limit, who, "held"), keep)


def held_take(limit: Limit, who: str) -> int:
    """How many requests were held back since the last call, counting them as
    told. decr() by what was read, not delete(): one held meanwhile by
    another process stays for the next."""
    key = _key(limit, who, "held")
    held = cache.get(key) or 0
    if held:
        # Expired meanwhile: nothing left to count down.
        with contextlib.suppress(ValueError):
            cache.decr(key, held)
    return int(held)
