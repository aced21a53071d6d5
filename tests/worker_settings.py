"""The settings a test's Celery worker (tests/worker.py) runs with: the
site's own, with two differences, in how soon it notices a task and in
what it works out before its first.

kombu's filesystem transport lists the queue folder once a second while it
is empty, so every task the test hands a worker waited up to a second
before it ran, and a test that plays a game through the worker (a task for
each computer player's turn, each email, each webhook delivery) spent
minutes doing nothing. A tenth of a second keeps what the tests check (the
worker still takes whole messages from the same folders, one at a time) and
costs an idle worker ten folder listings a second. Redis hands a waiting
worker its task at once, so its options are left alone.
"""

import os

from versailles_site.settings import *  # noqa: F403
from versailles_site.settings import CELERY_BROKER_URL

if CELERY_BROKER_URL == "filesystem://":
    from versailles_site.settings import CELERY_BROKER_TRANSPORT_OPTIONS

    CELERY_BROKER_TRANSPORT_OPTIONS = {**CELERY_BROKER_TRANSPORT_OPTIONS, "polling_interval": 0.1}
    # The worker's VAR_DIR is its test's (the dev mailbox); its broker is the
    # test process's, which the test publishes to (tests/worker.py).
    _BROKER_DIR = os.environ.get("TEST_BROKER_DIR")
    if _BROKER_DIR:
        CELERY_BROKER_TRANSPORT_OPTIONS.update(
            data_folder_in=f"{_BROKER_DIR}/queue",
            data_folder_out=f"{_BROKER_DIR}/queue",
            processed_folder=f"{_BROKER_DIR}/processed",
            control_folder=f"{_BROKER_DIR}/control",
        )

# The suite starts a worker for each test that needs one, and half a second
# of warm-up each was 40 of the suite's CPU-seconds (tests/celery took 108 s
# with it, 67 s without, on four xdist workers); the warm-up has its own test
# (tests/celery/test_warm_up.py), and a test's first computer decision may
# take its time.
COMPUTER_WARM_UP_AT_WORKER_START = False
