"""Webhook deliveries through the outbox: retried with backoff, a webhook
failing for a day switched off with an email to its owner, each delivery
claimed once by two senders at once, and the proof of issue 15: a receiver
on the loopback gets signed deliveries during a whole game played with the
real worker, checks every signature and sees each event once, even with the
worker killed in the middle of a delivery."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game, Notification, Seat, WebhookDelivery
from games.services import sweeps
from games.services.decisions import decision_submit
from games.services.enqueue import enqueue_now
from games.services.game_state import load_state
from games.services.seat_settings import emails_stop
from games.services.setup import game_create, seat_accept
from games.services.webhook_send import FAILING_DAY, RETRY_SLACK, retry_delay
from games.services.webhooks import webhook_add
from tests.factories import next_turn_of, play_until, seat_at, started_game, tokens
from tests.mail.helpers import addresses
from tests.webhook_receiver import Receiver
from tests.worker import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def signed_hook(seat: Seat, receiver: Receiver, path: str, **fields):
    hook = webhook_add(seat=seat, kind="json", url=receiver.url(path), **fields)
    receiver.secrets[path] = hook.secret
    return hook


def test_a_failing_webhook_is_retried_with_backoff_and_switched_off_after_a_day_with_an_email(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/down"] = 503
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        game = started_game(3)
        hook = signed_hook(seat_at(game, 1), receiver, "/down")
        # Seat 1's turn: its delivery is tried at once (the task, run in
        # process here) and fails.
        game = next_turn_of(game, 1)
        delivery = WebhookDelivery.objects.get(webhook=hook)
        assert (delivery.status, delivery.attempts, delivery.response_status) == ("pending", 1, 503)
        assert delivery.next_attempt_at == start + timedelta(seconds=30)
        hook.refresh_from_db()
        assert hook.failing_since == start

        # While its task's retry may still come, the sweep leaves it be.
        clock.shift(timedelta(seconds=30) + RETRY_SLACK - timedelta(seconds=1))
        assert sweeps.webhooks_sweep() == 0
        waits = []
        while True:
            delivery.refresh_from_db()
            tried_at = timezone.now()
            clock.shift(delivery.next_attempt_at - tried_at + RETRY_SLACK + timedelta(seconds=1))
            assert sweeps.webhooks_sweep() == 1  # the retry, as a lost task's
            before = delivery.attempts
            delivery.refresh_from_db()
            assert delivery.attempts == before + 1
            if delivery.status != "pending":
                break
            waits.append(delivery.next_attempt_at - timezone.now())
            hook.refresh_from_db()
            assert hook.disabled_at is None, "switched off before a day of failures"
        # 30 s, 1 min, 2 min, ... up to half an hour, for a day.
        assert waits[:7] == [retry_delay(n) for n in range(2, 9)]
        assert [w.total_seconds() for w in waits[:7]] == [60, 120, 240, 480, 960, 1800, 1800]
        assert set(waits[7:]) == {timedelta(minutes=30)}
        assert timezone.now() - start >= FAILING_DAY
        assert timezone.now() - start < FAILING_DAY + timedelta(minutes=35)

        hook.refresh_from_db()
        assert hook.disabled_at is not None
        assert delivery.status == "failed" and delivery.body == ""
        # Every attempt reached the receiver, with the same delivery id.
        assert [a.delivery for a in receiver.arrivals] == [delivery.public_id] * delivery.attempts
        assert all(a.verified for a in receiver.arrivals)

    # Its owner is told, in an email with a link to the seat.
    note = Notification.objects.get(kind="webhook_off")
    assert note.seat == seat_at(game, 1) and note.status == "sent"
    (message,) = [m for m in mail.outbox if "switched off" in m.subject]
    assert addresses(message) == ["p1@example.com"]
    assert "has failed every time since" in message.body and "HTTP 503" in message.body
    assert tokens(game)[1] in message.body
    # Nothing more goes to it; the seat page says it is switched off.
    next_turn_of(game, 1)
    assert WebhookDelivery.objects.filter(webhook=hook).count() == 1
    assert "switched off after failing for a day" in Client().get(f"/s/{tokens(game)[1]}/settings").content.decode()


def test_a_delivery_that_goes_through_ends_the_failing_streak(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/flaky"] = 500
    game = started_game(3)
    hook = signed_hook(seat_at(game, 1), receiver, "/flaky")
    next_turn_of(game, 1)
    hook.refresh_from_db()
    assert hook.failing_since is not None
    receiver.statuses["/flaky"] = 200
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        assert sweeps.webhooks_sweep() == 1
    hook.refresh_from_db()
    assert hook.failing_since is None and hook.disabled_at is None
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    assert len(receiver.handled) == 1 and receiver.seen[delivery.public_id] == 2


def test_a_receiver_that_refuses_for_good_fails_that_delivery_at_once(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/gone"] = 404
    game = started_game(3)
    hook = signed_hook(seat_at(game, 1), receiver, "/gone")
    next_turn_of(game, 1)
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("failed", 1, "HTTP 404: ok")
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert sweeps.webhooks_sweep() == 0


def test_two_senders_at_once_post_a_delivery_once(celery_env, receiver, settings, tmp_path):
    """Two processes send the same delivery at the same moment; the receiver
    holds the first request open until both are done, so the second cannot
    slip in after the first has finished."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    celery_env.env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] = "true"
    game = started_game(3)
    hook = signed_hook(seat_at(game, 1), receiver, "/once")
    next_turn_of(game, 1)  # no worker runs: the delivery waits
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert delivery.status == "pending"
    receiver.hold = lambda arrival: True

    def sender(n: int) -> str:
        # Each waits for the other to be ready, then both send at once. The
        # held one waits for its answer longer than the 5 s it would.
        return (
            "import pathlib, time\n"
            "from games.services import webhook_http; webhook_http.TIMEOUT = 90\n"
            "from games.services.webhook_send import delivery_send\n"
            f"here = pathlib.Path({str(tmp_path)!r}); (here / 'ready-{n}').touch()\n"
            "while len(list(here.glob('ready-*'))) < 2: time.sleep(0.001)\n"
            f"print(delivery_send(delivery_id={delivery.pk}))"
        )

    senders = [celery_env.run(sender(0)), celery_env.run(sender(1))]
    wait_until(receiver.held.is_set, timeout=60, what="a sender's request")
    # One sender is held in its request; the other finds the delivery
    # claimed (or loses the claim) and ends without sending.
    wait_until(lambda: any(s.poll() is not None for s in senders), timeout=60, what="the other sender to give up")
    assert sum(s.poll() is None for s in senders) == 1
    receiver.release()
    outputs = [s.communicate(timeout=60) for s in senders]
    assert [s.returncode for s in senders] == [0, 0], outputs
    assert [a.delivery for a in receiver.arrivals] == [delivery.public_id]
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 1)


