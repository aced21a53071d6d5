"""What a production deployment gets without configuring anything more than
DEBUG, SECRET_KEY and an https SITE_URL: no warning from Django's deployment
check, static files served by the app, a Content-Security-Policy that lets
only our own scripts run, and pages search engines do not keep."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from games.models import Seat
from games.services.links import unsubscribe_url
from tests.factories import started_game, tokens
from tests.web.integrity_helpers import inviting_game
from versailles_site.env import proxy_ssl_header

BASE_DIR = Path(__file__).resolve().parent.parent


def _production_env(tmp_path: Path, site_url: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS_URL"))}
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        SITE_URL=site_url,
        ALLOWED_HOSTS="versailles.example.org,testserver",
        VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="versailles_site.settings",
    )
    return env


def _run(args: list[str], env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120)


def _printed_by(script: str, env: dict) -> str:
    """What a script prints in a process of its own with Django set up in ``env``."""
    done = _run([sys.executable, "-c", "import django; django.setup()\n" + script], env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_deployment_check_passes_without_a_warning(tmp_path):
    env = _production_env(tmp_path, "https://versailles.example.org")
    done = _run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_static_files_are_served_with_debug_off(tmp_path):
    env = _production_env(tmp_path, "http://testserver")
    collected = _run([sys.executable, "manage.py", "collectstatic", "--noinput"], env)
    assert collected.returncode == 0, collected.stderr
    script = (
        "from django.test import Client\n"
        "c = Client()\n"
        "for path in ('/static/admin/css/base.css', '/static/games/seen.js', '/static/games/site.css'):\n"
        "    r = c.get(path)\n"
        "    print(path, r.status_code, r.headers.get('Content-Type'))\n"
    )
    lines = _printed_by(script, env).split("\n")
    assert lines[0].startswith("/static/admin/css/base.css 200 text/css")
    assert lines[1].startswith("/static/games/seen.js 200 text/javascript")
    assert lines[2].startswith("/static/games/site.css 200 text/css")


def _database_settings(env: dict) -> list[str]:
    script = (
        "from django.conf import settings\n"
        "db = settings.DATABASES['default']\n"
        "print(db['CONN_MAX_AGE'], db['CONN_HEALTH_CHECKS'])\n"
    )
    return _printed_by(script, env).split()


def test_production_keeps_database_connections_open_and_checks_them_before_reuse(tmp_path):
    env = _production_env(tmp_path, "https://versailles.example.org")
    env["DATABASE_URL"] = "postgres://versailles@db.example.org:5432/versailles"
    assert _database_settings(env) == ["60", "True"]
    assert _database_settings(env | {"DATABASE_CONN_MAX_AGE": "300"}) == ["300", "True"]
    # Under DEBUG (make run, the suite) each request closes its connection.
    assert _database_settings(env | {"DEBUG": "true"}) == ["0", "True"]


def test_the_proxy_header_is_read_from_the_environment():
    assert proxy_ssl_header({}) is None
    assert proxy_ssl_header({"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https"}) == (
        "HTTP_X_FORWARDED_PROTO", "https",
    )
    with pytest.raises(ImproperlyConfigured):
        proxy_ssl_header({"SECURE_PROXY_SSL_HEADER": "https"})


def _no_inline_code(html: str) -> None:
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline script"
    assert "<style" not in html, "an inline stylesheet"
    assert not re.search(r"\son[a-z]+=", html), "an inline event handler"


@pytest.mark.django_db
def test_every_page_forbids_inline_scripts_and_asks_not_to_be_indexed():
    client = Client()
    invited = inviting_game()
    running = started_game(players=3)
    seat = Seat.objects.select_related("game").get(game=running, position=0)
    pages = [
        "/",
        "/new/",
        "/link/",
        "/mod/login/",
        f"/s/{tokens(invited)[1]}/",
        f"/s/{tokens(running)[0]}/",
        f"/g/{running.public_id}/",
        "/" + unsubscribe_url(seat).split("://", 1)[1].split("/", 1)[1],
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("style-src-attr")[0], path
        assert "noindex" in response.headers["X-Robots-Tag"], path
        _no_inline_code(response.content.decode())


@pytest.mark.django_db
def test_robots_txt_keeps_crawlers_out_of_links_and_back_offices():
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    for prefix in ("/s/", "/u/", "/g/", "/mod/", "/admin/", "/dev/"):
        assert f"Disallow: {prefix}" in lines
