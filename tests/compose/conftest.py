"""The compose tests start docker-compose.yml on a Docker engine; they are
collected only with VERSAILLES_COMPOSE=1 (tests/conftest.py), as .ci/run's
compose stage sets it, so `make test` needs no Docker."""

from tests.browser.conftest import chromium, screenshots  # noqa: F401 - the browser fixtures