def test_two_senders_at_once_for_one_webhooks_old_and_new_deliveries_send_the_old_one_first(
    celery_env, receiver, settings, tmp_path
):
    """One process is given the webhook's newest delivery, the other its
    oldest, at the same moment. Whichever claims first sends the oldest
    (the queue's head), held open by the receiver; the other finds the
    webhook busy and ends without sending anything; the first then goes on
    down the queue."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    celery_env.env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] = "true"
    game = started_game(3)
    hook = signed_hook(seat_at(game, 0), receiver, "/queue", table=True)
    play_until(game, lambda s: len(s.results) >= 1, random.Random(3))  # no worker runs: all wait
    rows = list(WebhookDelivery.objects.filter(webhook=hook).order_by("version", "pk"))
    assert {r.status for r in rows} == {"pending"} and len(rows) > 2
    receiver.hold = lambda arrival: True

    def sender(n: int, delivery_id: int) -> str:
        return (
            "import pathlib, time\n"
            "from games.services import webhook_http; webhook_http.TIMEOUT = 90\n"
            "from games.services.webhook_send import delivery_send\n"
            f"here = pathlib.Path({str(tmp_path)!r}); (here / 'ready-{n}').touch()\n"
            "while len(list(here.glob('ready-*'))) < 2: time.sleep(0.001)\n"
            f"print(delivery_send(delivery_id={delivery_id}))"
        )

    senders = [celery_env.run(sender(0, rows[-1].pk)), celery_env.run(sender(1, rows[0].pk))]
    wait_until(receiver.held.is_set, timeout=60, what="a sender's request")
    wait_until(lambda: any(s.poll() is not None for s in senders), timeout=60, what="the other sender to give up")
    assert sum(s.poll() is None for s in senders) == 1
    (held,) = receiver.arrivals
    # Every turn before race 1's result was decided long ago: superseded.
    head = next(r for r in rows if r.event == "race")
    assert held.delivery == head.public_id
    before = WebhookDelivery.objects.filter(webhook=hook, pk__in=[r.pk for r in rows[: rows.index(head)]])
    assert set(before.values_list("status", flat=True)) <= {"superseded"}
    receiver.release()
    outputs = [s.communicate(timeout=60) for s in senders]
    assert [s.returncode for s in senders] == [0, 0], outputs
    sent = list(WebhookDelivery.objects.filter(webhook=hook, status="sent").order_by("version", "pk"))
    assert [a.delivery for a in receiver.arrivals] == [r.public_id for r in sent]
    assert sent[0] == head and sent[-1].event == "turn"
    assert not WebhookDelivery.objects.filter(webhook=hook, status__in=("pending", "sending")).exists()


def persons_choice(state: engine.State, position: int) -> str:
    """A modest bid while it is cheap, else the first legal decision."""
    options = [engine.format_action(a) for a in engine.legal_actions(state)]
    cheap = [o for o in options if o.startswith("bid ") and int(o.split()[1]) <= 4]
    if cheap:
        return cheap[0]
    return "pass" if "pass" in options else options[0]


def test_a_receiver_on_the_loopback_gets_every_event_of_a_game_once_and_signed_though_the_worker_is_killed_mid_delivery(
    celery_env, celery_worker, receiver, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    celery_env.env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] = "true"
    game = game_create(
        host_name="Hostess", host_email="hostess@example.com", other_emails=[], decision_hours=24,
        ruleset_name="classic", computers=["simple", "simple", "simple"],
    )
    person = seat_accept(seat=seat_at(game, 0), colour="red", display_name="Hostess", time_zone="Europe/Paris")
    emails_stop(seat=person)
    person = seat_at(game, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    table = signed_hook(person, receiver, "/table", table=True)
    mine = signed_hook(person, receiver, "/mine", include_link=True)
    person = seat_at(game, 0)
    # Started now: nothing moved since the game began.
    first_turn_unannounced = engine.to_move(load_state(game)) == 0
    worker = celery_worker()
    # The first delivery of race 1's result to the table is held open: the
    # worker sending it is killed then.
    receiver.hold = lambda arrival: arrival.path == "/table" and arrival.headers["X-Versailles-Event"] == "race"
    decisions = 0
    killed = None

    def next_step():
        if receiver.held.is_set() and killed is None:
            return "held"
        current = Game.objects.get(pk=game.pk)
        if current.status == Game.Status.OVER:
            return "over"
        return "mine" if engine.to_move(load_state(current)) == 0 else None

    while True:
        step = wait_until(next_step, timeout=120, what="the computer players, or a held delivery")
        if step == "over":
            break
        if step == "held":
            (held,) = [a.delivery for a in receiver.arrivals if a.path == "/table" and a.json["event"] == "race"]
            worker.kill()
            killed = held
            receiver.release()
            assert WebhookDelivery.objects.get(public_id=held).status == "sending"  # claimed by the dead worker
            worker = celery_worker()
            # The beat's sweep, once the claim is older than the grace period.
            with time_machine.travel(timezone.now() + sweeps.SENDING_GRACE + timedelta(minutes=1)):
                assert sweeps.webhooks_sweep() >= 1
            wait_until(lambda held=held: receiver.seen[held] == 2, what="the held delivery to be sent again")
            # A computer player's turn the dead worker had taken is lost with it.
            enqueue_now("games.computer_moves", game.pk)
            continue
        current = Game.objects.get(pk=game.pk)
        state = load_state(current)
        decision_submit(seat=seat_at(game, 0), text=persons_choice(state, 0), seen_version=current.decision_version)
        decisions += 1
        assert decisions < 1000, "the game does not end"

    deliveries = WebhookDelivery.objects.filter(game=game)
    finished = ("sent", "superseded")

    for _beat in range(4):
        try:
            wait_until(
                lambda: not deliveries.exclude(status__in=finished).exists(), timeout=30, what="every delivery sent"
            )
            break
        except AssertionError:
            # What a lost task left: the beat's sweep finds it.
            with time_machine.travel(timezone.now() + timedelta(minutes=1)):
                sweeps.webhooks_sweep()
    assert not deliveries.exclude(status__in=finished).exists(), list(deliveries.exclude(status__in=finished).values())
    assert killed is not None, "no delivery was held and no worker killed"
    # Only a turn is ever superseded (the person decided before it went
    # out, or while the table's queue waited for the dead worker's claim),
    # and a superseded one never reached the receiver.
    superseded = set(deliveries.filter(status="superseded").values_list("public_id", flat=True))
    assert set(deliveries.filter(status="superseded").values_list("event", flat=True)) <= {"turn"}
    assert not superseded & set(receiver.seen)
    sent = deliveries.filter(status="sent")

    # Every signature verifies by the documented recipe.
    assert receiver.arrivals and all(a.verified for a in receiver.arrivals)
    # Each event once: every delivery sent handled, none twice; the one the
    # dead worker was sending arrived again and was recognised.
    ids = set(sent.values_list("public_id", flat=True))
    assert set(receiver.handled) == ids
    assert len(receiver.handled) == len(ids)
    duplicates = [a.delivery for a in receiver.arrivals if a.duplicate]
    assert killed in duplicates
    assert sum(1 for a in receiver.arrivals if not a.duplicate) == len(ids)
    # Each webhook's deliveries arrived in the game's order.
    for path in ("/table", "/mine"):
        versions = [a.json["game"]["version"] for a in receiver.handled.values() if a.path == path]
        assert versions == sorted(versions), path

    told = [receiver.handled[i].json for i in ids]
    table_told = [b for b in told if b["scope"] == "table"]
    assert sorted(b["race"]["number"] for b in table_told if b["event"] == "race") == [1, 2, 3, 4, 5, 6]
    assert [b["event"] for b in table_told].count("over") == 1
    table_turns = [b for b in table_told if b["event"] == "turn"]
    # Whose turn: the person's, each time (the computer players decide at
    # once), each told or superseded.
    assert len(table.deliveries.filter(event="turn")) == decisions - int(first_turn_unannounced)
    assert {b["turn"]["player"] for b in table_turns} == {"Hostess"}
    my_turns = [b for b in told if b["scope"] == "seat" and b["event"] == "turn"]
    assert len(mine.deliveries.filter(event="turn")) == decisions - int(first_turn_unannounced)
    link = tokens(game)[0]
    assert all(b["link"].endswith(f"/s/{link}/") for b in my_turns)
    assert not [b for b in table_told if link in str(b) or "/s/" in str(b)]
    assert table.deliveries.count() + mine.deliveries.count() == len(ids) + len(superseded)


@pytest.mark.heavy
def test_after_an_outage_a_receiver_gets_every_delivery_once_in_the_games_order_and_no_stale_turn(
    celery_env, celery_worker, receiver, settings
):
    """Issue 32's measurement: a receiver answering 500 for a while, the game
    going on meanwhile, two workers sending. Afterwards each webhook's deliveries arrive in
    version order (the race's result before the turns after it), none
    twice, and a "your turn" decided during the outage is superseded, not
    delivered late."""
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    celery_env.env["WEBHOOK_ALLOW_PRIVATE_ADDRESSES"] = "true"
    game = game_create(
        host_name="Hostess", host_email="hostess@example.com", other_emails=[], decision_hours=24,
        ruleset_name="classic", computers=["simple", "simple", "simple"],
    )
    person = seat_accept(seat=seat_at(game, 0), colour="red", display_name="Hostess", time_zone="Europe/Paris")
    emails_stop(seat=person)
    person = seat_at(game, 0)
    table = signed_hook(person, receiver, "/table", table=True)
    mine = signed_hook(person, receiver, "/mine")
    receiver.statuses.update({"/table": 500, "/mine": 500})
    # Two workers take the tasks as they come: a webhook's deliveries are
    # sent by either, in order all the same.
    celery_worker()
    celery_worker()

    def play_until_races(races: int) -> int:
        """The person's decisions (the computer players' come from the
        worker) until ``races`` races are over; how many were made."""
        made = 0
        while True:
            current = wait_until(
                lambda: (g := Game.objects.get(pk=game.pk)).status == Game.Status.OVER
                or engine.to_move(load_state(g)) == 0 and g,
                timeout=120,
                what="the computer players",
            )
            if current is True or len(load_state(current).results) >= races:
                return made
            state = load_state(current)
            decision_submit(seat=seat_at(game, 0), text=persons_choice(state, 0), seen_version=current.decision_version)
            made += 1

    assert play_until_races(1) >= 2
    # Race 1's result has been tried (and refused) before the receiver
    # answers again.
    wait_until(lambda: table.deliveries.filter(key="race:1", attempts__gte=1).exists(), what="race 1's result tried")
    deliveries = WebhookDelivery.objects.filter(game=game)
    during = set(deliveries.values_list("public_id", flat=True))
    assert not receiver.handled and {a.status for a in receiver.arrivals} == {500}
    receiver.statuses.update({"/table": 200, "/mine": 200})
    recovered = timezone.now()
    # The game goes on at once: its new events wait behind the old ones.
    play_until_races(2)
    finished = ("sent", "superseded")
    # The oldest waits out its 30 s backoff (a minute if it failed twice).
    wait_until(lambda: not deliveries.exclude(status__in=finished).exists(), timeout=150, what="every delivery sent")

    sent = deliveries.filter(status="sent")
    superseded = deliveries.filter(status="superseded")
    # In the game's order, each webhook's own; none twice.
    for path in ("/table", "/mine"):
        versions = [a.json["game"]["version"] for a in receiver.handled.values() if a.path == path]
        assert versions and versions == sorted(versions), path
    assert not [a.delivery for a in receiver.arrivals if a.duplicate]
    assert set(receiver.handled) == set(sent.values_list("public_id", flat=True))
    assert all(a.verified for a in receiver.arrivals)
    # Race 1's result, failed during the outage, went out after it; what
    # the game did meanwhile waited for it and came after it.
    race_1 = table.deliveries.get(key="race:1")
    assert race_1.public_id in during
    assert race_1.status == "sent" and race_1.attempts >= 2 and race_1.created_at < recovered
    newer = table.deliveries.filter(version__gt=race_1.version, created_at__lt=race_1.sent_at, status="sent")
    assert newer.exists(), "nothing newer waited for race 1's result"
    order = list(receiver.handled)
    assert all(order.index(race_1.public_id) < order.index(d.public_id) for d in newer)
    # The person's turns decided during the outage: tried, then superseded,
    # never delivered; only turns are ever superseded.
    assert set(superseded.values_list("event", flat=True)) == {"turn"}
    stale = mine.deliveries.filter(status="superseded", attempts__gte=1)
    assert stale.exists()
    assert not set(superseded.values_list("public_id", flat=True)) & set(receiver.handled)
    # The turn the person has now still holds: it is told.
    assert mine.deliveries.order_by("version").last().status == "sent"
