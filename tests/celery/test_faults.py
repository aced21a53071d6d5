"""Faults the design says lose nothing and do nothing twice: a worker killed
mid-task, a flushed broker, two sweeps at once. Each uses real processes."""

from __future__ import annotations

import os
import secrets
import time
from collections import Counter
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone

from games.models import ActionRecord, Game, Notification, Seat, new_public_id
from games.services import sweeps as timers
from games.services.enqueue import enqueue_now
from tests.factories import started_game
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def recipients_of(notifications) -> list[str]:
    return sorted(notifications.values_list("to_email", flat=True))


def all_sent(game: Game) -> bool:
    rows = Notification.objects.filter(game=game)
    return rows.exists() and not rows.exclude(status=Notification.Status.SENT).exists()


def make_due(*games: Game) -> None:
    Game.objects.filter(pk__in=[g.pk for g in games]).update(deadline=timezone.now() - timedelta(minutes=1))


def age_outbox() -> None:
    """The sweep leaves rows younger than 20 s to their own task; these are older."""
    Notification.objects.update(created_at=timezone.now() - timedelta(minutes=1))


def waiting_on_locks() -> int:
    """PostgreSQL: how many other sessions of this database wait for a lock."""
    with connection.cursor() as cursor:
        # Inside a transaction the activity view is a snapshot taken at first
        # use; drop it to see the present.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


@contextmanager
def database_locked(rows):
    """Hold the lock other processes need to write ``rows`` until the block ends,
    then roll back. SQLite: the whole database (BEGIN IMMEDIATE takes the write
    lock, and every writer waits up to its busy timeout). PostgreSQL: those
    rows (SELECT ... FOR UPDATE)."""
    with transaction.atomic():
        if connection.vendor == "sqlite":
            # Any write; the lock is already held since BEGIN IMMEDIATE.
            Game.objects.filter(pk=-1).update(version=0)
        else:
            list(rows.select_for_update())
        yield
        transaction.set_rollback(True)


def blocked(processes: int, started: float) -> None:
    """Wait until ``processes`` other processes are stuck on the lock."""
    if connection.vendor == "postgresql":
        wait_until(lambda: waiting_on_locks() >= processes, timeout=20, what=f"{processes} sessions waiting on a lock")
    else:
        # SQLite shows no waiters; the busy timeout (20 s) keeps them waiting
        # well past this.
        time.sleep(max(0.0, started + 1.5 - time.monotonic()))


def test_a_worker_killed_while_applying_a_deadline_applies_it_once_after_the_task_is_redelivered(
    celery_env, celery_worker, settings
):
    # Prefork: the task runs in a child; SIGKILL of the child is the worker
    # being lost mid-task, and reject_on_worker_lost puts the task back.
    worker = celery_worker(pool="prefork")
    # The set-up's emails go in-process (this prefork worker takes one task a
    # second from the filesystem broker); the decision's go through the worker.
    settings.TASKS_INLINE = True
    game = started_game(players=4)
    settings.TASKS_INLINE = False
    earlier = list(Notification.objects.filter(game=game).values_list("pk", flat=True))
    seen = game.decision_version
    make_due(game)

    with database_locked(Game.objects.filter(pk=game.pk)):
        enqueue_now("games.deadlines_sweep")
        worker.wait_for_log("Task games.deadlines_sweep[")
        # SQLite: blocked at BEGIN IMMEDIATE; PostgreSQL: at the
        # compare-and-set UPDATE, after the seat's missed-deadline count.
        blocked(1, time.monotonic())
        os.kill(worker.pool_child(), 9)
        worker.wait_for_log("exited with 'signal 9 (SIGKILL)'")
    # The lock is gone. Celery gives up on the lost child's task after
    # worker_lost_wait (10 s), puts it back, and a fresh child runs it.
    worker.wait_for_log("WorkerLostError", timeout=30)
    worker.wait_for_log("Task games.deadlines_sweep[", count=2)
    wait_until(lambda: Game.objects.get(pk=game.pk).decision_version != seen, what="the deadline to be applied")
    new = Notification.objects.filter(game=game).exclude(pk__in=earlier)
    wait_until(lambda: new.exists() and not new.exclude(status=Notification.Status.SENT).exists(),
               what="the emails of the new decision to be sent")
    worker.wait_for_log("games.deadlines_sweep", count=3)  # received twice, succeeded once

    deadline_actions = ActionRecord.objects.filter(game=game, actor=ActionRecord.Actor.DEADLINE)
    assert list(deadline_actions.values_list("seq", flat=True)) == [seen + 1]
    # The missed-deadline count (written in the same transaction) went up once.
    assert sorted(Seat.objects.filter(game=game).values_list("missed_deadlines", flat=True)) == [0, 0, 0, 1]
    # The new decision's emails are in the worker's mailbox, each once.
    assert celery_env.recipients() == recipients_of(new)
    # The sweeps find nothing left to do.
    assert timers.deadlines_sweep() == 0
    assert timers.notifications_sweep() == 0


