"""Time drives a game: the database holds every deadline and the beat's sweeps
act on what is due. Here the sweeps' bodies run in the test process with the
clock moved by time_machine; the worker tests show the same tasks on a worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from games import engine
from games.models import ActionRecord, Game, Notification
from games.services import sweeps as timers
from games.services.decisions import MISSED_DEADLINES_FOR_AUTOPILOT
from games.services.game_state import load_state
from games.services.seat_settings import orders_set
from tests.factories import seat_at, started_game
from tests.mail.helpers import addresses

pytestmark = pytest.mark.django_db

ONE_SECOND = timedelta(seconds=1)


def test_a_game_whose_players_never_answer_runs_to_the_final_standings_on_deadlines_alone():
    game = started_game(players=4, decision_hours=24)
    assert game.status == Game.Status.RUNNING
    sweeps = 0
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        while game.status == Game.Status.RUNNING:
            # Just before the deadline nothing happens ...
            traveller.move_to(game.deadline - ONE_SECOND)
            assert timers.deadlines_sweep() == 0
            # ... and once it has passed, exactly one decision is made.
            traveller.move_to(game.deadline + ONE_SECOND)
            before = game.decision_version
            assert timers.deadlines_sweep() == 1
            game.refresh_from_db()
            assert game.decision_version > before
            sweeps += 1
            assert sweeps < 2000, "the game does not end"

    assert game.status == Game.Status.OVER
    assert game.deadline is None and game.reminder_at is None
    actions = ActionRecord.objects.filter(game=game)
    assert actions.filter(source=ActionRecord.Source.TIMER).count() == sweeps
    # Nobody ever answered. Each seat's first decisions went by deadline; after
    # MISSED_DEADLINES_FOR_AUTOPILOT of them in a row the seat is on autopilot,
    # and the strong computer player decides for it (logged as actor
    # "autopilot"). Its task would decide at once; this test runs no work
    # after commit, so each of its decisions waits for the deadline here.
    for seat in game.seats.all():
        actors = list(
            actions.filter(seat=seat.position).exclude(action__startswith="arrange").values_list("actor", flat=True)
        )
        missed = min(len(actors), MISSED_DEADLINES_FOR_AUTOPILOT)
        assert actors == [ActionRecord.Actor.DEADLINE] * missed + [ActionRecord.Actor.AUTOPILOT] * (
            len(actors) - missed
        )
        assert (seat.autopilot, seat.autopilot_reason) == (True, "missed")
    # The log is gap-free and ends at the game's version.
    assert list(actions.values_list("seq", flat=True)) == list(range(1, game.version + 1))
    standings = engine.observe(load_state(game), None)["standings"]
    assert sorted(standings) == sorted(s.colour for s in game.seats.all())
    assert Notification.objects.filter(game=game, kind="over").count() == 4


@pytest.mark.parametrize(("decision_hours", "lead"), [(24, timedelta(hours=1)), (1, timedelta(minutes=15))])
def test_a_reminder_goes_once_per_deadline_at_the_scaled_lead_time(
    decision_hours, lead, django_capture_on_commit_callbacks, mailoutbox
):
    game = started_game(players=4, decision_hours=decision_hours)
    assert game.reminder_at == game.deadline - lead

    with time_machine.travel(timezone.now(), tick=False) as traveller:
        for decision in range(2):
            mover = engine.to_move(load_state(game))
            traveller.move_to(game.reminder_at - ONE_SECOND)
            assert timers.reminders_sweep() == 0

            traveller.move_to(game.reminder_at + ONE_SECOND)
            mailoutbox.clear()
            with django_capture_on_commit_callbacks(execute=True):
                assert timers.reminders_sweep() == 1
            assert [addresses(message) for message in mailoutbox] == [[seat_at(game, mover).email]]
            # A second sweep (or a second beat) does not remind again.
            assert timers.reminders_sweep() == 0
            traveller.move_to(game.deadline - ONE_SECOND)
            assert timers.reminders_sweep() == 0

            reminders = Notification.objects.filter(game=game, kind="reminder")
            assert reminders.count() == decision + 1
            latest = reminders.latest("pk")
            assert (latest.version, latest.seat.position) == (game.decision_version, mover)
            assert latest.status == Notification.Status.SENT
            assert mailoutbox[0].subject == latest.subject

            # The deadline passes; the next decision gets its own reminder.
            traveller.move_to(game.deadline + ONE_SECOND)
            assert timers.deadlines_sweep() == 1
            game.refresh_from_db()
            assert game.status == Game.Status.RUNNING
            assert game.deadline == timezone.now() + timedelta(hours=decision_hours)
            assert game.reminder_at == game.deadline - lead


def test_a_game_where_every_seat_has_standing_orders_finishes_without_any_deadline():
    game = started_game(players=4, decision_hours=24)
    for position in range(4):
        orders_set(
            seat=seat_at(game, position), auto_roll=True, bid_limit=8 + position, bid_every=True,
            devil="leader", removal="default",
        )

    game.refresh_from_db()
    assert game.status == Game.Status.OVER
    actions = ActionRecord.objects.filter(game=game)
    assert not actions.filter(actor=ActionRecord.Actor.DEADLINE).exists()
    assert actions.filter(actor=ActionRecord.Actor.ORDER).exists()
    assert engine.observe(load_state(game), None)["standings"]
    # Nothing is left for the sweeps.
    assert timers.deadlines_sweep() == 0 and timers.reminders_sweep() == 0
