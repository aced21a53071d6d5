"""The outbox: rows written with the change that causes them, sent after commit.

A row is claimed (pending -> sending) before it is handed to the provider and
marked sent after, so two senders never both send it; a claim left behind by a
sender that died is released by the sweep (sweeps.notifications_sweep).

A sender killed after the provider accepted a message but before the row says
so leaves it "sending"; the sweep then sends it again. The message is written
in full before the claim, so the claim covers only the provider's call and
the one UPDATE after it, and every attempt carries the same Message-ID, so
mail clients that see both keep one."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parseaddr
from urllib.parse import urlencode, urlsplit

from anymail.exceptions import AnymailAPIError, AnymailRecipientsRefused
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.mail.compose import email_message, email_render
from games.models import ActionRecord, Game, HomeLink, JoinRequest, Notification, Seat
from games.narrate import event_told

from .enqueue import enqueue_on_commit
from .home import HOME_LINK_DAYS
from .links import home_url, join_confirm_url, join_url, reply_address, seat_links, seat_url, unsubscribe_url
from .tracking import notification_tag

log = logging.getLogger(__name__)

# Kinds a player cannot do without: they still go to an unsubscribed seat.
ESSENTIAL_KINDS = {"invite", "link", "links"}


# The answers to a reply by email (services.inbound): they carry the seat's
# current reply address, so answering one reaches the game, not the sender.
ANSWER_KINDS = {"reply_ok", "reply_error", "reply_refused"}

# Kinds whose row version is a version of the game they tell of (and the
# reminders, by prefix): their links carry it.
SINCE_KINDS = {"turn", "race"}

# The first try and the task's retries (tasks.notification_send, max_retries);
# after that the row is failed and the moderators see it.
MAX_ATTEMPTS = 9
# How late a task's retry may be before the sweep sends the row itself.
RETRY_SLACK = timedelta(minutes=2)


class TransientSendError(Exception):
    """The provider may accept the message later: retry with backoff."""


def retry_delay(attempts: int) -> timedelta:
    """How long a row that failed ``attempts`` times waits: 30 s, 1 min, 2 min,
    ... up to two hours."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 7200))


def _permanent(error: Exception) -> bool:
    """Errors that sending the same message again cannot cure: a header that
    will not encode, an address the provider will never take, a 4xx answer
    other than "too many requests"."""
    if isinstance(error, (ValueError, TypeError, LookupError)):
        return True
    status = getattr(error, "status_code", None)
    if isinstance(error, AnymailAPIError) and status is not None:
        return 400 <= status < 500 and status not in (408, 409, 429)
    return False


@dataclass
class Email:
    """One email a change causes, before it is a row of the outbox."""

    seat: Seat
    kind: str
    template: str
    context: dict
    picture: dict | None = None


def _row(game: Game, version: int, email: Email) -> Notification | None:
    """The outbox row for ``email``, or None for a seat that gets no such
    email: an address that bounced or a player who unsubscribed gets nothing
    but essentials."""
    if "link" in email.context:
        raise ValueError("the seat link is added when the email is written, never stored")
    seat = email.seat
    if seat.computer or not seat.email:
        return None  # a computer player reads no email, and an open seat has nobody to read it
    if (seat.email_undeliverable or seat.emails_stopped) and email.kind not in ESSENTIAL_KINDS:
        return None
    return Notification(
        game=game,
        seat=seat,
        version=version,
        kind=email.kind,
        to_email=seat.email,
        template=email.template,
        context=json.loads(json.dumps(email.context, cls=DjangoJSONEncoder)),
        picture=email.picture,
    )


def notification_queue(
    *, game: Game, seat: Seat, kind: str, version: int, template: str, context: dict, picture: dict | None = None
) -> Notification | None:
    """Write one email to the outbox; a second call for the same
    (game, seat, version, kind) writes nothing."""
    notification = _row(game, version, Email(seat, kind, template, context, picture))
    if notification is None:
        return None
    try:
        # A savepoint, so a duplicate leaves the caller's transaction usable.
        with transaction.atomic():
            notification.save(force_insert=True)
    except IntegrityError:
        return None
    enqueue_on_commit("games.notification_send", notification.pk)
    return notification


