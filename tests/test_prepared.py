"""Reads built into SQL once: they give what the queryset itself gives,
converted and related the same way, and build their SQL once per database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.forms.models import model_to_dict
from django.utils import timezone

from games.models import ActionRecord, Game, Seat
from games.prepared import Prepared, PreparedModels, row_update, rows_insert
from games.services.game_state import game_lock
from games.services.links import seat_by_token
from tests.factories import play_steps, seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


def _values(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@pytest.fixture
def game():
    return play_steps(started_game(4), 12)


def test_instances_equal_the_querysets_own_with_their_related_rows(game):
    by_game = PreparedModels(lambda game_id: Seat.objects.select_related("game").filter(game_id=game_id), ["integer"])
    expected = list(Seat.objects.select_related("game").filter(game_id=game.pk))
    found = by_game.all(game.pk)
    assert [_values(seat) for seat in found] == [_values(seat) for seat in expected]
    assert [_values(seat.game) for seat in found] == [_values(seat.game) for seat in expected]
    # Converted, not the driver's text: a dict state, an aware datetime.
    assert isinstance(found[0].game.state, dict)
    assert found[0].game.started_at.tzinfo is not None


def test_instances_save_as_queryset_instances_do(game):
    seat = PreparedModels(lambda pk: Seat.objects.filter(pk=pk), ["integer"]).first(seat_at(game, 0).pk)
    seat.display_name = "Renamed"
    seat.save(update_fields=["display_name"])
    assert model_to_dict(Seat.objects.get(pk=seat.pk))["display_name"] == "Renamed"


def test_sql_is_built_once_per_database(game):
    made = []

    def make(game_id):
        made.append(game_id)
        return Seat.objects.filter(game_id=game_id)

    seats = PreparedModels(make, ["integer"])
    assert len(seats.all(game.pk)) == 4
    assert len(seats.all(game.pk)) == 4
    assert len(seats.all(-1)) == 0
    assert len(made) == 1


def test_a_parameter_used_twice_is_refused(game):
    twice = PreparedModels(lambda name: Seat.objects.filter(display_name=name, email=name))
    with pytest.raises(ValueError):
        twice.all("x")


def test_rows_name_the_columns_they_select(game):
    names = Prepared(lambda public_id: Game.objects.filter(public_id=public_id).values("pk", "version"), ["pk", "version"])
    assert names.rows(game.public_id) == [{"pk": game.pk, "version": game.version}]
    wrong = Prepared(lambda public_id: Game.objects.filter(public_id=public_id).values("pk"), ["version"])
    with pytest.raises(ValueError):
        wrong.rows(game.public_id)


def test_the_link_lookup_gives_the_seat_with_its_game(game):
    token = tokens(game)[2]
    seat = seat_by_token(token)
    assert seat.position == 2 and seat.game.pk == game.pk
    assert _values(seat) == _values(Seat.objects.get(pk=seat.pk))
    mistyped = token[:-1] + ("y" if token.endswith("x") else "x")
    assert seat_by_token(mistyped) is None


def test_locking_a_game_that_is_not_there_raises(game):
    with transaction.atomic():
        assert game_lock(game.pk).version == game.version
        with pytest.raises(Game.DoesNotExist):
            game_lock(game.pk + 1000)


def test_several_parameters_each_take_their_place(game):
    between = PreparedModels(
        lambda game_id, after, upto: ActionRecord.objects.filter(game_id=game_id, seq__gt=after, seq__lte=upto).only("seq"),
        ["integer", "integer", "integer"],
    )
    assert [record.seq for record in between.all(game.pk, 3, 7)] == [4, 5, 6, 7]
    assert [record.seq for record in between.all(game.pk, 0, 2)] == [1, 2]
    with pytest.raises(TypeError):
        between.all(game.pk, 3)


def test_a_small_integer_column_takes_its_parameter(game):
    # A 32-bit stand-in is out of a 16-bit column's range, and Django builds
    # no SQL for the comparison on PostgreSQL; the "small" kind's fits.
    of_seat = PreparedModels(
        lambda game_id, position: ActionRecord.objects.filter(game_id=game_id, seat=position).order_by("seq").only("seq"),
        ["integer", "small"],
    )
    for position in (0, 1):
        expected = list(ActionRecord.objects.filter(game=game, seat=position).order_by("seq").values_list("seq", flat=True))
        assert expected
        assert [record.seq for record in of_seat.all(game.pk, position)] == expected


def _record(game, seq: int) -> ActionRecord:
    return ActionRecord(game=game, seq=seq, seat=1, actor="player", source="web", action="pass", events=[{"type": "x", "n": seq}])


def test_inserted_rows_read_back_as_the_ones_bulk_create_writes(game):
    written = [_record(game, 1000 + n) for n in range(3)]
    rows_insert(written)
    expected = [_record(game, 2000 + n) for n in range(3)]
    ActionRecord.objects.bulk_create(expected)
    assert all(record.pk is not None and not record._state.adding for record in written)

    def stored(records):
        return [
            {k: v for k, v in model_to_dict(ActionRecord.objects.get(pk=r.pk)).items() if k not in ("id", "seq")}
            for r in records
        ]

    mine, theirs = stored(written), stored(expected)
    assert [row.pop("events") for row in mine] == [[{"type": "x", "n": 1000 + n}] for n in range(3)]
    for row in theirs:
        row.pop("events")
    assert mine == theirs
    assert ActionRecord.objects.get(pk=written[0].pk).created_at is not None


def test_more_rows_than_one_statement_takes_are_all_inserted(game):
    many = [_record(game, 10_000 + n) for n in range(2500)]
    rows_insert(many)
    assert ActionRecord.objects.filter(game=game, seq__gte=10_000).count() == 2500
    assert len({record.pk for record in many}) == 2500


def test_an_update_on_a_version_no_longer_there_changes_nothing(game):
    before = _values(Game.objects.get(pk=game.pk))
    assert row_update(Game, where={"pk": game.pk, "version": game.version - 1}, values={"state": {}, "version": 0}) == 0
    assert _values(Game.objects.get(pk=game.pk)) == before


def test_an_update_on_the_version_writes_json_and_times(game):
    when = timezone.now().replace(microsecond=0) + timedelta(hours=5)
    state = {**game.state, "note": "ü"}
    changed = row_update(
        Game, where={"pk": game.pk, "version": game.version}, values={"state": state, "version": game.version + 1, "deadline": when}
    )
    assert changed == 1
    stored = Game.objects.get(pk=game.pk)
    assert (stored.state, stored.version, stored.deadline) == (state, game.version + 1, when)
