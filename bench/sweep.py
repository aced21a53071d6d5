"""What one deadline sweep costs as the number of running games grows.

    .venv/bin/python bench/sweep.py [--repeat N] [--sizes 100,10000,100000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles_bench .venv/bin/python bench/sweep.py

The sweep asks the database which decisions are past their deadline (an
indexed query: docs/architecture.md#time-and-deadlines), so its cost should
grow with the number due, not with the number of games. Here 100 games are
always due and the rest are running games whose deadline is hours away;
one sweep (games.services.sweeps.deadlines_sweep) applies the 100 defaults —
the same service a click uses, outbox rows and on-commit enqueueing included —
and is timed at 100, 10,000 and 100,000 running games.

Works on a throwaway database it creates and drops itself (never
var/db.sqlite3): on SQLite a temporary file with the production settings (WAL,
IMMEDIATE transactions), on PostgreSQL a database named after DATABASE_URL's
with a "bench_" prefix and this process id.

How the games are made: ONE game is created and started through the services
(game_create, seat_accept); the 99 other due games are copies of its row, seats
(fresh link secrets) and action log, with their own public id and seed; the
games that are not due are copies of its row only (a sweep never reaches their
seats). Between sweeps the 100 due games are put back as they were (row, log,
outbox), outside the timed part.

Targets (issue 13): the sweep at 100,000 games within 2x the sweep at 100
games, and at most 6 SQL statements per default applied (transaction control
not counted). The cost per due game is printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench._common import BENCH_SECRET_KEY  # noqa: E402

os.environ["DJANGO_SETTINGS_MODULE"] = "versailles_site.settings"
# What production runs: DEBUG off, and no mail or task leaves the process.
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", BENCH_SECRET_KEY)

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# The send tasks are handed to kombu's in-memory transport (the cost of
# handing them over stays in the figure), not to the filesystem broker.
settings.CELERY_BROKER_URL = "memory://"
settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
settings.TASKS_INLINE = False
_tmp = tempfile.TemporaryDirectory(prefix="versailles-bench-sweep-")
if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    settings.DATABASES["default"]["TEST"] = {"NAME": str(Path(_tmp.name) / "bench.sqlite3")}
else:
    settings.DATABASES["default"]["TEST"] = {"NAME": f"bench_{settings.DATABASES['default']['NAME']}_{os.getpid()}"}
django.setup()

from django.db import connection, transaction  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench._games import BATCH, game_copy, seat_fields  # noqa: E402
from games.models import ActionRecord, Game, Notification, Seat  # noqa: E402
from games.services import sweeps as timers  # noqa: E402
from games.services.links import link_issue  # noqa: E402
from tests.factories import started_game  # noqa: E402

DUE = 100
GAME_FIELDS = ("state", "version", "decision_version", "deadline", "reminder_at", "status", "ended_at")


def due_games_make(template: Game) -> list[int]:
    """The template, made due, and DUE - 1 copies of it with seats and log."""
    past = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk=template.pk).update(deadline=past, reminder_at=past - timedelta(hours=1))
    template.refresh_from_db()
    seats = list(Seat.objects.filter(game=template).order_by("position"))
    records = list(ActionRecord.objects.filter(game=template).order_by("seq"))
    copies = Game.objects.bulk_create([game_copy(template, past) for _ in range(DUE - 1)])
    new_seats, new_records = [], []
    for game in copies:
        for seat in seats:
            copy = Seat(game=game, **{name: getattr(seat, name) for name in seat_fields()})
            link_issue(copy)  # its own link secret and token_hash
            new_seats.append(copy)
        for record in records:
            new_records.append(
                ActionRecord(
                    game=game, seq=record.seq, seat=record.seat, actor=record.actor,
                    source=record.source, action=record.action, events=record.events,
                )
            )
    Seat.objects.bulk_create(new_seats, batch_size=BATCH)
    ActionRecord.objects.bulk_create(new_records, batch_size=BATCH)
    return [template.pk] + [game.pk for game in copies]


def fillers_add(template: Game, count: int) -> None:
    """Running games whose deadline is 1 to 24 hours away (no seats: a sweep never reads them)."""
    now = timezone.now()
    made = 0
    while made < count:
        size = min(BATCH, count - made)
        rows = [game_copy(template, now + timedelta(hours=1, seconds=(made + i) * 0.8)) for i in range(size)]
        with transaction.atomic():
            Game.objects.bulk_create(rows)
        made += size


def restorer(due: list[int]):
    """Put the due games back as they are now: rows, seats, action log, outbox."""
    games = {row.pop("pk"): row for row in Game.objects.filter(pk__in=due).values("pk", *GAME_FIELDS)}
    fields = [name for name in seat_fields() if name != "position"]
    seats = {row.pop("pk"): row for row in Seat.objects.filter(game_id__in=due).values("pk", *fields)}
    version = next(iter(games.values()))["version"]

    def restore() -> None:
        with transaction.atomic():
            ActionRecord.objects.filter(game_id__in=due, seq__gt=version).delete()
            Notification.objects.filter(game_id__in=due).delete()
            for pk, row in games.items():
                Game.objects.filter(pk=pk).update(**row)
            for pk, row in seats.items():
                Seat.objects.filter(pk=pk).update(**row)

    return restore


def sweep_once() -> tuple[float, float, float, int, int]:
    """(wall seconds, this process's CPU seconds, seconds spent in SQL calls,
    games the sweep applied a default to, SQL statements of the defaults:
    not transaction control, not the query for what is due)."""
    in_sql = [0.0, 0]

    def timed_sql(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            in_sql[0] += time.perf_counter() - started
            # Statements that do work: transaction control is not counted, nor
            # the sweep's own question of what is due (twice a sweep, not per game).
            words = sql.lstrip().upper()
            asking = words.startswith("SELECT") and "DEADLINE\" <=" in words and "LIMIT" in words
            in_sql[1] += not (asking or words.startswith(("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT", "ROLLBACK")))

    with connection.execute_wrapper(timed_sql):
        started, cpu = time.perf_counter(), time.process_time()
        applied = timers.deadlines_sweep()
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    return elapsed, cpu, in_sql[0], applied, in_sql[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timed sweeps per size; the median is shown (default 3)")
    parser.add_argument(
        "--sizes", default="100,10000,100000", help="running games, comma-separated (default 100,10000,100000)"
    )
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    assert sizes[0] >= DUE, f"every size must be at least {DUE}"

    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    rows = []
    try:
        vendor = connection.vendor
        template = started_game(4)
        due = due_games_make(template)
        put_back = restorer(due)

        # Warm-up: caches, templates, the Celery producer.
        timers.deadlines_sweep()
        put_back()

        for size in sizes:
            have = Game.objects.filter(status=Game.Status.RUNNING).count()
            fillers_add(template, size - have)
            if vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
            running = Game.objects.filter(status=Game.Status.RUNNING).count()
            overdue = Game.objects.filter(status=Game.Status.RUNNING, deadline__lte=timezone.now()).count()
            assert (running, overdue) == (size, DUE), (running, overdue)
            samples, cpu_samples, sql_samples, queries = [], [], [], 0
            for _ in range(args.repeat):
                elapsed, cpu, in_sql, applied, queries = sweep_once()
                assert applied == DUE, f"the sweep applied {applied} defaults, not {DUE}"
                assert not Game.objects.filter(deadline__lte=timezone.now(), status=Game.Status.RUNNING).exists()
                samples.append(elapsed)
                cpu_samples.append(cpu)
                sql_samples.append(in_sql)
                put_back()
            rows.append(
                (size, statistics.median(samples), min(samples), statistics.median(cpu_samples),
                 statistics.median(sql_samples), queries)
            )
            print(f"  {size:>7,} running games: median {statistics.median(samples) * 1000:.0f} ms", file=sys.stderr)
    finally:
        teardown_databases(old_config, verbosity=0)
        _tmp.cleanup()

    name = "SQLite (temporary file, WAL)" if vendor == "sqlite" else "PostgreSQL"
    print(f"\n{name}: one deadline sweep applying {DUE} defaults; median of {args.repeat} sweeps, DEBUG off\n")
    header = (
        f"{'running games':>14}{'due':>6}{'statements':>11}{'median ms':>11}{'best ms':>9}"
        f"{'CPU ms':>9}{'in SQL ms':>11}{'ms per due game':>17}"
    )
    print(header)
    print("-" * len(header))
    for size, median, best, cpu, in_sql, queries in rows:
        print(
            f"{size:>14,}{DUE:>6}{queries:>11}{median * 1000:>11.1f}{best * 1000:>9.1f}"
            f"{cpu * 1000:>9.1f}{in_sql * 1000:>11.1f}{median * 1000 / DUE:>17.2f}"
        )
    first, last = rows[0], rows[-1]
    ratios = [last[i] / first[i] for i in (1, 2, 3, 4)]
    verdict = "within" if ratios[0] <= 2 else "OVER"
    print(
        f"\nratio {last[0]:,} / {first[0]:,} games: {ratios[0]:.2f}x by median (target <= 2x: {verdict}); "
        f"{ratios[1]:.2f}x by best, {ratios[2]:.2f}x in CPU, {ratios[3]:.2f}x in SQL"
    )
    per_game = last[5] / DUE
    print(
        f"statements per default applied: {per_game:.2f} at {last[0]:,} games "
        f"(target <= 6: {'within' if per_game <= 6 else 'OVER'})"
    )
    print(
        "Medians of wall time; CPU is this process only (PostgreSQL's own work is not in it). "
        "On a busy machine wall times vary by a fifth or more between runs."
    )


if __name__ == "__main__":
    main()
