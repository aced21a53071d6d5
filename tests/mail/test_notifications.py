"""What a player finds in their inbox: one message per recipient, readable as
text and HTML, with the deadline in their own time zone
(docs/architecture.md#links-in-email)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.utils import timezone

from games import engine
from games.board.text import board_text
from games.models import Game, Notification, Seat
from games.selectors.seat import local_time
from games.services.decisions import decision_submit, orders_apply_now
from games.services.game_state import load_state
from games.services.links import reply_token, seat_token, unsubscribe_token
from games.services.sweeps import digests_send
from tests.factories import seat_at

from .helpers import addresses, mails_to, mover, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_email_goes_to_exactly_one_recipient():
    started_game()
    assert mail.outbox
    for message in mail.outbox:
        assert len(message.to) == 1
        assert not message.cc and not message.bcc


def test_a_decision_email_has_the_link_the_local_deadline_the_board_and_an_inline_picture():
    game = started_game()
    seat = mover(game)
    assert seat.time_zone != "UTC"
    message = turn_mail(seat)
    assert addresses(message) == [seat.email]

    token = seat_token(seat)
    link = f"{settings.SITE_URL}/s/{token}/"
    assert link in message.body

    (html, mimetype), = message.alternatives
    assert mimetype == "text/html"
    assert link in html

    # The deadline as an absolute time in the seat's own zone, in both parts.
    local = local_time(game.deadline, seat.time_zone)
    shown = f"{local:%a} {local.day} {local:%b %Y, %H:%M} ({seat.time_zone})"
    assert shown in message.body
    assert shown in html
    in_utc = local_time(game.deadline, "UTC")
    assert f"{in_utc.day} {in_utc:%b %Y, %H:%M}" not in message.body

    # The table as text.
    state = load_state(game)
    names = {s.colour: s.name for s in Seat.objects.filter(game=game)}
    table = board_text(engine.observe(state, seat.position), names)
    assert table.strip()
    assert table in message.body

    # The board picture: an inline PNG part the HTML refers to by cid.
    assert 'src="cid:board"' in html
    raw = message.message()
    assert raw.get_content_type() == "multipart/related"
    images = [part for part in raw.walk() if part.get_content_type() == "image/png"]
    assert len(images) == 1
    assert images[0]["Content-ID"] == "<board>"
    assert images[0]["Content-Disposition"].startswith("inline")
    assert images[0].get_payload(decode=True).startswith(b"\x89PNG\r\n\x1a\n")
    parts = {part.get_content_type() for part in raw.walk()}
    assert {"text/plain", "text/html", "image/png"} <= parts


def test_a_decision_email_carries_one_click_unsubscribe_a_reply_address_and_no_click_tracking():
    game = started_game()
    seat = mover(game)
    message = turn_mail(seat)

    assert message.extra_headers["List-Unsubscribe"] == f"<{settings.SITE_URL}/u/{unsubscribe_token(seat)}/>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    raw = message.message()
    assert raw["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    (reply_to,) = message.reply_to
    expected = f"reply+{seat.pk}.{game.decision_version}.{reply_token(seat)}@{settings.REPLY_DOMAIN}"
    assert reply_to == expected
    assert re.fullmatch(r"reply\+\d+\.\d+\.[0-9a-f]{32}@" + re.escape(settings.REPLY_DOMAIN), reply_to)

    assert message.track_clicks is False
    assert message.track_opens is False


def test_no_email_carries_another_seats_secrets():
    game = started_game()
    game = _play(game, 6)
    seats = list(Seat.objects.select_related("game").filter(game=game))
    secrets = {s.email: {seat_token(s), reply_token(s)} for s in seats}
    assert len(mail.outbox) > 10
    for message in mail.outbox:
        (recipient,) = addresses(message)
        text = message.message().as_string()
        for email, own in secrets.items():
            for secret in own:
                if email == recipient:
                    continue
                assert secret not in message.subject
                assert secret not in text, f"a secret of {email} in a mail to {recipient}"
        # The game's seed stays secret until the end.
        assert game.seed not in text


def test_a_decision_email_tells_what_happened_since_the_seats_last_decision():
    game = started_game()
    first = mover(game)
    decision_submit(seat=first, text="bid 1", seen_version=game.decision_version)
    others = []
    for _ in range(10):
        seat = mover(game)
        if seat.position == first.position:
            break
        text = "pass" if len(others) % 2 else f"bid {len(others) + 2}"
        others.append((seat, text))
        decision_submit(seat=seat, text=text, seen_version=game.decision_version)
    else:
        pytest.fail("the first bidder never came round again")
    assert others
    message = turn_mail(first)
    since = message.body.split("Since your last decision:", 1)[1]
    for seat, text in others:
        said = f"{seat.name} bid {text.split()[1]}." if text.startswith("bid") else f"{seat.name} passed."
        assert said in since
    # Its own bid is not news to it.
    assert f"{first.name} bid 1." not in since
    html = message.alternatives[0][0]
    assert "Since your last decision:" in html
    assert f"<li>{others[0][0].name} bid 2.</li>" in html


def _play(game: Game, steps: int) -> Game:
    for _ in range(steps):
        seat = mover(game)
        state = load_state(game)
        action = engine.default_action(state)
        decision_submit(seat=seat, text=engine.format_action(action), seen_version=game.decision_version)
    game.refresh_from_db()
    return game


def _run_first_race(game: Game) -> None:
    """Finish the start auction by hand, then let standing orders (auto roll,
    Devil pushes) run the first race until its last-placed seat must remove."""
    for _ in range(40):
        state = load_state(game)
        if engine.decision_kind(state) != "bid":
            break
        _play(game, 1)
    Seat.objects.filter(game=game).update(standing_orders={"auto_roll": True, "devil": "leader"})
    orders_apply_now(game_id=game.pk)
    game.refresh_from_db()
    assert engine.decision_kind(load_state(game)) == "remove"


def test_race_results_go_to_every_seat_in_every_mode_and_not_to_digest_seats():
    game = started_game(email_modes=[None, Seat.EmailMode.DIGEST, None, None])
    mail.outbox.clear()
    _run_first_race(game)
    race = [m for m in mail.outbox if "race" in m.tags]
    recipients = sorted(addresses(m)[0] for m in race)
    assert recipients == ["p0@example.com", "p2@example.com", "p3@example.com"]
    assert all(m.subject == f"Galopp Royal #{game.public_id} — results of race 1" for m in race)
    assert not mails_to("p1@example.com", "race")
    assert not Notification.objects.filter(seat=seat_at(game, 1), kind="race").exists()


def test_a_digest_goes_once_to_each_due_digest_seat_and_not_again_within_24_hours():
    game = started_game(email_modes=[Seat.EmailMode.DIGEST, Seat.EmailMode.DIGEST, None, None])
    _play(game, 2)
    mail.outbox.clear()

    assert digests_send() == 2
    digests = [m for m in mail.outbox if "digest" in m.tags]
    assert sorted(addresses(m)[0] for m in digests) == ["p0@example.com", "p1@example.com"]
    assert digests_send() == 0

    start = timezone.now()
    with time_machine.travel(start + timedelta(hours=23), tick=False):
        _play(game, 1)
        assert digests_send() == 0
    with time_machine.travel(start + timedelta(hours=25), tick=False):
        assert digests_send() == 2
        assert digests_send() == 0
    digests = [m for m in mail.outbox if "digest" in m.tags]
    assert sorted(addresses(m)[0] for m in digests) == ["p0@example.com"] * 2 + ["p1@example.com"] * 2
    assert Notification.objects.filter(kind="digest").count() == 4
