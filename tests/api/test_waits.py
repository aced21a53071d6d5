"""Waiting without polling: GET /api/v1/seat?wait=<version> answers as soon
as the game passes that version, or after API_WAIT_SECONDS as it stands;
a bad wait is refused and waits for nothing."""

from __future__ import annotations

import time

import pytest
from django.utils.module_loading import import_string

from tests.api.helpers import api_get
from tests.factories import play_steps

pytestmark = pytest.mark.django_db


def test_a_wait_for_a_version_already_passed_answers_at_once(client, game, secrets, settings):
    settings.API_WAIT_SECONDS = 20
    started = time.monotonic()
    answer = api_get(client, f"/api/v1/seat?wait={game.version - 1}", secrets[0])
    assert answer.status_code == 200 and answer.json()["game"]["version"] == game.version
    assert time.monotonic() - started < 5


def test_a_wait_on_a_game_that_stands_still_answers_after_the_wait_as_it_stands(client, game, secrets, settings):
    settings.API_WAIT_SECONDS = 1
    started = time.monotonic()
    answer = api_get(client, f"/api/v1/seat?wait={game.version}", secrets[0])
    waited = time.monotonic() - started
    assert answer.status_code == 200 and answer.json()["game"]["version"] == game.version
    assert 1 <= waited < 10


@pytest.mark.parametrize("wait", ["", "-1", "seven", "1.5", "9999999999", "١٢"])
def test_a_wait_that_is_no_version_is_refused_and_waits_for_nothing(client, game, secrets, settings, wait):
    settings.API_WAIT_SECONDS = 20
    started = time.monotonic()
    answer = api_get(client, f"/api/v1/seat?wait={wait}", secrets[0])
    assert (answer.status_code, answer.json()["error"]["code"]) == (400, "bad_request")
    assert time.monotonic() - started < 5


def test_a_decision_made_during_a_wait_answers_it_with_the_new_version(client, game, secrets, settings):
    # The decision comes before the wait is read: it answers at once. A wait
    # that a decision ends while it waits is test_waits_served.py's.
    settings.API_WAIT_SECONDS = 20
    seen = game.version
    play_steps(game, 1)
    answer = api_get(client, f"/api/v1/seat?wait={seen}", secrets[0])
    assert answer.json()["game"]["version"] > seen


def test_every_middleware_is_async_capable_so_no_wait_is_put_on_a_thread(settings):
    # Under ASGI, Django runs a sync-only middleware, and everything after
    # it, on a thread for every request: each wait would block one.
    sync_only = [path for path in settings.MIDDLEWARE if not getattr(import_string(path), "async_capable", False)]
    assert not sync_only
