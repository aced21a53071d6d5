"""Sending webhook deliveries: each webhook's in version order, claimed
once, retried with backoff, a turn a later decision made stale superseded
instead of sent, and a webhook that has failed for a day disabled, its
owner told by email.

Order: a webhook's deliveries go out one at a time, oldest version first.
Whichever task runs for a webhook sends its oldest unfinished delivery
(the head), not necessarily the one it was queued for; while the head is
being sent or waits out its backoff, every newer one is held, and once the
head is sent or given up the same task goes on down the queue. So after an
outage the receiver gets what it missed in the order it happened, never a
newer event before an older one.

Once: a delivery is claimed (pending -> sending) before it is sent, under a
lock on its webhook's row, so two senders never both send one attempt. A
sender that dies mid-request leaves the row "sending"; the sweep gives it
back after a grace period, and it is sent again with the same delivery id
(X-Versailles-Delivery): receivers drop an id they have seen, which is the
whole of their side of "once"."""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from games.models import Game, Webhook, WebhookDelivery

from .enqueue import enqueue_now
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


UNFINISHED = (WebhookDelivery.Status.PENDING, WebhookDelivery.Status.SENDING)
# A task's retry may run a moment before the time its row was given (two
# machines' clocks): the head is due this much early.
DUE_SLACK = timedelta(seconds=2)
# How many deliveries one task sends down a webhook's queue before it hands
# the rest to a new task (each request may take its timeouts; the task's
# time limit is a minute).
DRAIN_BATCH = 8


def turns_supersede(*, webhook_id: int | None = None) -> int:
    """Pending turns that a later decision has made stale (the game's
    pending decision is another now, or the game has ended) become
    superseded: "your turn" is never sent for a decision already made.
    One webhook's, or every webhook's (the sweep). A turn being sent is
    left to its sender; should it fail, it is superseded here next time."""
    game = Game.objects.filter(pk=OuterRef("game_id"))
    holds = Exists(
        game.filter(
            decision_version=OuterRef("version"), status__in=(Game.Status.RUNNING, Game.Status.PAUSED)
        )
    )
    rows = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, event="turn")
    if webhook_id is not None:
        rows = rows.filter(webhook_id=webhook_id)
    # Its last error stays: the pages show why it had not gone out in time.
    return rows.filter(~holds).update(
        status=WebhookDelivery.Status.SUPERSEDED, body="", context=None, next_attempt_at=None
    )


def _head(webhook_id: int) -> WebhookDelivery | None:
    return (
        WebhookDelivery.objects.filter(webhook_id=webhook_id, status__in=UNFINISHED)
        .order_by("version", "pk")
        .first()
    )


def _claim_head(webhook_id: int) -> WebhookDelivery | None:
    """Claim the webhook's oldest unfinished delivery, if it is pending and
    due; None when there is nothing to send now (the queue is empty, its
    head is another sender's, or the head waits out its backoff, and then
    every newer delivery waits behind it)."""
    with transaction.atomic():
        # The webhook's row is locked while its queue is read and its head
        # claimed, so that claims of one webhook's deliveries happen one
        # after the other, each seeing what the one before it committed.
        # Without it, a worker could claim on what it read before another
        # worker's result was committed: a head that had just failed and
        # been given its backoff would be read as due, claimed again at
        # once and sent early; and the superseding of stale turns would race
        # the claims. Only the head can be claimed at all (every older
        # delivery is finished, which a worker sees only once that is
        # committed), and the claim is still conditional (pending ->
        # sending). No lock is held while a request is on the wire.
        # (SQLite ignores the row lock but takes its one write lock at
        # BEGIN here, which serialises the claims the same way.)
        # FOR NO KEY UPDATE: a decision writing this webhook's new
        # deliveries (whose foreign key takes a key-share lock on it) never
        # waits for a claim.
        locked = Webhook.objects.select_for_update(no_key=True).filter(pk=webhook_id)
        if locked.values_list("pk", flat=True).first() is None:
            return None
        turns_supersede(webhook_id=webhook_id)
        head = _head(webhook_id)
        if head is None or head.status != WebhookDelivery.Status.PENDING:
            return None
        now = timezone.now()
        if head.next_attempt_at is not None and head.next_attempt_at > now + DUE_SLACK:
            return None
        claimed = WebhookDelivery.objects.filter(pk=head.pk, status=WebhookDelivery.Status.PENDING).update(
            status=WebhookDelivery.Status.SENDING, claimed_at=now
        )
        if not claimed:
            return None
    head.status = WebhookDelivery.Status.SENDING
    return head


