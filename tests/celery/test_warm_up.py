"""A worker works out what the computer players' first bids need before its
pool starts, so no player's first decision pays for it."""

from __future__ import annotations

import warnings

from celery.signals import worker_init

from games.engine import CLASSIC
from games.players import strong


def test_a_starting_worker_works_out_every_races_field_chances_before_its_first_task():
    import games.tasks  # noqa: F401  (connects the worker's receivers, as the worker's autodiscovery does)

    strong.field_chances.cache_clear()
    with warnings.catch_warnings():
        # Celery's Django fix-up, also listening, warns that no real worker sent it.
        warnings.simplefilter("ignore")
        worker_init.send(sender=None)
    assert strong.field_chances.cache_info().currsize == CLASSIC.races
    misses = strong.field_chances.cache_info().misses
    strong.field_chances(CLASSIC, CLASSIC.races)
    assert strong.field_chances.cache_info().misses == misses
