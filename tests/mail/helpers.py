"""Games, emails and replies for the mail tests, made the way production makes them."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import timedelta
from email.utils import formatdate, parseaddr

import time_machine
from django.core import mail
from django.utils import timezone

from games import engine
from games.models import Game, Notification, Seat
from games.services.game_state import load_state
from tests.factories import invited_game, seats_taken

# No zone here is UTC, so a deadline shown in UTC would be caught.
ZONES = ("America/New_York", "Asia/Tokyo", "Asia/Kolkata", "Europe/Berlin", "Australia/Adelaide", "America/Sao_Paulo")

WEBHOOK_SECRET = "webhookuser:webhookpass"
ANYMAIL_TEST_SETTINGS = {"WEBHOOK_SECRET": WEBHOOK_SECRET}


def started_game(players: int = 4, zones=ZONES, email_modes=None) -> Game:
    """A running game whose seats live in different time zones."""
    game = invited_game(players)
    for position, mode in enumerate(email_modes or []):
        if mode:
            Seat.objects.filter(game=game, position=position).update(email_mode=mode)
    return seats_taken(game, time_zones=zones)


def mover(game: Game) -> Seat:
    game.refresh_from_db()
    return Seat.objects.select_related("game").get(game=game, position=engine.to_move(load_state(game)))


def addresses(message) -> list[str]:
    """A sent message's recipients' addresses, without their names ("Name <address>")."""
    return [parseaddr(recipient)[1] for recipient in message.to]


def mails_to(address: str, kind: str | None = None) -> list:
    """Sent messages to one address (optionally of one Notification kind, by tag)."""
    found = [m for m in mail.outbox if address in addresses(m)]
    if kind is not None:
        found = [m for m in found if kind in (getattr(m, "tags", None) or [])]
    return found


def turn_mail(seat: Seat):
    """The latest decision email sent to this seat."""
    found = mails_to(seat.email, "turn")
    assert found, f"no decision email to {seat.email}"
    return found[-1]


def reply(
    *, to: str, sender: str, first_line: str, message_id: str | None = None, headers: dict | None = None
) -> str:
    """A plain-text reply as a mail client writes it: the command, then the quote."""
    lines = [
        f"From: {sender}",
        f"To: {to}",
        "Subject: Re: Galopp Royal: your turn",
        f"Date: {formatdate()}",
        f"Message-ID: {message_id or f'<{uuid.uuid4().hex}@client.example>'}",
        "MIME-Version: 1.0",
        'Content-Type: text/plain; charset="utf-8"',
    ]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    body = [first_line, "", "On Monday, Versailles wrote:", "> It is your turn to bid or pass.", "> pass"]
    return "\r\n".join(lines + [""] + body) + "\r\n"


def later(minutes: float = 11):
    """The clock (and the cache's, which counts the answers' limits) moved on:
    a seat is answered at most once every 10 minutes."""
    return time_machine.travel(timezone.now() + timedelta(minutes=minutes), tick=False)


def basic_auth(secret: str = WEBHOOK_SECRET) -> str:
    return "Basic " + base64.b64encode(secret.encode()).decode()


def post_json(client, path: str, payload: dict, auth: str | None = None):
    extra = {"HTTP_AUTHORIZATION": auth} if auth else {}
    return client.post(path, data=json.dumps(payload), content_type="application/json", **extra)


def notifications(seat: Seat, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(seat=seat, kind=kind).order_by("pk"))
