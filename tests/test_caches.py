"""The two caches: the pages' carries the release in its keys, so a deploy
never serves what older code made; the rate limits count in Redis through
django-redis as the cache API reads them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import caches

from games.web.limits import Limit, limits_counted, limits_hit
from versailles_site.release import code_digest

ROOT = Path(__file__).resolve().parent.parent


def _pages_prefix(**environ: str) -> str:
    """The pages cache's KEY_PREFIX as a process started with ``environ`` has it."""
    env = {k: v for k, v in os.environ.items() if k not in ("RELEASE", "REDIS_URL")} | environ
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.CACHES['pages']['KEY_PREFIX'])"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return run.stdout.strip()


def test_the_pages_cache_is_keyed_by_the_release_named():
    assert _pages_prefix(RELEASE="2026-12-03.1") == "pages-2026-12-03.1"


def test_without_a_release_named_the_code_is_the_release():
    assert _pages_prefix() == f"pages-{code_digest(ROOT)}"


def test_a_changed_template_is_a_new_release(tmp_path):
    tree = tmp_path / "tree"
    for part in ("games", "versailles_site", "templates"):
        shutil.copytree(ROOT / part, tree / part, ignore=shutil.ignore_patterns("__pycache__"))
    before = code_digest(tree)
    assert code_digest(tree) == before  # the same files, the same release
    page = tree / "templates" / "seat" / "_page.html"
    page.write_text(page.read_text() + "<!-- a change -->\n")
    assert code_digest(tree) != before


@pytest.fixture
def redis_limits(settings):
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        pytest.skip("REDIS_URL is not set: the limits' round trip to Redis is tested against services")
    # A prefix of its own: nothing another test or process counts is touched.
    settings.CACHES = {
        **settings.CACHES,
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        },
    }
    yield caches["default"]
    caches["default"].delete_pattern("*")  # its own prefix only: clear() would empty the database


def test_limits_counted_in_one_round_trip_are_the_counts_the_cache_api_reads(redis_limits):
    """limits_counted adds in a Redis pipeline under the cache's own keys;
    limits_hit reads them through the cache API: a key made differently by
    either (a django-redis change) would let the eleventh request through."""
    limit = Limit("test-api", 10, 60)
    answers = [limits_counted([(limit, "client-a")]) for _ in range(11)]
    assert answers[:10] == [None] * 10
    assert answers[10] is not None and 1 <= answers[10] <= 61
    assert limits_hit([(limit, "client-a")]) is not None
    assert limits_counted([(limit, "client-b")]) is None


def test_counters_expire_with_their_window(redis_limits):
    from django_redis import get_redis_connection

    limits_counted([(Limit("test-expiry", 5, 60), "client")])
    keys = list(get_redis_connection("default").scan_iter(match=f"{settings.CACHES['default']['KEY_PREFIX']}*"))
    assert len(keys) == 1
    assert 0 < get_redis_connection("default").ttl(keys[0]) <= 121
