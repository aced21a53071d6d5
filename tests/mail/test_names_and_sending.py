"""Names people type reach email headers: a line break is refused at the
door, quotes and ampersands read as typed, and an email that can never be
sent fails once, visibly, instead of retrying for ever."""

from __future__ import annotations

from datetime import timedelta

import pytest
from anymail.backends.test import EmailBackend as AnymailTestBackend
from anymail.exceptions import AnymailAPIError
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.selectors.moderation import attention
from games.services import outbox
from games.services.errors import ServiceError
from games.services.setup import game_create, link_resend, seat_accept
from tests.factories import COLOURS

from .helpers import mails_to, started_game

pytestmark = pytest.mark.django_db(transaction=True)

HERE = __name__
HOSTILE_NAMES = [
    "Eve\r\nBcc: everyone@example.com",
    "Eve\nX",
    "Eve\tX",
    "Eve\x00X",
    "Eve\x1bX",
    "Eve\u2028X",
    "Eve\u2029X",
    "Eve\u202eX",
    "Eve\u200bX",
    "Eve\x85X",
]


class DownBackend(AnymailTestBackend):
    """A provider that answers 503 to everything."""

    def post_to_esp(self, payload, message):
        raise AnymailAPIError("Postmark API response 503: Service Unavailable", backend=self)


class DyingBackend(AnymailTestBackend):
    """The provider accepts the message, then the worker is killed before it
    can record that (SystemExit is what a worker's warm shutdown raises)."""

    def post_to_esp(self, payload, message):
        mail.outbox.append(message)
        raise SystemExit("worker killed")


@pytest.fixture
def held_sends(monkeypatch):
    queued = []
    monkeypatch.setattr(outbox, "enqueue_on_commit", lambda name, *args: queued.append(args[0]))
    return queued


def _new_game_post(host_name: str) -> dict:
    return {
        "host_name": host_name,
        "host_email": "host@example.com",
        "other_emails": "a@example.com\nb@example.com",
        "decision_hours": "24",
        "ruleset": "classic",
    }


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_new_game_form_refuses_a_host_name_with_a_control_character(name):
    cache.clear()
    response = Client().post("/new/", _new_game_post(name))
    assert response.status_code == 400
    assert "cannot contain line breaks" in response.content.decode()
    assert not Game.objects.exists()
    assert mail.outbox == []


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_every_caller_of_the_services_is_refused_a_name_with_a_control_character(name):
    with pytest.raises(ServiceError):
        game_create(host_name=name, host_email="h@example.com", other_emails=["a@example.com", "b@example.com"],
                    decision_hours=24, ruleset_name="classic")
    assert not Game.objects.exists()
    game = game_create(host_name="Host", host_email="h@example.com", other_emails=["a@example.com", "b@example.com"],
                       decision_hours=24, ruleset_name="classic")
    seat = Seat.objects.select_related("game").get(game=game, position=1)
    with pytest.raises(ServiceError):
        seat_accept(seat=seat, colour=COLOURS[1], display_name=name, time_zone="UTC")
    seat.refresh_from_db()
    assert seat.accepted_at is None and seat.display_name == ""


def test_the_seat_page_refuses_a_display_name_with_a_line_break():
    game = game_create(host_name="Host", host_email="h@example.com", other_emails=["a@example.com", "b@example.com"],
                       decision_hours=24, ruleset_name="classic")
    seat = Seat.objects.get(game=game, position=1)
    from games.services.links import seat_url

    path = seat_url(seat).split("://", 1)[1].split("/", 1)[1]
    response = Client().post(f"/{path}accept", {"colour": COLOURS[1], "display_name": "Eve\nBcc: x@example.com",
                                                "time_zone": "UTC"})
    assert response.status_code in (200, 400)
    assert "cannot contain line breaks" in response.content.decode()
    seat.refresh_from_db()
    assert seat.accepted_at is None


def test_names_with_joiners_that_real_scripts_need_are_kept():
    game = game_create(host_name="می\u200cخواهم", host_email="h@example.com",
                       other_emails=["a@example.com", "b@example.com"], decision_hours=24, ruleset_name="classic")
    assert Seat.objects.get(game=game, position=0).display_name == "می\u200cخواهم"


def test_names_with_quotes_and_ampersands_read_as_typed_in_subjects_and_text_but_stay_escaped_in_html():
    name = "O'Brien & <Co>"
    game = game_create(host_name=name, host_email="p0@example.com",
                       other_emails=["p1@example.com", "p2@example.com"], decision_hours=24, ruleset_name="classic")
    invite = mails_to("p1@example.com", "invite")[0]
    assert invite.subject == f"O'Brien & <Co> invites you to Galopp Royal (#{game.public_id})"
    assert "O'Brien & <Co> has set up a game" in invite.body
    html = invite.alternatives[0][0]
    assert "O&#x27;Brien &amp; &lt;Co&gt;" in html and "<Co>" not in html
    for seat in Seat.objects.select_related("game").filter(game=game).order_by("position"):
        seat_accept(seat=seat, colour=COLOURS[seat.position], display_name=name if seat.position else "Host",
                    time_zone="UTC")
    start = mails_to("p0@example.com", "start")[0]
    assert "O'Brien & <Co>" in start.body
    assert "&amp;" not in start.subject + start.body and "&#x27;" not in start.subject + start.body


