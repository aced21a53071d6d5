"""The API's own process (versailles_site/api_settings.py): the site's
settings with only the middleware the API needs, since under ASGI each
hook of Django's MiddlewareMixin middleware is a hop to a thread and back
(bench/asgi_middleware.py). Served as production serves it, the API still
takes a decision with no cookie and no CSRF token, words a refusal made
before any token is read in the client's language, and sends the security
headers the site's answers carry and each answer's length."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from games.models import Game
from tests.api.asgi_server import asgi_server
from tests.api.helpers import api_tokens, mover
from tests.factories import started_game
from versailles_site import api_settings, settings


def test_the_api_keeps_the_sites_middleware_in_its_order_and_drops_what_it_does_not_use():
    kept = api_settings.MIDDLEWARE
    assert kept == [path for path in settings.MIDDLEWARE if path in kept]
    assert set(settings.MIDDLEWARE) - set(kept) == {
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
        "django.contrib.messages.middleware.MessageMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
        "axes.middleware.AxesMiddleware",
    }
    assert {
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.locale.LocaleMiddleware",
        "django.middleware.common.CommonMiddleware",
    } <= set(kept)


def test_the_api_process_settings_pass_djangos_checks():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "versailles_site.api_settings"}
    checked = subprocess.run(
        [sys.executable, "manage.py", "check", "--fail-level", "WARNING"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def _answer(request: urllib.request.Request):
    try:
        return urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as refusal:
        return refusal


@pytest.mark.django_db(transaction=True)
def test_the_api_process_takes_a_decision_words_a_refusal_and_sends_the_security_headers(tmp_path):
    game = started_game(4)
    secrets = api_tokens(game)
    to_move = mover(game)
    decision = json.dumps({"decision": "pass", "version": game.decision_version}).encode()
    with asgi_server(tmp_path) as server:
        posted = _answer(
            urllib.request.Request(
                f"{server.url}/api/v1/seat/decision",
                data=decision,
                method="POST",
                headers={"Authorization": f"Bearer {secrets[to_move]}", "Content-Type": "application/json"},
            )
        )
        refused = _answer(urllib.request.Request(f"{server.url}/api/v1/seat", headers={"Accept-Language": "de"}))
        refusal = json.load(refused)
    assert posted.status == 200, posted.read()
    assert json.load(posted)["accepted"] == "pass"
    assert Game.objects.get(pk=game.pk).version > game.version
    assert refused.status == 401 and refusal["error"]["code"] == "unauthorized"
    assert refused.headers["Content-Language"] == "de" and "gültiges API-Token" in refusal["error"]["message"]
    for answer in (posted, refused):
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
        assert "Set-Cookie" not in answer.headers
        assert int(answer.headers["Content-Length"]) > 0 and "Transfer-Encoding" not in answer.headers
        # Only the site's clickjacking middleware sets it (the policy's
        # frame-ancestors says as much): the server runs the API's settings.
        assert "X-Frame-Options" not in answer.headers
