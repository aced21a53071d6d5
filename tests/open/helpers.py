"""Open games for the tests, made through the pages and services as a host and strangers make them."""

from __future__ import annotations

import re

from django.core import mail
from django.test import Client

from games.models import Game
from games.services.open_games import Opening
from games.services.setup import game_create
from tests.mail.helpers import addresses

HOST = ("Hélène", "helene@example.com")


def open_game(
    *, seats: int = 2, listed: bool = True, language: str = "en", wait_hours: int = 24, when_open: str = "fill",
    others: tuple[str, ...] = (), decision_hours: int = 24,
) -> Game:
    return game_create(
        host_name=HOST[0], host_email=HOST[1], other_emails=list(others), decision_hours=decision_hours,
        ruleset_name="classic", language=language,
        opening=Opening(seats=seats, listed=listed, language=language, wait_hours=wait_hours, when_open=when_open),
    )


def link_in(text: str, kind: str) -> str:
    """The path of the first link of that kind ("open/c", "open/j", "s") in an email."""
    found = re.search(rf"https?://[^/\s]+(/{kind}/[^\s\"<]+/)", text)
    assert found, text
    return found.group(1)


def mails_to(address: str) -> list:
    return [message for message in mail.outbox if address in addresses(message)]


def ask_to_join(client: Client, join_path: str, name: str, email: str, **extra):
    return client.post(join_path, {"name": name, "email": email}, **extra)


def confirmation_path(email: str) -> str:
    subjects = ("confirm your address", "bestätige deine Adresse")
    (message,) = [m for m in mails_to(email) if any(words in m.subject for words in subjects)]
    return link_in(message.body, "open/c")