def test_the_start_email_and_the_list_of_links_name_each_colour_not_its_code():
    started_game(players=3)
    start = mails_to("p1@example.com", "start")[0]
    assert "- Player 1 (Yellow)" in start.body and "(yellow)" not in start.body
    mail.outbox.clear()
    link_resend(email="p1@example.com")
    (links,) = mails_to("p1@example.com")
    assert "3 players) — you play Yellow" in links.body


def test_a_name_stored_before_names_were_checked_still_gives_a_one_line_subject(held_sends):
    game = game_create(host_name="Host", host_email="p0@example.com",
                       other_emails=["p1@example.com", "p2@example.com"], decision_hours=24, ruleset_name="classic")
    Seat.objects.filter(game=game, position=0).update(display_name="Eve\r\nBcc: all@example.com")
    Notification.objects.filter(game=game).delete()
    seat = Seat.objects.select_related("game").get(game=game, position=1)
    row = outbox.notification_queue(game=game, seat=seat, kind="invite", version=1, template="invite",
                                    context={"host": {"name": "Eve\r\nBcc: all@example.com"}, "players": 3})
    assert outbox.notification_send(notification_id=row.pk) is True
    (message,) = mail.outbox
    assert message.subject == f"Eve Bcc: all@example.com invites you to Galopp Royal (#{game.public_id})"
    assert "Bcc" not in message.message()


def test_an_email_that_can_never_be_sent_fails_at_once_and_the_moderators_see_why(held_sends):
    game = game_create(host_name="Host", host_email="p0@example.com",
                       other_emails=["p1@example.com", "p2@example.com"], decision_hours=24, ruleset_name="classic")
    row = Notification.objects.get(game=game, seat__position=1, kind="invite")
    # A header injection through the address: the message cannot be written.
    Notification.objects.filter(pk=row.pk).update(to_email="p1@example.com\nBcc: all@example.com")
    assert outbox.notification_send(notification_id=row.pk) is False
    row.refresh_from_db()
    assert row.status == Notification.Status.FAILED
    assert row.attempts == 1
    assert "BadHeaderError" in row.last_error
    assert mail.outbox == []
    # Nothing sends it again.
    assert row.pk not in outbox.notifications_release(older_than=timedelta(minutes=5))
    assert outbox.notification_send(notification_id=row.pk) is False
    (listed,) = [r for r in attention() if r["game"].pk == game.pk]
    assert any("an email could not be sent (invitation: BadHeaderError" in reason for reason in listed["reasons"])


def test_a_provider_that_stays_down_gets_the_planned_attempts_and_then_the_row_fails(held_sends):
    game = started_game(players=3)
    row = Notification.objects.filter(game=game, kind="start").first()
    Notification.objects.filter(pk=row.pk).update(status=Notification.Status.PENDING, body_text="", subject="")
    tries = 0
    with override_settings(EMAIL_BACKEND=f"{HERE}.DownBackend"):
        while tries < 50:
            tries += 1
            try:
                if outbox.notification_send(notification_id=row.pk) is False:
                    break
            except outbox.TransientSendError:
                # Right after a failure the sweep leaves the row to its retry.
                assert row.pk not in outbox.notifications_release(older_than=timedelta(minutes=5))
    row.refresh_from_db()
    assert tries == outbox.MAX_ATTEMPTS
    assert row.status == Notification.Status.FAILED
    assert row.attempts == outbox.MAX_ATTEMPTS
    assert "503" in row.last_error


def test_a_row_whose_retry_was_lost_is_sent_by_the_sweep_once_its_backoff_is_over(held_sends):
    game = started_game(players=3)
    row = Notification.objects.filter(game=game, kind="start").first()
    long_ago = timezone.now() - timedelta(hours=1)
    Notification.objects.filter(pk=row.pk).update(
        status=Notification.Status.PENDING, attempts=1, claimed_at=long_ago, created_at=long_ago
    )
    assert row.pk in outbox.notifications_release(older_than=timedelta(minutes=5))


def test_a_message_sent_again_after_its_sender_died_carries_the_same_message_id(held_sends):
    game = game_create(host_name="Host", host_email="p0@example.com",
                       other_emails=["p1@example.com", "p2@example.com"], decision_hours=24, ruleset_name="classic")
    row = Notification.objects.get(game=game, seat__position=1, kind="invite")
    with override_settings(EMAIL_BACKEND=f"{HERE}.DyingBackend"), pytest.raises(SystemExit):
        outbox.notification_send(notification_id=row.pk)
    row.refresh_from_db()
    assert row.status == Notification.Status.SENDING
    # The sweep's path: the claim is old, so the row is released and sent again.
    six_minutes_ago = timezone.now() - timedelta(minutes=6)
    Notification.objects.filter(pk=row.pk).update(claimed_at=six_minutes_ago, created_at=six_minutes_ago)
    assert row.pk in outbox.notifications_release(older_than=timedelta(minutes=5))
    assert outbox.notification_send(notification_id=row.pk) is True
    first, second = mails_to("p1@example.com", "invite")
    first_id = first.extra_headers["Message-ID"]
    assert first_id == second.message()["Message-ID"]
    assert first_id == f"<notification-{row.pk}.{game.public_id}@localhost>"
