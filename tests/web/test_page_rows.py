"""The rows a page is keyed by (games/selectors/game_page.py, with the
hand-written statements of games/services/statements.py) are what the ORM
would read: the same rows, found by the link or by the game, and a key that
changes with every column a page shows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db.models import DateTimeField
from django.utils import timezone

from games.models import Game, Seat
from games.selectors import game_page
from games.selectors.game_page import SHOWN_GAME_COLUMNS, SHOWN_SEAT_COLUMNS, page_rows, seat_page_rows
from tests.factories import seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return started_game(4)


def _as_the_orm_reads_them(game: Game) -> list[tuple]:
    columns = (*SHOWN_SEAT_COLUMNS, *(f"game__{name}" for name in SHOWN_GAME_COLUMNS))
    return list(Seat.objects.filter(game=game).order_by("position").values_list(*columns))


def test_the_statement_reads_the_rows_the_orm_reads(game):
    """Value for value, in the same order, up to what the driver gives
    before a field's converter (a date may come as text on SQLite)."""
    raw = game_page._rows(game_id=game.pk)
    orm = _as_the_orm_reads_them(game)
    assert len(raw) == len(orm) == 4
    for raw_row, orm_row in zip(raw, orm, strict=True):
        assert len(raw_row) == len(orm_row)
        for got, expected in zip(raw_row, orm_row, strict=True):
            assert got == expected or str(got)[:19].replace("T", " ") == str(expected)[:19]


def test_the_link_finds_its_game_and_its_own_seat(game):
    links = tokens(game)
    found = seat_page_rows(links[2])
    assert found is not None and found.viewer.seat_id == seat_at(game, 2).pk
    assert found.digest == page_rows(game).digest
    assert seat_page_rows(links[2][:-1] + ("A" if links[2][-1] != "A" else "B")) is None


@pytest.mark.parametrize(
    "name",
    [name for name in SHOWN_SEAT_COLUMNS if name not in ("id", "game_id", "position")],
)
def test_every_shown_seat_column_changes_the_key(game, name):
    seat = seat_at(game, 1)
    field = Seat._meta.get_field(name.removesuffix("_id") if name.endswith("_id") else name)
    before = page_rows(game).digest
    value = getattr(seat, field.attname)
    changed = {
        bool: lambda v: not v,
        int: lambda v: v + 1,
        str: lambda v: v[:-1] + ("y" if v.endswith("x") else "x"),  # the same length: a column may be full
        dict: lambda v: {**v, "auto_roll": not v.get("auto_roll")},
        dt.datetime: lambda v: v + dt.timedelta(minutes=1),
        type(None): lambda v: timezone.now() if isinstance(field, DateTimeField) else {"auto_roll": True},
    }[type(value)]
    Seat.objects.filter(pk=seat.pk).update(**{field.attname: changed(value)})
    assert page_rows(game).digest != before


@pytest.mark.parametrize("name", ["version", "status", "decision_hours", "absence_allowance_days", "moderation_steps"])
def test_every_shown_game_column_changes_the_key(game, name):
    before = page_rows(game).digest
    value = getattr(game, name)
    Game.objects.filter(pk=game.pk).update(**{name: value + 1 if isinstance(value, int) else "paused"})
    assert page_rows(game).digest != before

