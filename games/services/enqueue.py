"""Handing work to Celery after commit, by task name.

Services call this instead of importing games.tasks, so no import circle forms
and no task is ever sent for a change that was rolled back. A broker that is
down loses nothing: the rows are in the database and the beat sweeps find them."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from versailles_site.celery import app

log = logging.getLogger(__name__)


def enqueue_on_commit(task_name: str, *args) -> None:
    transaction.on_commit(lambda: enqueue_now(task_name, *args))


def enqueue_now(task_name: str, *args) -> None:
    if getattr(settings, "TASKS_INLINE", False):
        # Web tests that are not about Celery run the task right here, after
        # commit as a worker would (tests of the real worker turn this off);
        # the app registered the tasks when it was ready.
        app.tasks[task_name](*args)
        return
    try:
        app.send_task(task_name, args=list(args))
    except Exception:  # the broker being away must not fail the request
        log.warning("could not enqueue %s; the sweep will pick it up", task_name, exc_info=True)
