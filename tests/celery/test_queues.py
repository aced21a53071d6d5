"""Sending and sweeping on separate queues: a burst of email never holds a
deadline back (issue 13: during 4,200 queued emails the 30-second deadline
sweep used to run 106 s late)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from games.models import Game, Notification
from games.services.enqueue import enqueue_now
from tests.factories import started_game
from tests.worker import wait_until
from versailles_site.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


def queue_of(task_name: str) -> str:
    return app.amqp.router.route({}, task_name)["queue"].name


def test_sends_go_to_the_mail_queue_and_every_sweep_to_the_other():
    assert queue_of("games.notification_send") == settings.MAIL_QUEUE
    assert queue_of("games.link_resend") == settings.MAIL_QUEUE
    for sweep in ("games.deadlines_sweep", "games.reminders_sweep", "games.notifications_sweep",
                  "games.inbound_sweep", "games.digests_send", "games.inbound_process"):
        assert queue_of(sweep) == settings.CELERY_TASK_DEFAULT_QUEUE != settings.MAIL_QUEUE, sweep


def test_each_queue_has_a_routing_key_of_its_own():
    # Two queues bound to one key on the direct exchange would each get a
    # copy of every task: every email sent twice, every sweep run twice.
    keys = {queue.name: queue.routing_key for queue in app.amqp.queues.values()}
    assert keys == {settings.CELERY_TASK_DEFAULT_QUEUE: settings.CELERY_TASK_DEFAULT_QUEUE,
                    settings.MAIL_QUEUE: settings.MAIL_QUEUE}


def test_a_deadline_is_applied_while_hundreds_of_emails_wait_to_be_sent(celery_env, celery_worker):
    # Both queues exist before the burst, as in production, so a send that
    # reached the sweepers' queue too would show.
    worker = celery_worker(queues=(settings.CELERY_TASK_DEFAULT_QUEUE,))
    enqueue_now("games.deadlines_sweep")
    worker.wait_for_log("games.deadlines_sweep[")
    # Thirty games queue their invitations, starts and first turns: the burst.
    games = [started_game(4) for _ in range(30)]
    waiting = Notification.objects.filter(status=Notification.Status.PENDING).count()
    assert waiting >= 200
    overdue = games[-1]
    Game.objects.filter(pk=overdue.pk).update(deadline=timezone.now() - timedelta(minutes=1))

    enqueue_now("games.deadlines_sweep")
    wait_until(
        lambda: Game.objects.get(pk=overdue.pk).decision_version > overdue.decision_version,
        timeout=30,
        what="the overdue decision to be applied",
    )
    # The sweeper took no send: every one of them still waits on its own queue.
    assert "games.notification_send[" not in worker.log(since_start=True)
    assert Notification.objects.filter(status=Notification.Status.SENT).count() == 0

    # A mail worker then drains them.
    celery_worker(queues=(settings.MAIL_QUEUE,))
    wait_until(
        lambda: not Notification.objects.filter(status=Notification.Status.PENDING).exists(),
        timeout=120,
        what="the queued emails to be sent",
    )
