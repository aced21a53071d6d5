"""Two complete stacks on one machine, as two machines would run them (README,
"Several machines"): two gunicorns, two Celery workers and, by the mistake
the README warns of, two beats, all on one PostgreSQL database and one
Redis. People play through both, as a load balancer would send them: a
burst of decisions, some sent to both stacks at the same moment, deadlines
the two beats' sweeps both reach for at once, and games with computer
players, whose turns either worker takes. Afterwards the database and the
two mailboxes are read: no decision applied twice, no email sent twice,
nothing lost, and no page from one stack older than what the other had
committed.

The stacks' processes are real (gunicorn, celery worker, celery beat from
the virtualenv) with the production settings (DEBUG off, connections kept
for a minute); the test reads the database with psycopg and the mail from
the dev mailboxes' files, and acts on the games over HTTP only.
"""

from __future__ import annotations

import os
import random
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

import psycopg
import pytest
import redis
from psycopg.rows import dict_row

from tests.deploy.people import (
    Answer,
    Mail,
    Mailboxes,
    Person,
    Table,
    Visitor,
    decision_filled_in,
    versions_shown,
)
from tests.deploy.stacks import (
    REDIS_DB,
    Stack,
    database_of_its_own,
    migrate,
    stack_environment,
    wait_until,
    with_path,
)
from tests.web.pages import forms_of

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
REDIS_URL = os.environ.get("REDIS_URL", "").strip()

pytestmark = pytest.mark.skipif(
    not (DATABASE_URL and REDIS_URL),
    reason="two stacks share PostgreSQL and Redis: set DATABASE_URL and REDIS_URL (CI does)",
)

DEADLINE_TABLES = 3
BURST_TABLES = 3
BURST_DECISIONS = 12
# Every third decision of the burst is sent to both stacks at the same moment.
BOTH_AT_ONCE_EVERY = 3
HOST_DECISIONS_AGAINST_COMPUTERS = 5
# The beats send a deadline sweep 30 s after they start and every 30 s
# from then: the due games are made due and held by this many seconds
# after the start, so that both beats' first sweeps find them held.
HOLD_BY = 26.0
SWEEPS_TIMEOUT = 50.0
SETTLE_TIMEOUT = 60.0
KINDS = {"invite", "start", "turn", "race", "over"}


class Database:
    """The shared database, read (and, for time, written) as an operator
    would with psql: one connection, used by one thread at a time."""

    def __init__(self, url: str):
        self.url = url
        self.connection = psycopg.connect(url, autocommit=True, row_factory=dict_row)
        self._lock = threading.Lock()

    def rows(self, query: str, *params) -> list[dict]:
        with self._lock:
            return self.connection.execute(query, params).fetchall()

    def game(self, pk: int) -> dict:
        (row,) = self.rows("SELECT * FROM games_game WHERE id = %s", pk)
        return row

    def game_pk(self, public_id: str) -> int:
        return self.rows("SELECT id FROM games_game WHERE public_id = %s", public_id)[0]["id"]

    def waiting_for_row_locks(self) -> int:
        """Other connections to this database stuck behind a row lock."""
        return self.rows(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query ILIKE %s",
            "%FOR UPDATE%",
        )[0]["n"]

    def close(self) -> None:
        self.connection.close()


@dataclass
class TwoStacks:
    stacks: list[Stack]
    # When the first beat started, by time.time().
    beats_started: float


@pytest.fixture
def two_stacks(tmp_path, settings):
    """Stacks a and b, each with its web, worker and beat up."""
    queues = tuple(queue.name for queue in settings.CELERY_TASK_QUEUES)
    redis_url = with_path(REDIS_URL, f"/{REDIS_DB}")
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    with database_of_its_own(DATABASE_URL) as database_url:
        env = stack_environment(database_url, redis_url)
        migrate(env, tmp_path)
        pair = []
        for name in "ab":
            (tmp_path / name).mkdir()
            pair.append(Stack(name, tmp_path / name, env | {"VAR_DIR": str(tmp_path / name)}, queues))
        try:
            for stack in pair:
                stack.web_start()
                stack.worker_start()
                stack.beat_start()
            for stack in pair:
                stack.web_and_worker_ready()
            beats_started = min(stack.beat_ready() for stack in pair)
            yield TwoStacks(pair, beats_started)
        finally:
            for stack in pair:
                stack.stop()
            broker.flushdb()


def other(stacks: list[Stack], name: str) -> Stack:
    return next(stack for stack in stacks if stack.name != name)


def both_at_once(*calls: Callable[[], Answer]) -> list[Answer]:
    """The calls started at the same moment, one thread each."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait(timeout=30)
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return [future.result(timeout=90) for future in [pool.submit(run, call) for call in calls]]


class Play:
    """What the test did and saw, shared by the threads that play."""

    def __init__(self, stacks: list[Stack], database: Database):
        self.stacks = stacks
        self.database = database
        self.lock = threading.Lock()
        self.sent_to_both = 0
        self.pages_checked = 0

    def look(self, table: Table, stack: Stack) -> list:
        movers = table.waiting(stack)
        with self.lock:
            self.pages_checked += len(table.people)
        return movers

    def decide(self, table: Table, stack: Stack, mover: Person, page: Answer, rng, *, to_both: bool) -> Stack:
        """``mover`` makes the decision ``page`` offers, posting to ``stack``
        or to both stacks at once; the stack that applied it is returned.
        Right after, the other stack shows the mover's page: with the
        confirmation, and no decision older than the one just committed."""
        action, fields = decision_filled_in(page.text, mover.link, rng)
        if to_both:
            answers = both_at_once(*[lambda s=s: mover.visitor.post(s, action, fields) for s in self.stacks])
            # One applies it; the other finds the decision made (the stale page).
            assert sorted(answer.status for answer in answers) == [302, 409], [a.text[:500] for a in answers]
            with self.lock:
                self.sent_to_both += 1
        else:
            answers = [mover.visitor.post(stack, action, fields)]
            assert answers[0].status == 302, answers[0].text[:2000]
        (applied,) = [answer for answer in answers if answer.status == 302]
        table.committed = self.database.game(table.pk)["decision_version"]
        table.applied.append((mover.position, int(fields["version"])))
        reader = other(self.stacks, applied.stack)
        shown = mover.visitor.get(reader, applied.location)
        # Sent twice, the confirmation may be gone: the stale page, answered
        # last, used the messages and cleared them, as it would in a browser.
        assert to_both or "Done:" in shown.text, shown.text[:2000]
        assert all(version >= table.committed for version in versions_shown(shown.text, applied.location)), (
            f"stack {reader.name} showed a decision older than version {table.committed}, "
            f"which {applied.stack} committed"
        )
        with self.lock:
            self.pages_checked += 1
        return reader

    def burst(self, table: Table, seed: int) -> None:
        """People only: each decision read from the stack that did not
        apply the one before, and sent to it (or to both)."""
        rng = random.Random(seed)
        stack = self.stacks[seed % 2]
        for n in range(BURST_DECISIONS):
            ((mover, page),) = self.look(table, stack)
            stack = self.decide(
                table, stack, mover, page, rng, to_both=n % BOTH_AT_ONCE_EVERY == BOTH_AT_ONCE_EVERY - 1
            )

    def against_computers(self, table: Table, seed: int) -> None:
        """The host's decisions, each once the computer players, deciding in
        whichever worker takes their task, have come round to the host."""
        rng = random.Random(seed)
        stack = self.stacks[0]
        for n in range(HOST_DECISIONS_AGAINST_COMPUTERS + 1):
            ((mover, page),) = wait_until(
                lambda stack=stack: self.look(table, stack),
                timeout=SETTLE_TIMEOUT,
                what=f"the host's turn in {table.label}",
                every=0.2,
            )
            if n == HOST_DECISIONS_AGAINST_COMPUTERS:
                return  # the computer players have answered the last one: the host is to move
            stack = self.decide(table, stack, mover, page, rng, to_both=n % 2 == 1)

    def orders_for_the_rest(self, table: Table) -> None:
        """The host leaves every decision to standing orders: the game then
        runs to its end in the workers, computer players and orders alone."""
        host = table.people[0]
        settings = host.link + "settings"  # the seat's settings page
        page = host.visitor.get(self.stacks[0], settings)
        (form,) = [form for form in forms_of(page.text, settings) if form.action.endswith("/orders")]
        fields = form.values() | {
            "auto_roll": "on",
            "bid_limit": "6",
            "bid_every": "on",
            "devil": "leader",
            "removal": "default",
        }
        answer = host.visitor.post(self.stacks[1], form.action, fields)
        assert answer.status == 302, answer.text[:2000]


def new_table(label: str, index: int, persons: int, computers: tuple[int, int] = (0, 0)) -> Table:
    """A table of ``persons`` people, each at a client address of their own."""
    people = [
        Person(position, f"{label}-{position}@example.com", Visitor(f"10.0.{index}.{position + 1}"))
        for position in range(persons)
    ]
    return Table(label, people, computers)


def run_together(*calls: Callable[[], object]) -> list:
    with ThreadPoolExecutor(len(calls)) as pool:
        return [future.result() for future in [pool.submit(call) for call in calls]]


def opened_then(table: Table, play: Play, mailboxes: Mailboxes, then: Callable[[], None]) -> Callable[[], None]:
    def run():
        table.open(play.stacks, mailboxes)
        table.pk = play.database.game_pk(table.public_id)
        then()

    return run


@dataclass
class Afterwards:
    """The shared database and the mailboxes once every process is stopped."""

    games: dict[int, dict]
    seats: dict[int, dict]
    log: list[dict]
    outbox: dict[int, dict]
    mails: list[Mail]

    @classmethod
    def read(cls, database: Database, mailboxes: Mailboxes) -> Afterwards:
        return cls(
            games={row["id"]: row for row in database.rows("SELECT * FROM games_game")},
            seats={row["id"]: row for row in database.rows("SELECT id, game_id, position, computer FROM games_seat")},
            log=database.rows("SELECT game_id, seq, seat, actor, events FROM games_actionrecord ORDER BY game_id, seq"),
            outbox={
                row["id"]: row
                for row in database.rows(
                    "SELECT id, game_id, seat_id, kind, version, to_email, status FROM games_notification"
                )
            },
            mails=mailboxes.all(),
        )

    def log_of(self, table: Table) -> list[dict]:
        return [record for record in self.log if record["game_id"] == table.pk]

    def outbox_row(self, mail: Mail) -> dict:
        """The outbox row a mail was sent for, which its Message-ID names."""
        return self.outbox[int(re.match(r"<notification-(\d+)\.", mail.message_id).group(1))]


def each_decision_applied_once(after: Afterwards, tables: list[Table]) -> None:
    """Every game's log runs from step 1 to its version, each step once; every
    decision a stack answered "Done" to is in it once, at the step after the
    version it was made for, and there is no other person's decision."""
    for pk, game in after.games.items():
        assert [r["seq"] for r in after.log if r["game_id"] == pk] == list(range(1, game["version"] + 1))
    for table in tables:
        players = sorted((r["seat"], r["seq"] - 1) for r in after.log_of(table) if r["actor"] == "player")
        assert players == sorted(table.applied), table.label


def each_overdue_decision_defaulted_once(
    after: Afterwards, due: dict[int, tuple[int, int]], stacks: list[Stack]
) -> list[int]:
    """Both beats sent a deadline sweep; the sweeps together defaulted each
    overdue decision once, and nothing else; what each sweep returned."""
    deadlines = sorted((r["game_id"], r["seat"], r["seq"] - 1) for r in after.log if r["actor"] == "deadline")
    assert deadlines == sorted((pk, position, version) for pk, (position, version) in due.items())
    assert all(stack.beat_sent("deadlines") >= 1 for stack in stacks)
    swept = [int(result) for stack in stacks for result in stack.task_results("games.deadlines_sweep")]
    assert len(swept) >= 2 and sum(swept) == len(due), swept
    return swept


def each_email_sent_once(after: Afterwards) -> Counter:
    """Every row of the outbox was sent, and the two mailboxes hold one
    message for each and no other, to its address; how many each stack's
    worker sent (both sent some)."""
    assert {row["status"] for row in after.outbox.values()} == {"sent"}
    sent = Counter(after.outbox_row(mail)["id"] for mail in after.mails)
    assert not {number: n for number, n in sent.items() if n > 1}, "sent more than once"
    assert sorted(sent) == sorted(after.outbox)
    assert all(mail.to == after.outbox_row(mail)["to_email"] for mail in after.mails)
    # The same, in the reader's terms: no one got one step's email twice.
    steps = Counter(
        (mail.to, row["game_id"], row["kind"], row["version"])
        for mail in after.mails
        for row in [after.outbox_row(mail)]
    )
    assert max(steps.values()) == 1
    by_stack = Counter(mail.path.parent.parent.name for mail in after.mails)
    assert set(by_stack) == {"a", "b"}, by_stack
    return by_stack


