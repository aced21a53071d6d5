"""What happens when the provider will not take a message: a passing trouble
is retried, a refused address is marked undeliverable for everyone to see."""

from __future__ import annotations

import uuid

import pytest
from anymail.backends.test import EmailBackend as AnymailTestBackend
from anymail.exceptions import AnymailAPIError
from anymail.message import AnymailRecipientStatus
from django.core import mail
from django.test import Client, override_settings
from django.utils import timezone

import games.tasks
from games.models import Game, Notification, Seat
from games.services import outbox as notify
from games.services.decisions import decision_submit
from games.services.links import seat_token
from games.services.sweeps import reminders_sweep
from games.services.tracking import notification_tag

from .helpers import ANYMAIL_TEST_SETTINGS, addresses, basic_auth, mover, post_json, started_game

pytestmark = pytest.mark.django_db(transaction=True)

HERE = __name__


class ProviderBackend(AnymailTestBackend):
    """Anymail's test backend with string message ids, as real providers give."""

    def get_esp_message_id(self, message):
        return f"pm-{uuid.uuid4()}"


class FlakyBackend(ProviderBackend):
    """The provider answers 503 to the first send, then takes messages."""

    failures = 0

    def post_to_esp(self, payload, message):
        if FlakyBackend.failures == 0:
            FlakyBackend.failures += 1
            raise AnymailAPIError("Postmark API response 503: Service Unavailable", backend=self)
        return super().post_to_esp(payload, message)


class RefusingBackend(ProviderBackend):
    """The provider refuses every recipient (an inactive, bounced address)."""

    def post_to_esp(self, payload, message):
        mail.outbox.append(message)
        status = AnymailRecipientStatus(message_id=None, status="rejected")
        return {"recipient_status": {email: status for email in payload.recipient_emails}}


@pytest.fixture
def held_sends(monkeypatch):
    """Outbox rows are written but their send task is not run: the test sends them."""
    queued = []
    monkeypatch.setattr(notify, "enqueue_on_commit", lambda name, *args: queued.append(args[0]))
    return queued


def _pending_turn_notification(game: Game, held_sends: list) -> Notification:
    seat = mover(game)
    held_sends.clear()
    decision_submit(seat=seat, text="pass", seen_version=game.decision_version)
    (pk,) = [pk for pk in held_sends if Notification.objects.get(pk=pk).kind == "turn"]
    notification = Notification.objects.get(pk=pk)
    assert notification.status == Notification.Status.PENDING
    return notification


def test_a_transient_provider_error_leaves_the_email_pending_for_a_retry(held_sends):
    game = started_game()
    notification = _pending_turn_notification(game, held_sends)
    FlakyBackend.failures = 0
    with override_settings(EMAIL_BACKEND=f"{HERE}.FlakyBackend"):
        mail.outbox.clear()
        with pytest.raises(notify.TransientSendError):
            notify.notification_send(notification_id=notification.pk)
        notification.refresh_from_db()
        assert notification.status == Notification.Status.PENDING
        # claimed_at now records when it was last tried, for the sweep's backoff.
        assert notification.claimed_at is not None
        assert notification.attempts == 1
        assert "503" in notification.last_error
        assert mail.outbox == []
        seat = Seat.objects.get(pk=notification.seat_id)
        assert not seat.email_undeliverable

        # The retry goes through, once.
        assert notify.notification_send(notification_id=notification.pk) is True
        assert notify.notification_send(notification_id=notification.pk) is False
    notification.refresh_from_db()
    assert notification.status == Notification.Status.SENT
    assert notification.attempts == 2
    assert notification.provider_id.startswith("pm-")
    assert [addresses(m) for m in mail.outbox] == [[notification.to_email]]


def test_the_send_task_retries_with_a_growing_capped_countdown(monkeypatch):
    """Not run eagerly: the task body is called with a fake request and retry."""
    from celery.exceptions import Retry

    from versailles_site.celery import app

    task = app.tasks["games.notification_send"]
    assert task.max_retries == 8
    assert task.acks_late and task.reject_on_worker_lost

    def transient(*, notification_id):
        raise notify.TransientSendError("503")

    countdowns = []

    def fake_retry(self, exc=None, countdown=None, **kwargs):
        assert isinstance(exc, notify.TransientSendError)
        countdowns.append(countdown)
        return Retry("retry", exc)

    monkeypatch.setattr(games.tasks.outbox, "notification_send", transient)
    monkeypatch.setattr(type(task), "retry", fake_retry)
    for retries in range(10):
        task.push_request(retries=retries, called_directly=False)
        try:
            with pytest.raises(Retry):
                task.run(1)
        finally:
            task.pop_request()
    assert countdowns == [30, 60, 120, 240, 480, 960, 1920, 3840, 7200, 7200]


