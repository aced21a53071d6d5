"""What players do from their seat's settings page: ask a moderator; and the "seen"
beacon that tells moderators a link was opened in a browser."""

from __future__ import annotations

import pytest

from games.models import HelpRequest
from tests.factories import seat_at, tokens
from tests.web.pages import forms_of

from .helpers import named, text_of

pytestmark = pytest.mark.django_db


def test_ask_a_moderator_from_the_settings_page_reaches_the_dashboard(mod_client, game):
    token = tokens(game)[2]
    page = mod_client.get(f"/s/{token}/settings")
    assert "Ask a moderator" in text_of(page)
    (form,) = [f for f in forms_of(page) if f.action == f"/s/{token}/help"]
    assert form.method == "post"
    response = mod_client.post(form.action, {**form.values(), "message": "Red has not moved for a week"}, follow=True)
    assert "Your message is with the moderators." in text_of(response)

    help_request = HelpRequest.objects.get()
    assert (help_request.game, help_request.seat, help_request.message) == (
        game, seat_at(game, 2), "Red has not moved for a week"
    )
    assert help_request.handled_at is None
    dashboard = text_of(mod_client.get("/mod/"))
    assert f"{named(seat_at(game, 2))} asks for help: Red has not moved for a week" in dashboard
    assert game.public_id in dashboard


def test_an_empty_or_overlong_help_message_is_refused(mod_client, game):
    token = tokens(game)[1]
    for message in ("", "   ", "x" * 2001):
        response = mod_client.post(f"/s/{token}/help", {"message": message}, follow=True)
        assert "Your message is with the moderators." not in text_of(response)
    assert not HelpRequest.objects.exists()


def test_a_help_request_cannot_be_made_with_a_bad_link(client, game):
    response = client.post("/s/not-a-real-token/help", {"message": "hello"})
    assert response.status_code == 404
    assert not HelpRequest.objects.exists()


def test_the_seen_beacon_records_the_link_was_opened_but_a_get_does_not(client, game):
    token = tokens(game)[0]
    page = client.get(f"/s/{token}/")
    assert page.status_code == 200
    assert 'data-url="seen"' in page.content.decode()  # the beacon's address, next to the page
    client.get(f"/s/{token}/state.json")
    client.head(f"/s/{token}/")
    assert seat_at(game, 0).link_opened_at is None
    assert client.get(f"/s/{token}/seen").status_code == 405
    assert seat_at(game, 0).link_opened_at is None

    response = client.post(f"/s/{token}/seen")
    assert response.status_code == 204
    assert response["Cache-Control"] == "no-store"
    opened = seat_at(game, 0).link_opened_at
    assert opened is not None
    assert all(seat_at(game, p).link_opened_at is None for p in (1, 2, 3))


def test_the_seen_beacon_needs_no_csrf_token_and_ignores_bad_links(game):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    token = tokens(game)[1]
    assert strict.post(f"/s/{token}/seen").status_code == 204
    assert seat_at(game, 1).link_opened_at is not None
    assert strict.post("/s/forged-token/seen").status_code == 404
