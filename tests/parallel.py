"""What each pytest process keeps to itself, so that `pytest -n 2`
(pytest-xdist) runs workers side by side that share nothing but the servers.

Loaded as a plugin (``-p tests.parallel`` in pytest.ini) because the settings
read VAR_DIR and REDIS_URL from the environment once, when pytest-django
imports them, and that happens before any conftest.py is loaded.

Per process (an xdist worker, ``gw0``, ``gw1``, ..., or a run without xdist):

- VAR_DIR is a new temporary folder, removed at the end: the SQLite test
  database, the filesystem broker's folders, every file cache under
  VAR_DIR/cache and the dev mailbox are the process's own, whatever cache
  aliases the settings define. Subprocesses (gunicorn, manage.py) inherit it.
- REDIS_URL keeps its server and names databases of the process's own, one
  per purpose (see ``redis_url``): the broker and every Redis cache alias of
  the settings live in the "app" one. The database REDIS_URL itself names
  (a developer's `make run`, usually 0) is never touched.

Shared, and safe to share: the PostgreSQL server (pytest-django gives each
xdist worker its own test database, test_<name>_gw0, ...), and ports: every
server a test starts (live server, gunicorn, webhook receiver) binds port 0,
so the kernel hands each a free one. A test's Celery worker reads the
broker of its test process (the filesystem broker's folders under its
VAR_DIR, or its "app" database), which no other process writes to, so it
never takes another process's tasks.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

# Set by pytest-xdist in each worker before its configuration is read; unset
# in a run without xdist and in xdist's controller, which runs no test.
WORKER: str | None = os.environ.get("PYTEST_XDIST_WORKER") or None
INDEX = int(WORKER.removeprefix("gw")) if WORKER else 0

# Redis has 16 databases unless configured otherwise; 0 is left to whoever
# set REDIS_URL, and each process takes one for each purpose below.
REDIS_DATABASES = 16
REDIS_PURPOSES = (
    "app",  # REDIS_URL as the settings see it: broker and caches, flushed around each test of a Celery worker
    "scratch",  # flushed by tests of the Redis cache backend
)

BASE_DIR = Path(__file__).resolve().parent.parent
# One folder for the whole run, so anyone can look at what the last run saw
# (var/ is ignored by git); emptied by the process that starts the run.
SCREENSHOTS = BASE_DIR / "var" / "screenshots"


def redis_database(purpose: str, index: int = INDEX) -> int:
    number = 1 + index * len(REDIS_PURPOSES) + REDIS_PURPOSES.index(purpose)
    if number >= REDIS_DATABASES:
        raise pytest.UsageError(
            f"xdist worker {index} would need Redis database {number}, but Redis has {REDIS_DATABASES}: "
            f"run at most {(REDIS_DATABASES - 1) // len(REDIS_PURPOSES)} workers against Redis"
        )
    return number


def redis_url(purpose: str) -> str | None:
    """REDIS_URL naming this process's database for ``purpose``; None without Redis."""
    url = _GIVEN_REDIS_URL
    if not url:
        return None
    return urlunsplit(urlsplit(url)._replace(path=f"/{redis_database(purpose)}"))


_GIVEN_REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if _GIVEN_REDIS_URL:
    os.environ["REDIS_URL"] = redis_url("app")
VAR_DIR = Path(tempfile.mkdtemp(prefix=f"versailles-tests-{WORKER or 'main'}-"))
os.environ["VAR_DIR"] = str(VAR_DIR)


def pytest_report_header(config) -> str:
    # Printed by the process that starts the run, which under xdist is not
    # one that runs tests: say where each worker's state is.
    redis = ", Redis databases 1-3 (gw0), 4-6 (gw1), ..." if _GIVEN_REDIS_URL else ""
    var_dir = f"{tempfile.gettempdir()}/versailles-tests-<worker>-*"
    return f"own state per process (tests/parallel.py): VAR_DIR {var_dir}{redis}"


def pytest_configure(config) -> None:
    # Before xdist starts its workers (in pytest_sessionstart), so no worker
    # has written a screenshot yet.
    if WORKER is None:
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)
        SCREENSHOTS.mkdir(parents=True)


def pytest_unconfigure(config) -> None:
    shutil.rmtree(VAR_DIR, ignore_errors=True)