def every_email_called_for(after: Afterwards, table: Table) -> None:
    """Each person got the invitation, the start, a race email for each race
    but the last (the game-over email tells that one) and, once over, the
    end; and a turn email for every decision asked of them, answered (by
    them or by the deadline) at the very next step, but for the decision
    pending now."""
    game = after.games[table.pk]
    people = {s["position"]: s["id"] for s in after.seats.values() if s["game_id"] == table.pk and not s["computer"]}
    assert sorted(people) == [person.position for person in table.people]
    mine = [row for row in after.outbox.values() if row["game_id"] == table.pk]
    assert {row["kind"] for row in mine} <= KINDS, table.label
    log = after.log_of(table)
    # A race ends in a commit of its own (decisions, each committed apart,
    # come between two), so each race's end is one email.
    races = sum(1 for r in log for event in r["events"] if event["type"] == "race_over")
    over = game["status"] == "over"
    for position, seat in people.items():
        kinds = Counter(row["kind"] for row in mine if row["seat_id"] == seat)
        expected = {"invite": 1, "start": 1, "race": races - int(over), "over": int(over)}
        assert {kind: kinds[kind] for kind in expected} == expected, (table.label, position, kinds)
    turns = {(after.seats[row["seat_id"]]["position"], row["version"]) for row in mine if row["kind"] == "turn"}
    decided = {(r["seat"], r["seq"] - 1) for r in log if r["actor"] != "chance"}
    unanswered = turns - decided
    assert all(version == game["decision_version"] for _, version in unanswered) and len(unanswered) <= 1, (
        table.label,
        unanswered,
    )
    asked = {(r["seat"], r["seq"] - 1) for r in log if r["actor"] in ("player", "deadline")}
    assert asked <= turns, (table.label, asked - turns)


