"""A deadline the sweep cannot apply leaves a line in the log, saying which
game it skipped and why, rather than vanishing silently."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from games.models import Game
from games.services import sweeps
from games.services.errors import RefusedAction
from tests.factories import started_game

pytestmark = pytest.mark.django_db

SWEEP_LOGGER = "games.services.sweeps"


def overdue_game() -> Game:
    game = started_game(3)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    return Game.objects.get(pk=game.pk)


def skips(caplog, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == SWEEP_LOGGER and r.levelno == level]


def test_a_decision_a_click_made_after_the_sweep_looked_is_logged_as_skipped(monkeypatch, caplog):
    game = overdue_game()
    expire = sweeps.deadline_expire

    def click_first(*, game_id, seen_version):
        # The player's click lands after the sweep read the version it expires.
        Game.objects.filter(pk=game_id).update(decision_version=F("decision_version") + 1)
        return expire(game_id=game_id, seen_version=seen_version)

    monkeypatch.setattr(sweeps, "deadline_expire", click_first)
    with caplog.at_level(logging.INFO, logger=SWEEP_LOGGER):
        assert sweeps.deadlines_sweep() == 0

    assert skips(caplog, logging.INFO) == [
        f"deadline sweep skipped game {game.pk} at decision version {game.decision_version}: stale_decision"
    ]


def test_a_game_paused_after_the_sweep_looked_is_logged_as_skipped(monkeypatch, caplog):
    game = overdue_game()
    expire = sweeps.deadline_expire

    def paused_first(*, game_id, seen_version):
        Game.objects.filter(pk=game_id).update(status=Game.Status.PAUSED)
        return expire(game_id=game_id, seen_version=seen_version)

    monkeypatch.setattr(sweeps, "deadline_expire", paused_first)
    with caplog.at_level(logging.INFO, logger=SWEEP_LOGGER):
        assert sweeps.deadlines_sweep() == 0

    assert skips(caplog, logging.INFO) == [
        f"deadline sweep skipped game {game.pk} at decision version {game.decision_version}: game_not_running"
    ]


def test_a_default_the_service_refuses_is_logged_as_a_warning_with_the_reason(monkeypatch, caplog):
    game = overdue_game()

    def refused(*, game_id, seen_version):
        raise RefusedAction("no such card")

    monkeypatch.setattr(sweeps, "deadline_expire", refused)
    with caplog.at_level(logging.INFO, logger=SWEEP_LOGGER):
        assert sweeps.deadlines_sweep() == 0

    reason = "illegal_decision (no such card)"
    assert skips(caplog, logging.WARNING) == [
        f"deadline sweep skipped game {game.pk} at decision version {game.decision_version}: {reason}"
    ]
    assert skips(caplog, logging.INFO) == []
