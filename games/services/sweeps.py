"""What the beat sweeps do: deadlines, reminders, unsent email, unread replies, digests.

Each sweep asks the database what is due (indexed columns, so the cost grows
with what is due, not with the number of games) and acts through the same
services a click uses; running two sweeps at once does everything once."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.enqueue import enqueue_now
from games.models import Game, Seat

from .decisions import deadline_expire
from .digest import seat_digest_send
from .errors import ServiceError
from .inbound import inbound_release
from .notices import reminder_send
from .outbox import notifications_release

log = logging.getLogger(__name__)

BATCH = 500
# A claim older than this was left by a sender that died.
SENDING_GRACE = timedelta(minutes=5)
# A reply still waiting after this lost its task (the broker was down when it
# came); a reply claimed longer ago than the grace period lost its worker.
INBOUND_WAIT = timedelta(seconds=10)


def _due(column: str, limit: int) -> list[tuple[int, int]]:
    """(game, decision version) of running games whose ``column`` time has come."""
    return list(
        Game.objects.filter(**{f"{column}__lte": timezone.now()}, status=Game.Status.RUNNING)
        .order_by(column)
        .values_list("pk", "decision_version")[:limit]
    )


def deadlines_sweep(*, limit: int = BATCH) -> int:
    """Apply the standing order or default to every decision past its deadline."""
    due = _due("deadline", limit)
    applied = 0
    for game_id, version in due:
        try:
            deadline_expire(game_id=game_id, seen_version=version)
        except ServiceError:
            # Someone acted first (a click, another sweep): nothing to do.
            continue
        applied += 1
    return applied


def reminders_sweep(*, limit: int = BATCH) -> int:
    due = _due("reminder_at", limit)
    sent = 0
    for game_id, version in due:
        sent += reminder_send(game_id=game_id, seen_version=version)
    return sent


def notifications_sweep() -> int:
    """Send again what a lost task, a dead worker or a flushed broker left."""
    ids = notifications_release(older_than=SENDING_GRACE)
    for notification_id in ids:
        enqueue_now("games.notification_send", notification_id)
    return len(ids)


def inbound_sweep() -> int:
    """Process again the replies a lost task or a dead worker left."""
    ids = inbound_release(waiting=INBOUND_WAIT, stale=SENDING_GRACE)
    for inbound_id in ids:
        enqueue_now("games.inbound_process", inbound_id)
    return len(ids)


def digests_send() -> int:
    """A daily digest for every seat that chose one and is due."""
    now = timezone.now()
    seats = Seat.objects.filter(
        email_mode=Seat.EmailMode.DIGEST,
        emails_stopped=False,
        email_undeliverable=False,
        game__status__in=[Game.Status.RUNNING, Game.Status.OVER],
    ).filter(Q(digest_sent_at__isnull=True) | Q(digest_sent_at__lte=now - timedelta(hours=24)))
    sent = 0
    for seat in seats.select_related("game")[:BATCH]:
        sent += seat_digest_send(seat=seat)
    return sent
