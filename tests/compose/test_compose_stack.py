"""docker-compose.yml started for real (tests/compose/stack.py): the images
built, the health checks waited for, migrate run once, web, worker, mailer
and beat up; a game played through the web container's published port, in
Chromium too; containers killed and servers restarted, with nothing lost or
done twice. Any container that exits or restarts on its own fails the test
it happened in."""

from __future__ import annotations

import random
import re
import subprocess
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.compose.stack import MAIL_TIMEOUT, ComposeStack, MailSink, SinkMail, engine_missing
from tests.deploy.people import Person, Table, Visitor, decision_filled_in
from tests.web.pages import forms_of
from tests.worker import wait_until

pytestmark = pytest.mark.heavy

SWEEP_TIMEOUT = 90.0  # the beat sends a deadline sweep every 30 s
SETTLE_TIMEOUT = 90.0


@pytest.fixture(scope="module")
def stack():
    reason = engine_missing()
    if reason:
        pytest.fail(f"VERSAILLES_COMPOSE=1 but {reason}")
    compose = ComposeStack()
    compose.down()  # what an interrupted run left
    compose.up()
    yield compose
    compose.down()
    assert compose.left_behind() == [], "docker-compose down -v left these behind"


@pytest.fixture(scope="module")
def sink(stack):
    return MailSink()


def new_table(label: str, index: int, persons: int, computers: tuple[int, int] = (0, 0)) -> Table:
    people = [
        Person(position, f"{label}-{position}@example.com", Visitor(f"10.9.{index}.{position + 1}"))
        for position in range(persons)
    ]
    return Table(label, people, computers)


def opened(table: Table, stack: ComposeStack, sink: MailSink) -> Table:
    table.open([stack, stack], sink)
    table.pk = int(stack.game(table.public_id)["id"])
    return table


def decide_once(table: Table, stack: ComposeStack, rng: random.Random) -> None:
    """The one person with a decision makes it, through the page's form."""
    ((mover, page),) = wait_until(
        lambda: table.waiting(stack), timeout=SETTLE_TIMEOUT, what=f"a person's turn in {table.label}", every=0.3
    )
    action, fields = decision_filled_in(page.text, mover.link, rng)
    answer = mover.visitor.post(stack, action, fields)
    assert answer.status == 302, answer.text[:2000]
    table.applied.append((mover.position, int(fields["version"])))
    table.committed = int(stack.game(table.public_id)["decision_version"])


def log_of(stack: ComposeStack, table: Table) -> list[dict[str, str]]:
    return stack.rows(f"SELECT seq, seat, actor FROM games_actionrecord WHERE game_id = {table.pk} ORDER BY seq")


def each_step_once(stack: ComposeStack, table: Table) -> list[dict[str, str]]:
    """The game's log runs from step 1 to its version, each step once, and
    holds every decision a person was answered "Done" for, once."""
    log = log_of(stack, table)
    version = int(stack.game(table.public_id)["version"])
    assert [int(r["seq"]) for r in log] == list(range(1, version + 1)), table.label
    players = sorted((int(r["seat"]), int(r["seq"]) - 1) for r in log if r["actor"] == "player")
    assert players == sorted(table.applied), table.label
    return log


def outbox_id(mail: SinkMail) -> str:
    return mail.message_id.split(".")[0].removeprefix("<notification-")


def every_email_sent_once(stack: ComposeStack, sink: MailSink) -> int:
    """Every outbox row is sent, and the sink caught each once: twice at most
    for a row a killed sender held in flight, and then the same message."""
    unsent = "SELECT id, status FROM games_notification WHERE status <> 'sent'"
    wait_until(
        lambda: not stack.rows(unsent),
        timeout=SETTLE_TIMEOUT,
        what=lambda: f"every email sent; still {stack.rows(unsent)}",
        every=1.0,
    )
    outbox = {row["id"] for row in stack.rows("SELECT id FROM games_notification")}
    mails = sink.all()
    caught = Counter(outbox_id(mail) for mail in mails)
    repeated = {n for n, count in caught.items() if count > 1}
    assert repeated <= sink.in_flight_when_killed, "sent more than once"
    assert all(caught[n] == 2 for n in repeated), "a message in flight when its sender was killed sent three times"
    for n in repeated:
        first, second = ((m.message_id, m.to, m.subject, m.text) for m in mails if outbox_id(m) == n)
        assert first == second, f"notification {n} sent again as a different message"
    assert set(caught) == outbox
    return len(outbox)


def api_answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/openapi.json", timeout=5) as response:
            return response.status == 200 and b'"openapi"' in response.read()
    except OSError:
        return False


