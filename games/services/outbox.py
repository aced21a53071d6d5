"""The outbox: rows written with the change that causes them, sent after commit.

A row is claimed (pending -> sending) before it is handed to the provider and
marked sent after, so two senders never both send it; a claim left behind by a
sender that died is released by the sweep (sweeps.notifications_sweep)."""

from __future__ import annotations

import json
import logging
from datetime import timedelta

from anymail.exceptions import AnymailRecipientsRefused
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.enqueue import enqueue_on_commit
from games.mail.compose import email_message, email_render
from games.models import Game, Notification, Seat

from .links import reply_address, seat_url, unsubscribe_url

log = logging.getLogger(__name__)

# Kinds a player cannot do without: they still go to an unsubscribed seat.
ESSENTIAL_KINDS = {"invite", "link"}


class TransientSendError(Exception):
    """The provider may accept the message later: retry with backoff."""


def notification_queue(
    *, game: Game, seat: Seat, kind: str, version: int, template: str, context: dict, picture: dict | None = None
) -> Notification | None:
    """Write one email to the outbox; a second call for the same
    (game, seat, version, kind) writes nothing. Seats whose address bounced
    or who unsubscribed get nothing but essentials."""
    if "link" in context:
        raise ValueError("the seat link is added when the email is written, never stored")
    if seat.email_undeliverable and kind not in ESSENTIAL_KINDS:
        return None
    if seat.emails_stopped and kind not in ESSENTIAL_KINDS:
        return None
    try:
        # A savepoint, so a duplicate leaves the caller's transaction usable.
        with transaction.atomic():
            notification = Notification.objects.create(
                game=game,
                seat=seat,
                version=version,
                kind=kind,
                to_email=seat.email,
                template=template,
                context=json.loads(json.dumps(context, cls=DjangoJSONEncoder)),
                picture=picture,
            )
    except IntegrityError:
        return None
    enqueue_on_commit("games.notification_send", notification.pk)
    return notification


def _written(notification: Notification) -> Notification:
    """Render the email from its template and context, once. The seat link is
    added only now, so rows waiting in the outbox are the only ones that ever
    hold it."""
    if notification.body_text or not notification.template:
        return notification
    seat = notification.seat
    context = dict(notification.context or {})
    context.update(game=seat.game if seat else notification.game, seat=seat, site_url=settings.SITE_URL)
    if seat is not None:
        context["link"] = seat_url(seat)
    notification.subject, notification.body_text, notification.body_html = email_render(notification.template, context)
    return notification


def _message(notification: Notification) -> EmailMultiAlternatives:
    seat = notification.seat
    replies = seat is not None and (notification.kind == "turn" or notification.kind.startswith("reminder"))
    return email_message(
        subject=notification.subject,
        text=notification.body_text,
        html=notification.body_html,
        to=notification.to_email,
        unsubscribe=unsubscribe_url(seat) if seat is not None else None,
        reply_to=reply_address(seat, notification.version) if replies else None,
        picture=notification.picture,
        tag=notification.kind,
        metadata={"notification": str(notification.pk)},
    )


def notification_send(*, notification_id: int) -> bool:
    """Send one pending email; True if this call sent it. Raises
    TransientSendError when the provider may take it later."""
    now = timezone.now()
    claimed = Notification.objects.filter(pk=notification_id, status=Notification.Status.PENDING).update(
        status=Notification.Status.SENDING, claimed_at=now
    )
    if not claimed:
        return False
    notification = Notification.objects.select_related("seat__game", "game").get(pk=notification_id)
    try:
        message = _message(_written(notification))
        message.send()
    except Exception as error:
        return _failed(notification, error)
    status = getattr(message, "anymail_status", None)
    provider_id = ""
    if status is not None and status.message_id:
        provider_id = str(status.message_id)[:200]
    # Once the provider has it, the outbox keeps only the envelope: the body
    # held a seat link and the seat's own secret cards.
    Notification.objects.filter(pk=notification_id).update(
        status=Notification.Status.SENT,
        sent_at=timezone.now(),
        attempts=notification.attempts + 1,
        provider_id=provider_id,
        subject=notification.subject,
        body_text="",
        body_html="",
        context=None,
        picture=None,
    )
    return True


def _failed(notification: Notification, error: Exception) -> bool:
    attempts = notification.attempts + 1
    if isinstance(error, AnymailRecipientsRefused):
        Notification.objects.filter(pk=notification.pk).update(
            status=Notification.Status.FAILED, attempts=attempts, last_error=str(error)[:500]
        )
        if notification.seat_id:
            seat_mark_undeliverable(seat_id=notification.seat_id)
        return False
    Notification.objects.filter(pk=notification.pk).update(
        status=Notification.Status.PENDING, claimed_at=None, attempts=attempts, last_error=str(error)[:500]
    )
    log.warning("sending notification %s failed; will retry", notification.pk, exc_info=True)
    raise TransientSendError(str(error)) from error


def seat_mark_undeliverable(*, seat_id: int) -> None:
    Seat.objects.filter(pk=seat_id).update(email_undeliverable=True)


def notifications_release(*, older_than: timedelta) -> list[int]:
    """Pending rows nobody is sending, and claims left by dead senders: their ids,
    to be sent again."""
    now = timezone.now()
    with transaction.atomic():
        Notification.objects.filter(
            status=Notification.Status.SENDING, claimed_at__lt=now - older_than
        ).update(status=Notification.Status.PENDING, claimed_at=None)
    return list(
        Notification.objects.filter(status=Notification.Status.PENDING, created_at__lt=now - timedelta(seconds=20))
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )
