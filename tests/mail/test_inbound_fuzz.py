"""1,000 generated hostile replies (tests/mail/hostile.py: random headers and
charsets, NULs, nesting, huge headers, broken Message-IDs, garbage bodies,
valid and forged reply addresses) through the real paths: inbound_store and
the task, and one in five through the Postmark webhook.

None raises; every stored one ends applied, refused or ignored; one without a
valid reply address changes nothing and is answered to nobody; none is
answered more than once. The summary line gives the figures
(pytest -s tests/mail/test_inbound_fuzz.py)."""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.models import ActionRecord, Game, InboundMessage, Notification, Seat
from games.services.inbound import inbound_store
from games.services.links import reply_address

from . import hostile
from .helpers import ANYMAIL_TEST_SETTINGS, basic_auth, started_game

pytestmark = pytest.mark.django_db(transaction=True)

COUNT = int(os.environ.get("FUZZ_COUNT", "1000"))
SEED = int(os.environ.get("FUZZ_SEED", "20261201"))
ANSWERS = ("reply_ok", "reply_error", "reply_refused")
FINAL = {InboundMessage.Status.APPLIED, InboundMessage.Status.REFUSED, InboundMessage.Status.IGNORED}


def _current_address(seat: Seat) -> str:
    seat = Seat.objects.select_related("game").get(pk=seat.pk)
    return reply_address(seat, seat.game.decision_version)


def _world() -> tuple:
    """What a reply could change: every game's version, the actions, the seats."""
    return (
        tuple(Game.objects.order_by("pk").values_list("version", flat=True)),
        ActionRecord.objects.count(),
        tuple(Seat.objects.order_by("pk").values_list("email_undeliverable", "emails_stopped", "missed_deadlines")),
    )


def _webhook(client: Client, raw: str, number: int) -> int:
    if number % 4:
        # A provider writes its JSON from the bytes it received: no lone
        # surrogate escapes, except in a few requests, to see them refused.
        raw = raw.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    response = client.post(
        "/anymail/postmark/inbound/",
        data=hostile.postmark_body(raw, "reply@example.invalid"),
        content_type="application/json",
        HTTP_AUTHORIZATION=basic_auth(),
    )
    return response.status_code


@pytest.mark.heavy
@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
def test_a_thousand_hostile_replies_raise_nothing_lose_nothing_and_answer_at_most_once(record_property):
    games = [started_game() for _ in range(3)]
    seats = list(Seat.objects.filter(game__in=games).select_related("game"))
    fuzz = hostile.Fuzz(SEED, seats, _current_address)
    client = Client(raise_request_exception=True)
    counts: Counter = Counter()
    started = time.monotonic()

    for number in range(COUNT):
        raw, valid = fuzz.message()
        before = _world()
        last = InboundMessage.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        mail.outbox.clear()
        if number % 5 == 0:
            status_code = _webhook(client, raw, number)
            assert status_code in (200, 400, 413), (number, status_code)
            counts[f"webhook {status_code}"] += 1
        else:
            inbound_store(raw=raw)
        new = list(InboundMessage.objects.filter(pk__gt=last))
        assert len(new) <= 1, number
        if not new:
            counts["not stored (duplicate or refused at the door)"] += 1
            assert _world() == before, number
            assert mail.outbox == [], number
            continue
        (stored,) = new
        assert stored.status in FINAL, (number, stored.status, stored.result)
        counts[stored.status] += 1
        answers = Notification.objects.filter(kind__in=ANSWERS, version=stored.pk)
        assert answers.count() <= 1, number
        counts["answered"] += answers.count()
        if not valid:
            counts["forged or no reply address"] += 1
            assert _world() == before, (number, stored.status, stored.result)
            assert mail.outbox == [] and not answers.exists(), number
            assert stored.seat_id is None, number
        elif stored.status != InboundMessage.Status.APPLIED:
            assert _world()[1] == before[1], number  # refused or ignored: no action taken

    took = time.monotonic() - started
    assert not InboundMessage.objects.exclude(status__in=FINAL).exists()
    # At most one "too large" answer per seat and hour, however many came.
    per_seat = Counter(Notification.objects.filter(kind="reply_refused").values_list("seat_id", flat=True))
    assert all(n == 1 for n in per_seat.values()), per_seat
    summary = ", ".join(f"{key}: {value}" for key, value in sorted(counts.items()))
    summary = f"fuzz seed {SEED}: {COUNT} replies in {took:.1f} s; {summary}"
    print("\n" + summary)
    record_property("summary", summary)
    assert counts[InboundMessage.Status.APPLIED] > 0 and counts[InboundMessage.Status.REFUSED] > 0
