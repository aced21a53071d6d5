"""Sending webhook deliveries: claimed once, retried with backoff, and a
webhook that has failed for a day disabled, its owner told by email.

A delivery is written in full (its body stored, so every attempt sends the
same body) before it is claimed (pending -> sending, one UPDATE that only a
pending row passes), so two senders never both send one attempt. A sender
that dies mid-request leaves the row "sending"; the sweep gives it back
after a grace period, and it is sent again with the same delivery id
(X-Versailles-Delivery): receivers drop an id they have seen, which is the
whole of their side of "once"."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Webhook, WebhookDelivery

from .outbox import notification_queue
from .webhook_http import AddressRefused, post
from .webhook_text import body_of, headers_of
from .webhooks import address_shown, deliveries_cancel, seat_webhooks_changed, webhook_live

log = logging.getLogger(__name__)

# A webhook failing this long (since the first failure after its last
# success) is disabled at its next failure.
FAILING_DAY = timedelta(hours=24)
# Attempts of one delivery: with the backoff below, more than a day, so the
# day is what ends a failing webhook, not the count.
MAX_ATTEMPTS = 80
RETRY_MAX = timedelta(minutes=30)
# How late a task's retry may be before the sweep sends the row itself, and
# how long a new row's own task has before the sweep sends it.
RETRY_SLACK = timedelta(minutes=2)
FIRST_WAIT = timedelta(seconds=20)
# Answers that sending the same delivery again cannot change.
RETRYABLE_4XX = {408, 409, 425, 429}


def retry_delay(attempts: int) -> timedelta:
    """How long a delivery that failed ``attempts`` times waits: 30 s, 1 min,
    2 min, ... up to 30 minutes (below Redis's one-hour visibility timeout,
    so a retry's countdown is never delivered twice by the broker)."""
    return min(timedelta(seconds=30 * 2 ** min(max(attempts - 1, 0), 16)), RETRY_MAX)


def _claim(delivery_id: int) -> bool:
    return bool(
        WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.SENDING, claimed_at=timezone.now()
        )
    )


def _written(delivery: WebhookDelivery) -> str:
    """The body, written at the first attempt and kept: a retry sends the
    same bytes (with a new timestamp and signature)."""
    if delivery.body:
        return delivery.body
    hook = delivery.webhook
    body = body_of(delivery, hook, hook.seat, hook.seat.game.public_id)
    rows = WebhookDelivery.objects.filter(pk=delivery.pk, body="", status=WebhookDelivery.Status.PENDING)
    if not rows.update(body=body):
        # Another sender wrote it first: send what it wrote.
        body = WebhookDelivery.objects.filter(pk=delivery.pk).values_list("body", flat=True).first() or body
    return body


def delivery_send(*, delivery_id: int) -> int | None:
    """One attempt at one pending delivery. The seconds until it is due
    again when it failed and may go through later; None otherwise (sent,
    failed for good, not pending, or its webhook gone)."""
    delivery = (
        WebhookDelivery.objects.select_related("webhook__seat__game").filter(pk=delivery_id).first()
    )
    if delivery is None or delivery.status != WebhookDelivery.Status.PENDING:
        return None
    hook = delivery.webhook
    if not webhook_live(hook, hook.seat):
        deliveries_cancel(webhook_id=hook.pk, reason="webhook removed or disabled")
        return None
    try:
        body = _written(delivery).encode()
    except Exception as error:  # a body that cannot be written never will be
        log.exception("webhook delivery %s could not be written", delivery_id)
        WebhookDelivery.objects.filter(pk=delivery_id, status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.FAILED, last_error=f"{type(error).__name__}: {error}"[:500]
        )
        return None
    if not _claim(delivery_id):
        return None
    timestamp = int(time.time())
    try:
        answer = post(hook.url, body, headers_of(delivery, hook, body, timestamp))
    except AddressRefused as refused:
        return _failed(delivery, str(refused), permanent=True)
    except Exception as error:  # timeouts, refused connections, TLS, and anything unforeseen
        # Recorded and retried like any failure, never left "sending".
        return _failed(delivery, f"{type(error).__name__}: {error}", permanent=False)
    if 200 <= answer.status < 300:
        _sent(delivery, answer.status)
        return None
    # What the receiver said, for the moderators and the player; not when
    # the body held the seat's link, which an answer may echo.
    said = "" if hook.include_link else ": " + answer.body[:200].decode("utf-8", "replace")
    permanent = 300 <= answer.status < 500 and answer.status not in RETRYABLE_4XX
    return _failed(delivery, f"HTTP {answer.status}{said}", permanent=permanent, status=answer.status)