def _written(delivery: WebhookDelivery) -> str:
    """The body, written at the first attempt and kept: a retry sends the
    same bytes (with a new timestamp and signature)."""
    if delivery.body:
        return delivery.body
    hook = delivery.webhook
    body = body_of(delivery, hook, hook.seat, hook.seat.game.public_id)
    if not WebhookDelivery.objects.filter(pk=delivery.pk, body="").update(body=body):
        # A sender before this one wrote it (and died): send what it wrote.
        body = WebhookDelivery.objects.filter(pk=delivery.pk).values_list("body", flat=True).first() or body
    return body


def delivery_send(*, delivery_id: int) -> int | None:
    """Send down the queue of ``delivery_id``'s webhook, oldest first, up
    to this delivery and past it while they go through. The seconds until
    the head is due again when this call's attempt failed and may go
    through later (the caller's retry); None otherwise: everything sent or
    given up, the queue another sender's or held behind a head whose own
    retry is coming, or the webhook gone."""
    hook = Webhook.objects.select_related("seat__game").filter(deliveries__pk=delivery_id).first()
    if hook is None:
        return None
    return webhook_drain(hook)


def webhook_drain(hook: Webhook) -> int | None:
    for _sent_count in range(DRAIN_BATCH):
        if not webhook_live(hook, hook.seat):
            deliveries_cancel(webhook_id=hook.pk, reason="webhook removed or disabled")
            return None
        head = _claim_head(hook.pk)
        if head is None:
            return None
        head.webhook = hook
        retry_in = _attempt(head)
        if retry_in is not None:
            return retry_in
        hook.refresh_from_db(fields=["removed_at", "disabled_at", "link_hash"])
        hook.seat.refresh_from_db(fields=["token_hash"])
    # More may be waiting: a task of its own sends them, after this one.
    following = _head(hook.pk)
    if following is not None and following.status == WebhookDelivery.Status.PENDING:
        enqueue_now("games.webhook_send", following.pk)
    return None


def _attempt(delivery: WebhookDelivery) -> int | None:
    """One attempt at a delivery this sender has claimed: the seconds until
    it is due again if it failed and may go through later, else None."""
    hook = delivery.webhook
    try:
        body = _written(delivery).encode()
    except Exception as error:  # a body that cannot be written never will be
        log.exception("webhook delivery %s could not be written", delivery.pk)
        WebhookDelivery.objects.filter(pk=delivery.pk, status=WebhookDelivery.Status.SENDING).update(
            status=WebhookDelivery.Status.FAILED, last_error=f"{type(error).__name__}: {error}"[:500]
        )
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
    """Claims left by senders that died, given back; stale turns
    superseded; then each webhook's head (its oldest unfinished delivery)
    whose own task was lost: their ids, to be sent again. A delivery held
    behind an older one is not sent by the sweep: its head's is."""
    now = timezone.now()
    WebhookDelivery.objects.filter(status=WebhookDelivery.Status.SENDING, claimed_at__lt=now - older_than).update(
        status=WebhookDelivery.Status.PENDING, claimed_at=None
    )
    turns_supersede()
    older = WebhookDelivery.objects.filter(webhook_id=OuterRef("webhook_id"), status__in=UNFINISHED).filter(
        Q(version__lt=OuterRef("version")) | Q(version=OuterRef("version"), pk__lt=OuterRef("pk"))
    )
    due = (
        WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING)
        .filter(
            Q(attempts=0, created_at__lt=now - FIRST_WAIT)
            # A row that failed a moment ago has its task's retry coming.
            | Q(attempts__gt=0, next_attempt_at__lt=now - RETRY_SLACK)
        )
        .filter(~Exists(older))
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )
    return list(due)
