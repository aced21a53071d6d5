"""Send me my links again (/link/) and new games (/new/): one email per request
listing every game of the address, a page that tells nothing about who plays,
and limits on how often an address or a client may ask."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game, HomeLink, Notification, Seat
from games.services.links import home_token, seat_token, token_hash
from games.services.setup import game_create, link_resend
from games.web.limits import GAMES_PER_CLIENT, LINKS_PER_ADDRESS, LINKS_PER_CLIENT
from tests.factories import started_game
from tests.mail.helpers import addresses
from versailles_site.celery import app

pytestmark = pytest.mark.django_db(transaction=True)

PLAYER = "p1@example.com"


def _invited_game() -> Game:
    return game_create(
        host_name="Other host", host_email="host@example.org", other_emails=[PLAYER, "x@example.org"],
        decision_hours=24, ruleset_name="classic",
    )


def _links_in(text: str) -> list[str]:
    return re.findall(r"/s/([^/\s\"<]+)/", text)


def _ask(client: Client, email: str = PLAYER, **extra):
    return client.post("/link/", {"email": email}, **extra)


def test_asking_for_links_sends_one_email_with_every_unfinished_games_seat_link():
    running = [started_game(), started_game()]
    inviting = _invited_game()
    over = started_game()
    Game.objects.filter(pk=over.pk).update(status=Game.Status.OVER)
    mail.outbox.clear()

    response = _ask(Client(), " P1@Example.com ")

    assert response.status_code == 302 and response["Location"] == "/link/sent/"
    (email,) = mail.outbox
    assert addresses(email) == [PLAYER]
    seats = {
        seat.game_id: seat
        for seat in Seat.objects.select_related("game").filter(email=PLAYER)
    }
    sent = set(_links_in(email.body))
    assert sent == {seat_token(seats[g.pk]) for g in [*running, inviting]}
    assert seat_token(seats[over.pk]) not in email.body
    html = email.alternatives[0][0]
    assert set(_links_in(html)) == sent
    client = Client()
    for token in sent:
        assert client.get(f"/s/{token}/").status_code == 200
    # The list covers several games: no one seat's unsubscribe header.
    assert "List-Unsubscribe" not in email.extra_headers


# In one transaction, so the sender runs only when the test says.
@pytest.mark.django_db
def test_the_outbox_holds_seat_ids_not_links_and_forgets_them_once_sent(django_capture_on_commit_callbacks):
    games = [started_game(), started_game()]
    tokens = [seat_token(Seat.objects.select_related("game").get(game=g, email=PLAYER)) for g in games]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert link_resend(email=PLAYER)
    (row,) = Notification.objects.filter(kind="links")
    stored = f"{row.context} {row.body_text} {row.body_html}"
    assert set(row.context) == {"seat_ids", "home_id"}
    for token in [*tokens, home_token(HomeLink.objects.get())]:
        assert token not in stored and token_hash(token) not in stored

    for callback in callbacks:
        callback()
    row.refresh_from_db()
    assert row.status == Notification.Status.SENT
    assert (row.context, row.body_text, row.body_html) == (None, "", "")
    (email,) = mail.outbox
    assert set(_links_in(email.body)) == set(tokens)


# In one transaction, so the sender runs only when the test says.
@pytest.mark.django_db
def test_a_seat_handed_to_someone_else_before_the_email_is_written_is_left_out(django_capture_on_commit_callbacks):
    kept, handed = started_game(), started_game()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        link_resend(email=PLAYER)
    Seat.objects.filter(game=handed, email=PLAYER).update(email="newcomer@example.org")
    for callback in callbacks:
        callback()
    (email,) = mail.outbox
    assert _links_in(email.body) == [seat_token(Seat.objects.select_related("game").get(game=kept, email=PLAYER))]


def test_an_address_that_plays_nowhere_gets_no_email():
    started_game()
    mail.outbox.clear()
    assert _ask(Client(), "stranger@example.org")["Location"] == "/link/sent/"
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="links").exists()


def test_the_page_does_the_same_work_whether_or_not_the_address_plays(settings, monkeypatch):
    """Constant time to the caller: the request reads no seat and sends no
    email; it hands the address to a task, whoever it is."""
    started_game()
    settings.TASKS_INLINE = False
    handed = []
    # Stands in for the broker only: what the page hands over is what is checked.
    monkeypatch.setattr(app, "send_task", lambda name, args=None, **kw: handed.append((name, args)))
    answers = []
    for email in (PLAYER, "stranger@example.org"):
        with CaptureQueriesContext(connection) as queries:
            response = _ask(Client(), email)
        answers.append((response.status_code, response["Location"], len(queries)))
    assert answers[0] == answers[1] == (302, "/link/sent/", 0)
    assert handed == [("games.link_resend", [PLAYER]), ("games.link_resend", ["stranger@example.org"])]
    assert not Notification.objects.filter(kind="links").exists()


def test_an_address_asked_for_too_often_is_refused_until_the_hour_is_over():
    started_game()
    mail.outbox.clear()
    with time_machine.travel(timezone.now().replace(minute=0, second=5), tick=False) as clock:
        for n in range(LINKS_PER_ADDRESS.count):
            # From different clients: the limit is the address's.
            assert _ask(Client(), REMOTE_ADDR=f"10.0.0.{n}").status_code == 302
        refused = _ask(Client(), REMOTE_ADDR="10.0.1.1")
        assert refused.status_code == 429
        page = refused.content.decode()
        assert "try again in about 60 minutes" in page
        assert refused["Retry-After"] == "3595"
        assert len(mail.outbox) == LINKS_PER_ADDRESS.count
        assert Notification.objects.filter(kind="links").count() == LINKS_PER_ADDRESS.count

        clock.shift(timedelta(hours=1))
        assert _ask(Client(), REMOTE_ADDR="10.0.1.1").status_code == 302
        assert len(mail.outbox) == LINKS_PER_ADDRESS.count + 1


def test_one_client_asking_for_many_addresses_is_refused():
    client = Client(REMOTE_ADDR="192.0.2.7")
    for n in range(LINKS_PER_CLIENT.count):
        assert _ask(client, f"someone{n}@example.org").status_code == 302
    assert _ask(client, "one-more@example.org").status_code == 429
    # Someone else is not held up by it.
    assert _ask(Client(REMOTE_ADDR="192.0.2.8"), "one-more@example.org").status_code == 302


NEW_GAME = {
    "host_name": "Host",
    "host_email": "host@example.org",
    "other_emails": "a@example.org\nb@example.org\nc@example.org",
    "decision_hours": "24",
    "ruleset": "classic",
}


def test_starting_games_from_one_client_is_limited_and_a_refused_one_mails_nobody():
    client = Client(REMOTE_ADDR="198.51.100.9")
    for _ in range(GAMES_PER_CLIENT.count):
        assert client.post("/new/", NEW_GAME).status_code == 302
    sent = len(mail.outbox)
    refused = client.post("/new/", NEW_GAME)
    assert refused.status_code == 429
    assert "Nothing was sent" in refused.content.decode()
    assert Game.objects.count() == GAMES_PER_CLIENT.count
    assert len(mail.outbox) == sent
    # A form with mistakes costs no try.
    other = Client(REMOTE_ADDR="198.51.100.10")
    for _ in range(GAMES_PER_CLIENT.count + 2):
        assert other.post("/new/", NEW_GAME | {"host_email": "not an address"}).status_code == 400
    assert other.post("/new/", NEW_GAME).status_code == 302


def test_a_forwarded_for_header_counts_only_behind_a_trusted_proxy(settings):
    spoofed = [f"203.0.113.{n}" for n in range(LINKS_PER_CLIENT.count + 1)]
    # Straight from the internet: whatever the client writes there is ignored.
    direct = Client(REMOTE_ADDR="192.0.2.20")
    answers = [_ask(direct, f"a{n}@example.org", HTTP_X_FORWARDED_FOR=ip).status_code for n, ip in enumerate(spoofed)]
    assert answers[-1] == 429

    # Behind one proxy, the address it appended is the client's; one the
    # client put in front of it is not.
    settings.TRUSTED_PROXY_HOPS = 1
    proxy = Client(REMOTE_ADDR="10.9.9.9")
    for n in range(LINKS_PER_CLIENT.count):
        assert _ask(proxy, f"b{n}@example.org", HTTP_X_FORWARDED_FOR=f"{spoofed[n]}, 192.0.2.30").status_code == 302
    assert _ask(proxy, "b-last@example.org", HTTP_X_FORWARDED_FOR="1.2.3.4, 192.0.2.30").status_code == 429
    assert _ask(proxy, "b-last@example.org", HTTP_X_FORWARDED_FOR="192.0.2.31").status_code == 302
