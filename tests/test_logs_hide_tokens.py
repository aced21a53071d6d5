"""No log line carries a seat link's, an unsubscribe link's or a reply
address's secret: not Django's (CSRF, request, dev server), not gunicorn's
access and error logs, not the Celery worker's.

What is checked is what the configured handlers write, not what caplog sees:
caplog adds a handler of its own, which says nothing about the ones that
write to the terminal or the container log.
"""

from __future__ import annotations

import io
import logging
import os
import re
import secrets
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from celery.signals import after_setup_logger, after_setup_task_logger
from django.core.servers.basehttp import WSGIRequestHandler, WSGIServer
from django.test import Client

import versailles_site.celery  # noqa: F401  (connects the logging signal handlers)
from games.log_filters import HideSeatTokens, redact_secrets
from games.services.links import seat_by_token, unsubscribe_token
from tests.factories import started_game, tokens
from tests.worker import database_env, wait_until

BASE_DIR = Path(__file__).resolve().parent.parent


def made_up_token() -> str:
    """Shaped like a real seat token (24 bytes, URL-safe base64)."""
    return secrets.token_urlsafe(24)


# ---- redact_secrets ------------------------------------------------------------


def test_a_seat_token_in_a_full_url_with_a_query_string_is_hidden():
    assert (
        redact_secrets("http://example.com/s/Ab-c_D12/act?next=1#top")
        == "http://example.com/s/<hidden>/act?next=1#top"
    )


def test_an_unsubscribe_token_at_the_end_of_a_line_is_hidden():
    assert redact_secrets("Not Found: /u/Ab-c_D12") == "Not Found: /u/<hidden>"


def test_a_home_links_secret_is_hidden_on_its_player_token_pages_too():
    line = 'POST /h/Ab-c_D12/api/new HTTP/1.1" 200 and GET /h/Ef-G_h34/'
    assert redact_secrets(line) == 'POST /h/<hidden>/api/new HTTP/1.1" 200 and GET /h/<hidden>/'


def test_an_open_games_confirmation_and_join_secrets_are_hidden():
    line = "POST /open/c/Ab-c_D12/ then GET /open/j/Ef-G_h34/ and /open/games.json?language=de"
    assert redact_secrets(line) == "POST /open/c/<hidden>/ then GET /open/j/<hidden>/ and /open/games.json?language=de"


def test_a_token_in_a_quoted_request_line_is_hidden_and_the_quotes_stay():
    line = '127.0.0.1 - - "GET /s/Ab-c_D12 HTTP/1.1" 200 5 "http://h/s/Ef-G_h34/" "curl"'
    assert redact_secrets(line) == '127.0.0.1 - - "GET /s/<hidden> HTTP/1.1" 200 5 "http://h/s/<hidden>/" "curl"'


def test_every_secret_in_one_line_is_hidden():
    first, second, third = made_up_token(), made_up_token(), made_up_token()
    line = f"/s/{first}/act then ['/s/{second}/', '/u/{third}/'] and reply+7.12.{first[:8]}@reply.localhost"
    redacted = redact_secrets(line)
    assert redacted == (
        "/s/<hidden>/act then ['/s/<hidden>/', '/u/<hidden>/'] and reply+<hidden>@reply.localhost"
    )
    for token in (first, second, third, first[:8]):
        assert token not in redacted


@pytest.mark.parametrize(
    "address, hidden",
    [
        ("reply+12.3.0a1b2c@reply.localhost", "reply+<hidden>@reply.localhost"),
        ("REPLY+12.3.0A1B2C@REPLY.LOCALHOST", "REPLY+<hidden>@REPLY.LOCALHOST"),
        ("To: Player <reply+12.3.0a1b2c@mail.example>", "To: Player <reply+<hidden>@mail.example>"),
    ],
)
def test_the_secret_part_of_a_reply_address_is_hidden_whatever_its_case(address, hidden):
    assert redact_secrets(address) == hidden


@pytest.mark.parametrize(
    "text",
    [
        "",
        '"GET /g/abc123/ HTTP/1.1" 200 512',
        "GET /static/css/site.css at [01/Dec/2026:02:29:36 +0000]",
        "a+b=c and reply@example.com",
    ],
)
def test_text_with_no_secret_is_returned_unchanged(text):
    assert redact_secrets(text) is text


