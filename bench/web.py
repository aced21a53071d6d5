"""What a decision POST and a seat page cost over HTTP, next to floors served by the same server.

    .venv/bin/python bench/web.py [--repeat N] [--seed S] [--asgi]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/web.py

The pages are asked for the way a browser asks: over HTTP on the loopback, from
gunicorn (one gthread worker, DEBUG off, the production middleware), with a
keep-alive connection, the CSRF cookie and an Origin header. One request at a
time, so each figure is the latency of one request, not of a queue.

It works on a throwaway database that it creates and drops itself (never
var/db.sqlite3): on SQLite a temporary file with the production settings (WAL,
IMMEDIATE transactions), on PostgreSQL a database named after DATABASE_URL's
with a "bench_" prefix and this process id. The cache is the production one:
files in a temporary folder, or with REDIS_URL Redis database 13.

Two games are measured: one at its first decision (a bid), and one played with
random legal decisions through the services until deep into race 6. For each:

- decision POST: the decision form posted to /s/<token>/act (the view, the
  service, the outbox row and its on-commit hand-over to the broker, the 302).
  The *same* decision is posted every time: after each POST the game row, the
  action log and the outbox are put back as they were (outside the timed part).
- API decision: the same decision as JSON to /api/v1/seat/decision with the
  seat's API token (the token lookup, the rate limits, the same service, the
  JSON answer), put back the same way.
- seat GET of a version seen before: the page of the seat to move, as a
  player sees it on a second look, or as the next of the table's seats does.
- seat GET, first view of a version: the version is bumped before each
  request (outside the timed part), as a decision does, so nothing is cached.
- version check: what an open seat page asks every few seconds
  (games/web/follow.py), GET /s/<token>/version with the version it shows
  as If-None-Match, answered 304.

Floors, served by the same gunicorn, middleware and database in the same run
(bench/web_floors.py; the least work that still does each job correctly), each
timed request alternating with one of its floor:

- static page: ready-made bytes of the deep game's seat page's own size;
- minimal decision: lock the game row, read it, update it, insert one log row
  and one outbox row in one transaction, and answer 302.

Query counts are taken in this process with Django's test client (the server
keeps no query log with DEBUG off).

Targets (issues 28 and 29): a seat GET of a version seen before within 3x
the static page, the first view of a new version within 7x, the version
check within 1.5x; decision POST and API decision within 2x the minimal
decision (medians); query counts that do not grow with game length.
On a shared machine the speed of everything drifts by half or more
within a minute; a floor measured before and after a figure met another
machine than the figure did, and the ratios swung by as much. A floor
request beside every timed request meets the same machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
sys.path[:0] = [str(BASE_DIR), str(BENCH_DIR)]

from bench._common import django_on_a_throwaway_database, with_path  # noqa: E402

_tmp = django_on_a_throwaway_database("versailles-bench-web-", "web_site")

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_databases, teardown_databases  # noqa: E402

from bench._games import deep_in_race_6, restorer, statistics_made  # noqa: E402
from games import engine  # noqa: E402
from games.models import ActionRecord, Game, Seat  # noqa: E402
from games.services.api_tokens import api_token_create  # noqa: E402
from games.services.game_state import load_state  # noqa: E402
from games.web.forms import decision_form_data  # noqa: E402
from tests.factories import started_game, tokens  # noqa: E402

WARM_UP = 5
API_DECISION = "/api/v1/seat/decision"


class Browser:
    """One keep-alive connection, with the CSRF cookie and the Origin header
    Chromium sends with a form."""

    def __init__(self, port: int):
        self.origin = f"http://127.0.0.1:{port}"
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.csrf = ""

    def api(self, path: str, body: str, secret: str) -> tuple[int, bytes]:
        """A program's request: a bearer token, no cookie, no Origin."""
        headers = {"Authorization": f"Bearer {secret}", "Content-Type": "application/json"}
        self.connection.request("POST", path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def request(
        self, method: str, path: str, form: dict | None = None, extra: dict | None = None
    ) -> tuple[int, bytes]:
        headers = {"Cookie": f"csrftoken={self.csrf}"} if self.csrf else {}
        headers.update(extra or {})
        body = None
        if form is not None:
            body = urlencode({**form, "csrfmiddlewaretoken": self.csrf})
            headers.update({"Content-Type": "application/x-www-form-urlencoded", "Origin": self.origin})
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        content = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie" and value.startswith("csrftoken="):
                self.csrf = value.split(";", 1)[0].partition("=")[2]
        return response.status, content


@dataclass
class Timing:
    """Medians in ms of a request and of its floor, the two asked for in
    turn so that both meet the machine in the same mood."""

    ms: float
    floor_ms: float
    status: int

    @property
    def ratio(self) -> float:
        return self.ms / self.floor_ms


def _elapsed(request) -> tuple[float, int]:
    started = time.perf_counter()
    status = request()
    return time.perf_counter() - started, status


def timed(request, floor, repeat: int, before=None, after=None) -> Timing:
    """``request`` and ``floor`` in alternation, ``repeat`` times each after
    a warm-up; ``before`` and ``after`` run around each ``request``, untimed.
    On a shared machine the speed drifts by half or more within a minute;
    pairing each request with a floor request keeps that drift out of the
    ratio."""
    samples: list[float] = []
    floor_samples: list[float] = []
    status = 0
    for index in range(repeat + WARM_UP):
        floor_elapsed, floor_status = _elapsed(floor)
        assert floor_status in (200, 302), floor_status
        if before:
            before()
        elapsed, status = _elapsed(request)
        if after:
            after()
        if index >= WARM_UP:
            samples.append(elapsed)
            floor_samples.append(floor_elapsed)
    return Timing(statistics.median(samples) * 1000, statistics.median(floor_samples) * 1000, status)


def queries_of(request, before=None, after=None) -> int:
    if before:
        before()
    with CaptureQueriesContext(connection) as queries:
        request()
    count = len(queries)
    if after:
        after()
    return count


def version_bump(game: Game) -> None:
    """What a decision does to every cached view of the game (bench only:
    the state stays as it is)."""
    Game.objects.filter(pk=game.pk).update(version=F("version") + 1)


def mover_token(game: Game) -> str:
    return tokens(game)[engine.to_move(load_state(game))]


@dataclass
class Floors:
    """The floor requests: the static page and the minimal decision."""

    page: object
    decision: object


def floors_alone(floors: Floors, repeat: int) -> tuple[float, float]:
    """The floors asked back to back, for the record: a request that follows
    its own twin runs warmer than one that follows a different page."""
    return tuple(timed(floor, lambda: 200, repeat).ms for floor in (floors.page, floors.decision))


def measure_game(browser: Browser, client: Client, game: Game, repeat: int, floors: Floors) -> dict:
    game.refresh_from_db()
    state = load_state(game)
    token = mover_token(game)
    text = engine.format_action(engine.default_action(state))
    restore = restorer(game)
    form = decision_form_data(text, game.decision_version)
    browser.request("GET", f"/s/{token}/")  # the CSRF cookie, as a browser has it from the page

    def post() -> int:
        return browser.request("POST", f"/s/{token}/act", form)[0]

    def get() -> int:
        return browser.request("GET", f"/s/{token}/")[0]

    secret = api_token_create(seat=Seat.objects.get(game=game, position=engine.to_move(state)), label="bench")[1]
    api_body = json.dumps({"decision": text, "version": game.decision_version})

    def api_post() -> int:
        return browser.api(API_DECISION, api_body, secret)[0]

    # The counts first, in this process: every version bump after them is
    # one no page was made for yet (the POSTs' restore puts the version back).
    post_q = queries_of(lambda: client.post(f"/s/{token}/act", form), after=restore)
    client.get(f"/s/{token}/")
    get_q = queries_of(lambda: client.get(f"/s/{token}/"))
    new_q = queries_of(lambda: client.get(f"/s/{token}/"), before=lambda: version_bump(game))
    unchanged: dict[str, str] = {}

    def unchanged_now() -> None:
        """If-None-Match with the version the game has now (the restores and
        bumps around the other figures move it)."""
        game.refresh_from_db()
        unchanged["If-None-Match"] = f'"{game.version}"'

    def check() -> int:
        return browser.request("GET", f"/s/{token}/version", extra=unchanged)[0]

    unchanged_now()
    check_q = queries_of(lambda: client.get(f"/s/{token}/version", HTTP_IF_NONE_MATCH=unchanged["If-None-Match"]))
    api_q = queries_of(
        lambda: client.post(
            API_DECISION, api_body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {secret}"
        ),
        after=restore,
    )
    post_timing = timed(post, floors.decision, repeat, after=restore)
    assert post_timing.status == 302, post_timing.status
    api_timing = timed(api_post, floors.decision, repeat, after=restore)
    assert api_timing.status == 200, api_timing.status
    get_timing = timed(get, floors.page, repeat)
    assert get_timing.status == 200, get_timing.status
    unchanged_now()
    check_timing = timed(check, floors.page, repeat)
    assert check_timing.status == 304, check_timing.status
    new_timing = timed(get, floors.page, repeat, before=lambda: version_bump(game))
    race = state.race
    return {
        "where": (
            f"race {race.number}, roll {race.rolls}" if race else f"{engine.decision_kind(state)} ({state.phase})"
        ),
        "decision": text,
        "records": ActionRecord.objects.filter(game=game).count(),
        "post": (post_q, post_timing),
        "api": (api_q, api_timing),
        "get": (get_q, get_timing),
        "get_new": (new_q, new_timing),
        "version": (check_q, check_timing),
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def server_start(port: int, env: dict, *, asgi: bool = False) -> subprocess.Popen:
    """gunicorn with one gthread worker, as the pages are served; ``asgi``:
    with one of uvicorn's workers, as the API is served (docker-compose.yml),
    but with the site's settings (the API process's keep less middleware,
    bench/asgi_middleware.py)."""
    shape = (
        ["-k", "uvicorn_worker.UvicornWorker", "versailles_site.asgi:application"]
        if asgi
        else ["--threads", "2", "versailles_site.wsgi:application"]
    )
    # The server writes to its own copy of the file; this process needs none.
    with open(Path(_tmp.name) / "gunicorn.log", "wb") as log:
        server = subprocess.Popen(
            [
                str(BASE_DIR / ".venv" / "bin" / "gunicorn"), "-c", "versailles_site/gunicorn_conf.py",
                "--pythonpath", str(BENCH_DIR), "--bind", f"127.0.0.1:{port}",
                "--workers", "1", "--access-logfile", str(Path(_tmp.name) / "access.log"), *shape,
            ],
            cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited; see {log.name}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("gunicorn did not start within 30 s")


def server_env(floor_game: Game, page_bytes: int) -> dict:
    # In this process too, for the query counts of the floors.
    os.environ.update(
        BENCH_PAGE_BYTES=str(page_bytes),
        BENCH_FLOOR_GAME=str(floor_game.pk),
        BENCH_FLOOR_SEAT=str(Seat.objects.filter(game=floor_game).values_list("pk", flat=True)[0]),
    )
    env = dict(os.environ)
    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        env["SQLITE_PATH"] = database["NAME"]  # the test database, now NAME
    else:
        env["DATABASE_URL"] = with_path(env["DATABASE_URL"], "/" + database["NAME"])
    env["PYTHONPATH"] = os.pathsep.join([str(BASE_DIR), str(BENCH_DIR)])
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per figure (default 200)")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument(
        "--asgi",
        action="store_true",
        help="serve from gunicorn with uvicorn's worker, with the site's settings (compare the ms, not the ratios)",
    )
    args = parser.parse_args()

    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    server = None
    try:
        vendor = connection.vendor
        client = Client()
        floor_game = started_game(3)
        first_game = started_game(4)
        deep_game = deep_in_race_6(args.seed)
        statistics_made()
        page_bytes = len(client.get(f"/s/{mover_token(deep_game)}/").content)
        port = free_port()
        server = server_start(port, server_env(floor_game, page_bytes), asgi=args.asgi)
        browser = Browser(port)
        # The CSRF cookie, from a page that has a form, as a browser gets it.
        browser.request("GET", f"/s/{mover_token(first_game)}/")

        floors = Floors(
            page=lambda: browser.request("GET", "/bench/static")[0],
            decision=lambda: browser.request("POST", "/bench/decision", {})[0],
        )
        alone_before = floors_alone(floors, args.repeat)
        first = measure_game(browser, client, first_game, args.repeat, floors)
        deep = measure_game(browser, client, deep_game, args.repeat, floors)
        alone_after = floors_alone(floors, args.repeat)
        static_q = queries_of(lambda: client.get("/bench/static"))
        minimal_q = queries_of(lambda: client.post("/bench/decision"))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        teardown_databases(old_config, verbosity=0)
        _tmp.cleanup()

    name = "SQLite (temporary file, WAL)" if vendor == "sqlite" else "PostgreSQL"
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(
        f"\n{name}, cache {cache}: medians of {args.repeat} requests each, over HTTP to gunicorn (1 worker"
        f"{', uvicorn' if args.asgi else ''}), DEBUG off;"
    )
    if args.asgi:
        print(
            "under ASGI the floors, sync views, open a database connection a request: "
            "compare the milliseconds with a run without --asgi, not the ratios"
        )
    print("each request alternates with one of its floor, and the ratio is to that floor's median\n")
    print(
        f"floors: a static page of {page_bytes:,} bytes ({static_q} queries); "
        f"the minimal decision ({minimal_q} queries)\n"
    )
    static_alone = statistics.median([alone_before[0], alone_after[0]])
    minimal_alone = statistics.median([alone_before[1], alone_after[1]])
    print(
        f"the floors asked back to back instead, before and after: {static_alone:.2f} ms and {minimal_alone:.2f} ms\n"
    )
    header = f"{'request':<50}{'queries':>8}{'median ms':>11}{'floor ms':>10}{'ratio':>8}  target"
    print(header)
    print("-" * len(header))
    verdicts = []
    for label, row in (("first decision", first), ("deep game", deep)):
        print(f"{label}: {row['where']}, {row['records']} log records; decision {row['decision']!r}")
        for key, what, limit, floor_name in (
            ("post", "decision POST /s/<token>/act", 2, "minimal decision"),
            ("api", "API decision POST /api/v1/seat/decision", 2, "minimal decision"),
            ("get", "seat page GET, a version seen before", 3, "static page"),
            ("get_new", "seat page GET, first view of a new version", 7, "static page"),
            ("version", "version check GET /s/<token>/version, 304", 1.5, "static page"),
        ):
            q, timing = row[key]
            target = f"<= {limit}x {floor_name}" if limit else ""
            if limit:
                verdicts.append(timing.ratio <= limit)
            print(f"{'  ' + what:<50}{q:>8}{timing.ms:>11.2f}{timing.floor_ms:>10.2f}{timing.ratio:>7.2f}x  {target}")
    grows = any(first[key][0] != deep[key][0] for key in ("post", "api", "get", "get_new", "version"))
    print(f"\nquery counts {'DIFFER' if grows else 'are the same'} between the first decision and the deep game")
    print("targets:", "all met" if all(verdicts) and not grows else "NOT MET")


if __name__ == "__main__":
    main()