def test_a_worker_killed_while_sending_an_email_leaves_it_to_the_sweep_which_sends_it_once(
    celery_env, celery_worker
):
    tag = secrets.token_hex(4)
    from games.services.setup import game_create

    # The invitations are queued while no worker runs.
    game = game_create(
        host_name="Host", host_email=f"h-{tag}@example.com",
        other_emails=[f"p{i}-{tag}@example.com" for i in range(1, 4)], decision_hours=24, ruleset_name="classic",
    )
    invites = Notification.objects.filter(game=game)
    assert invites.count() == 4

    with database_locked(invites):
        worker = celery_worker()  # solo: the task runs in the worker process itself
        worker.wait_for_log("Task games.notification_send[")
        # SQLite: waiting in the busy handler; PostgreSQL: at the claim UPDATE.
        blocked(1, time.monotonic())
        worker.kill()
    assert Notification.objects.filter(game=game, status=Notification.Status.SENT).count() == 0

    # After a restart the three tasks still queued are sent. The one the dead
    # worker had taken is not redelivered (filesystem broker: its message is
    # gone; Redis: it would come back only after the one-hour visibility
    # timeout).
    worker.start()
    wait_until(lambda: invites.filter(status=Notification.Status.SENT).count() == 3, what="three invitations sent")
    worker.wait_for_log("succeeded", count=3)
    orphan = invites.exclude(status=Notification.Status.SENT).get()
    # The dead worker's claim never committed (SQLite: it never got the write
    # lock; PostgreSQL: its transaction died with it, waiting for the row's
    # lock): the row is still pending.
    assert orphan.status == Notification.Status.PENDING

    # The sweep (the beat's "unsent-email" task) sends a row left pending,
    # or a claim left by a dead sender after the grace period, once.
    with time_machine.travel(timezone.now() + timers.SENDING_GRACE + timedelta(minutes=1)):
        assert timers.notifications_sweep() == 1
    wait_until(lambda: all_sent(game), what="the last invitation to be sent")
    worker.wait_for_log("succeeded", count=4)

    assert celery_env.recipients() == recipients_of(invites)
    # Late redeliveries (Redis, an hour on) send nothing again.
    for notification_id in invites.values_list("pk", flat=True):
        enqueue_now("games.notification_send", notification_id)
    worker.wait_for_log("succeeded", count=8)
    assert celery_env.recipients() == recipients_of(invites)
    assert timers.notifications_sweep() == 0


