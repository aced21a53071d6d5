import os

import pytest
from django.conf import settings as django_settings
from django.test.testcases import QuietWSGIRequestHandler
from django.utils import translation

# The live server (pytest-django's live_server: Django's LiveServerThread
# with this handler) sends a response's headers and its body in two writes.
# With Nagle's algorithm on, the second waited for the client's delayed
# acknowledgement, about 40 ms on Linux, on every response of a kept-alive
# connection: a schemathesis request took 45 ms, a page in Chromium as long.
# The standard library's StreamRequestHandler turns the algorithm off for a
# handler class that asks (disable_nagle_algorithm); the live server offers
# no other way to ask. tests/web/test_live_server.py holds it asked.
QuietWSGIRequestHandler.disable_nagle_algorithm = True

# CI sets this when PostgreSQL and Redis are up: a test that skips there
# skipped for a reason CI should hear about, so it counts as a failure.
REQUIRE_SERVICES = os.environ.get("VERSAILLES_REQUIRE_SERVICES") == "1"

# tests/compose starts docker-compose.yml on a Docker engine: only where asked
# (.ci/run's compose stage), so that `make test` needs no Docker.
collect_ignore = [] if os.environ.get("VERSAILLES_COMPOSE") == "1" else ["compose"]


def _skip_reason(report) -> str:
    if isinstance(report.longrepr, tuple):
        return report.longrepr[2]
    return str(report.longrepr)


def _fail_instead_of_skip(report) -> None:
    report.outcome = "failed"
    report.longrepr = (
        "skipped, but VERSAILLES_REQUIRE_SERVICES=1 forbids skips: "
        + _skip_reason(report)
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    # An xfail is reported as a skip too; it is an expectation, not a skip.
    if REQUIRE_SERVICES and report.skipped and not hasattr(report, "wasxfail"):
        _fail_instead_of_skip(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    # A module-level pytest.skip() or importorskip() skips at collection time.
    report = yield
    if REQUIRE_SERVICES and report.skipped:
        _fail_instead_of_skip(report)
    return report


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, on PostgreSQL without waiting for each commit to
    reach the disk: nothing in a test database has to outlive a crash, and
    while CI builds the compose images beside the suite, a commit's flush
    took 2.3 ms instead of 0.1 (every session opened later, a test's
    workers and servers too, inherits the database's setting)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
            cursor.execute("SET synchronous_commit = off")
    yield


# Tests that take many seconds: a browser, a real Celery worker or other
# processes of the site, or a whole game or long fuzz in process (marked
# `heavy`). They are run first, so that under xdist (make test: -n 2) the
# two workers share them out while the quick tests fill the gaps after,
# instead of one worker starting a minute-long test when the other is done.
HEAVY_FIXTURES = {"chromium", "celery_worker", "celery_env", "live_server"}


def _heavy(item) -> bool:
    return item.get_closest_marker("heavy") is not None or not HEAVY_FIXTURES.isdisjoint(item.fixturenames)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    # After pytest-django's sort by database use, which this keeps within
    # each part (a stable sort). That sort runs transactional tests after
    # the others because each empties the database when it ends; nothing
    # here needs what it empties: the migrations write no row that
    # post_migrate does not write again (content types, permissions).
    items.sort(key=lambda item: not _heavy(item))


@pytest.fixture(autouse=True)
def _cache_of_its_own(settings, request):
    # Rate limits count in the cache and pages are kept there: each test
    # starts from nothing, and never touches the Redis a run against services
    # shares with Celery.
    # The pages' cache notes what it is given, for the tests of what it holds.
    settings.CACHES = {
        alias: {"BACKEND": backend, "LOCATION": f"{alias}:{request.node.nodeid}"}
        for alias, backend in (
            ("default", "django.core.cache.backends.locmem.LocMemCache"),
            ("pages", "tests.recording_cache.RecordingCache"),
        )
    }


@pytest.fixture(autouse=True)
def _site_language():
    # A language a test activates on its thread (a German email written, a
    # German page served in process) would otherwise stay for the next test
    # on the same xdist worker, which then reads German where it expects the
    # site's language.
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _tasks_run_inline(settings):
    # Tests that are not about Celery get their after-commit tasks run in
    # process; tests of the real worker set TASKS_INLINE = False themselves.
    settings.TASKS_INLINE = True


@pytest.fixture
def receiver():
    """A webhook receiver listening on the loopback for one test (tests/webhook_receiver.py)."""
    from tests.webhook_receiver import Receiver

    started = Receiver().start()
    yield started
    started.stop()
