"""The Redis page cache keeps one client per pool: the same answers as
Django's own backend, without a client built for every read."""

from __future__ import annotations

import threading

import pytest
from django.core.cache.backends.redis import RedisCache

from games.web.limits import Limit, limits_counted
from tests import parallel
from versailles_site.cache import KeptClientRedisCache

# A database this test process may flush, whatever another xdist worker does.
SCRATCH_URL = parallel.redis_url("scratch")
pytestmark = pytest.mark.skipif(not SCRATCH_URL, reason="needs Redis (set REDIS_URL)")


@pytest.fixture
def caches():
    location = SCRATCH_URL
    kept, django_own = KeptClientRedisCache(location, {}), RedisCache(location, {})
    kept.clear()
    yield kept, django_own
    kept.clear()


def test_what_one_writes_the_other_reads(caches):
    kept, django_own = caches
    kept.set("page", {"html": "ü" * 20000}, 60)
    assert django_own.get("page") == {"html": "ü" * 20000}
    django_own.set("other", [1, 2], 60)
    assert kept.get("other") == [1, 2]
    assert kept.get("missing", "default") == "default"


def test_a_client_is_built_once_and_shared_by_threads(caches):
    kept, _ = caches
    kept.set("page", "x", 60)
    seen = []

    def read():
        seen.append((kept.get("page"), kept._cache.get_client("page")))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [value for value, _ in seen] == ["x"] * 4
    assert len({id(client) for _, client in seen}) == 1


def test_counters_are_added_to_atomically_in_one_round_trip_and_expire(caches):
    kept, django_own = caches
    django_own.set("limit-b", 5, 60)

    def count():
        for _ in range(50):
            kept.counters_add_one([("limit-a", 30), ("limit-b", 30)])

    threads = [threading.Thread(target=count) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert kept.counters_add_one([("limit-a", 30), ("limit-b", 30)]) == [401, 406]
    # Read back as Django's own backend reads a number it stored.
    assert django_own.get("limit-a") == 401
    client = kept._cache.get_client(write=True)
    assert 0 < client.ttl(kept.make_and_validate_key("limit-a")) <= 30


def test_the_api_limits_count_in_redis_as_elsewhere(caches, settings):
    kept, _ = caches
    settings.CACHES = {"default": {"BACKEND": "versailles_site.cache.KeptClientRedisCache", "LOCATION": SCRATCH_URL}}
    limit = Limit("api-test", 3, 60)
    answers = [limits_counted([(limit, "client-1")]) for _ in range(4)]
    assert answers[:3] == [None, None, None]
    assert 1 <= answers[3] <= 61
    assert limits_counted([(limit, "client-2")]) is None
    assert len(kept._cache.get_client().keys("*limit:api-test:*")) == 2