@pytest.mark.skipif(not os.environ.get("REDIS_URL", "").strip(), reason="needs Redis (set REDIS_URL)")
def test_after_redis_loses_every_queued_task_the_beat_sweeps_deliver_the_emails_and_the_deadline_once(
    celery_env, celery_worker
):
    import redis

    broker = redis.Redis.from_url(celery_env.redis_url)
    # Emails queued and a deadline due, with no worker running ...
    game = started_game(players=4)
    seen = game.decision_version
    pending = Notification.objects.filter(game=game, status=Notification.Status.PENDING).count()
    assert pending >= 8 and broker.dbsize() > 0
    make_due(game)
    age_outbox()
    # ... and then Redis loses everything (a restart without persistence).
    broker.flushdb()

    worker = celery_worker()
    # The beat's tasks, run by the worker.
    enqueue_now("games.notifications_sweep")
    enqueue_now("games.deadlines_sweep")
    wait_until(lambda: Game.objects.get(pk=game.pk).decision_version != seen, what="the deadline to be applied")
    wait_until(lambda: all_sent(game), what="every email to be sent")
    worker.wait_for_log("Task games.deadlines_sweep[", count=2)  # received, succeeded
    assert worker.results("games.deadlines_sweep") == ["1"]
    assert int(worker.results("games.notifications_sweep")[0]) == pending
    # And once more, as the next beat would: nothing is left to do.
    enqueue_now("games.notifications_sweep")
    enqueue_now("games.deadlines_sweep")
    wait_until(lambda: len(worker.results("games.deadlines_sweep")) == 2, what="the second deadline sweep")
    assert worker.results("games.notifications_sweep")[1:] == ["0"]
    assert worker.results("games.deadlines_sweep") == ["1", "0"]

    assert ActionRecord.objects.filter(game=game, actor=ActionRecord.Actor.DEADLINE).count() == 1
    assert Notification.objects.filter(game=game).count() > pending
    assert celery_env.recipients() == recipients_of(Notification.objects.filter(game=game))


def clone_games(game: Game, copies: int) -> list[Game]:
    """``copies`` more running games in the state of ``game`` (without its
    history, which a deadline does not read), with their own ids and links."""
    fields = [f.attname for f in Game._meta.concrete_fields if f.attname not in ("id", "public_id")]
    clones = Game.objects.bulk_create(
        [Game(public_id=new_public_id(), **{name: getattr(game, name) for name in fields}) for _ in range(copies)]
    )
    seat_fields = [f.attname for f in Seat._meta.concrete_fields if f.attname not in ("id", "game_id", "token_hash")]
    seats = list(Seat.objects.filter(game=game))
    Seat.objects.bulk_create(
        [
            Seat(game_id=clone.pk, token_hash=secrets.token_hex(32), **{n: getattr(seat, n) for n in seat_fields})
            for clone in clones
            for seat in seats
        ]
    )
    return [game, *clones]


def has_open(pid: int, path: str) -> bool:
    try:
        return any(os.path.realpath(fd) == path for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def test_two_deadline_sweeps_at_once_over_a_hundred_due_games_apply_one_action_to_each(celery_env):
    games = clone_games(started_game(players=4), 99)
    versions = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "decision_version"))
    make_due(*games)
    code = "from games.services.sweeps import deadlines_sweep; print(deadlines_sweep())"

    # The lock makes both sweeps list the due games and then queue up behind
    # it, so they really run over the same games at the same time.
    with database_locked(Game.objects.filter(pk__in=versions)):
        started = time.monotonic()
        sweeps = [celery_env.run(code), celery_env.run(code)]
        if connection.vendor == "sqlite":
            path = os.path.realpath(connection.settings_dict["NAME"])
            wait_until(
                lambda: all(has_open(p.pid, path) for p in sweeps), timeout=30, what="both sweeps to open the database"
            )
            blocked(2, time.monotonic())
        else:
            blocked(2, started)
    outputs = [sweep.communicate(timeout=60) for sweep in sweeps]
    assert [sweep.returncode for sweep in sweeps] == [0, 0], outputs

    counts = [int(out.strip().splitlines()[-1]) for out, _ in outputs]
    assert sum(counts) == 100, counts
    deadline_actions = ActionRecord.objects.filter(game__in=versions, actor=ActionRecord.Actor.DEADLINE)
    per_game = Counter(deadline_actions.values_list("game_id", flat=True))
    assert per_game == Counter({pk: 1 for pk in versions})
    for game_id, seq in deadline_actions.values_list("game_id", "seq"):
        assert seq == versions[game_id] + 1
    assert not Game.objects.filter(pk__in=versions, deadline__lte=timezone.now()).exists()
