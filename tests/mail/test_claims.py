"""An email is sent by whoever claims its row first, and never again: a row
another sender holds, or one already sent, is left alone."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import Notification
from games.services import outbox

from .helpers import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending():
    started_game()
    row = Notification.objects.filter(status=Notification.Status.PENDING).order_by("pk").first()
    if row is None:  # the test settings send at once: put one back in the outbox
        row = Notification.objects.order_by("pk").first()
        Notification.objects.filter(pk=row.pk).update(status=Notification.Status.PENDING)
    mail.outbox.clear()
    return row


def test_a_pending_email_is_sent_once_and_a_second_send_does_nothing(pending):
    assert outbox.notification_send(notification_id=pending.pk) is True
    assert outbox.notification_send(notification_id=pending.pk) is False
    assert len(mail.outbox) == 1
    assert Notification.objects.get(pk=pending.pk).status == Notification.Status.SENT


def test_an_email_another_sender_holds_is_left_to_it(pending):
    Notification.objects.filter(pk=pending.pk).update(status=Notification.Status.SENDING)
    assert outbox.notification_send(notification_id=pending.pk) is False
    assert mail.outbox == []
    assert Notification.objects.get(pk=pending.pk).status == Notification.Status.SENDING


def test_a_row_claimed_between_reading_and_claiming_is_not_sent(pending, monkeypatch):
    real_message = outbox._message

    def another_sender_claims_meanwhile(notification):
        Notification.objects.filter(pk=notification.pk).update(status=Notification.Status.SENDING)
        return real_message(notification)

    monkeypatch.setattr(outbox, "_message", another_sender_claims_meanwhile)
    assert outbox.notification_send(notification_id=pending.pk) is False
    assert mail.outbox == []
