"""Webhook deliveries in the game's order (issue 32, point 5): a webhook's
newer deliveries wait while an older one is retried and follow it in
version order once it goes through; a turn that a later decision made stale
is superseded, shown so, and never sent; every body says when its event
happened and at which version. Tasks run in process here, the beat's sweep
by hand; tests/celery/test_webhook_delivery.py has the real worker."""

from __future__ import annotations

import random
import re
import zoneinfo
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import timezone

from games import engine
from games.models import Game, WebhookDelivery
from games.services import sweeps
from games.services.decisions import decision_submit
from games.services.game_state import load_state
from games.services.moderation import MODERATORS_GROUP
from games.services.seat_settings import language_set
from games.services.webhook_send import RETRY_SLACK, deliveries_release
from games.services.webhooks import webhook_add
from tests.factories import next_turn_of, play_until, seat_at, started_game, tokens
from tests.webhook_receiver import Receiver

pytestmark = pytest.mark.django_db(transaction=True)


def hooked(seat, receiver: Receiver, path: str, kind: str = "json", **fields):
    hook = webhook_add(seat=seat, kind=kind, url=receiver.url(path), **fields)
    if kind == "json":
        receiver.secrets[path] = hook.secret
    return hook


def queue(hook) -> list[WebhookDelivery]:
    return list(WebhookDelivery.objects.filter(webhook=hook).order_by("version", "pk"))


def turns(hook) -> list[WebhookDelivery]:
    return [row for row in queue(hook) if row.event == "turn"]


def recover(receiver: Receiver, path: str) -> None:
    """The receiver answers again; the beat's sweep, once the waiting
    delivery's retry is late, sends it (and the queue behind it)."""
    receiver.statuses[path] = 200
    due = WebhookDelivery.objects.filter(status="pending").exclude(next_attempt_at=None)
    latest = max(d.next_attempt_at for d in due)
    with time_machine.travel(latest + RETRY_SLACK + timedelta(seconds=1)):
        sweeps.webhooks_sweep()


def test_newer_deliveries_wait_while_an_older_one_is_retried_and_then_go_out_after_it_in_version_order(
    receiver, settings
):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/table"] = 500
    game = started_game(3)
    hook = hooked(seat_at(game, 0), receiver, "/table", table=True)
    # Down until race 1 is over and the game has gone some way past it.
    game = play_until(game, lambda s: len(s.results) >= 1, random.Random(5))
    game = play_until(game, lambda s: engine.decision_kind(s) == "bid", random.Random(6))
    rows = queue(hook)
    assert [r.event for r in rows].count("race") == 1
    # One delivery at a time was tried: while the first one waits out its
    # backoff nothing newer goes out; a stale turn at the head gave way.
    tried = [r for r in rows if r.attempts]
    assert len([r for r in tried if r.status == "pending"]) == 1
    (head,) = [r for r in rows if r.status == "pending" and r.attempts]
    held = [r for r in rows if r.status == "pending" and not r.attempts]
    assert held and all((r.version, r.pk) > (head.version, head.pk) for r in held)
    assert {a.status for a in receiver.arrivals} == {500}
    # A stale turn is superseded, never left to be sent.
    assert {r.status for r in rows if r.event == "turn" and r.version < game.decision_version} == {"superseded"}
    # The sweep sends the head only, not what waits behind it.
    with time_machine.travel(head.next_attempt_at + RETRY_SLACK + timedelta(seconds=1)):
        assert deliveries_release(older_than=sweeps.SENDING_GRACE) == [head.pk]

    recover(receiver, "/table")
    rows = queue(hook)
    assert {r.status for r in rows} <= {"sent", "superseded"}
    handled = list(receiver.handled.values())
    assert [a.delivery for a in handled] == [r.public_id for r in rows if r.status == "sent"]
    versions = [a.json["game"]["version"] for a in handled]
    assert versions == sorted(versions)
    assert max(receiver.seen[a.delivery] for a in handled) <= 2  # a 500 at most, then once
    assert not [a for a in receiver.arrivals if a.duplicate]
    superseded = {r.public_id for r in rows if r.status == "superseded"}
    assert superseded and not superseded & set(receiver.handled)
    # The race's result went out before every turn that came after it.
    events = [a.json["event"] for a in handled]
    assert "race" in events and "turn" in events[events.index("race") :]


def test_a_turn_decided_while_its_delivery_waited_is_superseded_and_both_pages_say_so(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/mine"] = 503
    game = started_game(3)
    hook = hooked(seat_at(game, 1), receiver, "/mine")
    game = next_turn_of(game, 1)
    turn = queue(hook)[-1]
    assert (turn.status, turn.attempts, turn.version) == ("pending", 1, game.decision_version)
    # Seat 1 decides: the "your turn" waiting for its retry no longer holds.
    state = load_state(game)
    decision_submit(
        seat=seat_at(game, 1),
        text=engine.format_action(engine.default_action(state)),
        seen_version=game.decision_version,
    )
    receiver.statuses["/mine"] = 200
    with time_machine.travel(turn.next_attempt_at + RETRY_SLACK + timedelta(seconds=1)):
        sweeps.webhooks_sweep()
    turn.refresh_from_db()
    assert (turn.status, turn.body, turn.context) == ("superseded", "", None)
    # Tried once, during the outage, and never again.
    assert [a.status for a in receiver.arrivals if a.delivery == turn.public_id] == [503]
    assert turn.public_id not in receiver.handled

    page = Client().get(f"/s/{tokens(game)[1]}/webhooks/{hook.pk}/").content.decode()
    assert "turn — superseded by a later decision" in page
    assert "Deliveries come one at a time in the game" in page
    language_set(seat=seat_at(game, 1), language="de")
    page = Client().get(f"/s/{tokens(game)[1]}/webhooks/{hook.pk}/").content.decode()
    assert "durch eine spätere Entscheidung überholt" in page
    user = User.objects.create_user("mod", email="mod@example.org", password="x" * 20, is_staff=True)
    user.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    client = Client()
    client.force_login(user)
    html = client.get(f"/mod/g/{game.public_id}/").content.decode()
    assert re.search(r"turn → JSON, signed 127\.0\.0\.1 — superseded by a later decision", html), html


def test_a_turn_still_to_be_decided_is_sent_after_an_outage_and_one_of_an_aborted_game_is_not(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/mine"] = 500
    game = started_game(3)
    hook = hooked(seat_at(game, 1), receiver, "/mine")
    next_turn_of(game, 1)
    recover(receiver, "/mine")
    turn = turns(hook)[-1]
    assert turn.status == "sent" and turn.public_id in receiver.handled

    receiver.statuses["/mine"] = 500
    game = next_turn_of(game, 1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED)
    recover(receiver, "/mine")
    # (Seat 1 may have had more than one turn since, each stale by now.)
    later = [r for r in turns(hook) if r.version > turn.version]
    assert later and {r.status for r in later} == {"superseded"}
    assert not {r.public_id for r in later} & set(receiver.handled)


def test_two_webhooks_queues_do_not_wait_for_each_other(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    receiver.statuses["/down"] = 500
    game = started_game(3)
    down = hooked(seat_at(game, 0), receiver, "/down", table=True)
    up = hooked(seat_at(game, 0), receiver, "/up", table=True)
    play_until(game, lambda s: len(s.results) >= 1, random.Random(5))
    assert {r.status for r in queue(up)} <= {"sent", "superseded"}
    assert "race" in [r.event for r in queue(up) if r.status == "sent"]
    assert "pending" in {r.status for r in queue(down)}


def test_every_body_says_when_its_event_happened_and_at_which_version(receiver, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = True
    game = started_game(3)
    moment = timezone.now().replace(microsecond=0)
    with time_machine.travel(moment, tick=False):
        hooked(seat_at(game, 1), receiver, "/json")
        hooked(seat_at(game, 1), receiver, "/discord", kind="discord")
        hooked(seat_at(game, 0), receiver, "/slack", kind="slack", table=True)
        game = next_turn_of(game, 1)
    version = game.decision_version
    (json_turn,) = [a.json for a in receiver.bodies("/json")]
    assert json_turn["game"]["version"] == version
    assert json_turn["occurred_at"] == moment.isoformat()
    # The seat's chat in the seat's time zone (Europe/Berlin, an hour or
    # two ahead of UTC); the table's in UTC.
    berlin = moment.astimezone(zoneinfo.ZoneInfo("Europe/Berlin"))
    (discord,) = [a.json["content"] for a in receiver.bodies("/discord")]
    assert f"{berlin:%H:%M} (Europe/Berlin) · version {version} of the game" in discord
    slack = [a.json["text"] for a in receiver.bodies("/slack")]
    assert slack and all(f"{moment:%H:%M} UTC · version " in text for text in slack)
    assert f"version {version} of the game" in slack[-1]
