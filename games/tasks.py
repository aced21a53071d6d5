"""Celery tasks: thin, ids only, every one safe to run twice."""

from __future__ import annotations

from typing import TypedDict

from celery import shared_task
from celery.signals import worker_init

from games.services import computer, inbound, outbox, setup, sweeps
from games.services import webhook_send as webhook_sender


class TaskOptions(TypedDict):
    acks_late: bool
    reject_on_worker_lost: bool
    soft_time_limit: int
    time_limit: int


@worker_init.connect
def computer_players_warmed_up(**kwargs) -> None:
    """Before the pool starts: its processes, forked from this one, inherit
    what the computer players worked out."""
    computer.warm_up_at_worker_start()


# State-changing tasks are idempotent by the version rule (or by the outbox
# claim), so a task redelivered after a worker died is harmless.
STATE_CHANGING: TaskOptions = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": 60,
    "time_limit": 90,
}


@shared_task(
    name="games.notification_send",
    bind=True,
    # The outbox fails the row on its last attempt, so it never waits for a
    # retry that will not come.
    max_retries=outbox.MAX_ATTEMPTS - 1,
    **STATE_CHANGING,
)
def notification_send(self, notification_id: int) -> None:
    try:
        outbox.notification_send(notification_id=notification_id)
    except outbox.TransientSendError as error:
        # 30 s, 1 min, 2 min, ... up to two hours; the sweep waits as long.
        delay = outbox.retry_delay(self.request.retries + 1)
        raise self.retry(exc=error, countdown=int(delay.total_seconds())) from error


@shared_task(
    name="games.webhook_send",
    bind=True,
    # A day of failures disables the webhook well before the last retry.
    max_retries=webhook_sender.MAX_ATTEMPTS - 1,
    **STATE_CHANGING,
)
def webhook_send(self, delivery_id: int) -> None:
    retry_in = webhook_sender.delivery_send(delivery_id=delivery_id)
    # Run in process (tests, TASKS_INLINE), a retry is the sweep's to make.
    if retry_in is not None and not self.request.called_directly:
        raise self.retry(countdown=retry_in)


@shared_task(name="games.webhooks_sweep", **STATE_CHANGING)
def webhooks_sweep() -> int:
    return sweeps.webhooks_sweep()


@shared_task(name="games.deadlines_sweep", **STATE_CHANGING)
def deadlines_sweep() -> int:
    return sweeps.deadlines_sweep()


@shared_task(name="games.open_waits_sweep", **STATE_CHANGING)
def open_waits_sweep() -> int:
    return sweeps.open_waits_sweep()


@shared_task(name="games.reminders_sweep", **STATE_CHANGING)
def reminders_sweep() -> int:
    return sweeps.reminders_sweep()


@shared_task(name="games.notifications_sweep", **STATE_CHANGING)
def notifications_sweep() -> int:
    return sweeps.notifications_sweep()


@shared_task(name="games.digests_send", **STATE_CHANGING)
def digests_send() -> int:
    return sweeps.digests_send()


@shared_task(name="games.computer_moves", **STATE_CHANGING)
def computer_moves(game_id: int) -> int:
    return computer.computer_moves(game_id=game_id)


@shared_task(name="games.inbound_process", **STATE_CHANGING)
def inbound_process(inbound_id: int) -> None:
    inbound.inbound_process(inbound_id=inbound_id)


@shared_task(name="games.inbound_sweep", **STATE_CHANGING)
def inbound_sweep() -> int:
    return sweeps.inbound_sweep()


# The request only names the address: looking up its seats here keeps the
# page's answer the same, and as fast, whether or not the address plays.
@shared_task(name="games.link_resend", soft_time_limit=60, time_limit=90)
def link_resend(email: str) -> bool:
    return setup.link_resend(email=email)
