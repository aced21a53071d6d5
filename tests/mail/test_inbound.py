"""Replies by email: only the reply address says who acts, never From:
(docs/architecture.md#links-in-email)."""

from __future__ import annotations

import io
import sys
import uuid

import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.test import Client, override_settings

from games import engine
from games.models import ActionRecord, Game, InboundMessage, Seat
from games.services.decisions import decision_submit
from games.services.inbound import inbound_store
from games.services.links import reply_address, reply_token, seat_token
from tests.factories import play_until
from tests.mail.helpers import addresses

from .helpers import ANYMAIL_TEST_SETTINGS, basic_auth, mails_to, mover, post_json, reply, started_game, turn_mail

pytestmark = pytest.mark.django_db(transaction=True)


def _reply_to(seat: Seat) -> str:
    (address,) = turn_mail(seat).reply_to
    return address


def _email_actions(game: Game) -> list[ActionRecord]:
    return list(ActionRecord.objects.filter(game=game, source=ActionRecord.Source.EMAIL).order_by("seq"))


def _deliver(raw: str) -> InboundMessage | None:
    """What the webhook does: store, and (after commit) process."""
    return inbound_store(raw=raw)


@pytest.mark.parametrize("command", ["bid 3", "pass"])
def test_a_reply_with_a_bid_or_pass_on_its_first_line_is_applied_and_confirmed(command):
    game = started_game()
    seat = mover(game)
    version = game.decision_version
    address = _reply_to(seat)
    mail.outbox.clear()
    stored = _deliver(reply(to=address, sender=seat.email, first_line=command))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED
    assert stored.seat_id == seat.pk

    (action,) = _email_actions(game)
    assert action.seat == seat.position
    assert action.actor == ActionRecord.Actor.PLAYER
    assert action.action == command
    game.refresh_from_db()
    assert game.decision_version > version

    (confirmation,) = mails_to(seat.email, "reply_ok")
    assert f"Applied: {command}" in confirmation.body
    assert f"/s/{seat_token(seat)}/" in confirmation.body
    assert len(confirmation.body) < 1000


