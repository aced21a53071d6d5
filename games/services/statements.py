"""The project's hand-written SQL, all of it, in this one module.

Each statement replaces a queryset that cost more to compile than to run on
a path every player takes: a page's rows and its version (asked for every
few seconds by an open page), the seats and the game a page or a decision
is made from, the game a decision locks, and the log records a history
tells (on the first view of every version). The figures are in
bench/README.md. The statements are written from the models' own metadata
(each field's column, each model's table, quoted as the database wants),
once per process; models come back through the ORM's public raw(), which
converts every column with its field, as a queryset does.
tests/test_statements.py holds each equal to the queryset it replaces, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import functools

from django.db import connection, models

from games.models import ActionRecord, Game, Seat


def _column(model: type[models.Model], name: str) -> str:
    """The quoted column of ``model``'s field ``name``."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), name
    return connection.ops.quote_name(str(field.column))


def _table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


# ---- models, loaded by raw() ---------------------------------------------------


@functools.cache
def _seats_statement() -> str:
    return f"SELECT * FROM {_table(Seat)} WHERE {_column(Seat, 'game')} = %s ORDER BY {_column(Seat, 'position')}"


@functools.cache
def _game_statement() -> str:
    return f"SELECT * FROM {_table(Game)} WHERE {_column(Game, 'id')} = %s"


def seats_of_game(game_id: int) -> list[Seat]:
    """The game's seats by position, every column loaded (their game not)."""
    return list(Seat.objects.raw(_seats_statement(), [game_id]))


@functools.cache
def _game_locked_statement() -> str:
    # SQLite has no row locks (and no FOR UPDATE): its IMMEDIATE
    # transactions already serialise writers, as select_for_update() knows.
    lock = connection.ops.for_update_sql() if connection.features.has_select_for_update else ""
    return f"{_game_statement()} {lock}".rstrip()


def game_by_id(game_id: int) -> Game | None:
    """The game, every column loaded; None if there is none."""
    return next(iter(Game.objects.raw(_game_statement(), [game_id])), None)


def game_locked(game_id: int) -> Game | None:
    """The game as game_by_id loads it, its row locked until the
    transaction ends (select_for_update().get(), without its compiling,
    which cost every decision a quarter of a millisecond)."""
    return next(iter(Game.objects.raw(_game_locked_statement(), [game_id])), None)


# The columns of a log record that a history tells.
TOLD_FIELDS = ("id", "seq", "created_at", "events", "actor")


@functools.cache
def _told_statement(limited: bool) -> str:
    columns = ", ".join(_column(ActionRecord, name) for name in TOLD_FIELDS)
    events = _column(ActionRecord, "events")
    # CAST: the text of a JSON column, "[]" for an empty list both where it
    # is text (SQLite) and where it is jsonb (PostgreSQL).
    return (
        f"SELECT {columns} FROM {_table(ActionRecord)} "
        f"WHERE {_column(ActionRecord, 'game')} = %s AND {_column(ActionRecord, 'seq')} <= %s "
        f"AND CAST({events} AS TEXT) <> %s "
        f"ORDER BY {_column(ActionRecord, 'seq')} DESC" + (" LIMIT %s" if limited else "")
    )


def told_records(game_id: int, up_to_seq: int, limit: int | None) -> list[ActionRecord]:
    """The game's log records up to ``up_to_seq`` that hold events, newest
    first, at most ``limit`` (None: all), with TOLD_FIELDS loaded."""
    params: list[object] = [game_id, up_to_seq, "[]"]
    if limit is not None:
        params.append(limit)
    return list(ActionRecord.objects.raw(_told_statement(limit is not None), params))


# ---- rows, compared and digested, never used as model values -------------------


@functools.cache
def _rows_statement(game_of_page: str, seat_fields: tuple[str, ...], game_columns: tuple[str, ...]) -> str:
    """The columns ``seat_fields`` of every seat of one game, then the game's
    ``game_columns``, by position; ``game_of_page`` is SQL giving the game's id."""
    columns = [f"s.{_column(Seat, name)}" for name in seat_fields]
    columns += [f"g.{_column(Game, name)}" for name in game_columns]
    return (
        f"SELECT {', '.join(columns)} FROM {_table(Seat)} s "
        f"JOIN {_table(Game)} g ON g.{_column(Game, 'id')} = s.{_column(Seat, 'game')} "
        f"WHERE s.{_column(Seat, 'game')} = ({game_of_page}) "
        f"ORDER BY s.{_column(Seat, 'position')}"
    )


@functools.cache
def _game_of_link() -> str:
    return f"SELECT {_column(Seat, 'game')} FROM {_table(Seat)} WHERE {_column(Seat, 'token_hash')} = %s"


def page_rows(
    *, seat_fields: tuple[str, ...], game_columns: tuple[str, ...], game_id: int | None = None, hashed_token: str = ""
) -> list[tuple]:
    """The rows of a game's page, as the database driver gives them: of the
    game ``game_id``, or of the game whose seat link hashes to ``hashed_token``."""
    game_of_page = "%s" if game_id is not None else _game_of_link()
    with connection.cursor() as cursor:
        cursor.execute(
            _rows_statement(game_of_page, seat_fields, game_columns),
            [game_id if game_id is not None else hashed_token],
        )
        return cursor.fetchall()


@functools.cache
def _version_by_link_statement() -> str:
    return (
        f"SELECT g.{_column(Game, 'version')}, g.{_column(Game, 'public_id')}, "
        f"s.{_column(Seat, 'position')}, s.{_column(Seat, 'link_nonce')} "
        f"FROM {_table(Seat)} s "
        f"JOIN {_table(Game)} g ON g.{_column(Game, 'id')} = s.{_column(Seat, 'game')} "
        f"WHERE s.{_column(Seat, 'token_hash')} = %s"
    )


def version_by_link(hashed_token: str) -> tuple[int, str, int, str] | None:
    """The version of the game whose seat link hashes to ``hashed_token``,
    and what the link's check needs: the public id, the seat's position and
    its link's nonce."""
    with connection.cursor() as cursor:
        cursor.execute(_version_by_link_statement(), [hashed_token])
        return cursor.fetchone()


@functools.cache
def _version_by_public_id_statement() -> str:
    return f"SELECT {_column(Game, 'version')} FROM {_table(Game)} WHERE {_column(Game, 'public_id')} = %s"


def version_by_public_id(public_id: str) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(_version_by_public_id_statement(), [public_id])
        row = cursor.fetchone()
    return None if row is None else row[0]
