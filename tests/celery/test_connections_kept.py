"""A worker keeps its database connection between tasks for CONN_MAX_AGE,
as a web process does between requests, instead of Celery's default of a
new connection around every task."""

from __future__ import annotations

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection

from versailles_site.celery import app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def conn_max_age_restored():
    kept = connection.settings_dict["CONN_MAX_AGE"]
    yield
    connection.settings_dict["CONN_MAX_AGE"] = kept
    connection.close()


class WorkerTask:
    """What the worker's signals carry: a task whose request is not eager."""

    class request:
        is_eager = False


def tasks_run(count: int) -> None:
    """The signals the worker sends around each task, with Celery's own
    Django fixup connected as a worker connects it."""
    fixup = DjangoWorkerFixup(app)
    for _ in range(count):
        fixup.on_task_prerun(WorkerTask)
        task_prerun.send(sender=WorkerTask, task=WorkerTask)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        fixup.on_task_postrun(WorkerTask)
        task_postrun.send(sender=WorkerTask, task=WorkerTask)


def connected_afresh(conn_max_age: int):
    """The driver's connection, opened now under ``conn_max_age``."""
    connection.settings_dict["CONN_MAX_AGE"] = conn_max_age
    connection.close()
    connection.ensure_connection()
    return connection.connection


def test_a_worker_keeps_its_connection_across_tasks_while_conn_max_age_allows():
    opened = connected_afresh(60)
    tasks_run(5)
    assert connection.connection is opened


def test_without_conn_max_age_a_worker_connects_afresh_for_each_task():
    opened = connected_afresh(0)
    tasks_run(1)
    assert connection.connection is not opened
