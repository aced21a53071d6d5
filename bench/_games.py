"""Many running games made fast, for the benches: copies of ONE game that was
started (and perhaps played) through the services.

Import after django.setup(). A copy is the template's row with its own public
id, seed and deadline; seats and action log are copied by the helpers below,
so each bench copies only what it reads. The SQL helpers are PostgreSQL's
(md5, random, unnest): tens of thousands of games with their seats take
seconds that way, where model instances would take minutes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection, transaction
from django.test.utils import setup_databases, teardown_databases

from bench._common import backends_end
from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.randomness import commitment, new_seed
from games.services.links import link_issue, seat_token
from tests.factories import play_until, started_game

BATCH = 2000


def seat_fields() -> list[str]:
    """Every column of a seat but its id, game and link secret (copied as they are)."""
    skip = {"id", "game", "link_nonce", "token_hash"}
    return [f.name for f in Seat._meta.concrete_fields if f.name not in skip]


def game_copy(template: Game, deadline) -> Game:
    seed = new_seed()
    return Game(
        ruleset_name=template.ruleset_name,
        ruleset=template.ruleset,
        status=Game.Status.RUNNING,
        decision_hours=template.decision_hours,
        state=template.state,
        version=template.version,
        decision_version=template.decision_version,
        deadline=deadline,
        reminder_at=deadline - timedelta(hours=1),
        seed=seed,
        seed_commitment=commitment(seed),
        started_at=template.started_at,
    )  # public_id: a fresh random default per row


def games_copy(template: Game, deadlines: Sequence) -> list[int]:
    """One copy of the template's row per deadline; their ids, in that order."""
    ids: list[int] = []
    for start in range(0, len(deadlines), BATCH):
        rows = [game_copy(template, deadline) for deadline in deadlines[start:start + BATCH]]
        with transaction.atomic():
            ids.extend(game.pk for game in Game.objects.bulk_create(rows))
    return ids


def _copy_rows(model, template: Game, game_ids: Sequence[int], replaced: dict[str, str]) -> None:
    """INSERT ... SELECT: the template's rows of ``model`` once for every game
    in ``game_ids``, each column as it is unless ``replaced`` gives an SQL
    expression for it (over the template's row ``t`` and the new game ``g``)."""
    quote = connection.ops.quote_name
    columns, values = [], []
    for field in model._meta.concrete_fields:
        if field.primary_key:
            continue
        columns.append(quote(field.column))
        if field.name == "game":
            values.append("g.id")
        else:
            values.append(replaced.get(field.name, f"t.{quote(field.column)}"))
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(values)} FROM {quote(model._meta.db_table)} t "
        f"CROSS JOIN unnest(%s::bigint[]) AS g(id) WHERE t.{quote('game_id')} = %s"
    )
    for start in range(0, len(game_ids), BATCH * 10):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [list(game_ids[start:start + BATCH * 10]), template.pk])


def seats_copy(template: Game, game_ids: Sequence[int]) -> None:
    """The template's seats for every game. Their links open nothing: each
    stored hash is random, the hash of no token (links_issue gives real ones)."""
    _copy_rows(
        Seat,
        template,
        game_ids,
        {
            "link_nonce": "substr(md5(random()::text), 1, 24)",
            "token_hash": "md5(random()::text || g.id::text || t.position::text) || md5(random()::text)",
        },
    )


def log_copy(template: Game, game_ids: Sequence[int]) -> None:
    """The template's action log for every game."""
    _copy_rows(ActionRecord, template, game_ids, {})


def links_issue(game_ids: Sequence[int]) -> dict[int, dict[int, str]]:
    """Fresh links for every seat of these games: {game id: {position: token}}."""
    quote = connection.ops.quote_name
    # One statement a batch: bulk_update's CASE per row takes minutes for 40,000 seats.
    sql = (
        f"UPDATE {quote(Seat._meta.db_table)} AS s SET link_nonce = v.nonce, token_hash = v.hash "
        "FROM unnest(%s::bigint[], %s::text[], %s::text[]) AS v(id, nonce, hash) WHERE s.id = v.id"
    )
    tokens: dict[int, dict[int, str]] = {}
    for start in range(0, len(game_ids), BATCH):
        seats = list(Seat.objects.filter(game_id__in=game_ids[start:start + BATCH]).select_related("game"))
        for seat in seats:
            link_issue(seat)
            tokens.setdefault(seat.game_id, {})[seat.position] = seat_token(seat)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                sql,
                [[seat.pk for seat in seats], [seat.link_nonce for seat in seats], [seat.token_hash for seat in seats]],
            )
    return tokens


def deep_in_race_6(seed: int) -> Game:
    """A four-player game played at random into race 6, roll 8 or later, a
    player to decide: the deep game of bench/web.py and bench/statements.py."""
    for attempt in range(20):
        game = started_game(4)
        game = play_until(
            game,
            lambda s: s.phase == engine.state.RACE and s.race.number == 6 and s.race.rolls >= 8
            and engine.decision_kind(s) not in (None, "chance"),
            random.Random(seed + attempt),
        )
        if game.status == Game.Status.RUNNING:
            return game
    raise RuntimeError("no random game got deep into race 6")


GAME_FIELDS = ("state", "version", "decision_version", "deadline", "reminder_at", "status", "ended_at")


def restorer(game: Game):
    """Put the game back as it is now: row, action log, outbox (bench only)."""
    snapshot = Game.objects.filter(pk=game.pk).values(*GAME_FIELDS).get()

    def restore():
        with transaction.atomic():
            ActionRecord.objects.filter(game=game, seq__gt=snapshot["version"]).delete()
            Notification.objects.filter(game=game, version__gt=snapshot["version"]).delete()
            Game.objects.filter(pk=game.pk).update(**snapshot)

    return restore


def statistics_made() -> None:
    """The games were just written: a live database's autovacuum would have
    analyzed the tables within a minute. Without statistics PostgreSQL's
    planner takes the log for empty and reads every record of the deep game
    for the history's latest lines."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


@contextmanager
def deep_game_on_a_test_database(seed: int) -> Iterator[Game]:
    """The test databases set up, deep_in_race_6(seed) played on them and
    analyzed; torn down after, with any connection another thread kept."""
    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    try:
        game = deep_in_race_6(seed)
        statistics_made()
        yield game
    finally:
        if connection.vendor == "postgresql":
            backends_end(connection, connection.settings_dict["NAME"])
        teardown_databases(old_config, verbosity=0)