def test_hiding_twice_changes_nothing_more():
    once = redact_secrets(f"/s/{made_up_token()}/act reply+1.2.ab@x")
    assert redact_secrets(once) == once


# ---- the filter ---------------------------------------------------------------------


def formatted(record: logging.LogRecord) -> str:
    """What a handler with the filter writes for ``record``."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(HideSeatTokens())
    handler.handle(record)
    return stream.getvalue()


def test_the_filter_hides_secrets_in_the_arguments_and_in_the_traceback():
    token = made_up_token()
    try:
        raise ValueError(f"no seat for /s/{token}/act")
    except ValueError:
        record = logging.LogRecord(
            "x", logging.ERROR, __file__, 1, "Internal Server Error: %s", (f"/u/{token}/",), sys.exc_info()
        )
    output = formatted(record)
    assert token not in output
    assert "Internal Server Error: /u/<hidden>/" in output
    assert "ValueError: no seat for /s/<hidden>/act" in output


def test_the_filter_leaves_a_record_with_no_secret_as_it_was():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%s took %d ms", ("/g/abc/", 12), None)
    assert HideSeatTokens().filter(record) is True
    assert (record.msg, record.args) == ("%s took %d ms", ("/g/abc/", 12))


def test_a_record_with_a_broken_format_string_is_written_hidden_instead_of_raising():
    token = made_up_token()
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "%s and %s", (f"/s/{token}/",), None)
    output = formatted(record)
    assert token not in output
    assert "/s/<hidden>/" in output


# ---- Django's loggers, through the handlers settings.LOGGING configured -------------


def configured_handlers(name: str) -> list[logging.Handler]:
    """The handlers a record logged on ``name`` reaches, found the way
    Logger.callHandlers finds them, less pytest's own."""
    found = []
    logger: logging.Logger | None = logging.getLogger(name)
    while logger is not None:
        found += [h for h in logger.handlers if not type(h).__module__.startswith("_pytest")]
        if not logger.propagate:
            break
        logger = logger.parent
    return found


@contextmanager
def written_by_handlers_of(name: str) -> Iterator[io.StringIO]:
    """Everything the configured stream handlers for logger ``name`` write."""
    output = io.StringIO()
    handlers = [h for h in configured_handlers(name) if isinstance(h, logging.StreamHandler)]
    assert handlers, f"no handler is configured for {name!r}"
    saved = [(handler, handler.setStream(output)) for handler in handlers]
    try:
        yield output
    finally:
        for handler, stream in saved:
            handler.setStream(stream)


@pytest.mark.django_db
def test_a_csrf_failure_on_a_seat_form_is_logged_with_the_token_hidden():
    token = tokens(started_game())[0]
    with written_by_handlers_of("django.security.csrf") as output:
        response = Client(enforce_csrf_checks=True).post(
            f"/s/{token}/act", {"version": "0", "action": "pass"}, HTTP_ORIGIN="null"
        )
    assert response.status_code == 403
    assert token not in output.getvalue()
    assert "Forbidden (Origin checking failed - null does not match any trusted origins.): /s/<hidden>/act" in (
        output.getvalue()
    )


@pytest.mark.django_db
def test_a_not_found_unsubscribe_link_is_logged_with_the_token_hidden():
    token = made_up_token()
    with written_by_handlers_of("django.request") as output:
        response = Client().get(f"/u/{token}/")
    assert response.status_code == 404
    assert token not in output.getvalue()
    assert "Not Found: /u/<hidden>/" in output.getvalue()


@pytest.mark.django_db
def test_a_stale_decision_posted_through_a_seat_link_is_logged_with_the_token_hidden():
    game = started_game()
    token = tokens(game)[0]
    with written_by_handlers_of("django.request") as output:
        response = Client().post(f"/s/{token}/act", {"version": str(game.decision_version + 1), "action": "pass"})
    assert response.status_code == 409
    assert token not in output.getvalue()
    assert "Conflict: /s/<hidden>/act" in output.getvalue()


def test_the_dev_server_logs_its_request_lines_with_the_tokens_hidden():
    token = made_up_token()

    def not_found(environ, start_response):
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"not found"]

    # runserver's own server and request handler, which log each request line
    # to django.server.
    server = WSGIServer(("127.0.0.1", 0), WSGIRequestHandler)
    server.set_app(not_found)
    serving = threading.Thread(target=server.handle_request)
    try:
        with written_by_handlers_of("django.server") as output:
            serving.start()
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/u/{token}/?one-click=1", timeout=10)
            serving.join(timeout=10)
    finally:
        server.server_close()
    assert token not in output.getvalue()
    assert '"GET /u/<hidden>/?one-click=1 HTTP/1.1" 404' in output.getvalue()