def notifications_queue_new(*, game: Game, version: int, emails: list[Email]) -> list[Notification]:
    """Write the emails of a game version no row can have yet (the caller
    has just set it under the version rule): one INSERT, no savepoint."""
    rows = [row for row in (_row(game, version, email) for email in emails) if row is not None]
    Notification.objects.bulk_create(rows)
    for row in rows:
        enqueue_on_commit("games.notification_send", row.pk)
    return rows


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
        if notification.kind in SINCE_KINDS or notification.kind.startswith("reminder"):
            # Not a secret: the version the email was written at, so a link
            # opened after the game moved on can say what happened meanwhile.
            context["link"] += "?" + urlencode({"since": notification.version})
        if notification.kind == "turn" or notification.kind.startswith("reminder"):
            # The decisions the email offers as links, each to a confirmation
            # page that decides nothing until its button is pressed; the
            # button carries the version, as every decision form does.
            context.update(confirm_url=seat_url(seat) + "confirm", decision_version=notification.version)
        elif "decision_version" in context:
            # An answer to a reply offers the links of the decision asked now.
            context["confirm_url"] = seat_url(seat) + "confirm"
    if "join_id" in context:
        join = JoinRequest.objects.filter(pk=context["join_id"]).first()
        context["confirm_link"] = join_confirm_url(join) if join is not None else None
    if notification.kind == "invite" and seat is not None and seat.is_host and seat.game.join_hash:
        # The host passes it on: strangers join an open game by it.
        context["join_link"] = join_url(seat.game)
    if "seat_ids" in context:
        context["games"] = seat_links(seat_ids=context["seat_ids"], email=notification.to_email)
    if "home_id" in context:
        home = HomeLink.objects.filter(pk=context["home_id"]).first()
        context.update(home_link=home_url(home) if home is not None else None, home_days=HOME_LINK_DAYS)
    if notification.kind == "turn" and "since_events" not in context and seat is not None:
        context["since_events"] = since_last_decision(notification.game_id, seat.position, notification.version)
    notification.subject, notification.body_text, notification.body_html = email_render(
        notification.template, context, _language(notification), _picture(notification)
    )
    return notification


def since_last_decision(game_id: int, position: int, version: int) -> list[dict]:
    """What the log tells between the seat's latest decision before game
    version ``version`` (whoever made it for the seat) and that version."""
    latest = (
        ActionRecord.objects.filter(game_id=game_id, seat=position, seq__lte=version)
        .exclude(action__startswith="arrange")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    )
    records = (
        ActionRecord.objects.filter(game_id=game_id, seq__gt=latest or 0, seq__lte=version)
        .order_by("seq")
        .only("events")[:400]
    )
    return [event for record in records for event in record.events if event_told(event)]


def _language(notification: Notification) -> str:
    """The seat's language (the list of links goes to the seat of the newest
    game); written by a task, so the task's own language never counts."""
    if notification.seat is not None:
        return notification.seat.language
    # A request to join has no seat yet: the language of the page it was made on.
    return (notification.context or {}).get("language") or settings.LANGUAGE_CODE


def message_id(notification: Notification) -> str:
    """The same on every attempt, so a message sent twice is seen as one."""
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2]
    domain = domain or urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"<notification-{notification.pk}.{notification.game.public_id}@{domain}>"


def _picture(notification: Notification) -> dict | None:
    """The board picture's facts; a turn email's observation is stored once,
    in its context, and drawn from there."""
    picture = notification.picture
    if picture is not None and "observation" not in picture:
        picture = {**picture, "observation": (notification.context or {}).get("observation")}
    return picture


def _message(notification: Notification) -> EmailMultiAlternatives:
    seat = notification.seat
    reply_to = None
    if seat is not None and (notification.kind == "turn" or notification.kind.startswith("reminder")):
        reply_to = reply_address(seat, notification.version)
    elif seat is not None and notification.kind in ANSWER_KINDS:
        # Written when sent: the decision asked now, as a turn email's is.
        reply_to = reply_address(seat, notification.game.decision_version)
    return email_message(
        subject=notification.subject,
        text=notification.body_text,
        html=notification.body_html,
        to=notification.to_email,
        # A seat handed over keeps its name until the newcomer chooses theirs.
        to_name=seat.display_name if seat is not None and notification.kind != "handover" else None,
        # The list of links is about several games; stopping one seat's emails is not its answer.
        unsubscribe=unsubscribe_url(seat) if seat is not None and notification.kind != "links" else None,
        reply_to=reply_to,
        picture=_picture(notification),
        tag=notification.kind,
        # Signed: the tracking webhook must not take a guessed id (tracking.py).
        metadata={"notification": notification_tag(notification.pk)},
        message_id=message_id(notification),
        in_reply_to=(notification.context or {}).get("in_reply_to"),
        game=notification.game.public_id,
        language=_language(notification),
    )