def test_a_reply_with_roll_on_its_first_line_rolls_the_die():
    game = started_game()
    game = play_until(game, lambda state: engine.decision_kind(state) == "roll")
    seat = mover(game)
    stored = _deliver(reply(to=_reply_to(seat), sender=seat.email, first_line="roll"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    (action,) = _email_actions(game)
    assert (action.seat, action.action, action.actor) == (seat.position, "roll", ActionRecord.Actor.PLAYER)
    assert mails_to(seat.email, "reply_ok")


def test_a_garbage_reply_gets_an_error_email_and_changes_nothing():
    game = started_game()
    seat = mover(game)
    version = game.version
    address = _reply_to(seat)
    mail.outbox.clear()
    stored = _deliver(reply(to=address, sender=seat.email, first_line="hello there"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.REFUSED
    game.refresh_from_db()
    assert game.version == version
    assert _email_actions(game) == []
    (answer,) = mail.outbox
    assert addresses(answer) == [seat.email]
    assert "reply_error" in answer.tags
    assert "Your reply said: hello there" in answer.body
    assert "Nothing was changed" in answer.body


def test_a_reply_to_an_old_decision_gets_an_error_email_and_changes_nothing():
    game = started_game()
    seat = mover(game)
    old_address = _reply_to(seat)
    # The player decided on the web meanwhile.
    decision_submit(seat=seat, text="bid 2", seen_version=game.decision_version)
    game.refresh_from_db()
    version = game.version
    mail.outbox.clear()
    stored = _deliver(reply(to=old_address, sender=seat.email, first_line="bid 5"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.REFUSED
    game.refresh_from_db()
    assert game.version == version
    assert _email_actions(game) == []
    (answer,) = mail.outbox
    assert addresses(answer) == [seat.email] and "reply_error" in answer.tags


@pytest.mark.parametrize(
    "headers",
    [{"Auto-Submitted": "auto-replied"}, {"Auto-Submitted": "auto-generated"}, {"Precedence": "bulk"}],
)
def test_an_automatic_reply_is_ignored_without_an_answer(headers):
    game = started_game()
    seat = mover(game)
    version = game.version
    address = _reply_to(seat)
    mail.outbox.clear()
    stored = _deliver(reply(to=address, sender=seat.email, first_line="pass", headers=headers))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.IGNORED
    game.refresh_from_db()
    assert game.version == version
    assert mail.outbox == []


def test_from_is_never_trusted_a_reply_acts_only_for_the_seat_of_its_address():
    game = started_game()
    seat = mover(game)
    other = Seat.objects.select_related("game").exclude(pk=seat.pk).filter(game=game).first()
    address = _reply_to(seat)
    mail.outbox.clear()
    # Sent from another player's address (or forged), to the mover's reply address.
    stored = _deliver(reply(to=address, sender=f"Someone <{other.email}>", first_line="bid 4"))
    stored.refresh_from_db()
    assert stored.seat_id == seat.pk
    (action,) = _email_actions(game)
    assert action.seat == seat.position
    # The answer goes to the seat, not to whoever sent it.
    assert [addresses(m) for m in mail.outbox if "reply_ok" in m.tags] == [[seat.email]]


def test_the_other_seats_address_in_from_does_not_let_it_act_out_of_turn():
    game = started_game()
    seat = mover(game)
    other = Seat.objects.select_related("game").exclude(pk=seat.pk).filter(game=game).first()
    version = game.version
    # The waiting seat's own reply address, with the mover's From: nothing happens for the mover.
    address = reply_address(other, game.decision_version)
    stored = _deliver(reply(to=address, sender=seat.email, first_line="pass"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.REFUSED
    assert stored.seat_id == other.pk
    game.refresh_from_db()
    assert game.version == version


@pytest.mark.parametrize("mangle", ["wrong secret", "another seats secret", "no secret", "other domain user"])
def test_a_reply_address_with_a_wrong_secret_acts_for_nobody(mangle):
    game = started_game()
    seat = mover(game)
    other = Seat.objects.select_related("game").exclude(pk=seat.pk).filter(game=game).first()
    version = game.version
    secret = reply_token(seat)
    address = {
        "wrong secret": f"reply+{seat.pk}.{game.decision_version}.{'0' * 32}@{settings.REPLY_DOMAIN}",
        "another seats secret": f"reply+{seat.pk}.{game.decision_version}.{reply_token(other)}@{settings.REPLY_DOMAIN}",
        "no secret": f"reply+{seat.pk}.{game.decision_version}@{settings.REPLY_DOMAIN}",
        "other domain user": f"someone@{settings.REPLY_DOMAIN}",
    }[mangle]
    assert secret not in address
    mail.outbox.clear()
    stored = _deliver(reply(to=address, sender=seat.email, first_line="pass"))
    stored.refresh_from_db()
    assert stored.status == InboundMessage.Status.IGNORED
    assert stored.seat_id is None
    game.refresh_from_db()
    assert game.version == version
    assert mail.outbox == []


def test_the_same_message_delivered_twice_acts_once():
    game = started_game()
    seat = mover(game)
    raw = reply(to=_reply_to(seat), sender=seat.email, first_line="bid 3", message_id="<same-one@client.example>")
    assert _deliver(raw) is not None
    assert _deliver(raw) is None
    # A relay that rewrote other headers but kept the Message-ID: still the same message.
    assert _deliver(raw.replace("Subject: Re:", "Subject: RE:")) is None
    assert InboundMessage.objects.count() == 1
    assert len(_email_actions(game)) == 1
    assert len(mails_to(seat.email, "reply_ok")) == 1


def _postmark_inbound(raw_reply_to: str, seat: Seat, first_line: str, message_id: str, raw: bool) -> dict:
    """Postmark's inbound webhook JSON: the parsed fields, and RawEmail when that option is on."""
    payload = {
        "FromName": "Player",
        "MessageStream": "inbound",
        "From": seat.email,
        "FromFull": {"Email": seat.email, "Name": "Player", "MailboxHash": ""},
        "To": raw_reply_to,
        "ToFull": [{"Email": raw_reply_to, "Name": "", "MailboxHash": raw_reply_to.split("+", 1)[1].split("@")[0]}],
        "Cc": "",
        "CcFull": [],
        "Bcc": "",
        "BccFull": [],
        "OriginalRecipient": raw_reply_to,
        "Subject": "Re: Galopp Royal: your bid",
        "MessageID": str(uuid.uuid4()),
        "ReplyTo": "",
        "MailboxHash": raw_reply_to.split("+", 1)[1].split("@")[0],
        "Date": "Mon, 5 Jan 2026 16:09:19 +0100",
        "TextBody": f"{first_line}\n\nOn Monday, Versailles wrote:\n> It is your turn to bid or pass.\n",
        "HtmlBody": "",
        "StrippedTextReply": first_line,
        "Tag": "",
        "Headers": [
            {"Name": "Return-Path", "Value": f"<{seat.email}>"},
            {"Name": "Message-ID", "Value": message_id},
            {"Name": "MIME-Version", "Value": "1.0"},
        ],
        "Attachments": [],
    }
    if raw:
        payload["RawEmail"] = reply(to=raw_reply_to, sender=seat.email, first_line=first_line, message_id=message_id)
    return payload


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
@pytest.mark.parametrize("raw", [False, True], ids=["parsed fields", "RawEmail"])
def test_the_inbound_webhook_stores_the_reply_and_applies_it(raw):
    game = started_game()
    seat = mover(game)
    payload = _postmark_inbound(_reply_to(seat), seat, "bid 3", "<webhook-1@client.example>", raw)
    client = Client(enforce_csrf_checks=True)
    response = post_json(client, "/anymail/postmark/inbound/", payload, basic_auth())
    assert response.status_code == 200
    (stored,) = InboundMessage.objects.all()
    assert stored.status == InboundMessage.Status.APPLIED, stored.result
    assert stored.seat_id == seat.pk
    (action,) = _email_actions(game)
    assert (action.seat, action.action) == (seat.position, "bid 3")
    assert mails_to(seat.email, "reply_ok")

    # The provider retries the same delivery: stored and applied once.
    assert post_json(client, "/anymail/postmark/inbound/", payload, basic_auth()).status_code == 200
    assert InboundMessage.objects.count() == 1
    assert len(_email_actions(game)) == 1


@override_settings(ANYMAIL=ANYMAIL_TEST_SETTINGS)
@pytest.mark.parametrize(
    "auth", [None, basic_auth("webhookuser:wrong"), basic_auth("intruder:webhookpass"), "Bearer x"]
)
def test_a_forged_inbound_webhook_call_is_rejected_and_nothing_is_stored(auth):
    game = started_game()
    seat = mover(game)
    version = game.version
    payload = _postmark_inbound(_reply_to(seat), seat, "pass", "<forged@client.example>", raw=True)
    response = post_json(Client(raise_request_exception=False), "/anymail/postmark/inbound/", payload, auth)
    assert response.status_code in (400, 401, 403)
    assert not InboundMessage.objects.exists()
    game.refresh_from_db()
    assert game.version == version


def test_the_receive_email_command_applies_a_reply_from_standard_input(monkeypatch):
    game = started_game()
    seat = mover(game)
    raw = reply(to=_reply_to(seat), sender=seat.email, first_line="pass", message_id="<cli-1@client.example>")
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw.encode())))
    call_command("receive_email", stdout=out)
    # The command stores the message (which also enqueues its task; run in
    # process here) and processes it: whichever comes first applies it.
    assert out.getvalue().endswith(": pass\n")
    (stored,) = InboundMessage.objects.all()
    assert stored.status == InboundMessage.Status.APPLIED
    (action,) = _email_actions(game)
    assert (action.seat, action.action) == (seat.position, "pass")
    assert mails_to(seat.email, "reply_ok")

    # The same file fed again does nothing.
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw.encode())))
    call_command("receive_email", stdout=out)
    assert "nothing to do" in out.getvalue()
    assert len(_email_actions(game)) == 1
