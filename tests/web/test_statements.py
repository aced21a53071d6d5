"""How many SQL statements a decision costs, and that the count does not grow
with the game: the lean paths of issue 13, held in place."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import engine
from games.models import ActionRecord, Game, Notification
from games.services.game_state import load_state
from games.services.sweeps import deadlines_sweep
from games.web.forms import decision_form_data
from tests.factories import play_until, started_game, tokens

pytestmark = pytest.mark.django_db

# Transaction control is not work: BEGIN/COMMIT on SQLite, savepoints in the
# test's own transaction.
CONTROL = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")


def statements(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith(CONTROL)]


def decision_post_statements(game: Game, text: str | None = None, client: Client | None = None) -> list[str]:
    state = load_state(game)
    token = tokens(game)[engine.to_move(state)]
    text = text or engine.format_action(engine.default_action(state))
    data = decision_form_data(text, game.decision_version)
    client = client or Client()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/s/{token}/act", data)
    assert response.status_code == 302
    return statements(queries)


def deep_game() -> Game:
    game = play_until(
        started_game(4),
        lambda s: s.phase == engine.state.RACE and s.race.number >= 3 and engine.decision_kind(s) == "roll",
        random.Random(3),
    )
    assert game.status == Game.Status.RUNNING
    return game


def test_a_decision_post_takes_six_statements_at_any_length_of_game():
    """The link's seat, the locked game, its seats, the game row, the log and
    the outbox: the same at the first decision and deep in the game."""
    first = decision_post_statements(started_game(4))
    deep = decision_post_statements(deep_game())
    assert len(first) == len(deep), (first, deep)
    assert len(deep) <= 6, deep


def test_a_devil_push_names_the_pushed_player_without_reading_the_seats_again():
    """The confirmation says whom the Devil pushed; the names come from the
    seats the decision read under its lock, not from a read after it."""
    game = play_until(started_game(4), lambda s: engine.decision_kind(s) == "push", random.Random(5))
    state = load_state(game)
    push = next(text for text in map(engine.format_action, engine.legal_actions(state)) if text != "push none")
    victim = next(seat for seat in game.seats.all() if seat.colour == push.split()[1])
    client = Client()
    pushed = decision_post_statements(game, push, client)
    assert len(pushed) <= 6, pushed
    page = client.get(f"/s/{tokens(game)[engine.to_move(state)]}/").content.decode()
    assert f"you pushed {victim.name} back" in page


def test_the_deadline_sweep_applies_a_default_in_six_statements():
    games = [started_game(3) for _ in range(4)]
    past = timezone.now() - timedelta(minutes=1)
    Game.objects.filter(pk__in=[g.pk for g in games]).update(deadline=past, reminder_at=past)
    records_before = ActionRecord.objects.count()
    with CaptureQueriesContext(connection) as queries:
        applied = deadlines_sweep()
    assert applied == len(games)
    assert ActionRecord.objects.count() > records_before
    assert Notification.objects.filter(kind="turn", version__gt=0).count() >= len(games)
    work = statements(queries)
    # Asking what is due: once with the games, once more to find none left.
    asking = [
        sql
        for sql in work
        if "deadline" in sql and sql.lstrip().upper().startswith("SELECT") and "LIMIT" in sql.upper()
    ]
    per_game = (len(work) - len(asking)) / len(games)
    assert per_game <= 6, work
