"""The hand-written statements (games/services/statements.py) load what the
querysets they replace load: every column, each through its field's
converter (JSON, times, flags), so a column added to the models is read too,
and a converter that changes shows here, on SQLite and on PostgreSQL."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import ActionRecord, Game, Seat
from games.selectors.game_page import seat_and_its_table, seat_page_rows
from games.services import statements
from games.services.seats import game_seats
from tests.factories import seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    game = started_game(4)
    # Values of every kind a converter turns: JSON, a time, a flag, a name.
    Seat.objects.filter(pk=seat_at(game, 2).pk).update(
        standing_orders={"auto_roll": True, "bid_limit": 7},
        away_until=timezone.now() + dt.timedelta(days=2),
        autopilot=True,
        display_name="Zoë",
    )
    return game


def _values(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def _loaded_whole(*instances) -> bool:
    return all(instance.get_deferred_fields() == set() for instance in instances)


def test_the_seats_of_a_game_are_loaded_as_the_queryset_loads_them(game):
    seats = statements.seats_of_game(game.pk)
    orm = list(Seat.objects.filter(game=game).order_by("position"))
    assert [_values(seat) for seat in seats] == [_values(seat) for seat in orm]
    assert _loaded_whole(*seats)
    assert isinstance(seats[2].standing_orders, dict) and seats[2].autopilot is True
    assert statements.seats_of_game(game.pk + 1000) == []


def test_a_game_is_loaded_as_the_queryset_loads_it(game):
    loaded = statements.game_by_id(game.pk)
    assert _values(loaded) == _values(Game.objects.get(pk=game.pk))
    assert _loaded_whole(loaded) and isinstance(loaded.state, dict)
    assert statements.game_by_id(game.pk + 1000) is None


def test_a_decision_and_a_page_share_one_game_object_among_their_seats(game):
    seats = game_seats(game)
    assert all(seat.game is game for seat in seats)
    found, table = seat_and_its_table(seat_page_rows(tokens(game)[2]).viewer)
    assert found is table[2] and len({id(seat.game) for seat in table}) == 1
    assert _values(found.game) == _values(Game.objects.get(pk=game.pk))


def test_a_seat_gone_between_the_reads_finds_no_table(game):
    viewer = seat_page_rows(tokens(game)[1]).viewer
    Seat.objects.filter(pk=viewer.seat_id).delete()
    assert seat_and_its_table(viewer) is None


def test_the_versions_are_read_by_link_and_by_public_id(game):
    game.refresh_from_db()
    seat = seat_at(game, 1)
    assert statements.version_by_link(seat.token_hash) == (game.version, game.public_id, 1, seat.link_nonce)
    assert statements.version_by_link("no-such-hash") is None
    assert statements.version_by_public_id(game.public_id) == game.version
    assert statements.version_by_public_id("no-such-game") is None


def test_a_locked_game_is_loaded_as_the_queryset_loads_it(game):
    with transaction.atomic():
        loaded = statements.game_locked(game.pk)
        assert _values(loaded) == _values(Game.objects.select_for_update().get(pk=game.pk))
        assert statements.game_locked(game.pk + 1000) is None


def test_a_game_is_locked_with_the_clause_select_for_update_writes(game):
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        Game.objects.select_for_update().get(pk=game.pk)
        statements.game_by_id(game.pk)
        statements.game_locked(game.pk)
    orm, unlocked, locked = (query["sql"] for query in queries.captured_queries)
    lock = locked.removeprefix(unlocked)
    assert orm.endswith(lock) and (" FOR UPDATE" in orm) == bool(lock)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="only PostgreSQL locks rows; SQLite locks the file")
@pytest.mark.django_db(transaction=True)
def test_a_locked_game_keeps_another_transaction_from_locking_it():
    game = started_game(3)
    refused: list[Exception] = []

    def lock_elsewhere() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(nowait=True).get(pk=game.pk)
        except DatabaseError as error:
            refused.append(error)
        finally:
            connection.close()

    with transaction.atomic():
        statements.game_locked(game.pk)
        elsewhere = threading.Thread(target=lock_elsewhere)
        elsewhere.start()
        elsewhere.join()
    assert len(refused) == 1


def _told_by_queryset(game: Game, limit: int | None) -> list[tuple]:
    records = ActionRecord.objects.filter(game_id=game.pk, seq__lte=game.version).exclude(events=[]).order_by("-seq")
    return list(records.values_list(*statements.TOLD_FIELDS)[:limit])


def _record(game: Game, seq: int, events: list) -> None:
    ActionRecord.objects.create(game=game, seq=seq, seat=0, actor="player", source="web", action="x", events=events)


@pytest.mark.parametrize("limit", [1, 5, None])
def test_the_records_a_history_tells_are_those_the_queryset_finds(game, limit):
    game.refresh_from_db()
    told_event = [{"type": "pass", "colour": "red"}]
    first = game.version + 1
    for seq in range(first, first + 6):
        _record(game, seq, [] if seq == first + 4 else told_event)
    # The newest has no events, and takes no place; one newer than the
    # game's version is not told yet.
    _record(game, first + 6, [])
    _record(game, first + 7, told_event)
    Game.objects.filter(pk=game.pk).update(version=first + 6)
    game.refresh_from_db()
    told = statements.told_records(game.pk, game.version, limit)
    expected = _told_by_queryset(game, limit)
    assert [tuple(getattr(record, name) for name in statements.TOLD_FIELDS) for record in told] == expected
    assert [seq for _, seq, *_ in expected][:3] == [first + 5, first + 3, first + 2][:limit]
    assert all(isinstance(record.events, list) and record.events for record in told)
    assert told[0].created_at.tzinfo is not None
