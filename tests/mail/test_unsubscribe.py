"""One-click unsubscribe (RFC 8058): the mail client POSTs with no cookies and
gets 200; a scanner that GETs the link changes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games import engine
from games.models import Notification, Seat
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.links import seat_token, unsubscribe_token
from tests.web.pages import forms_of

from .helpers import mails_to, mover, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _play_until_turn_of(game, seat, limit=40):
    """Default decisions by everyone else until ``seat`` is to move."""
    for _ in range(limit):
        current = mover(game)
        if current.position == seat.position:
            return
        action = engine.default_action(load_state(game))
        decision_submit(seat=current, text=engine.format_action(action), seen_version=game.decision_version)
    pytest.fail("the seat never came to move")


def _next_mover_after(game, seat):
    """A seat other than ``seat`` that will move again: the one after it in seat order."""
    return Seat.objects.select_related("game").get(game=game, position=(seat.position + 1) % 4)


def test_one_click_unsubscribe_needs_no_cookies_and_answers_200_without_redirect():
    game = started_game()
    seat = Seat.objects.select_related("game").get(game=game, position=2)
    client = Client(enforce_csrf_checks=True)
    assert not client.cookies
    # What a mail client sends (RFC 8058): a form-encoded body, no cookies, no CSRF token.
    response = client.post(
        f"/u/{unsubscribe_token(seat)}/", "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert "Location" not in response
    assert response["Cache-Control"] == "no-store"
    seat.refresh_from_db()
    assert seat.emails_stopped
    # Nobody else is unsubscribed.
    assert Seat.objects.filter(game=game, emails_stopped=True).count() == 1


def test_an_unsubscribed_seat_gets_no_decision_emails():
    game = started_game()
    seat = _next_mover_after(game, mover(game))
    Client(enforce_csrf_checks=True).post(f"/u/{unsubscribe_token(seat)}/")
    before = len(mails_to(seat.email))
    _play_until_turn_of(game, seat)
    assert len(mails_to(seat.email)) == before
    assert not Notification.objects.filter(seat=seat, kind="turn").exists()


def test_opening_the_unsubscribe_link_only_shows_a_page():
    game = started_game()
    seat = Seat.objects.select_related("game").get(game=game, position=1)
    client = Client()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/u/{unsubscribe_token(seat)}/")
        head = client.head(f"/u/{unsubscribe_token(seat)}/")
    assert page.status_code == 200
    assert head.status_code == 200
    assert "<form" in page.content.decode()
    written = [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert written == []
    seat.refresh_from_db()
    assert not seat.emails_stopped


FORGED = ["x", "A" * 32, "A" * 101, "A" * 5000, "%C3%A4%F0%9F%90%8E", "%00", "..%2F..", "%ED%A0%80", "%FF"]


def test_a_forged_unsubscribe_link_gets_404_and_never_a_500():
    started_game(players=3)
    client = Client(raise_request_exception=False)
    for token in FORGED:
        for method in (client.get, client.post, client.head):
            response = method(f"/u/{token}/")
            assert response.status_code == 404, (token, method.__name__, response.status_code)
    assert not Seat.objects.filter(emails_stopped=True).exists()


def test_a_token_with_one_letter_changed_is_forged():
    game = started_game(players=3)
    seat = Seat.objects.select_related("game").get(game=game, position=0)
    token = unsubscribe_token(seat)
    forged = token[:-1] + ("A" if token[-1] != "A" else "B")
    response = Client().post(f"/u/{forged}/")
    assert response.status_code == 404
    assert not Seat.objects.filter(emails_stopped=True).exists()


def test_the_seat_pages_email_form_turns_emails_back_on():
    game = started_game()
    seat = _next_mover_after(game, mover(game))
    token = seat_token(seat)
    client = Client()
    client.post(f"/u/{unsubscribe_token(seat)}/")
    page = client.get(f"/s/{token}/settings").content.decode()
    assert "You unsubscribed" in page
    (form,) = [f for f in forms_of(page, f"/s/{token}/settings") if f.action.endswith("/emails")]
    assert "every" in form.radios()["email_mode"]
    response = client.post(form.action, form.values() | {"email_mode": "every"})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert not seat.emails_stopped
    assert seat.email_mode == Seat.EmailMode.EVERY

    _play_until_turn_of(game, seat)
    assert Notification.objects.filter(seat=seat, kind="turn").exists()
    assert mails_to(seat.email, "turn")


def test_the_unsubscribe_link_opens_no_seat_and_the_seat_link_unsubscribes_nobody():
    game = started_game()
    seat = Seat.objects.select_related("game").get(game=game, position=1)
    client = Client()
    unsubscribe, link = unsubscribe_token(seat), seat_token(seat)
    assert link not in unsubscribe and unsubscribe.partition(".")[2] != link
    for path in (f"/s/{unsubscribe}/", f"/s/{unsubscribe.partition('.')[2]}/", f"/s/{unsubscribe}/state.json"):
        assert client.get(path).status_code == 404, path
    assert client.post(f"/s/{unsubscribe}/act", {"version": "0", "action": "pass"}).status_code == 404
    assert client.post(f"/u/{link}/").status_code == 404
    seat.refresh_from_db()
    assert not seat.emails_stopped
    # Its pages link to no seat either.
    for response in (client.get(f"/u/{unsubscribe}/"), client.post(f"/u/{unsubscribe}/")):
        assert "/s/" not in response.content.decode()


def test_the_emailed_unsubscribe_header_carries_its_own_secret_not_the_link():
    game = started_game()
    sent = [m for m in mails_to("p1@example.com") if "List-Unsubscribe" in m.extra_headers]
    assert sent
    seat = Seat.objects.select_related("game").get(game=game, position=1)
    for message in sent:
        assert seat_token(seat) not in message.extra_headers["List-Unsubscribe"]
        assert f"/u/{unsubscribe_token(seat)}/" in message.extra_headers["List-Unsubscribe"]
