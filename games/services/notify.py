"""The outbox: rows written with the change that causes them, sent after commit."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from games.models import Game, Notification, Seat


def notification_queue(
    *, game: Game, seat: Seat, kind: str, version: int, template: str, context: dict
) -> Notification | None:
    """Write one email to the outbox; a second call for the same
    (game, seat, version, kind) writes nothing."""
    context = {**context, "game": game, "seat": seat}
    with translation.override(settings.LANGUAGE_CODE):
        subject = render_to_string(f"emails/{template}_subject.txt", context).strip()
        text = render_to_string(f"emails/{template}.txt", context)
        html = render_to_string(f"emails/{template}.html", context)
    notification, created = Notification.objects.get_or_create(
        game=game,
        seat=seat,
        version=version,
        kind=kind,
        defaults={"to_email": seat.email, "subject": subject[:200], "body_text": text, "body_html": html},
    )
    if created:
        transaction.on_commit(lambda: notification_send(notification_id=notification.pk))
    return notification if created else None


def notification_send(*, notification_id: int) -> bool:
    """Send one pending email; True if this call sent it."""
    claimed = Notification.objects.filter(pk=notification_id, status=Notification.Status.PENDING)
    notification = claimed.first()
    if notification is None:
        return False
    message = EmailMultiAlternatives(
        subject=notification.subject,
        body=notification.body_text,
        to=[notification.to_email],
    )
    if notification.body_html:
        message.attach_alternative(notification.body_html, "text/html")
    message.send()
    Notification.objects.filter(pk=notification_id).update(
        status=Notification.Status.SENT, sent_at=timezone.now(), attempts=notification.attempts + 1
    )
    return True