def test_two_stacks_on_one_database_apply_every_decision_and_send_every_email_once_and_serve_no_older_page(
    two_stacks, capsys
):
    started = time.monotonic()
    stacks = two_stacks.stacks
    database = Database(stacks[0].env["DATABASE_URL"])
    mailboxes = Mailboxes(stacks)
    play = Play(stacks, database)
    lock = None
    try:
        # Games whose players will not answer: opened first, to be ready for
        # the beats' first deadline sweep, 30 s after they started.
        idle = [new_table(f"idle{i}", i, 3) for i in range(DEADLINE_TABLES)]
        run_together(*[lambda t=t: t.open(stacks, mailboxes) for t in idle])
        due = {}
        for n, table in enumerate(idle):
            table.pk = database.game_pk(table.public_id)
            ((mover, _page),) = play.look(table, stacks[n % 2])
            due[table.pk] = (mover.position, database.game(table.pk)["decision_version"])
        if time.time() - two_stacks.beats_started > HOLD_BY:
            # Too near the first sweeps (a slow machine): the rows are held
            # for the second, once both beats have sent the first.
            wait_until(
                lambda: all(stack.beat_sent("deadlines") for stack in stacks),
                timeout=SWEEPS_TIMEOUT,
                what="both beats' first deadline sweep",
            )
        # The database is the clock: their deadlines are moved into the past.
        # Then, as a long transaction would, the test holds their rows until
        # both beats' sweeps wait for them, so that the two sweeps really run
        # over the same games at the same time.
        database.rows(
            "UPDATE games_game SET deadline = now() - interval '1 minute' WHERE id = ANY(%s) RETURNING id", list(due)
        )
        lock = psycopg.connect(database.url)
        lock.execute("SELECT id FROM games_game WHERE id = ANY(%s) FOR UPDATE", (list(due),))

        # Meanwhile the others play: three tables of people, a person against
        # two computer players, and one who leaves the rest to standing orders.
        bursts = [new_table(f"burst{i}", 10 + i, 3) for i in range(BURST_TABLES)]
        versus = new_table("versus", 20, 1, computers=(1, 1))
        ordered = new_table("orders", 21, 1, computers=(2, 1))
        with ThreadPoolExecutor(len(bursts) + 2) as pool:
            playing: list[Future] = [
                pool.submit(opened_then(table, play, mailboxes, lambda t=table, i=i: play.burst(t, seed=i)))
                for i, table in enumerate(bursts)
            ]
            playing.append(
                pool.submit(opened_then(versus, play, mailboxes, lambda: play.against_computers(versus, seed=7)))
            )
            playing.append(
                pool.submit(opened_then(ordered, play, mailboxes, lambda: play.orders_for_the_rest(ordered)))
            )
            wait_until(
                lambda: database.waiting_for_row_locks() >= 2 or any(f.done() and f.exception() for f in playing),
                timeout=SWEEPS_TIMEOUT,
                what=lambda: (
                    "both beats' deadline sweeps to wait for the due games; beats sent "
                    + ", ".join(f"{s.name}: {s.beat_sent('deadlines')}" for s in stacks)
                ),
            )
            lock.rollback()
            for future in playing:
                future.result(timeout=SETTLE_TIMEOUT * 2)

        def settled() -> bool:
            if any(database.game(pk)["decision_version"] == version for pk, (_, version) in due.items()):
                return False
            if database.game(ordered.pk)["status"] != "over":
                return False
            (counts,) = database.rows(
                "SELECT count(*) AS rows, count(*) FILTER (WHERE status <> 'sent') AS unsent FROM games_notification"
            )
            return counts["unsent"] == 0 and len(mailboxes.all()) >= counts["rows"]

        wait_until(
            settled,
            timeout=SETTLE_TIMEOUT,
            what="the deadlines applied, the computers' game over and every email sent",
            every=0.5,
        )
        # Still the host's turn against the computer players: no computer
        # player's task went missing on the way there.
        ((mover, _page),) = play.look(versus, stacks[1])
        assert mover.position == 0
        for stack in stacks:
            stack.stop()
        elapsed = time.monotonic() - started

        after = Afterwards.read(database, mailboxes)
        tables = [*idle, *bursts, versus, ordered]
        assert sorted(after.games) == sorted(table.pk for table in tables)
        each_decision_applied_once(after, tables)
        assert sum(len(t.applied) for t in bursts) == BURST_TABLES * BURST_DECISIONS
        assert len(versus.applied) == HOST_DECISIONS_AGAINST_COMPUTERS
        swept = each_overdue_decision_defaulted_once(after, due, stacks)
        # The computer players decided, in whichever worker took their turn;
        # the one left to orders and computers played to its end.
        for table, computers in ((versus, 2), (ordered, 3)):
            deciding = {r["seat"] for r in after.log_of(table) if r["actor"] == "computer"}
            assert deciding == set(range(1, computers + 1)), table.label
        assert (after.games[versus.pk]["status"], after.games[ordered.pk]["status"]) == ("running", "over")
        by_stack = each_email_sent_once(after)
        for table in tables:
            every_email_called_for(after, table)

        with capsys.disabled():
            print(
                f"\ntwo stacks: {elapsed:.0f} s; {sum(len(t.applied) for t in tables)} decisions applied once each "
                f"({play.sent_to_both} sent to both stacks at once), {len(due)} deadlines defaulted once "
                f"by {len(swept)} sweeps from two beats, "
                f"{sum(1 for r in after.log if r['actor'] == 'computer')} computer players' decisions, "
                f"{len(after.mails)} emails sent once (a: {by_stack['a']}, b: {by_stack['b']}), "
                f"{play.pages_checked} pages none older than the last commit"
            )
    finally:
        if lock is not None:
            lock.close()
        database.close()
