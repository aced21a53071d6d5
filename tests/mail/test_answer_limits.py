"""Answers to replies by email that a player can answer, and that nobody can
turn into a flood (issue 30): each carries the seat's current reply address
and threads under the reply; a seat gets at most one answer in ten minutes,
whatever the replies said, and the next answer tells how many were held
back; a reply to an address whose decision is days old is answered at most
once a day. Decisions are applied all the same."""

from __future__ import annotations

import random
import re
import uuid
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games.models import ActionRecord, Game, InboundMessage, Notification, Seat
from games.services.decisions import decision_submit
from games.services.inbound import inbound_store
from games.services.links import reply_address, seat_by_reply_address

from . import hostile
from .helpers import later, mails_to, mover, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER_KINDS = ("reply_ok", "reply_error", "reply_refused")
FOLDED = re.compile(r"This answers your reply and (\d+) more repl(?:y|ies) since the last answer")


def _answers(seat) -> list:
    return [m for m in mails_to(seat.email) if set(m.tags) & set(ANSWER_KINDS)]


def _send(seat, address: str, first_line: str, message_id: str | None = None) -> InboundMessage:
    stored = inbound_store(raw=reply(to=address, sender=seat.email, first_line=first_line, message_id=message_id))
    assert stored is not None
    stored.refresh_from_db()
    return stored


def _folded(answer) -> int:
    found = FOLDED.search(answer.body)
    return int(found.group(1)) if found else 0


def test_a_refusal_carries_the_address_of_the_decision_asked_now_and_answering_it_decides():
    game = started_game()
    seat = mover(game)
    asked = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    _send(seat, asked, "hello there")
    (refusal,) = _answers(seat)
    assert refusal.reply_to == [asked]
    # Answering the refusal, as a mail client does, reaches the seat.
    with later():
        stored = _send(seat, refusal.reply_to[0], "pass")
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    assert [a.action for a in ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL)] == ["pass"]


def test_an_answer_to_a_reply_that_came_too_late_carries_the_address_of_the_decision_asked_now():
    game = started_game()
    first = mover(game)
    old = turn_mail(first).reply_to[0]
    decision_submit(seat=first, text="pass", seen_version=game.decision_version)
    game.refresh_from_db()
    mail.outbox.clear()
    _send(first, old, "bid 4")
    (answer,) = _answers(first)
    assert answer.reply_to == [reply_address(first, game.decision_version)]
    assert answer.reply_to != [old]


def test_an_applied_reply_is_answered_with_a_reply_to_and_threaded_under_it():
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    _send(seat, address, "pass", message_id="<mine@client.example>")
    (answer,) = _answers(seat)
    game.refresh_from_db()
    assert answer.reply_to == [reply_address(seat, game.decision_version)]
    headers = answer.message()
    assert headers["In-Reply-To"] == headers["References"] == "<mine@client.example>"


def test_replies_within_ten_minutes_get_one_answer_and_the_next_answer_counts_the_others():
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for minute in range(4):
            _send(seat, address, f"hello {minute}")
            clock.shift(timedelta(minutes=2))
        assert len(_answers(seat)) == 1
        clock.shift(timedelta(minutes=3))  # 11 minutes after the first answer
        _send(seat, address, "still hello")
    first, second = _answers(seat)
    assert _folded(first) == 0 and "more repl" not in first.body
    assert _folded(second) == 3
    assert "and 3 more replies since the last answer" in second.body
    assert "and 3 more replies" in second.alternatives[0][0]
    assert InboundMessage.objects.filter(status=InboundMessage.Status.REFUSED).count() == 5


def test_a_german_seat_is_told_of_the_held_answers_in_german():
    game = started_game()
    seat = mover(game)
    Seat.objects.filter(pk=seat.pk).update(language="de")
    address = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    _send(seat, address, "hallo")
    _send(seat, address, "hallo nochmal")
    with later():
        _send(seat, address, "hallo zum dritten")
    last = _answers(seat)[-1]
    assert "Diese Antwort gilt für deine Mail und 1 weitere seit der letzten Antwort" in last.body


def test_a_decision_whose_answer_is_held_back_is_applied_once():
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    _send(seat, address, "hello")
    stored = _send(seat, address, "pass")
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    assert len(_answers(seat)) == 1  # the refusal's; the decision's was held back
    assert not Notification.objects.filter(seat=seat, kind="reply_ok").exists()
    assert mover(game) != seat
    # The same decision mailed again is refused, never applied twice.
    with later():
        again = _send(seat, address, "pass")
    assert again.status == InboundMessage.Status.REFUSED
    assert ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).count() == 1
    assert _folded(_answers(seat)[-1]) == 1


def test_a_reply_past_the_limits_is_held_back_by_the_same_rule():
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    mail.outbox.clear()
    _send(seat, address, "hello")
    inbound_store(raw=hostile.many_parts(address, count=300))
    assert len(_answers(seat)) == 1
    with later():
        inbound_store(raw=hostile.many_parts(address, count=300))
    (_, refused) = _answers(seat)
    assert "too many parts" in refused.body and _folded(refused) == 1
    assert refused.reply_to == [address]


