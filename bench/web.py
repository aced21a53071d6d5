"""What a decision POST and a seat page cost, next to floors served by the same stack.

    .venv/bin/python bench/web.py [--repeat N] [--seed S]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles .venv/bin/python bench/web.py

Works on a throwaway database that it creates and drops itself (never
var/db.sqlite3): on SQLite a temporary file with the production settings (WAL,
IMMEDIATE transactions), on PostgreSQL a database named after DATABASE_URL's
with a "bench_" prefix and this process id.

Two games are measured: one at its first decision (a bid), and one played
with random legal decisions through the services until deep into race 6.
For each:

- decision POST: the decision form posted through django.test.Client to
  /s/<token>/act (the view, the service, the outbox row and its on-commit
  send, the 302). The *same* decision is posted every time: after each POST
  the game row, the action log and the outbox are put back as they were
  before it (outside the timed part), so every sample does the same work.
- seat GET: the page of the seat to move (its decision form included).

Floors, through the same middleware, client and database, in the same run:
a bare view rendering a small page of the site (games/link_sent.html, which
extends base.html like the seat page), and a bare view updating one row in a
transaction and answering 302 like the decision view. They live in this
script's own URLconf (ROOT_URLCONF is pointed here), not in the product's.

Targets (the issue): query counts that do not grow with game length; decision
POST within 3x the one-row floor and seat GET within 3x the template floor
(medians). Timings on a shared machine vary by a fifth or more between runs;
the ratios, taken in one run, are steadier than the absolute figures.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

os.environ["DJANGO_SETTINGS_MODULE"] = "versailles_site.settings"
# Measure what production runs: DEBUG off (no query log kept per request;
# the counts below use CaptureQueriesContext), and no mail leaves the process.
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)

import django  # noqa: E402
from django.conf import settings  # noqa: E402

settings.ROOT_URLCONF = __name__
# Nothing leaves the process: mail stays in memory, and the on-commit
# enqueueing of the send task goes to kombu's in-memory transport instead of
# the filesystem broker under var/ (the cost of handing it over stays in).
settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
settings.CELERY_BROKER_URL = "memory://"
settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
settings.TASKS_INLINE = False
_tmp = tempfile.TemporaryDirectory(prefix="versailles-bench-")
if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    settings.DATABASES["default"]["TEST"] = {"NAME": str(Path(_tmp.name) / "bench.sqlite3")}
else:
    settings.DATABASES["default"]["TEST"] = {"NAME": f"bench_{settings.DATABASES['default']['NAME']}_{os.getpid()}"}
django.setup()

from django.core import mail  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponseRedirect  # noqa: E402
from django.shortcuts import render  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases  # noqa: E402
from django.urls import include, path  # noqa: E402
from django.utils import timezone  # noqa: E402
from django.views.decorators.http import require_GET, require_POST  # noqa: E402

from games import engine  # noqa: E402
from games.web.forms import decision_form_data  # noqa: E402
from games.models import ActionRecord, Game, Notification  # noqa: E402
from games.services.game_state import load_state  # noqa: E402
from tests.web.factories import play_until, started_game, tokens  # noqa: E402

# ---- the bench-only floors --------------------------------------------------

FLOOR_ROW: dict = {}


@require_GET
def floor_template(request):
    return render(request, "games/link_sent.html")


@require_POST
def floor_update(request):
    with transaction.atomic():
        Game.objects.filter(pk=FLOOR_ROW["pk"]).update(deadline=timezone.now())
    return HttpResponseRedirect("/bench/template")


urlpatterns = [
    path("bench/template", floor_template),
    path("bench/update", floor_update),
    path("", include("versailles_site.urls")),
]

# ---- measuring ------------------------------------------------------------------


def timed(request, repeat: int, before=None, after=None) -> tuple[int, float, int]:
    """(queries of one request, median ms over ``repeat``, status code)."""
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        response = request()
    # Counted now: the next request clears the connection's query log.
    count, status = len(queries), response.status_code
    if after:
        after()
    samples = []
    for index in range(repeat + 5):
        if before:
            before()
        started = time.perf_counter()
        request()
        elapsed = time.perf_counter() - started
        if after:
            after()
        if index >= 5:  # warm-up
            samples.append(elapsed)
    getattr(mail, "outbox", []).clear()
    return count, statistics.median(samples) * 1000, status




GAME_FIELDS = ("state", "version", "decision_version", "deadline", "status", "ended_at")


def restorer(game: Game):
    """Put the game back as it is now: row, action log, outbox (bench only)."""
    snapshot = Game.objects.filter(pk=game.pk).values(*GAME_FIELDS).get()

    def restore():
        with transaction.atomic():
            ActionRecord.objects.filter(game=game, seq__gt=snapshot["version"]).delete()
            Notification.objects.filter(game=game, version__gt=snapshot["version"]).delete()
            Game.objects.filter(pk=game.pk).update(**snapshot)

    return restore


def measure_game(client: Client, game: Game, repeat: int) -> dict:
    game.refresh_from_db()
    state = load_state(game)
    mover = engine.to_move(state)
    token = tokens(game)[mover]
    text = engine.format_action(engine.default_action(state))
    restore = restorer(game)
    data = decision_form_data(text, game.decision_version)
    post_q, post_ms, post_status = timed(lambda: client.post(f"/s/{token}/act", data), repeat, after=restore)
    assert post_status == 302, post_status
    get_q, get_ms, get_status = timed(lambda: client.get(f"/s/{token}/"), repeat)
    assert get_status == 200, get_status
    race = state.race
    return {
        "where": (
            f"race {race.number}, roll {race.rolls}" if race else f"{engine.decision_kind(state)} ({state.phase})"
        ),
        "decision": text,
        "records": ActionRecord.objects.filter(game=game).count(),
        "post": (post_q, post_ms),
        "get": (get_q, get_ms),
    }


def deep_in_race_6(seed: int) -> Game:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per figure (default 200)")
    parser.add_argument("--seed", type=int, default=6)
    args = parser.parse_args()

    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    try:
        vendor = connection.vendor
        floor_game = started_game(3)
        FLOOR_ROW["pk"] = floor_game.pk
        client = Client()
        template_q, template_ms, _ = timed(lambda: client.get("/bench/template"), args.repeat)
        update_q, update_ms, _ = timed(lambda: client.post("/bench/update"), args.repeat)
        first = measure_game(client, started_game(4), args.repeat)
        deep = measure_game(client, deep_in_race_6(args.seed), args.repeat)
        # The floors once more at the end, so drift during the run shows.
        template_q2, template_ms2, _ = timed(lambda: client.get("/bench/template"), args.repeat)
        update_q2, update_ms2, _ = timed(lambda: client.post("/bench/update"), args.repeat)
        template_ms = statistics.median([template_ms, template_ms2])
        update_ms = statistics.median([update_ms, update_ms2])
    finally:
        teardown_databases(old_config, verbosity=0)
        _tmp.cleanup()

    name = "SQLite (temporary file, WAL)" if vendor == "sqlite" else "PostgreSQL"
    print(f"\n{name}: median of {args.repeat} requests each, django.test.Client, DEBUG off\n")
    header = f"{'request':<52}{'queries':>8}{'median ms':>11}{'ratio':>8}  target"
    print(header)
    print("-" * len(header))
    print(f"{'floor: template view (GET)':<52}{template_q:>8}{template_ms:>11.2f}")
    print(f"{'floor: one-row update in a transaction (POST)':<52}{update_q:>8}{update_ms:>11.2f}")
    for label, row in (("first decision", first), ("deep game", deep)):
        print(f"{label}: {row['where']}, {row['records']} log records; decision {row['decision']!r}")
        q, ms = row["post"]
        print(f"{'  decision POST /s/<token>/act':<52}{q:>8}{ms:>11.2f}{ms / update_ms:>7.1f}x  <= 3x one-row floor")
        q, ms = row["get"]
        print(f"{'  seat page GET /s/<token>/':<52}{q:>8}{ms:>11.2f}{ms / template_ms:>7.1f}x  <= 3x template floor")
    grows = first["post"][0] != deep["post"][0] or first["get"][0] != deep["get"][0]
    print(f"\nquery counts {'DIFFER' if grows else 'are the same'} between the first decision and the deep game")


if __name__ == "__main__":
    main()
