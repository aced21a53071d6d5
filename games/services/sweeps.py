"""What the beat sweeps do: deadlines, reminders, unsent email and webhook
deliveries, unread replies, digests.

Each sweep asks the database what is due (indexed columns, so the cost grows
with what is due, not with the number of games) and acts through the same
services a click uses; running two sweeps at once does everything once."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from games.models import Game, Seat

from .decisions import deadline_expire
from .digest import seat_digest_send
from .enqueue import enqueue_now
from .errors import GameNotRunning, ServiceError, StaleDecision
from .inbound import inbound_release
from .notices import reminder_send
from .open_wait import open_wait_end, open_waits_due
from .outbox import notifications_release
from .webhook_send import deliveries_release

log = logging.getLogger(__name__)

BATCH = 500
# One sweep works off what is due batch after batch for up to this long (the
# tasks' soft limit is 60 s): a race that ends in thousands of games at once
# is not left at 500 a run while the beat waits 30 s between runs.
SWEEP_BUDGET_SECONDS = 20.0
# A claim older than this was left by a sender that died.
SENDING_GRACE = timedelta(minutes=5)
# A reply still waiting after this lost its task (the broker was down when it
# came); a reply claimed longer ago than the grace period lost its worker.
INBOUND_WAIT = timedelta(seconds=10)


def _due(column: str, limit: int, tried: set[int]) -> list[tuple[int, int]]:
    """(game, decision version) of running games whose ``column`` time has
    come, but for those this sweep has tried already."""
    return list(
        Game.objects.filter(**{f"{column}__lte": timezone.now()}, status=Game.Status.RUNNING)
        .exclude(pk__in=tried)
        .order_by(column)
        .values_list("pk", "decision_version")[:limit]
    )


def _in_batches(column: str, limit: int, act: Callable[[int, int], int]) -> int:
    """``act`` on every game due by ``column``, ``limit`` at a time, each once,
    until none is left or the budget is spent; the sum of what it returned."""
    stop = time.monotonic() + SWEEP_BUDGET_SECONDS
    tried: set[int] = set()
    done = 0
    while time.monotonic() < stop:
        due = _due(column, limit, tried)
        if not due:
            break
        for game_id, version in due:
            tried.add(game_id)
            done += act(game_id, version)
    return done


def _expire(game_id: int, version: int) -> int:
    try:
        deadline_expire(game_id=game_id, seen_version=version)
    except (StaleDecision, GameNotRunning) as error:
        # Someone got there first (a click, another sweep, a moderator's
        # pause): nothing is left to do, but the skip is on record.
        log.info("deadline sweep skipped game %s at decision version %s: %s", game_id, version, error.code)
        return 0
    except ServiceError as error:
        # The default the rules give was refused: the game stays due, and
        # someone should look at why.
        log.warning(
            "deadline sweep skipped game %s at decision version %s: %s (%s)", game_id, version, error.code, error
        )
        return 0
    return 1


def deadlines_sweep(*, limit: int = BATCH) -> int:
    """Apply the standing order or default to every decision past its deadline."""
    return _in_batches("deadline", limit, _expire)


def reminders_sweep(*, limit: int = BATCH) -> int:
    return _in_batches(
        "reminder_at", limit, lambda game_id, version: reminder_send(game_id=game_id, seen_version=version)
    )


def notifications_sweep() -> int:
    """Send again what a lost task, a dead worker or a flushed broker left."""
    ids = notifications_release(older_than=SENDING_GRACE)
    for notification_id in ids:
        enqueue_now("games.notification_send", notification_id)
    return len(ids)


def webhooks_sweep() -> int:
    """Send again the webhook deliveries a lost task or a dead worker left
    (a claim older than the grace period belongs to a sender that died)."""
    ids = deliveries_release(older_than=SENDING_GRACE)
    for delivery_id in ids:
        enqueue_now("games.webhook_send", delivery_id)
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


def open_waits_sweep() -> int:
    """End the wait of every open game whose time has come (the database's
    clock says which): computer players fill its open seats and it starts,
    or it is called off, as its host chose."""
    return sum(1 for game_id in open_waits_due(BATCH) if open_wait_end(game_id=game_id))