def notification_send(*, notification_id: int) -> bool:
    """Send one pending email; True if this call sent it. Raises
    TransientSendError when the provider may take it later."""
    # Found by its key alone (see _claim).
    notification = Notification.objects.select_related("seat__game", "game").filter(pk=notification_id).first()
    if notification is None or notification.status != Notification.Status.PENDING:
        return False
    try:
        message = _message(_written(notification))
        # Serialising checks every header (a line break in one is refused
        # here, whatever the backend), before anything is claimed or sent.
        message.message()
    except Exception as error:
        return _failed(notification, error, claimed=False)
    if not _claim(notification_id):
        return False
    try:
        message.send()
    except Exception as error:
        return _failed(notification, error, claimed=True)
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


def _claim(notification_id: int) -> bool:
    """Mark a pending row as being sent; False if another sender has it.
    The row is locked by its key alone: with "AND status = 'pending'" in the
    WHERE clause, PostgreSQL planned the status index whenever its
    statistics predated a burst (a race ending in 10,000 games: 50,000 new
    pending rows), and scanned every pending row for each one, 17 ms."""
    with transaction.atomic():
        locked = Notification.objects.select_for_update().filter(pk=notification_id).only("status").first()
        if locked is None or locked.status != Notification.Status.PENDING:
            return False
        Notification.objects.filter(pk=notification_id).update(
            status=Notification.Status.SENDING, claimed_at=timezone.now()
        )
    return True


def _failed(notification: Notification, error: Exception, *, claimed: bool) -> bool:
    """Record a failed attempt. A row that can never be sent, or has had all
    its attempts, is failed for the moderators to see; otherwise it waits for
    the retry, with claimed_at kept as the time of this attempt so the sweep
    does not send it again before the retry is due."""
    attempts = notification.attempts + 1
    rows = Notification.objects.filter(
        pk=notification.pk, status=Notification.Status.SENDING if claimed else Notification.Status.PENDING
    )
    last_error = f"{type(error).__name__}: {error}"[:500]
    if isinstance(error, AnymailRecipientsRefused):
        rows.update(status=Notification.Status.FAILED, attempts=attempts, last_error=last_error)
        if notification.seat_id:
            seat_mark_undeliverable(seat_id=notification.seat_id)
        return False
    # Writing the message reads only the stored row: what failed once fails
    # every time.
    if not claimed or _permanent(error) or attempts >= MAX_ATTEMPTS:
        rows.update(status=Notification.Status.FAILED, attempts=attempts, last_error=last_error)
        log.error("notification %s failed for good after %d attempts", notification.pk, attempts, exc_info=error)
        return False
    rows.update(status=Notification.Status.PENDING, claimed_at=timezone.now(), attempts=attempts, last_error=last_error)
    log.warning("sending notification %s failed; will retry", notification.pk, exc_info=error)
    raise TransientSendError(str(error)) from error


def seat_mark_undeliverable(*, seat_id: int) -> None:
    Seat.objects.filter(pk=seat_id).update(email_undeliverable=True)


def notifications_release(*, older_than: timedelta) -> list[int]:
    """Pending rows nobody is sending or retrying, and claims left by dead
    senders: their ids, to be sent again."""
    now = timezone.now()
    with transaction.atomic():
        Notification.objects.filter(
            status=Notification.Status.SENDING, claimed_at__lt=now - older_than
        ).update(status=Notification.Status.PENDING, claimed_at=None)
    due = []
    for pk, attempts, tried_at in (
        Notification.objects.filter(status=Notification.Status.PENDING, created_at__lt=now - timedelta(seconds=20))
        .order_by("created_at")
        .values_list("pk", "attempts", "claimed_at")[:500]
    ):
        # A row that failed a moment ago has its task's retry coming; sending
        # it from here too would start a second chain of retries.
        if tried_at is None or tried_at + retry_delay(attempts) + RETRY_SLACK < now:
            due.append(pk)
    return due