def test_a_reply_to_an_address_days_old_is_answered_once_a_day():
    game = started_game()
    seat = mover(game)
    old = turn_mail(seat).reply_to[0]
    decision_submit(seat=seat, text="pass", seen_version=game.decision_version)
    game.refresh_from_db()
    current = reply_address(seat, game.decision_version)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(days=4), tick=False) as clock:
        _send(seat, old, "bid 3")
        assert len(_answers(seat)) == 1
        for _ in range(6):
            clock.shift(timedelta(hours=2))
            _send(seat, old, "bid 3")
        assert len(_answers(seat)) == 1
        # The seat's current address is held to the ten minutes only.
        _send(seat, current, "hello")
        assert len(_answers(seat)) == 2
        clock.shift(timedelta(hours=13))  # more than a day after the first answer
        _send(seat, old, "bid 3")
    first, current_answer, next_day = _answers(seat)
    assert _folded(first) == 0 and _folded(current_answer) == 6 and _folded(next_day) == 0
    assert "This decision was already made" in next_day.body


def test_a_reply_to_a_game_over_for_days_is_answered_once_a_day(settings):
    game = started_game(3)
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABORTED, ended_at=timezone.now())
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + timedelta(days=settings.REPLY_OLD_AFTER_DAYS, minutes=1), tick=False):
        _send(seat, address, "pass")
        with later():
            _send(seat, address, "pass")
    (answer,) = _answers(seat)
    assert "a moderator has ended the game" in answer.subject


def _address_with_version(address: str, version: int) -> str:
    """Another version of the seat's reply address: the version is not signed,
    so whoever saw one address can write all of them."""
    local, domain = address.split("@")
    seat_id, _version, secret = local.removeprefix("reply+").split(".")
    return f"reply+{seat_id}.{version}.{secret}@{domain}"


GARBAGE = [
    "", "hello", "Hi,", "bid", "bid twelve thousand", "push purple", "remove", "roll roll roll", "\u202e\u0000",
    "x" * 500, "<html><body>pass</body></html>", "pass pass", "bid -1", "ich", "🙂",
]


@pytest.mark.heavy
def test_a_thousand_replies_to_one_seat_cause_no_more_answers_than_the_limits_allow():
    rng = random.Random(30)
    game = started_game()
    seat = mover(game)
    address = turn_mail(seat).reply_to[0]
    version = game.decision_version
    addresses = {
        "current": address,
        "earlier": _address_with_version(address, max(version - 1, 0)),
        "first": _address_with_version(address, 0),
        "unknown": _address_with_version(address, version + 10_000),
    }
    assert all(seat_by_reply_address(a) for a in addresses.values())
    mail.outbox.clear()
    sent: dict[str, tuple[str, float]] = {}  # Message-ID -> address name, seconds since start
    start = timezone.now()
    seconds_apart = 3
    with time_machine.travel(start, tick=False) as clock:
        for number in range(1000):
            name = rng.choice(list(addresses))
            message_id = f"<{uuid.uuid4().hex}@flood.example>"
            sent[message_id] = (name, number * seconds_apart)
            if number % 100 == 99:
                raw = hostile.many_parts(addresses[name], 300)
                raw = re.sub(r"Message-ID: [^\r\n]*", f"Message-ID: {message_id}", raw, count=1)
                inbound_store(raw=raw)
            else:
                first_line = rng.choice(GARBAGE + ["pass", "bid 3", "bid 0", "passe"])
                raw = reply(to=addresses[name], sender=seat.email, first_line=first_line, message_id=message_id)
                inbound_store(raw=raw)
            clock.shift(timedelta(seconds=seconds_apart))
        span = 1000 * seconds_apart
        # One more, once the last pause is over: it tells of every reply held back.
        clock.shift(timedelta(minutes=11))
        last_id = "<last@flood.example>"
        sent[last_id] = ("current", span + 660)
        inbound_store(raw=reply(to=address, sender=seat.email, first_line="hello", message_id=last_id))

    assert InboundMessage.objects.filter(seat=seat).count() == 1001
    assert not InboundMessage.objects.exclude(
        status__in=[InboundMessage.Status.APPLIED, InboundMessage.Status.REFUSED]
    ).exists()
    # One decision at most: once the seat passed, the auction is someone else's.
    assert ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).count() <= 1

    answers = _answers(seat)
    answered = [sent[answer.message()["In-Reply-To"]] for answer in answers]
    times = [when for _, when in answered]
    # Ten minutes apart at least, so no more than one per ten minutes started.
    assert all(later_one - earlier >= 600 for earlier, later_one in zip(times, times[1:], strict=False))
    assert 2 <= len(answers) <= 1 + (span + 660) // 600
    # Addresses of decisions the log does not know are old: once a day.
    assert sum(1 for name, _ in answered if name in ("first", "unknown")) <= 1
    # Every reply was answered or told of in the next answer.
    assert len(answers) + sum(_folded(answer) for answer in answers) == 1001
    assert all(_folded(answer) > 0 for answer in answers[1:])

    game.refresh_from_db()
    for answer in answers:
        headers = answer.message()
        assert headers["References"] == headers["In-Reply-To"]
        found = seat_by_reply_address(answer.reply_to[0])
        assert found is not None and found[0] == seat
    assert answers[-1].reply_to == [reply_address(seat, game.decision_version)]
