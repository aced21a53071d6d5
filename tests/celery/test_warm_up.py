"""A worker works out what the computer players' first bids need before its
pool starts, so no player's first decision pays for it."""

from __future__ import annotations

import warnings

from celery.signals import worker_init

from games.engine import CLASSIC
from games.players import strong


def start_a_worker() -> None:
    import games.tasks  # noqa: F401  (connects the worker's receivers, as the worker's autodiscovery does)

    strong.field_chances.cache_clear()
    with warnings.catch_warnings():
        # Celery's Django fix-up, also listening, warns that no real worker sent it.
        warnings.simplefilter("ignore")
        worker_init.send(sender=None)


def test_a_starting_worker_works_out_every_races_field_chances_before_its_first_task():
    start_a_worker()
    assert strong.field_chances.cache_info().currsize == CLASSIC.races
    misses = strong.field_chances.cache_info().misses
    strong.field_chances(CLASSIC, CLASSIC.races)
    assert strong.field_chances.cache_info().misses == misses


def test_the_sites_workers_warm_up_and_the_suites_short_lived_ones_do_not():
    from tests import worker_settings
    from versailles_site import settings as site_settings

    assert site_settings.COMPUTER_WARM_UP_AT_WORKER_START is True
    assert worker_settings.COMPUTER_WARM_UP_AT_WORKER_START is False


def test_a_worker_told_not_to_warm_up_starts_without_working_anything_out(settings):
    settings.COMPUTER_WARM_UP_AT_WORKER_START = False
    start_a_worker()
    assert strong.field_chances.cache_info().currsize == 0