def test_every_service_starts_and_migrate_runs_once(stack):
    containers = stack.assert_running()
    assert containers["migrate"].exit_code == 0
    assert int(stack.rows("SELECT count(*) AS n FROM django_migrations WHERE app = 'games'")[0]["n"]) >= 20
    assert "Listening at: http://0.0.0.0:8000" in stack.logs("web", tail=200)
    # The API's own service, under ASGI: its document is served on its published port.
    api_port = int(stack.compose("port", "api", "8001").strip().rsplit(":", 1)[1])
    wait_until(lambda: api_answers(api_port), timeout=60, what="the api service to answer", every=1.0)
    for worker, name in (("worker", "sweeps@"), ("mailer", "mail@")):
        wait_until(
            lambda worker=worker, name=name: re.search(rf"{name}\S+ ready", stack.logs(worker, tail=200)),
            timeout=60,
            what=f"{worker} ready",
            every=1.0,
        )


def test_a_game_is_played_through_the_published_port(stack, sink):
    """People take their seats from the invitations the sink caught and
    decide; one decision is left to its deadline, which the beat's sweep
    applies; computer players answer the host through the worker."""
    rng = random.Random(31)
    people = opened(new_table("people", 0, 3), stack, sink)
    for _ in range(6):
        decide_once(people, stack, rng)
    stack.rows(f"UPDATE games_game SET deadline = now() - interval '1 minute' WHERE id = {people.pk} RETURNING id")
    wait_until(
        lambda: any(r["actor"] == "deadline" for r in log_of(stack, people)),
        timeout=SWEEP_TIMEOUT,
        what="the beat's deadline sweep to apply the overdue decision",
        every=1.0,
    )
    decide_once(people, stack, rng)

    computers = opened(new_table("computers", 1, 1, computers=(1, 1)), stack, sink)
    for _ in range(4):
        decide_once(computers, stack, rng)

    each_step_once(stack, people)
    log = each_step_once(stack, computers)
    assert {r["actor"] for r in log} >= {"player", "computer"}
    every_email_sent_once(stack, sink)
    stack.assert_running()


def test_a_game_is_created_and_decided_in_chromium(stack, sink, chromium):
    site = f"http://127.0.0.1:{stack.port}"
    context = chromium.new_context(locale="en-GB", timezone_id="Europe/Berlin")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(site + "/")
    with page.expect_navigation():
        page.get_by_role("link", name="Start a new game").click()
    page.fill("input[name=host_name]", "Browser Host")
    page.fill("input[name=host_email]", "browser-0@example.com")
    page.fill("textarea[name=other_emails]", "browser-1@example.com\nbrowser-2@example.com")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the game and send the invitations").click()
    assert "/new/sent/" in page.url, page.locator("body").inner_text()

    table = new_table("browser", 2, 3)
    for person in table.people:
        person.link, table.public_id = sink.seat_link(person.email)
        seat = person.visitor.get(stack, person.link)
        (form,) = [form for form in forms_of(seat.text, person.link) if form.action.endswith("/accept")]
        fields = form.values() | {
            "colour": form.radios()["colour"][0],
            "display_name": f"Browser {person.position}",
            "time_zone": "Europe/Berlin",
            "language": "en",
        }
        assert person.visitor.post(stack, form.action, fields).status == 302
    table.pk = int(stack.game(table.public_id)["id"])

    ((mover, _),) = wait_until(lambda: table.waiting(stack), timeout=SETTLE_TIMEOUT, what="the first decision")
    page.goto(site + mover.link)
    decide = page.locator("#decide")
    version = decide.locator("input[name=version]").first.input_value()
    if decide.locator("button[value=pass]").count():
        button = decide.locator("button[value=pass]")
    elif decide.locator("button[value=roll]").count():
        button = decide.locator("button[value=roll]")
    else:
        for group in sorted(set(decide.locator("input[type=radio]").evaluate_all("els => els.map(e => e.name)"))):
            decide.locator(f"input[type=radio][name={group}]").first.check()
        button = decide.locator("button[type=submit]").first
    with page.expect_navigation():
        button.click()
    assert "Done:" in page.locator("body").inner_text(), page.locator("body").inner_text()[:2000]
    table.applied.append((mover.position, int(version)))
    context.close()
    each_step_once(stack, table)
    stack.assert_running()


