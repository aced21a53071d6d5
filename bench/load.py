"""Locust against the deployment shape: throughput and latency by number of
users, and how many running games one machine carries at the evening peak.

    .venv/bin/pip install -r bench/requirements.txt      (or: make bench-deps)
    .venv/bin/python bench/load.py [--games 100000] [--seconds 30] [--users 1,4,16,32]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/versailles REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/load.py --games 2000 --sample 500 --seconds 10

(Those two URLs are the defaults. The whole run at the defaults takes about
ten minutes: three or four to make the games, the rest under load.)

What runs (issue 13's deployment shape), started by the bench and stopped when
it ends: gunicorn (2 workers x 4 threads, DEBUG=false) on 127.0.0.1 only,
PostgreSQL, Redis, two Celery workers as docker-compose.yml runs them
(worker on the celery queue, mailer on mail, prefork, concurrency 2 each; their
CPU is reported together as "worker") and one beat, the Celery processes at
nice 10 (--worker-nice) as docker-compose.yml gives them a tenth of the web's
cpu_shares: a page is waited for, an email is not. (Their sessions get nice 10
too: where the kernel schedules each session as a group, autogroup, a
process's own nice counts only inside its session.) Email goes to the dev
mailbox in a temporary folder: rendered and written as for a provider, nothing
leaves the machine. Every address is a loopback one; the bench refuses any other.

Data, never var/db.sqlite3: a PostgreSQL database named after DATABASE_URL's
with a "bench_" prefix and this process id, created and dropped by the bench
(PostgreSQL only: it is the deployment shape), and Redis database --redis-db,
emptied before and after. As bench/sweep.py does, ONE game is started through
the services (4 players) and played --depth random legal decisions (200 of the
400 to 470 a game takes: a game halfway through); the --games running games
are that game and copies of its row, each with its four seats
(bench/_games.py). The --sample games the load plays (10,000: 40,000 seats,
so that most page views are a seat's first at its game's version, as when a
player opens an emailed link, and the page cache is not flattered) also get
its action log and links of their own, whose tokens the load users hold; the
other games' links are unknown to anyone, and they have no log (400 rows for
each of 100,000 games is 40 million rows, more than this machine can build
in a bench). Deadlines are 2 to 24 hours away, so no sweep applies a default
or sends a reminder while the bench runs.

The load: locust users (FastHttpUser), no pause between tasks, each task on a
random game of the sample and a visit of its own: its requests share one
connection, closed when the task ends, as a player's browser's is closed by
gunicorn two seconds after a visit. (One connection kept across tasks pinned
each locust user to the gunicorn process that accepted it: 15 of 16 were
seen on one process.) The report's "busiest web" column shows the spread.

    weight 6  seat page       GET /s/<token>/ of a random seat
    weight 2  spectator page  GET /g/<public id>/
    weight 1  seat JSON       GET /s/<token>/state.json of a random seat
    weight 1  decision        GET a seat's JSON to see who is to move, GET the
                              mover's page, POST one of its decision forms as a
                              browser does (the csrftoken cookie and the form's
                              csrfmiddlewaretoken, Origin and Referer of the
                              server), GET the page the 302 leads to

so of every 13 requests about 8 are seat pages, 2 spectator pages, 2 seat JSON
and 1 a decision POST. In the mix (not in the calibration steps, so that each
kind's cost stays its own) every page a visit opens then stays open and
listening, as games/static/games/follow.js keeps it: --polls version checks
(GET <page>/version with the page's version as If-None-Match, 304 while the
game stands still), each on a connection of its own, as a browser asking
every few seconds finds gunicorn's two-second keep-alive closed. A decision is one of the forms the page offers: pass
or the lowest bid allowed, roll, a push or none, a removal from each display,
chosen at random. A 409 (another user's decision came first) is counted but
is no error; any other 4xx or 5xx, a timeout, or a decision the next page
says was refused is.

Steps, each bounded in time: a warm-up (the mix at 4 users, not counted); an
idle window, measuring what the services cost with no request (beat, sweeps,
idle processes); each request kind alone at --calibrate-users users, for its
CPU cost; then the mix at each of --users for --seconds. After each step with
decisions the bench waits (bounded) until the worker has sent every email
they caused, and that time counts for the step's CPU.

CPU time is read from /proc for every process of each service: gunicorn's
master and workers, the worker's processes and beat (processes that exit
during a step count through their parent's children times), PostgreSQL's
backends of the bench's database and the server's shared processes (WAL
writer, checkpointer, background writer; sampled twice a second), and
redis-server, the whole of it: anything else using this Redis at the same
time is counted too. The report shows the machine's busy time next to the
services' and locust's, so a step shared with other work shows as such.

The arithmetic (issue 13): a decision with its two page views (the mover's
page and the one after the POST) and its emails costs C CPU-seconds, by
every process, measured together: the decision step's CPU a decision, less
the idle services and its who-moves JSON at that kind's own cost. A game
makes one decision every three hours, threefold at the evening peak, so 3 /
(3 x 3600) decisions per game per second; one machine carries (2 cores -
what the idle services take) / (C x 3 / (3 x 3600)) running games.

With --waits N (issue 32: a thousand bots waiting beside the load), the API
server starts too, as docker-compose.yml's api service runs it (gunicorn with
uvicorn's worker, versailles_site.asgi, --api-workers processes), and a
process of N bots, one a seat of the first N/4 games of the sample, each with
its own API token and one GET /api/v1/seat?wait=<version> open at every
moment: answered (its game moved, or the wait's 30 s passed), a bot asks again
at once. They are all admitted (the API server's CPU settled) before the
warm-up and stay through every step; the report says how many were open
and what they got. The API's rate limits are counted but set out of the way,
as every bot asks from 127.0.0.1.

    .venv/bin/python bench/load.py --games 2000 --sample 500 --users 16 --waits 1000

Targets (issue 13): p99 < 200 ms at 16 users; >= 100,000 running games at
the evening peak. Locust runs on the same two cores as everything it
measures: its own CPU is printed, and it lowers the throughput at the top
user counts.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlencode, urljoin, urlsplit

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench._common import (  # noqa: E402
    BENCH_SECRET_KEY,
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    backends_end,
    http_get,
    percentile,
    proc_stat,
    with_path,
)

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

PEAK_FACTOR = 3
HOURS_BETWEEN_DECISIONS = 3
TARGET_P99_MS = 200.0
TARGET_P99_USERS = 16
TARGET_GAMES = 100_000

# Task weights of the mix; each calibration step runs one of them alone.
MIX = {"seat_page": 6, "spectator_page": 2, "seat_json": 1, "decision": 1}

# Request names, as the load reports them.
SEAT_PAGE = "seat page"
SEAT_PAGE_TO_DECIDE = "seat page (to decide)"
SEAT_PAGE_AFTER_DECISION = "seat page (after decision)"
SPECTATOR_PAGE = "spectator page"
SEAT_JSON = "seat JSON"
SEAT_JSON_WHO_MOVES = "seat JSON (who moves)"
DECISION_POST = "decision POST"
VERSION_CHECK = "version check"
SEAT_PAGES = (SEAT_PAGE, SEAT_PAGE_TO_DECIDE, SEAT_PAGE_AFTER_DECISION)
JSON_REQUESTS = (SEAT_JSON, SEAT_JSON_WHO_MOVES)

SERVICES = ("web", "worker", "beat", "postgres", "redis")
DRAIN_TIMEOUT = 180.0
# Cores other processes may take during a step before the report says the
# latencies are not the service's own (the machine's idle hum is below it).
OTHER_WORK_NOTICED = 0.15
DRAIN_QUIET = 1.5


def reference_ms() -> float:
    """CPU milliseconds of a fixed piece of pure-Python work (a list made
    into markup, as a page is, and a JSON round trip), the least of three:
    the machine's speed at that moment. This machine's speed drifts by half
    and more within minutes, and every figure of a step drifts with it."""
    seats = [{"name": f"player {n}", "gold": n * 7, "cards": list(range(n, n + 6))} for n in range(40)]
    times = []
    for _ in range(3):
        started = time.process_time()
        for _ in range(200):
            "".join(f"<li>{seat['name']}: {seat['gold']} {' '.join(map(str, seat['cards']))}</li>" for seat in seats)
            json.loads(json.dumps(seats))
        times.append((time.process_time() - started) * 1000)
    return min(times)


def loopback_only(url: str, what: str) -> None:
    host = urlsplit(url).hostname or ""
    if host not in LOOPBACK_HOSTS:
        sys.exit(f"bench/load.py: {what} must be on this machine (127.0.0.1), not {host or 'a socket'!r}")


# ---- CPU time from /proc ------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _children_of() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            fields = proc_stat(int(entry.name))
            if fields:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def tree_cpu_seconds(root: int, children: dict[int, list[int]]) -> float:
    """CPU time of a process and all its descendants, living or exited: an
    exited process's time is in its parent's children times once reaped, so
    a backend or worker that ends between two readings is still counted."""
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        fields = proc_stat(pid)
        if fields is None:
            continue
        # utime, stime, cutime, cstime: fields 14 to 17 of proc(5), here from 2.
        total += sum(int(value) for value in fields[11:15])
        stack.extend(children.get(pid, ()))
    return total / CLOCK_TICKS


def services_cpu(roots: dict[str, list[int]]) -> dict[str, float]:
    children = _children_of()
    return {name: sum(tree_cpu_seconds(pid, children) for pid in pids) for name, pids in roots.items()}


def processes_cpu(parent: int) -> dict[int, float]:
    """CPU seconds of each child of a process (gunicorn's workers)."""
    return {pid: tree_cpu_seconds(pid, {}) for pid in _children_of().get(parent, ())}


def busiest_share(before: dict[int, float], after: dict[int, float]) -> float:
    """The share of the work between two readings done by the busiest of
    the processes: 1 / their number when the work is spread evenly."""
    spent = [after[pid] - before.get(pid, 0.0) for pid in after]
    return max(spent) / sum(spent) if sum(spent) > 0 else float("nan")


# The server's own processes, which work for every database alike.
POSTGRES_SHARED = ("walwriter", "checkpointer", "background writer", "autovacuum launcher")


class PostgresCpu:
    """CPU time of the PostgreSQL processes working for the bench: the
    backends of its database and the server's shared processes. Other
    databases' backends (another bench, a test run) are left out, so the
    postmaster's children times cannot be used; each process's time is
    sampled instead, and one that exits keeps its last sample (sample()
    runs every SAMPLE_SECONDS, so at most that much of its time is lost)."""

    SAMPLE_SECONDS = 0.5

    def __init__(self, postmaster: int, database: str) -> None:
        self.postmaster, self.marker = postmaster, f" {database} "
        self.last: dict[tuple[int, str], int] = {}

    def _ours(self, pid: int) -> bool:
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return False
        return self.marker in f"{title} " or any(name in title for name in POSTGRES_SHARED)

    def sample(self) -> None:
        for pid in _children_of().get(self.postmaster, ()):
            fields = proc_stat(pid)
            if fields and self._ours(pid):
                # Keyed with the start time too: a new backend may get an old pid.
                self.last[(pid, fields[19])] = int(fields[11]) + int(fields[12])

    def seconds(self) -> float:
        self.sample()
        return sum(self.last.values()) / CLOCK_TICKS


def machine_busy_seconds() -> float:
    """CPU-seconds every process on the machine spent, from /proc/stat."""
    fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    # guest and guest_nice are already inside user and nice.
    return (sum(fields[:8]) - idle) / CLOCK_TICKS


# ---- reading a seat page as a browser would -----------------------------------


class DecisionForms(HTMLParser):
    """The forms of a page that post a decision (to .../act), with what a
    browser would send from each: hidden fields, radio groups, number inputs
    and the named submit buttons."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            if attributes.get("action", "").rpartition("/")[2] == "act":
                self._open = {"action": attributes["action"], "hidden": {}, "radios": {}, "numbers": {}, "buttons": []}
                self.forms.append(self._open)
            return
        form, name = self._open, attributes.get("name")
        if form is None:
            return
        if tag == "input" and name:
            kind = attributes.get("type", "text")
            if kind == "hidden":
                form["hidden"][name] = attributes.get("value", "")
            elif kind == "radio":
                form["radios"].setdefault(name, []).append(attributes.get("value", ""))
            elif kind == "number":
                form["numbers"][name] = (attributes.get("min") or "0", attributes.get("max") or "")
        elif tag == "button" and attributes.get("type", "submit") == "submit":
            form["buttons"].append((name, attributes.get("value", "")))

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None


DECISION_FORM = re.compile(r'<form\b[^>]*\baction="(?:[^"]*/)?act".*?</form>', re.DOTALL)
# The seat page's CSRF tokens stand outside its (cached) forms, naming each by id.
CSRF_TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def decision_choice(page: str, rng: random.Random) -> tuple[str, dict] | None:
    """(action URL, form fields) of one decision the page offers, or None."""
    parser = DecisionForms()
    # Only the decision forms are parsed: the whole page took 4 ms of the
    # load generator's CPU, which shares the machine with the services.
    for form in DECISION_FORM.findall(page):
        parser.feed(form)
    offers = []
    csrf = CSRF_TOKEN.search(page)
    for form in parser.forms:
        fields = dict(form["hidden"])
        if csrf is not None:
            fields["csrfmiddlewaretoken"] = csrf.group(1)
        for name, values in form["radios"].items():
            fields[name] = rng.choice(values)
        # The lowest amount the form allows; a bid the gold cannot cover is not offered.
        affordable = True
        for name, (low, high) in form["numbers"].items():
            if high and int(low) > int(high):
                affordable = False
            fields[name] = low
        named = [(name, value) for name, value in form["buttons"] if name]
        if named:
            name, value = rng.choice(named)
            fields[name] = value
        if affordable:
            offers.append((form["action"], fields))
    return rng.choice(offers) if offers else None


_PAGE_VERSION = re.compile(r'data-url="version" data-version="(\d+)"')


def page_etag(page: str) -> str | None:
    """The If-None-Match an open page asks its version with (game/_follow.html)."""
    found = _PAGE_VERSION.search(page or "")
    return f'"{found.group(1)}"' if found else None


# ---- the load, in a process of its own (locust patches the standard library) --


def drive(spec_path: str) -> None:
    """Run every step of the spec with locust as a library; write the results."""
    # locust first: importing it patches the standard library for gevent.
    # isort: off
    from locust import FastHttpUser, constant
    from locust.env import Environment
    import gevent
    import redis
    # isort: on

    spec = json.loads(Path(spec_path).read_text())
    base_url = spec["base_url"]
    if urlsplit(base_url).hostname != "127.0.0.1":
        sys.exit(f"the load goes to 127.0.0.1 only, not {base_url}")
    games = spec["games"]
    colours = spec["colours"]
    mail_dir = Path(spec["mail_dir"])
    broker = redis.Redis.from_url(spec["redis_url"])
    roots = {name: [int(pid) for pid in pids] for name, pids in spec["pids"].items()}
    postgres = PostgresCpu(roots.pop("postgres")[0], spec["database"])

    def postgres_sampled() -> None:
        while True:
            postgres.sample()
            gevent.sleep(PostgresCpu.SAMPLE_SECONDS)

    gevent.spawn(postgres_sampled)

    def cpu_now() -> dict[str, float]:
        return {**services_cpu(roots), "postgres": postgres.seconds()}

    step: dict = {}

    def step_start(name: str, users: int, listening: bool) -> None:
        step.clear()
        step.update(
            name=name, users=users, requests=[], failures={}, user_errors=0,
            decisions=0, stale=0, no_decision=0, listening=listening,
        )

    def on_request(request_type, name, response_time, exception=None, **_):
        step["requests"].append((name, response_time, exception is not None))
        if exception is not None:
            text = f"{name}: {exception}"[:200]
            step["failures"][text] = step["failures"].get(text, 0) + 1

    def on_user_error(user_instance, exception, tb, **_):
        step["user_errors"] += 1
        text = f"exception in a task: {exception!r}"[:200]
        step["failures"][text] = step["failures"].get(text, 0) + 1

    class Player(FastHttpUser):
        abstract = True
        host = base_url
        wait_time = constant(0)
        network_timeout = 60.0
        connection_timeout = 10.0
        serial = 0

        def on_start(self):
            Player.serial += 1
            self.rng = random.Random(Player.serial)

        def listen(self, path: str, page) -> None:
            """The page stays open: it asks for its game's version as
            follow.js does, --polls times (in the mix only)."""
            etag = page_etag(page.text) if step["listening"] and page.status_code == 200 else None
            if etag is None:
                return
            for _ in range(spec["polls"]):
                self.client.client.close()
                with self.client.get(
                    urljoin(path, "version"), headers={"If-None-Match": etag}, name=VERSION_CHECK,
                    catch_response=True,
                ) as answer:
                    if answer.status_code == 304:
                        answer.success()
                    elif answer.status_code == 200:
                        # The game moved: the page would reload, a page view
                        # the mix counts already.
                        answer.success()
                        etag = answer.headers.get("ETag") or etag
                    else:
                        answer.failure(f"answered {answer.status_code}")

        def seat_page(self):
            game = self.rng.choice(games)
            path = f"/s/{self.rng.choice(game['tokens'])}/"
            self.listen(path, self.client.get(path, name=SEAT_PAGE))

        def spectator_page(self):
            path = f"/g/{self.rng.choice(games)['id']}/"
            self.listen(path, self.client.get(path, name=SPECTATOR_PAGE))

        def seat_json(self):
            game = self.rng.choice(games)
            self.client.get(f"/s/{self.rng.choice(game['tokens'])}/state.json", name=SEAT_JSON)

        def decision(self):
            game = self.rng.choice(games)
            response = self.client.get(f"/s/{self.rng.choice(game['tokens'])}/state.json", name=SEAT_JSON_WHO_MOVES)
            if response.status_code != 200:
                return
            mover = (response.json().get("observation") or {}).get("to_move")
            if mover not in colours:  # the game is over (chance never waits for a request)
                step["no_decision"] += 1
                return
            page_path = f"/s/{game['tokens'][colours.index(mover)]}/"
            page = self.client.get(page_path, name=SEAT_PAGE_TO_DECIDE)
            if page.status_code != 200:
                return
            choice = decision_choice(page.text, self.rng)
            if choice is None:
                step["no_decision"] += 1
                return
            action, fields = choice
            action = urljoin(page_path, action)  # the forms post next to the page
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": base_url,
                "Referer": base_url + page_path,
            }
            with self.client.post(
                action, data=urlencode(fields), headers=headers, name=DECISION_POST,
                allow_redirects=False, catch_response=True,
            ) as posted:
                if posted.status_code == 409:
                    posted.success()
                    step["stale"] += 1
                    return
                if posted.status_code != 302:
                    posted.failure(f"answered {posted.status_code}")
                    return
                posted.success()
                location = posted.headers.get("Location") or page_path
            with self.client.get(location, name=SEAT_PAGE_AFTER_DECISION, catch_response=True) as after:
                if after.status_code != 200:
                    after.failure(f"answered {after.status_code}")
                elif 'class="error"' in (after.text or ""):
                    after.failure(f"the decision {fields.get('action')!r} was refused")
                else:
                    step["decisions"] += 1
            self.listen(page_path, after)

    def visit(task):
        """The task, then its connection closed. Each task is one visit by
        one of thousands of players (a random seat), as a browser's, whose
        connection gunicorn closes after two idle seconds. A connection kept
        across tasks would pin each locust user to the gunicorn process that
        happened to accept it (15 of 16 to one process were seen), and the
        load would measure that one process rather than the deployment."""
        def visited(user):
            try:
                task(user)
            finally:
                user.client.client.close()
        visited.__name__ = task.__name__
        return visited

    def user_class(weights: dict[str, int]):
        tasks = {visit(getattr(Player, kind)): weight for kind, weight in weights.items()}
        return type("Players", (Player,), {"tasks": tasks, "abstract": False})

    def mailbox_count() -> int:
        return sum(1 for _ in os.scandir(mail_dir)) if mail_dir.is_dir() else 0

    def queued() -> int:
        # Queued and delivered-but-unacknowledged (acks_late) tasks.
        return broker.llen("celery") + broker.llen(spec["mail_queue"]) + broker.hlen("unacked")

    def drain() -> float:
        """Wait until no task is queued or running and no email has been
        written for a moment; the seconds it took."""
        started = time.monotonic()
        last, quiet_since = mailbox_count(), time.monotonic()
        while time.monotonic() - started < DRAIN_TIMEOUT:
            gevent.sleep(0.25)
            count = mailbox_count()
            if count != last or queued():
                last, quiet_since = count, time.monotonic()
            elif time.monotonic() - quiet_since >= DRAIN_QUIET:
                return time.monotonic() - started
        print(f"  the worker had not drained after {DRAIN_TIMEOUT:.0f} s", file=sys.stderr, flush=True)
        return time.monotonic() - started

    def measured(
        name: str, users: int, seconds: float, weights: dict[str, int] | None, listening: bool = False
    ) -> dict:
        step_start(name, users, listening)
        mails, cpu, busy = mailbox_count(), cpu_now(), machine_busy_seconds()
        web_processes = processes_cpu(roots["web"][0])
        own, started = os.times(), time.monotonic()
        if weights:
            # Each user finishes the task it is in when the step ends: a
            # decision cut off after its POST would cost CPU and count nothing.
            env = Environment(user_classes=[user_class(weights)], catch_exceptions=True, stop_timeout=30)
            env.events.request.add_listener(on_request)
            env.events.user_error.add_listener(on_user_error)
            runner = env.create_local_runner()
            # Every user within the first half second: a ramp would blur the step's figures.
            runner.start(users, spawn_rate=min(max(users * 2, 1), 100))
            gevent.sleep(seconds)
            runner.quit()
        else:
            gevent.sleep(seconds)
        loaded = time.monotonic() - started
        drained = drain() if weights and weights.get("decision") else 0.0
        after_cpu, after_own = cpu_now(), os.times()
        reference = reference_ms()
        result = {
            key: step[key] for key in ("name", "users", "failures", "user_errors", "decisions", "stale", "no_decision")
        }
        result.update(
            seconds=loaded,
            drain_seconds=drained,
            window_seconds=time.monotonic() - started,
            requests=step["requests"],
            emails=mailbox_count() - mails,
            cpu={key: after_cpu[key] - cpu[key] for key in cpu},
            locust_cpu=(after_own.user + after_own.system) - (own.user + own.system),
            machine_busy=machine_busy_seconds() - busy,
            reference_ms=reference,
            web_busiest=busiest_share(web_processes, processes_cpu(roots["web"][0])),
        )
        print(
            f"  {name}: {len(step['requests'])} requests in {loaded:.1f} s"
            + (f", drained in {drained:.1f} s" if drained else ""),
            file=sys.stderr,
            flush=True,
        )
        return result

    results: dict = {"calibration": {}, "mix": []}
    measured("warm-up", 4, spec["warmup_seconds"], MIX, listening=True)
    results["idle"] = measured("idle", 0, spec["idle_seconds"], None)
    for kind in MIX:
        results["calibration"][kind] = measured(
            f"{kind} alone", spec["calibrate_users"], spec["calibrate_seconds"], {kind: 1}
        )
    for users in spec["users"]:
        results["mix"].append(measured(f"mix at {users} users", users, spec["seconds"], MIX, listening=True))
    Path(spec["results"]).write_text(json.dumps(results))


# ---- bots waiting on the API beside the load (--waits) -------------------------


def hold_waits(spec_path: str) -> None:
    """The spec's bots, each with one GET /api/v1/seat?wait=<version> open on
    the API server at every moment: answered (its game moved, or 30 s
    passed), it asks again at once with the version it got. Until SIGTERM;
    then what they got goes to the spec's file."""
    import asyncio

    spec = json.loads(Path(spec_path).read_text())
    port = spec["port"]
    tally = {"answers": 0, "moved": 0, "refused": {}, "errors": 0, "open_least": None, "open_most": 0}
    asking = 0

    async def bot(secret: str, version: int) -> None:
        nonlocal asking
        while True:
            asking += 1
            try:
                status, body = await http_get(port, f"/api/v1/seat?wait={version}", secret)
            except OSError:
                status, body = 0, b""
            finally:
                asking -= 1
            if status == 200:
                tally["answers"] += 1
                now = json.loads(body)["game"]["version"]
                tally["moved"] += now > version
                version = now
            else:
                tally["refused"][str(status)] = tally["refused"].get(str(status), 0) + 1
                await asyncio.sleep(1)

    async def run() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        bots = [asyncio.create_task(bot(secret, version)) for secret, version in spec["bots"]]
        Path(spec["opened"]).write_text(str(len(bots)))
        # Counted only once the server has admitted them all (main writes "counting").
        while not stop.is_set():
            await asyncio.sleep(0.5)
            if Path(spec["counting"]).exists():
                least = tally["open_least"]
                tally["open_least"] = asking if least is None else min(least, asking)
                tally["open_most"] = max(tally["open_most"], asking)
        own = os.times()
        tally["cpu_seconds"] = own.user + own.system
        Path(spec["results"]).write_text(json.dumps(tally))
        for task in bots:
            task.cancel()

    asyncio.run(run())


def waits_start(args, services: Services, made: dict, work: Path) -> dict:
    """The API server as docker-compose.yml's api service runs it, and a
    process of --waits bots holding long polls on it, admitted before the
    load starts: what the report says of them is read from the dict."""
    from django.db import connection

    from games.models import Game
    from tests.api.helpers import api_tokens

    port = free_port()
    python = sys.executable
    services.start(
        "api",
        [
            python, "-m", "gunicorn", "-c", "versailles_site/gunicorn_conf.py", "versailles_site.asgi:application",
            "-k", "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", str(args.api_workers),
            # The API process's settings, as docker-compose.yml's api service runs it.
            "--env", "DJANGO_SETTINGS_MODULE=versailles_site.api_settings",
        ],
    )
    services.wait_for("api", lambda: answers(f"http://127.0.0.1:{port}/api/v1/openapi.json"))
    wanted = -(-args.waits // len(made["colours"]))
    games = Game.objects.filter(public_id__in=[game["id"] for game in made["games"][:wanted]])
    bots = [(secret, game.version) for game in games for secret in api_tokens(game).values()][: args.waits]
    connection.close()
    spec_path = work / "waits.json"
    waits = {
        "port": port, "bots": bots, "opened": str(work / "waits-opened"), "counting": str(work / "waits-counting"),
        "results": str(work / "waits-results.json"),
    }
    spec_path.write_text(json.dumps(waits))
    started = time.monotonic()
    holder = services.start("bots", [python, str(Path(__file__).resolve()), "--hold-waits", str(spec_path)])
    services.wait_for("bots", lambda: Path(waits["opened"]).exists())
    # Admitted: every wait's token read and limits counted, the API server's
    # CPU down to its watchers' hum.
    api = services.processes["api"].pid
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        before = services_cpu({"api": [api]})["api"]
        time.sleep(1)
        if services_cpu({"api": [api]})["api"] - before < 0.1:
            break
    waits["admitted_seconds"] = time.monotonic() - started
    Path(waits["counting"]).write_text("")
    print(f"  {len(bots)} waits admitted in {waits['admitted_seconds']:.0f} s", file=sys.stderr, flush=True)
    waits.update(pids={"api": [api], "bots": [holder.pid]}, count=len(bots))
    return waits


def waits_end(services: Services, waits: dict) -> dict:
    holder = services.processes["bots"]
    holder.send_signal(signal.SIGTERM)
    holder.wait(timeout=30)
    return json.loads(Path(waits["results"]).read_text())


# ---- set-up: database, games, services ---------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def django_start(database_url: str, var_dir: Path):
    """Django in this process, on a throwaway database: (connection, old config)."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="versailles_site.settings",
        DEBUG="false",
        DATABASE_URL=database_url,
        VAR_DIR=str(var_dir),
    )
    os.environ.setdefault("SECRET_KEY", BENCH_SECRET_KEY)
    # This process only makes games: what it enqueues and mails while doing
    # so goes nowhere, so the worker starts with an empty queue.
    os.environ.pop("REDIS_URL", None)
    import django
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CELERY_BROKER_URL = "memory://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    settings.TASKS_INLINE = False
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.DATABASES["default"]["TEST"] = {"NAME": f"bench_{settings.DATABASES['default']['NAME']}_{os.getpid()}"}
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases

    old_config = setup_databases(verbosity=0, interactive=False, serialized_aliases=set())
    return connection, old_config


def games_make(count: int, sample: int, depth: int) -> dict:
    """``count`` running games, the first ``sample`` of them playable by the load."""
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    from bench._games import games_copy, links_issue, log_copy, seats_copy
    from games.models import ActionRecord, Game, Notification, Seat
    from tests.factories import play_steps, started_game

    started = time.monotonic()
    template = play_steps(started_game(4), depth, random.Random(0))
    if template.status != Game.Status.RUNNING:
        sys.exit(f"the game ended within {depth} decisions: give a smaller --depth")
    # Its invitations and turn emails are the set-up's, not the load's.
    Notification.objects.all().delete()

    now = timezone.now()
    earliest, spread = timedelta(hours=2), timedelta(hours=22)
    deadlines = [now + earliest + spread * index / max(count - 1, 1) for index in range(count - 1)]
    copies = games_copy(template, deadlines)
    print(f"  {count:,} game rows in {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    seats_copy(template, copies)
    print(f"  their seats by {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    played = [template.pk] + copies[: sample - 1]
    log_copy(template, played[1:])
    print(f"  {sample:,} action logs by {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    tokens = links_issue(played)
    print(
        f"  {sample * len(tokens[template.pk]):,} links by {time.monotonic() - started:.0f} s",
        file=sys.stderr,
        flush=True,
    )

    with connection.cursor() as cursor:
        # Statistics and visibility maps now, not an autovacuum during a step;
        # the load's WAL written out now, not by a checkpoint during a step.
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("CHECKPOINT")
    print(f"  vacuumed by {time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    running = Game.objects.filter(status=Game.Status.RUNNING).count()
    due_soon = Game.objects.filter(reminder_at__lt=now + earliest / 2).count()
    assert (running, due_soon) == (count, 0), (running, due_soon)
    public_ids = dict(Game.objects.filter(pk__in=played).values_list("pk", "public_id"))
    colours = [seat.colour for seat in Seat.objects.filter(game=template).order_by("position")]
    return {
        "seconds": time.monotonic() - started,
        "records": ActionRecord.objects.filter(game=template).count(),
        "seats": Seat.objects.count(),
        "colours": colours,
        "games": [
            {"id": public_ids[pk], "tokens": [tokens[pk][position] for position in range(len(colours))]}
            for pk in played
        ],
    }


class Services:
    """gunicorn, the Celery worker and beat, each in a process group of its
    own, so stopping one stops everything it started."""

    def __init__(self, env: dict[str, str], log_dir: Path) -> None:
        self.env, self.log_dir = env, log_dir
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, command: list[str], nice: int = 0) -> subprocess.Popen:
        """Start a service in a session of its own, at ``nice``. Where the
        kernel groups each session for the scheduler (autogroup), a process's
        own nice weighs only against its session's other processes, and each
        session gets a full share: so the session is given the nice as well,
        or the background services would weigh as much as the whole web."""
        command = ["nice", "-n", str(nice), *command] if nice else command
        with (self.log_dir / f"{name}.log").open("ab") as log:
            process = subprocess.Popen(
                command, cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        autogroup = Path(f"/proc/{process.pid}/autogroup")
        if nice and autogroup.exists():
            autogroup.write_text(str(nice))
        self.processes[name] = process
        return process

    def log(self, name: str) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def wait_for(self, name: str, ready, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            process = self.processes[name]
            if process.poll() is not None:
                sys.exit(f"{name} exited with {process.returncode}:\n{self.log(name)[-3000:]}")
            if time.monotonic() > deadline:
                sys.exit(f"{name} was not ready after {timeout:.0f} s:\n{self.log(name)[-3000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def service_env(database_url: str, redis_url: str, site_url: str, var_dir: Path) -> dict[str, str]:
    # No provider and no webhook secret of the developer's: mail stays in the
    # dev mailbox under var_dir.
    env = {
        key: value for key, value in os.environ.items()
        if key not in ("SQLITE_PATH", "EMAIL_PROVIDER", "DJANGO_SETTINGS_MODULE") and not key.startswith("ANYMAIL_")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="versailles_site.settings",
        DEBUG="false",
        SECRET_KEY=os.environ["SECRET_KEY"],
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        SITE_URL=site_url,
        ALLOWED_HOSTS="127.0.0.1",
        VAR_DIR=str(var_dir),
        # Every bot of --waits asks from 127.0.0.1: the API's limits are
        # counted, as in production, but set out of the way.
        API_REQUESTS_PER_MINUTE_PER_TOKEN=str(10**7),
        API_REQUESTS_PER_MINUTE_PER_CLIENT=str(10**7),
        PYTHONUNBUFFERED="1",
    )
    return env


def postmaster_pid(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    return int(proc_stat(backend)[1])


# ---- the report ----------------------------------------------------------------


def cost_per_request(step: dict, idle_rate: dict[str, float]) -> dict[str, float]:
    """CPU-seconds per request by service, the idle services' share taken off."""
    count = len(step["requests"])
    return {
        name: (step["cpu"][name] - idle_rate[name] * step["window_seconds"]) / count if count else float("nan")
        for name in SERVICES
    }


def decision_cost(step: dict, idle_rate: dict, json_cost: dict, page_cost: dict) -> dict[str, float]:
    """CPU-seconds of one decision with its two page views (the mover's page
    and the one the 302 leads to) and the emails it causes, by service: the
    decision step's time less the idle services, its who-moves lookups and
    any page view beyond two a decision, at their own costs."""
    names = [name for name, _, _ in step["requests"]]
    decisions = step["decisions"]
    lookups = sum(name in JSON_REQUESTS for name in names)
    extra_pages = sum(name in SEAT_PAGES for name in names) - 2 * decisions
    cost = {}
    for name in SERVICES:
        spent = step["cpu"][name] - idle_rate[name] * step["window_seconds"]
        spent -= lookups * json_cost[name] + extra_pages * page_cost[name]
        cost[name] = spent / decisions if decisions else float("nan")
    return cost


def latency(step: dict, names: tuple[str, ...] | None = None) -> tuple[int, float, float, float]:
    times = sorted(ms for name, ms, _ in step["requests"] if names is None or name in names)
    return len(times), percentile(times, 0.50), percentile(times, 0.95), percentile(times, 0.99)


def report(args, made: dict, results: dict, cores: int, versions: dict) -> None:
    idle = results["idle"]
    idle_rate = {name: idle["cpu"][name] / idle["window_seconds"] for name in SERVICES}
    calibration = results["calibration"]
    page = cost_per_request(calibration["seat_page"], idle_rate)
    spectator = cost_per_request(calibration["spectator_page"], idle_rate)
    seat_json = cost_per_request(calibration["seat_json"], idle_rate)
    decided = calibration["decision"]
    cycle = decision_cost(decided, idle_rate, seat_json, page)

    print(
        f"\nLoad test, issue 13: {args.games:,} running games ({len(made['games']):,} of them played by the load; "
        f"one game started through the services and played {args.depth} decisions, {made['records']} log rows, "
        f"copied; {made['seats']:,} seats), made in {made['seconds']:.0f} s."
    )
    print(
        f"gunicorn {versions['gunicorn']} ({args.web_workers} workers x {args.web_threads} threads, DEBUG=false), "
        f"PostgreSQL {versions['postgres']}, Redis {versions['redis']}, "
        "Celery workers on the celery and mail queues (prefork, concurrency 2 each) and beat "
        f"at nice {args.worker_nice}, "
        f"email to the dev mailbox; locust {versions['locust']} (FastHttpUser, no wait) on the same {cores} cores."
    )

    def ms(value: float) -> str:
        return f"{value * 1000:8.2f}"

    print(f"\nIdle services over {idle['window_seconds']:.0f} s (beat, sweeps, idle processes), CPU-s per second:")
    print(
        "  "
        + "   ".join(f"{name} {idle_rate[name]:.4f}" for name in SERVICES)
        + f"   all {sum(idle_rate.values()):.4f}"
    )

    header = f"{'':34}{'requests':>9}" + "".join(f"{name:>9}" for name in SERVICES) + f"{'total':>9}"
    print(
        f"\nCPU per request, each kind alone at {args.calibrate_users} users for {args.calibrate_seconds:.0f} s "
        f"(ms; every process of each service, idle share taken off):"
    )
    print(header)
    print("-" * len(header))
    rows = [
        ("seat page (GET)", calibration["seat_page"], page),
        ("spectator page (GET)", calibration["spectator_page"], spectator),
        ("seat JSON (GET)", calibration["seat_json"], seat_json),
    ]
    for label, step, cost in rows:
        print(
            f"{label:34}{len(step['requests']):>9}"
            + "".join(ms(cost[name]) + " " for name in SERVICES)
            + ms(sum(cost.values()))
        )
    print(
        f"{'decision, its 2 pages and emails':34}{decided['decisions']:>9}"
        + "".join(ms(cycle[name]) + " " for name in SERVICES)
        + ms(sum(cycle.values()))
    )
    emails_per_decision = decided["emails"] / decided["decisions"] if decided["decisions"] else float("nan")
    worker_per_email = (
        (decided["cpu"]["worker"] - idle_rate["worker"] * decided["window_seconds"]) / decided["emails"]
        if decided["emails"] else float("nan")
    )
    print(
        f"  (decisions: {decided['decisions']} made, {decided['stale']} answered 409, {decided['no_decision']} games "
        f"offered none; the worker sent {decided['emails']} emails, {emails_per_decision:.2f} a decision, "
        f"{worker_per_email * 1000:.1f} ms of worker CPU each, drained in {decided['drain_seconds']:.1f} s. "
        "The last row is measured together: the decision step's CPU a decision, less its who-moves JSON "
        "at the cost above; a seat page alone is a random seat's, the two here are the mover's and the page "
        "after the 302, whose costs differ.)"
    )
    references = ", ".join(f"{step['reference_ms']:.1f}" for step in [*calibration.values()])
    print(f"  (ref ms after each of these steps, the machine's speed then, as in the mix below: {references}.)")

    print(
        f"\nThe mix, {args.seconds:.0f} s at each number of users (of every 13 requests about 8 seat pages, "
        f"2 spectator pages, 2 seat JSON, 1 decision POST; and every page then open and listening: "
        f"{args.polls} version checks after each, counted among the requests):"
    )
    header = (
        f"{'users':>5}{'requests':>10}{'req/s':>8}{'p50 ms':>8}{'p95 ms':>8}{'p99 ms':>8}{'errors':>8}{'409s':>6}"
        f"{'decisions':>10}{'emails':>8}{'web CPU ms/req':>16}{'services busy':>15}"
        f"{'locust':>8}{'other':>8}{'ref ms':>8}"
        f"{'busiest web':>13}"
    )
    print(header)
    print("-" * len(header))
    p99_at_target = None
    errors_total = 0
    other_most = 0.0
    for step in results["mix"]:
        count, p50, p95, p99 = latency(step)
        errors = sum(1 for _, _, failed in step["requests"] if failed) + step["user_errors"]
        errors_total += errors
        if step["users"] == TARGET_P99_USERS:
            p99_at_target = p99
        window = step["window_seconds"]
        # The waiting bots are clients, as locust is.
        bots = step["cpu"].get("bots", 0.0)
        services_busy = (sum(step["cpu"].values()) - bots) / window
        locust_busy = (step["locust_cpu"] + bots) / window
        other = step["machine_busy"] / window - services_busy - locust_busy
        other_most = max(other_most, other)
        web_per_request = step["cpu"]["web"] / count if count else float("nan")
        print(
            f"{step['users']:>5}{count:>10}{count / step['seconds']:>8.1f}{p50:>8.0f}{p95:>8.0f}{p99:>8.0f}"
            f"{errors:>8}{step['stale']:>6}{step['decisions']:>10}{step['emails']:>8}{web_per_request * 1000:>16.1f}"
            f"{services_busy:>14.2f}c{locust_busy:>7.2f}c{other:>7.2f}c{step['reference_ms']:>8.1f}"
            f"{step['web_busiest'] * 100:>12.0f}%"
        )
    print(
        "  (services busy, locust, other: cores in use over the step and its email drain; other is every "
        "other process on the machine, from /proc/stat. ref ms: the CPU a fixed piece of Python took right "
        "after the step, the machine's speed then, lower is faster: this machine's drifts by half and more "
        "within minutes, and every figure of a step with it. busiest web: the share of the web's CPU "
        f"taken by the busiest of its {args.web_workers} processes; {100 / args.web_workers:.0f}% is an even spread.)"
    )
    if other_most > OTHER_WORK_NOTICED:
        print(
            f"  Other work took up to {other_most:.2f} of the {cores} cores during the mix: these latencies "
            "and rates are lower than the service alone would give. Run again on a quiet machine."
        )
    kinds = [
        ("seat page", SEAT_PAGES), ("spectator", (SPECTATOR_PAGE,)), ("seat JSON", JSON_REQUESTS),
        ("decision POST", (DECISION_POST,)), ("version check", (VERSION_CHECK,)),
    ]
    print("\np50 / p99 ms by kind in the mix:")
    header = f"{'users':>5}" + "".join(f"{label:>18}" for label, _ in kinds)
    print(header)
    print("-" * len(header))
    for step in results["mix"]:
        cells = []
        for _, names in kinds:
            _, p50, _, p99 = latency(step, names)
            cells.append(f"{p50:>8.0f} / {p99:<7.0f}")
        print(f"{step['users']:>5}" + "".join(f"{cell:>18}" for cell in cells))
    if "waits" in results:
        from django.conf import settings

        waits = results["waits"]
        print(
            f"\nBeside {waits['count']} bots waiting on GET /api/v1/seat?wait=<version>, on the API server as "
            f"docker-compose.yml runs it (gunicorn, uvicorn's worker, {args.api_workers} processes), from before "
            f"the warm-up to the end, each asking again as soon as it is answered: all admitted in "
            f"{waits['admitted_seconds']:.0f} s; open at once during the steps: {waits['open_least']} to "
            f"{waits['open_most']}; {waits['answers']} answers ({waits['moved']} because their game moved, the "
            f"others after the wait's {settings.API_WAIT_SECONDS} s), refused or failed: "
            f"{waits['refused'] or 'none'}. The API "
            "server's CPU is in 'services busy' (its watchers' reads in 'postgres'), the bots' process in 'locust'."
        )
    failures: dict[str, int] = {}
    for step in [*results["calibration"].values(), *results["mix"]]:
        for text, count in step["failures"].items():
            failures[text] = failures.get(text, 0) + count
    if failures:
        print("\nErrors (all steps):")
        for text, count in sorted(failures.items(), key=lambda item: -item[1])[:10]:
            print(f"  {count:>6} x {text}")

    per_decision = sum(cycle.values())
    rate = PEAK_FACTOR / (PEAK_FACTOR * HOURS_BETWEEN_DECISIONS * 3600)
    available = cores - sum(idle_rate.values())
    carried = available / (per_decision * rate) if per_decision > 0 else float("nan")
    print("\nCapacity, issue 13's arithmetic from the figures above:")
    print(
        "  one decision with its two page views and its emails, measured together: "
        + " + ".join(f"{cycle[name]:.4f} {name}" for name in SERVICES)
        + f" = {per_decision:.4f} CPU-s"
    )
    print(
        f"  decisions per game per second at the evening peak: {PEAK_FACTOR} / ({PEAK_FACTOR} x "
        f"{HOURS_BETWEEN_DECISIONS} x 3600) = {rate:.3e} (one every {HOURS_BETWEEN_DECISIONS} hours, "
        f"{PEAK_FACTOR}x at the peak)"
    )
    print(f"  CPU-seconds per second: {cores} cores - {sum(idle_rate.values()):.4f} (idle services) = {available:.4f}")
    print(f"  running games carried = {available:.4f} / ({per_decision:.4f} x {rate:.3e}) = {carried:,.0f}")

    p99_ok = p99_at_target is not None and p99_at_target < TARGET_P99_MS
    games_ok = carried >= TARGET_GAMES and args.games >= TARGET_GAMES
    print()
    if p99_at_target is None:
        print(f"p99 at {TARGET_P99_USERS} users: not measured (--users has no {TARGET_P99_USERS}): FAIL")
    else:
        print(
            f"p99 at {TARGET_P99_USERS} users: {p99_at_target:.0f} ms (target < {TARGET_P99_MS:.0f} ms): "
            f"{'PASS' if p99_ok else 'FAIL'}"
        )
    print(
        f"running games carried at the evening peak: {carried:,.0f} (target >= {TARGET_GAMES:,}, measured with "
        f"{args.games:,} running games): {'PASS' if games_ok else 'FAIL'}"
    )
    if args.games < TARGET_GAMES:
        print(f"  (only {args.games:,} running games here: the target needs a run with --games {TARGET_GAMES})")
    print(f"errors in the mix: {errors_total}")


def versions_of(connection, redis_url: str) -> dict[str, str]:
    from importlib.metadata import version

    import redis

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        postgres = cursor.fetchone()[0].split()[0]
    return {
        "postgres": postgres,
        "redis": redis.Redis.from_url(redis_url).info("server")["redis_version"],
        "gunicorn": version("gunicorn"),
        "locust": version("locust"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="running games (default 100000)")
    parser.add_argument(
        "--sample", type=int, default=10_000, help="games the load plays, with logs and links (default 10000)"
    )
    parser.add_argument("--depth", type=int, default=200, help="decisions played in the copied game (default 200)")
    parser.add_argument("--seconds", type=float, default=30, help="seconds at each number of users (default 30)")
    parser.add_argument("--users", default="1,4,16,32", help="numbers of users, comma-separated (default 1,4,16,32)")
    parser.add_argument(
        "--polls", type=int, default=4,
        help="version checks of every page the mix opens, as it stays open (default 4: 20 s at 5 s a check)",
    )
    parser.add_argument("--calibrate-users", type=int, default=2, help="users while each kind runs alone (default 2)")
    parser.add_argument("--calibrate-seconds", type=float, default=15, help="seconds for each kind alone (default 15)")
    parser.add_argument(
        "--idle-seconds", type=float, default=30, help="idle window; beat sweeps every 30 s (default 30)"
    )
    parser.add_argument("--warmup-seconds", type=float, default=10, help="mix at 4 users before measuring (default 10)")
    parser.add_argument(
        "--web-workers", type=int, default=2, help="gunicorn processes (default 2, as docker-compose.yml)"
    )
    parser.add_argument("--web-threads", type=int, default=4, help="threads of each (default 4, as docker-compose.yml)")
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=10,
        help="niceness of the Celery processes, the web's CPU first as docker-compose.yml's cpu_shares give it "
        "(default 10; 0 for none)",
    )
    parser.add_argument(
        "--redis-db", type=int, default=13, help="Redis database the services use, emptied (default 13)"
    )
    parser.add_argument(
        "--waits", type=int, default=0,
        help="bots holding GET /api/v1/seat?wait= open on the API server through every step, a seat each "
        "(default 0: none, and no API server)",
    )
    parser.add_argument(
        "--api-workers", type=int, default=2, help="processes of the API server (default 2, as docker-compose.yml)"
    )
    parser.add_argument("--keep-logs", metavar="DIR", help="copy the web, worker and beat logs into DIR at the end")
    parser.add_argument("--drive", help=argparse.SUPPRESS)
    parser.add_argument("--hold-waits", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        drive(args.drive)
        return
    if args.hold_waits:
        hold_waits(args.hold_waits)
        return

    if importlib.util.find_spec("locust") is None:
        sys.exit(
            "bench/load.py needs locust, which the service itself does not: "
            ".venv/bin/pip install -r bench/requirements.txt (or make bench-deps)"
        )
    users = [int(part) for part in args.users.split(",")]
    if args.games < 1 or args.sample < 1 or any(count < 1 for count in users):
        sys.exit("--games, --sample and every --users must be at least 1")
    args.sample = min(args.sample, args.games)
    if args.waits < 0 or args.waits > args.sample * 4:
        sys.exit("--waits must be between 0 and four for each game of --sample (a seat each)")
    # Each wait is a socket in the bots' process and one in the API server,
    # which inherit this limit; root may raise the hard limit too.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max(soft, 2 * args.waits + 1000)
    with contextlib.suppress(ValueError, PermissionError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
    database_url = os.environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    redis_url = with_path(os.environ.get("REDIS_URL", "").strip() or DEFAULT_REDIS_URL, f"/{args.redis_db}")
    if urlsplit(database_url).scheme not in ("postgres", "postgresql"):
        sys.exit("bench/load.py runs on PostgreSQL: DATABASE_URL must be a postgres:// URL")
    loopback_only(database_url, "PostgreSQL (DATABASE_URL)")
    loopback_only(redis_url, "Redis (REDIS_URL)")

    import redis

    broker = redis.Redis.from_url(redis_url)
    temporary = tempfile.TemporaryDirectory(prefix="versailles-bench-load-")
    work = Path(temporary.name)
    var_dir = work / "var"
    var_dir.mkdir()
    port = free_port()
    site_url = f"http://127.0.0.1:{port}"
    connection, old_config = django_start(database_url, work / "parent-var")
    services = None
    driver = None
    try:
        bench_database = connection.settings_dict["NAME"]
        print(f"Making {args.games:,} running games in database {bench_database} ...", file=sys.stderr, flush=True)
        made = games_make(args.games, args.sample, args.depth)
        broker.flushdb()

        from django.conf import settings

        env = service_env(with_path(database_url, f"/{bench_database}"), redis_url, site_url, var_dir)
        services = Services(env, work)
        python = sys.executable
        services.start(
            "web",
            [
                python, "-m", "gunicorn", "-c", "versailles_site/gunicorn_conf.py", "versailles_site.wsgi:application",
                "--bind", f"127.0.0.1:{port}", "--workers", str(args.web_workers), "--threads", str(args.web_threads),
            ],
        )
        # docker-compose.yml's layout: sweeps and sends on workers of their
        # own, behind the web for CPU (a page is waited for, an email is not).
        for name, queue in (("worker", "celery"), ("mailer", settings.MAIL_QUEUE)):
            services.start(
                name,
                [
                    python, "-m", "celery", "-A", "versailles_site", "worker", "-Q", queue, "--concurrency", "2",
                    "-n", f"bench-load-{name}-{os.getpid()}@%h", "--without-gossip", "--without-mingle",
                    "--without-heartbeat", "-l", "INFO",
                ],
                nice=args.worker_nice,
            )
        services.start(
            "beat", [python, "-m", "celery", "-A", "versailles_site", "beat", "-l", "INFO"], nice=args.worker_nice
        )
        services.wait_for("web", lambda: answers(f"{site_url}/robots.txt"))
        services.wait_for("worker", lambda: " ready." in services.log("worker"))
        services.wait_for("mailer", lambda: " ready." in services.log("mailer"))
        services.wait_for("beat", lambda: "beat: Starting" in services.log("beat"))
        waits = waits_start(args, services, made, work) if args.waits else None

        spec_path, results_path = work / "spec.json", work / "results.json"
        spec = {
            "base_url": site_url,
            "games": made["games"],
            "colours": made["colours"],
            "mail_dir": str(var_dir / "mail"),
            "redis_url": redis_url,
            "database": bench_database,
            "mail_queue": settings.MAIL_QUEUE,
            "pids": {
                "web": [services.processes["web"].pid],
                # Both workers' CPU counts as the worker's: one column for every email and sweep.
                "worker": [services.processes["worker"].pid, services.processes["mailer"].pid],
                "beat": [services.processes["beat"].pid],
                "postgres": [postmaster_pid(connection)],
                "redis": [int(broker.info("server")["process_id"])],
                **(waits["pids"] if waits else {}),
            },
            "users": users,
            "seconds": args.seconds,
            "calibrate_users": args.calibrate_users,
            "polls": args.polls,
            "calibrate_seconds": args.calibrate_seconds,
            "idle_seconds": args.idle_seconds,
            "warmup_seconds": args.warmup_seconds,
            "results": str(results_path),
        }
        spec_path.write_text(json.dumps(spec))
        connection.close()  # idle through the load; its backend would only sit in the figures

        budget = (
            args.warmup_seconds + args.idle_seconds + len(MIX) * args.calibrate_seconds
            + len(users) * args.seconds + (len(users) + 3) * DRAIN_TIMEOUT + 120
        )
        print(f"Load on {site_url} ...", file=sys.stderr, flush=True)
        driver = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--drive", str(spec_path)],
            cwd=BASE_DIR, env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
        )
        try:
            driver.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            sys.exit(f"the load did not end within {budget:.0f} s")
        if driver.returncode != 0:
            sys.exit(f"the load exited with {driver.returncode}")
        results = json.loads(results_path.read_text())
        if waits:
            results["waits"] = {**waits_end(services, waits), "count": waits["count"],
                                "admitted_seconds": waits["admitted_seconds"]}
        versions = versions_of(connection, redis_url)
        report(args, made, results, os.cpu_count() or 2, versions)
    finally:
        if driver is not None and driver.poll() is None:
            os.killpg(driver.pid, signal.SIGKILL)
            driver.wait(timeout=10)
        if services is not None:
            services.stop()
            if args.keep_logs:
                Path(args.keep_logs).mkdir(parents=True, exist_ok=True)
                for name in services.processes:
                    shutil.copy(work / f"{name}.log", Path(args.keep_logs) / f"{name}.log")
        broker.flushdb()
        from django.test.utils import teardown_databases

        backends_end(connection, connection.settings_dict["NAME"])
        teardown_databases(old_config, verbosity=0)
        temporary.cleanup()


if __name__ == "__main__":
    main()
