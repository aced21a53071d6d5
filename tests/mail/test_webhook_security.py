"""The provider webhooks take replies and bounce reports: nobody without the
secret may post them, and a bounce report must name an email in a way no
outsider can make up."""

from __future__ import annotations

import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from games.models import InboundMessage, Notification, Seat
from games.services.tracking import notification_tag
from versailles_site.env import email_config

from .helpers import (
    ANYMAIL_TEST_SETTINGS,
    basic_auth,
    mover,
    post_json,
    reply,
    started_game,
    turn_mail,
)

pytestmark = pytest.mark.django_db(transaction=True)

GOOD_SECRET = "postmark:" + "k" * 24


def _bounce(**fields) -> dict:
    return {
        "RecordType": "Bounce",
        "ID": 4323372036,
        "Type": "HardBounce",
        "TypeCode": 1,
        "Name": "Hard bounce",
        "MessageID": str(uuid.uuid4()),
        "Description": "The server was unable to deliver your message",
        "BouncedAt": "2026-01-05T16:09:19Z",
        **fields,
    }


def _sent_turn(seat: Seat) -> Notification:
    notification = Notification.objects.filter(seat=seat, kind="turn").latest("pk")
    assert notification.status == Notification.Status.SENT
    return notification


def _undeliverable(game) -> list[Seat]:
    return list(Seat.objects.filter(game=game, email_undeliverable=True))


@pytest.mark.parametrize("provider", ["postmark", "mailgun", "amazon_ses"])
def test_a_provider_without_a_webhook_secret_refuses_to_start(provider):
    with pytest.raises(ImproperlyConfigured, match="ANYMAIL_WEBHOOK_SECRET must be set"):
        email_config({"EMAIL_PROVIDER": provider, "ANYMAIL_POSTMARK_SERVER_TOKEN": "x"})


@pytest.mark.parametrize("secret", ["justapassword", "user:short", ":" + "k" * 24, "user:" + "k" * 20 + " x"])
def test_a_guessable_or_malformed_webhook_secret_refuses_to_start(secret):
    for provider in ("postmark", "smtp", None):
        environ = {"ANYMAIL_WEBHOOK_SECRET": secret, **({"EMAIL_PROVIDER": provider} if provider else {})}
        with pytest.raises(ImproperlyConfigured, match="ANYMAIL_WEBHOOK_SECRET must look like user:password"):
            email_config(environ)


def test_a_provider_with_a_webhook_secret_starts_and_passes_it_to_anymail():
    backend, anymail = email_config({"EMAIL_PROVIDER": "postmark", "ANYMAIL_WEBHOOK_SECRET": GOOD_SECRET})
    assert backend == "anymail.backends.postmark.EmailBackend"
    assert anymail["WEBHOOK_SECRET"] == GOOD_SECRET


@pytest.mark.parametrize("environ", [{}, {"EMAIL_PROVIDER": "smtp"}, {"EMAIL_PROVIDER": "console"}])
def test_the_dev_mailbox_and_smtp_start_without_a_webhook_secret(environ):
    email_config(environ)


@override_settings(ANYMAIL={})
def test_without_a_secret_the_webhooks_are_closed_and_a_bounce_marks_nobody():
    game = started_game()
    seat = mover(game)
    notification = _sent_turn(seat)
    event = _bounce(Email=seat.email, Metadata={"notification": str(notification.pk)})
    response = post_json(Client(), "/anymail/postmark/tracking/", event)
    assert response.status_code == 403
    assert b"ANYMAIL_WEBHOOK_SECRET" in response.content
    assert _undeliverable(game) == []


@override_settings(ANYMAIL={})
def test_without_a_secret_an_inbound_reply_is_not_taken():
    game = started_game()
    seat = mover(game)
    version = game.version
    (address,) = turn_mail(seat).reply_to
    payload = {"RawEmail": reply(to=address, sender=seat.email, first_line="pass"), "FromFull": {"Email": "x@y"}}
    assert post_json(Client(), "/anymail/postmark/inbound/", payload).status_code == 403
    assert not InboundMessage.objects.exists()
    game.refresh_from_db()
    assert game.version == version


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
@pytest.mark.parametrize("guess", ["bare id", "id with a made-up signature", "another email's signature"])
def test_a_bounce_report_naming_a_guessed_notification_marks_nobody(guess):
    game = started_game()
    seat = mover(game)
    notification = _sent_turn(seat)
    other = Notification.objects.exclude(pk=notification.pk).first()
    tag = {
        "bare id": str(notification.pk),
        "id with a made-up signature": f"{notification.pk}.{'0' * 32}",
        "another email's signature": f"{notification.pk}.{notification_tag(other.pk).partition('.')[2]}",
    }[guess]
    event = _bounce(Email=seat.email, Metadata={"notification": tag})
    assert post_json(Client(), "/anymail/postmark/tracking/", event, basic_auth()).status_code == 200
    assert _undeliverable(game) == []


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
def test_a_bounce_report_with_the_signed_tag_the_email_carried_marks_its_seat():
    game = started_game()
    seat = mover(game)
    sent = turn_mail(seat)
    event = _bounce(Email=seat.email, Metadata=sent.metadata)
    assert post_json(Client(), "/anymail/postmark/tracking/", event, basic_auth()).status_code == 200
    assert _undeliverable(game) == [seat]


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
def test_a_batch_of_two_thousand_tracking_reports_passes_the_webhooks_door():
    # Providers batch reports; the door counts addresses in emails only.
    game = started_game()
    seat = mover(game)
    sent = turn_mail(seat)
    padding = " ".join(f"r{i}@example.org" for i in range(2_000))
    event = _bounce(Email=seat.email, Metadata=sent.metadata, Description=padding)
    assert post_json(Client(), "/anymail/postmark/tracking/", event, basic_auth()).status_code == 200
    assert _undeliverable(game) == [seat]


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
def test_a_bounce_for_an_address_the_seat_no_longer_uses_marks_nobody():
    game = started_game()
    seat = mover(game)
    sent = turn_mail(seat)
    Seat.objects.filter(pk=seat.pk).update(email="new-address@example.com")
    event = _bounce(Email=seat.email, Metadata=sent.metadata)
    assert post_json(Client(), "/anymail/postmark/tracking/", event, basic_auth()).status_code == 200
    assert _undeliverable(game) == []