def test_a_refused_address_is_marked_undeliverable_for_everyone_and_gets_no_reminders(held_sends):
    game = started_game()
    notification = _pending_turn_notification(game, held_sends)
    seat = Seat.objects.select_related("game").get(pk=notification.seat_id)
    other = Seat.objects.select_related("game").exclude(pk=seat.pk).filter(game=game).first()

    client = Client()
    assert "email undeliverable" not in client.get(f"/g/{game.public_id}/").content.decode()

    with override_settings(EMAIL_BACKEND=f"{HERE}.RefusingBackend"):
        assert notify.notification_send(notification_id=notification.pk) is False
    notification.refresh_from_db()
    assert notification.status == Notification.Status.FAILED
    assert notification.attempts == 1
    seat.refresh_from_db()
    assert seat.email_undeliverable

    # Everyone sees it: the seat itself, another player, a spectator.
    for path in (f"/s/{seat_token(seat)}/", f"/s/{seat_token(other)}/", f"/g/{game.public_id}/"):
        page = client.get(path)
        assert page.status_code == 200
        assert page.content.decode().count("email undeliverable") == 1, path

    # No reminders to an address that will not take them.
    Game.objects.filter(pk=game.pk).update(reminder_at=timezone.now())
    assert reminders_sweep() == 0
    assert not Notification.objects.filter(seat=seat, kind="reminder").exists()
    # ... while the same seat with a good address would have had one.
    Seat.objects.filter(pk=seat.pk).update(email_undeliverable=False)
    Game.objects.filter(pk=game.pk).update(reminder_at=timezone.now())
    assert reminders_sweep() == 1
    assert Notification.objects.filter(seat=seat, kind="reminder").count() == 1


def _bounce(**fields) -> dict:
    return {
        "RecordType": "Bounce",
        "ID": 4323372036854775807,
        "Type": "HardBounce",
        "TypeCode": 1,
        "Name": "Hard bounce",
        "Tag": "turn",
        "Description": "The server was unable to deliver your message (ex: unknown user, mailbox not found).",
        "Details": "smtp;550 5.1.1 The email account that you tried to reach does not exist.",
        "Email": "p1@example.com",
        "From": "versailles@example.org",
        "BouncedAt": "2026-01-05T16:09:19Z",
        "Inactive": True,
        "CanActivate": True,
        "Subject": "Galopp Royal: your bid",
        "MessageStream": "outbound",
        **fields,
    }


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS, EMAIL_BACKEND=f"{HERE}.ProviderBackend")
@pytest.mark.parametrize("match", ["provider_id", "metadata"])
def test_a_bounce_reported_by_the_tracking_webhook_marks_the_seat_undeliverable(match):
    game = started_game()
    seat = mover(game)
    notification = Notification.objects.get(seat=seat, kind="turn")
    assert notification.status == Notification.Status.SENT
    assert notification.provider_id.startswith("pm-")
    if match == "provider_id":
        event = _bounce(MessageID=notification.provider_id, Email=seat.email)
    else:
        # The metadata the email carried: its notification, signed.
        event = _bounce(
            MessageID=str(uuid.uuid4()), Email=seat.email, Metadata={"notification": notification_tag(notification.pk)}
        )
    client = Client()

    # A delivery report and a forged bounce change nothing.
    delivered = {"RecordType": "Delivery", "MessageID": notification.provider_id, "Recipient": seat.email,
                 "DeliveredAt": "2026-01-05T16:09:19Z", "Metadata": {"notification": str(notification.pk)}}
    assert post_json(client, "/anymail/postmark/tracking/", delivered, basic_auth()).status_code == 200
    forged = post_json(client, "/anymail/postmark/tracking/", event, basic_auth("webhookuser:wrong"))
    assert forged.status_code in (400, 401, 403)
    assert post_json(client, "/anymail/postmark/tracking/", event).status_code in (400, 401, 403)
    assert not Seat.objects.filter(game=game, email_undeliverable=True).exists()

    response = post_json(client, "/anymail/postmark/tracking/", event, basic_auth())
    assert response.status_code == 200
    assert list(Seat.objects.filter(game=game, email_undeliverable=True)) == [seat]