def new_game_posted(stack: ComposeStack, label: str, persons: int, index: int) -> None:
    """A game created through the new-game form; its invitations are queued."""
    host = Visitor(f"10.9.99.{index}")
    page = host.get(stack, "/new/")
    (form,) = [form for form in forms_of(page.text) if "host_email" in [f[1] for f in form.fields]]
    fields = form.values() | {
        "host_name": f"Host {label}",
        "host_email": f"{label}-0@example.com",
        "other_emails": "\n".join(f"{label}-{n}@example.com" for n in range(1, persons)),
    }
    answer = host.post(stack, "/new/", fields)
    assert (answer.status, answer.location) == (302, "/new/sent/"), answer.text[:2000]


def test_a_worker_killed_during_a_burst_of_decisions_loses_and_doubles_nothing(stack, sink):
    """Hosts play against computer players, whose turns the worker takes; the
    worker is killed (SIGKILL) in the middle and started again."""
    tables = [opened(new_table(f"killed-worker-{n}", 10 + n, 1, computers=(1, 1)), stack, sink) for n in range(3)]
    rng = random.Random(4)
    for round_ in range(4):
        with ThreadPoolExecutor(len(tables)) as pool:
            list(pool.map(lambda table: decide_once(table, stack, random.Random(rng.random())), tables))
        if round_ == 1:
            stack.compose("kill", "worker")
            time.sleep(2)
            stack.compose("start", "worker")
    for table in tables:
        wait_until(lambda table=table: table.waiting(stack), timeout=SETTLE_TIMEOUT, what=f"{table.label} to settle")
        each_step_once(stack, table)
    every_email_sent_once(stack, sink)
    stack.assert_running()


def test_a_mailer_killed_during_a_burst_of_emails_loses_none_and_repeats_only_what_it_held(stack, sink):
    """Invitations for several games wait while the mailer is stopped; it is
    started, and killed (SIGKILL) as the first of them arrive, then started
    again. Every invitation arrives; only one the mailer held in flight at the
    kill may arrive twice, as the same message."""
    stack.compose("stop", "mailer")
    before = len(sink.all())
    for n in range(6):
        new_game_posted(stack, f"killed-mailer-{n}", 5, n)
    mailer = stack.container_id("mailer")
    subprocess.run(["docker", "start", mailer], check=True, capture_output=True)
    wait_until(lambda: len(sink.all()) > before, timeout=MAIL_TIMEOUT, what="the first invitation", every=0.05)
    subprocess.run(["docker", "kill", mailer], check=True, capture_output=True)
    unsent = int(stack.rows("SELECT count(*) AS n FROM games_notification WHERE status <> 'sent'")[0]["n"])
    assert unsent > 0, "the mailer had sent every email before it was killed"
    # A claim older than the sweep's grace period (5 minutes) belongs to a
    # sender that died: the claims the killed mailer held are moved back by
    # that much, as if the operator had waited for it.
    in_flight = stack.rows(
        "UPDATE games_notification SET claimed_at = claimed_at - interval '6 minutes' "
        "WHERE status = 'sending' RETURNING id"
    )
    sink.in_flight_when_killed |= {row["id"] for row in in_flight}
    stack.compose("start", "mailer")
    assert every_email_sent_once(stack, sink) >= 30
    stack.assert_running()


def test_emails_and_deadlines_survive_restarts_of_postgres_and_redis(stack, sink):
    """With the mailer stopped, invitations wait in Redis (AOF) and a deadline
    in PostgreSQL; both servers are stopped and started again; then the
    mailer sends every invitation once and the beat applies the deadline."""
    table = opened(new_table("restarts", 20, 3), stack, sink)
    decide_once(table, stack, random.Random(5))
    stack.compose("stop", "mailer")
    for n in range(3):
        new_game_posted(stack, f"restarts-queued-{n}", 3, 10 + n)
    queued = int(stack.rows("SELECT count(*) AS n FROM games_notification WHERE status = 'pending'")[0]["n"])
    assert queued >= 9
    stack.rows(f"UPDATE games_game SET deadline = now() + interval '20 seconds' WHERE id = {table.pk} RETURNING id")
    for server in ("redis", "postgres"):
        stack.compose("stop", server)
        stack.compose("start", server)
    wait_until(lambda: stack.containers()["postgres"].status == "running", timeout=30, what="postgres")
    stack.compose("start", "mailer")
    wait_until(
        lambda: any(r["actor"] == "deadline" for r in log_of(stack, table)),
        timeout=SWEEP_TIMEOUT,
        what="the beat's deadline sweep to apply the deadline set before the restarts",
        every=1.0,
    )
    each_step_once(stack, table)
    every_email_sent_once(stack, sink)
    stack.assert_running()
