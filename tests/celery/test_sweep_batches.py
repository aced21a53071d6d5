"""A sweep works off everything that is due, batch after batch, not one
batch a run (issue 13: a race ending in 10,000 games at once)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.services import sweeps
from tests.factories import started_game

pytestmark = pytest.mark.django_db


def overdue_games(count: int, column: str) -> list[Game]:
    games = [started_game(3) for _ in range(count)]
    Game.objects.filter(pk__in=[g.pk for g in games]).update(**{column: timezone.now() - timedelta(minutes=1)})
    return games


def test_one_deadline_sweep_applies_every_due_default_though_the_batch_is_smaller():
    games = overdue_games(5, "deadline")
    assert sweeps.deadlines_sweep(limit=2) == 5
    for game in games:
        assert Game.objects.get(pk=game.pk).decision_version > game.decision_version
    # Each new deadline lies ahead: the next sweep finds nothing.
    assert sweeps.deadlines_sweep(limit=2) == 0


def test_one_reminder_sweep_reminds_every_due_seat_once():
    overdue_games(5, "reminder_at")
    assert sweeps.reminders_sweep(limit=2) == 5
    assert sweeps.reminders_sweep(limit=2) == 0


def test_a_game_whose_default_cannot_be_applied_is_tried_once_per_sweep(monkeypatch):
    overdue_games(3, "deadline")
    tried = []

    def refused(*, game_id, seen_version):
        # As when a click got there first: the game stays due this instant.
        tried.append(game_id)
        raise sweeps.ServiceError("someone acted first")

    monkeypatch.setattr(sweeps, "deadline_expire", refused)
    assert sweeps.deadlines_sweep(limit=2) == 0
    assert len(tried) == len(set(tried)) == 3