@pytest.mark.parametrize(
    "name", ["django.security.csrf", "django.request", "django.template", "games.services.outbox", "anymail"]
)
def test_a_secret_logged_on_any_logger_is_written_hidden(name):
    token = made_up_token()
    with written_by_handlers_of(name) as output:
        logging.getLogger(name).warning("link /s/%s/ and reply+3.4.%s@reply.localhost", token, token[:10])
    assert token[:10] not in output.getvalue()
    assert "link /s/<hidden>/ and reply+<hidden>@reply.localhost" in output.getvalue()


# ---- Celery's worker and beat ----------------------------------------------------------


@pytest.mark.parametrize("signal", [after_setup_logger, after_setup_task_logger], ids=["root", "task"])
def test_the_handlers_celery_sets_up_get_the_filter(signal):
    token = made_up_token()
    output = io.StringIO()
    logger = logging.getLogger(f"tests.celery_setup.{signal.name}")
    logger.propagate = False
    handler = logging.StreamHandler(output)
    logger.addHandler(handler)
    try:
        # Sent as the worker and beat send it, once their handlers are in place.
        signal.send(
            sender=None, logger=logger, loglevel=logging.INFO, logfile=None, format="%(message)s", colorize=False
        )
        try:
            raise RuntimeError(f"mail to reply+9.2.{token[:12]}@reply.localhost bounced")
        except RuntimeError:
            logger.exception("Task games.notify failed for /s/%s/act", token)
    finally:
        logger.removeHandler(handler)
    assert token not in output.getvalue()
    assert token[:12] not in output.getvalue()
    assert "Task games.notify failed for /s/<hidden>/act" in output.getvalue()
    assert "RuntimeError: mail to reply+<hidden>@reply.localhost bounced" in output.getvalue()


# ---- gunicorn, for real -------------------------------------------------------------------


def _get(url: str, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_gunicorn_logs_requests_and_referers_with_the_tokens_hidden(transactional_db, tmp_path):
    token = tokens(started_game())[0]
    unsubscribe = unsubscribe_token(seat_by_token(token))
    made_up = made_up_token()
    log_path = tmp_path / "gunicorn.log"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQLITE_PATH", "GUNICORN_CMD_ARGS")}
    env.update(database_env(), DJANGO_SETTINGS_MODULE="versailles_site.settings", PYTHONUNBUFFERED="1")
    command = [
        sys.executable, "-m", "gunicorn", "-c", "versailles_site/gunicorn_conf.py", "versailles_site.wsgi",
        # Port 0: the kernel picks a free one, which gunicorn then logs.
        "--bind", "127.0.0.1:0", "--workers", "1", "--no-control-socket",
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT)

    def output() -> str:
        return log_path.read_text(errors="replace")

    def listening() -> str | None:
        if process.poll() is not None:
            raise AssertionError(f"gunicorn exited with {process.returncode}:\n{output()}")
        match = re.search(r"Listening at: (http://127\.0\.0\.1:\d+)", output())
        return match and match.group(1)

    try:
        base = wait_until(listening, timeout=30, what="gunicorn to listen")
        assert _get(f"{base}/s/{token}/", {"Referer": f"http://127.0.0.1/s/{token}/"}) == 200
        assert _get(f"{base}/u/{unsubscribe}/", {}) == 200
        assert _get(f"{base}/s/{made_up}/", {}) == 404
        # The access line is written once the response is sent.
        wait_until(
            lambda: output().count('"Python-urllib/') == 3, timeout=20, what=f"three access log lines:\n{output()}"
        )
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    written = output()
    assert token not in written
    assert unsubscribe not in written and unsubscribe.partition(".")[2] not in written
    assert made_up not in written
    for line in [
        '"GET /s/<hidden>/ HTTP/1.1" 200',
        '"http://127.0.0.1/s/<hidden>/"',  # the Referer
        '"GET /u/<hidden>/ HTTP/1.1" 200',
        '"GET /s/<hidden>/ HTTP/1.1" 404',
        "Not Found: /s/<hidden>/",  # Django's own log, in the same output
    ]:
        assert line in written
