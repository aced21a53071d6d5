"""The Django admin: a read-only window that shows no secret."""

from __future__ import annotations

import html
import json
import random

import pytest

from games.models import ActionRecord, Game, Notification, Seat
from games.services.links import seat_token
from tests.factories import play_steps, started_game

pytestmark = pytest.mark.django_db

MODELS = ("game", "seat", "actionrecord", "notification", "moderationentry", "helprequest", "absence", "inboundmessage")


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    # The emails are sent on commit; once sent, the outbox keeps no body
    # (it held the seat link and the seat's secret cards).
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(4)
        game = play_steps(game, 3, random.Random(7))
    sent = Notification.objects.filter(game=game, status="sent")
    assert sent.exists()
    assert not sent.exclude(body_text="", body_html="", context=None).exists()
    return game


def secrets_of(game: Game) -> list[str]:
    """Strings that must appear on no admin page."""
    values = [game.seed, json.dumps(game.state), '"deck"', "&quot;deck&quot;"]
    for seat in Seat.objects.filter(game=game).select_related("game"):
        values += [seat.token_hash, seat.link_nonce, seat_token(seat)]
    for notification in Notification.objects.filter(game=game):
        values += [line for line in notification.body_text.splitlines() if len(line) > 30]
        values += [notification.body_html[:80]]
        values += [str(v) for v in (notification.context or {}).values() if isinstance(v, str) and len(v) > 30]
    # Chance draws name secret cards: the log's action text stays out.
    values += [r.action for r in ActionRecord.objects.filter(game=game, seat=-1) if r.action.startswith("draw")]
    return [v for v in values if v]


def admin_pages(client, game: Game):
    seat = Seat.objects.filter(game=game).first()
    objects = {
        "game": game.pk,
        "seat": seat.pk,
        "actionrecord": ActionRecord.objects.filter(game=game, seat=-1).last().pk,
        "notification": Notification.objects.filter(game=game).first().pk,
    }
    for model, pk in objects.items():
        yield model, f"/admin/games/{model}/", f"/admin/games/{model}/{pk}/change/", pk


def test_a_superuser_sees_games_seats_log_and_emails_without_any_secret(admin_client, played):
    secrets = secrets_of(played)
    assert len(secrets) > 10
    for model, changelist, change, _ in admin_pages(admin_client, played):
        for path in (changelist, change, changelist + f"?q={played.public_id}"):
            response = admin_client.get(path)
            assert response.status_code == 200, path
            page = response.content.decode()
            for secret in secrets:
                assert secret not in page and secret not in html.unescape(page), (path, secret[:40])
        assert played.public_id in admin_client.get(change).content.decode() or model != "game"


def test_the_seed_commitment_and_public_facts_are_shown(admin_client, played):
    page = admin_client.get(f"/admin/games/game/{played.pk}/change/").content.decode()
    assert played.seed_commitment in page
    assert played.public_id in page


def test_nothing_in_the_admin_changes_a_game(admin_client, played):
    before = {
        "game": list(Game.objects.values()),
        "seats": list(Seat.objects.values()),
        "records": ActionRecord.objects.count(),
        "notifications": list(Notification.objects.values("pk", "status", "to_email")),
    }
    for model, changelist, change, pk in admin_pages(admin_client, played):
        page = admin_client.get(change).content.decode()
        assert 'type="submit"' not in page or 'name="_save"' not in page, change
        assert (
            admin_client.post(change, {"status": "aborted", "email": "x@example.org", "_save": "Save"}).status_code
            == 403
        )
        assert admin_client.get(f"/admin/games/{model}/add/").status_code == 403
        assert admin_client.post(f"/admin/games/{model}/add/", {"status": "running"}).status_code == 403
        assert admin_client.get(f"/admin/games/{model}/{pk}/delete/").status_code == 403
        assert admin_client.post(f"/admin/games/{model}/{pk}/delete/", {"post": "yes"}).status_code == 403
        # No bulk action either (not even delete_selected).
        response = admin_client.post(changelist, {"action": "delete_selected", "_selected_action": [pk], "post": "yes"})
        assert response.status_code in (200, 302, 403)
    for model in MODELS:
        assert admin_client.get(f"/admin/games/{model}/").status_code == 200, model
        assert admin_client.get(f"/admin/games/{model}/add/").status_code == 403, model
    after = {
        "game": list(Game.objects.values()),
        "seats": list(Seat.objects.values()),
        "records": ActionRecord.objects.count(),
        "notifications": list(Notification.objects.values("pk", "status", "to_email")),
    }
    assert after == before


def test_a_moderator_is_not_given_the_admin_by_being_staff(client, moderator, played):
    client.force_login(moderator)
    response = client.get("/admin/games/game/")
    assert response.status_code in (302, 403)
