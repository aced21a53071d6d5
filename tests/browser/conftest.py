"""Chromium, driven by Playwright, against a live server and a real Celery
worker, as `make run` serves the site: the test client sends no Origin header,
runs no script and sees no layout, so only a browser shows that the site works.

Debian's Chromium is used as it is (Playwright's own browser download cannot
work here): its headless shell, /usr/bin/chromium-headless-shell, which is
what Playwright itself runs for headless tests. A new page costs it about
0.1 s of CPU, against 0.3-1 s for the full browser (/usr/bin/chromium) in
headless mode (bench/chromium_pages.py), and the browser folder took 2 min
45 s instead of 4 min 06 s. test_headless_shell.py holds that the full
browser, which players run, draws the site's pages to the same pixels and
takes a decision from its form. Without Chromium or Playwright the tests
skip with the reason, except under VERSAILLES_REQUIRE_SERVICES=1 or
VERSAILLES_REQUIRE_BROWSER=1 (CI), where they fail.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.db import connections

from tests.parallel import SCREENSHOTS
from tests.worker import CeleryEnv, celery_env, celery_worker, wait_until  # noqa: F401

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
FULL_CHROMIUM = Path("/usr/bin/chromium")
# As the machine's own probe starts it: no sandbox as root, and no background
# connections to Google's hosts, which this closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (it is in requirements-dev.txt: make venv)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM}: `make chromium` installs Debian's (apt-get, as root)"
    return None


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The run's one folder (var/screenshots), emptied by the process that
    started the run before any xdist worker wrote to it (tests/parallel.py):
    it shows what this run saw, every worker's pages together."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def chromium(screenshots, monkeypatch):
    reason = _missing()
    if reason and os.environ.get("VERSAILLES_REQUIRE_BROWSER") == "1":
        pytest.fail(f"VERSAILLES_REQUIRE_BROWSER=1 but {reason}")
    if reason:
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread, so Django
    # would refuse the test's own database reads as "async"; they are plain
    # synchronous reads between browser steps. Per test, so that the setting
    # never reaches another test (or a subprocess one starts).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # With Playwright's event loop running, Django keeps this thread's
        # connections apart from the ones outside (asgiref's Local), so the
        # test's own reads opened a second connection that nothing else
        # closes: on PostgreSQL it kept the test database from being dropped.
        connections.close_all()


def warm_context(browser, **options):
    """A new browser context with one blank page that stays open until the
    context closes. When a context's last page closes, the next page it opens
    costs Chromium about a second of CPU on this machine, against 0.3 s while
    another page of the context is open (bench/README.md, "Chromium's pages"):
    tests that close a page and open the next would pay that second each time."""
    context = browser.new_context(**options)
    context.new_page()
    return context


@dataclass
class PageChecks:
    """Every response from the site and every console message or script error
    on the pages a test opened: nothing at 4xx/5xx but what a test expects."""

    origin: str
    document_loads: int = 0
    responses: int = 0
    problems: list[str] = field(default_factory=list)
    asserted: bool = False
    _expected: list[int] = field(default_factory=list)

    def watch(self, page) -> None:
        page.on("response", self._response)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"script error on {page.url}: {error}"))

    def _response(self, response) -> None:
        if not response.url.startswith(self.origin):
            return
        self.responses += 1
        if response.request.resource_type == "document":
            self.document_loads += 1
        if response.status >= 400 and response.status not in self._expected:
            self.problems.append(f"{response.status} for {response.request.method} {_path(response.url)}")

    def _console(self, message) -> None:
        if message.type not in ("error", "warning"):
            return
        expected = any(f"status of {status}" in message.text for status in self._expected)
        if not expected:
            self.problems.append(f"console {message.type}: {message.text}")

    @contextmanager
    def expecting(self, status: int) -> Iterator[None]:
        self._expected.append(status)
        try:
            yield
        finally:
            self._expected.remove(status)

    def assert_clean(self) -> None:
        self.asserted = True
        assert not self.problems, "\n".join(self.problems)


def _path(url: str) -> str:
    # Seat tokens stay out of assertion messages too.
    return re.sub(r"/([su])/[^/]+", r"/\1/<token>", url.split("://", 1)[-1].split("/", 1)[-1])


@dataclass
class Site:
    url: str
    env: CeleryEnv
    checks: PageChecks
    context: object

    def page(self, viewport: dict | None = None):
        page = self.context.new_page()
        if viewport:
            page.set_viewport_size(viewport)
        self.checks.watch(page)
        return page

    def screenshot(self, page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


def start_site(live_server, celery_env, celery_worker, settings) -> tuple[str, object]:  # noqa: F811 - the fixtures
    """Point this process (serving the live server) and a real worker at the
    same database, broker and dev mailbox, with links to the live server."""
    settings.DEBUG = True  # the dev mailbox, as `make run` has it
    settings.SITE_URL = live_server.url
    settings.VAR_DIR = celery_env.var_dir
    celery_env.env.update(SITE_URL=live_server.url, DEBUG="true")
    celery_env.env.pop("EMAIL_PROVIDER", None)
    return live_server.url, celery_worker()


@pytest.fixture
def site(request, chromium, live_server, celery_env, celery_worker, settings) -> Iterator[Site]:  # noqa: F811 - fixtures
    url, _worker = start_site(live_server, celery_env, celery_worker, settings)
    context = warm_context(chromium, locale="en-GB", timezone_id="Europe/Berlin")
    context.set_default_timeout(30_000)
    checks = PageChecks(origin=url)
    yield Site(url=url, env=celery_env, checks=checks, context=context)
    context.close()
    with (SCREENSHOTS / "page-loads.txt").open("a") as tally:
        tally.write(f"{request.node.name}: {checks.document_loads} page loads, {checks.responses} responses\n")
    if not checks.asserted:
        checks.assert_clean()