def _sent(delivery: WebhookDelivery, status: int) -> None:
    """Sent: the body (which may hold a seat link) and the facts go; the
    envelope stays for the moderators. The webhook's failing streak ends."""
    WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.SENDING).update(
        status=WebhookDelivery.Status.SENT,
        sent_at=timezone.now(),
        attempts=delivery.attempts + 1,
        response_status=status,
        body="",
        context=None,
        last_error="",
    )
    Webhook.objects.filter(pk=delivery.webhook_id).exclude(failing_since=None).update(failing_since=None)


def _failed(delivery: WebhookDelivery, error: str, *, permanent: bool, status: int | None = None) -> int | None:
    """Record a failed attempt: retry later, fail this delivery for good, or,
    after a day of failures, disable the webhook."""
    now = timezone.now()
    attempts = delivery.attempts + 1
    rows = WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.SENDING)
    error = error[:500]
    Webhook.objects.filter(pk=delivery.webhook_id, failing_since=None).update(failing_since=now)
    failing_since = Webhook.objects.filter(pk=delivery.webhook_id).values_list("failing_since", flat=True).first()
    log.warning("webhook delivery %s failed (attempt %d): %s", delivery.pk, attempts, error)
    if failing_since is not None and failing_since <= now - FAILING_DAY:
        rows.update(
            status=WebhookDelivery.Status.FAILED,
            attempts=attempts,
            last_error=error,
            response_status=status,
            body="",
            context=None,
        )
        webhook_disable(webhook_id=delivery.webhook_id, error=error)
        return None
    if permanent or attempts >= MAX_ATTEMPTS:
        rows.update(
            status=WebhookDelivery.Status.FAILED,
            attempts=attempts,
            last_error=error,
            response_status=status,
            body="",
            context=None,
        )
        return None
    delay = retry_delay(attempts)
    rows.update(
        status=WebhookDelivery.Status.PENDING,
        attempts=attempts,
        last_error=error,
        response_status=status,
        claimed_at=None,
        next_attempt_at=now + delay,
    )
    return int(delay.total_seconds())


def webhook_disable(*, webhook_id: int, error: str) -> bool:
    """Disable a webhook that has failed for a day: nothing more is sent to
    it, and its owner gets an email saying so (and why). True if this call
    disabled it."""
    with transaction.atomic():
        hook = Webhook.objects.select_related("seat__game").filter(pk=webhook_id).first()
        if hook is None:
            return False
        done = Webhook.objects.filter(pk=webhook_id, disabled_at=None, removed_at=None).update(
            disabled_at=timezone.now()
        )
        if not done:
            return False
        deliveries_cancel(webhook_id=webhook_id, reason="webhook disabled")
        seat_webhooks_changed(hook.seat_id)
        owner = hook.seat
        notification_queue(
            game=owner.game,
            seat=owner,
            kind="webhook_off",
            # Once per webhook (this kind tells of no game version).
            version=hook.pk,
            template="webhook_off",
            context={
                "webhook": {
                    "kind": hook.kind,
                    "scope": hook.scope,
                    "address": address_shown(hook.url),
                    "failing_since": hook.failing_since.strftime("%Y-%m-%d %H:%M UTC") if hook.failing_since else "",
                    "error": error,
                }
            },
        )
    log.warning("webhook %s disabled after failing for a day", webhook_id)
    return True


def deliveries_release(*, older_than: timedelta) -> list[int]:
    """Claims left by senders that died, given back; then the pending rows
    whose own task was lost: their ids, to be sent again."""
    now = timezone.now()
    WebhookDelivery.objects.filter(status=WebhookDelivery.Status.SENDING, claimed_at__lt=now - older_than).update(
        status=WebhookDelivery.Status.PENDING, claimed_at=None
    )
    due = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(
            Q(attempts=0, created_at__lt=now - FIRST_WAIT)
            # A row that failed a moment ago has its task's retry coming.
            | Q(attempts__gt=0, next_attempt_at__lt=now - RETRY_SLACK)
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )
    return list(due)
