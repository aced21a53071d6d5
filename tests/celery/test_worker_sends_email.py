"""The outbox through a real worker: rows committed with the change, sent by
the worker after commit, each exactly once."""

from __future__ import annotations

import uuid

import pytest

from games.models import Notification
from games.services import sweeps as timers
from games.services.enqueue import enqueue_now
from games.services.setup import game_create
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def addresses(count: int) -> list[str]:
    tag = uuid.uuid4().hex[:8]
    return [f"p{i}-{tag}@example.com" for i in range(count)]


def all_sent(game) -> bool:
    rows = Notification.objects.filter(game=game)
    return rows.exists() and not rows.exclude(status=Notification.Status.SENT).exists()


def test_creating_a_game_has_the_worker_send_every_invitation_exactly_once(celery_env, celery_worker):
    worker = celery_worker()
    emails = addresses(4)

    game = game_create(
        host_name="Host", host_email=emails[0], other_emails=emails[1:], decision_hours=24, ruleset_name="classic"
    )

    wait_until(lambda: all_sent(game), what="the invitations to be sent")
    worker.wait_for_log("succeeded", count=4)
    assert sorted(Notification.objects.filter(game=game).values_list("kind", flat=True)) == ["invite"] * 4
    assert celery_env.recipients() == sorted(emails)

    # A redelivered task and a sweep find nothing left to send.
    for notification_id in Notification.objects.filter(game=game).values_list("pk", flat=True):
        enqueue_now("games.notification_send", notification_id)
    assert timers.notifications_sweep() == 0
    worker.wait_for_log("succeeded", count=8)
    assert celery_env.recipients() == sorted(emails)
    assert set(Notification.objects.filter(game=game).values_list("attempts", flat=True)) == {1}
