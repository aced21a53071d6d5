"""The DEBUG-only dev mailbox: newest first with date, recipient and game,
a filter by recipient, pages, and the board picture shown in the HTML part."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from .helpers import mover, started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def mailbox(tmp_path, settings):
    settings.VAR_DIR = tmp_path
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "games.mail.devmail.MailboxBackend"
    return tmp_path / "mail"


def _send_plain(count: int, to: str = "someone@example.com") -> None:
    for n in range(count):
        mail.EmailMessage(subject=f"Note {n}", body="hello", to=[to]).send()


def _rows(client, **params) -> list[list[str]]:
    page = client.get("/dev/mailbox/", params).content.decode()
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr><td>.*?</tr>", page)]


def test_the_mailbox_shows_the_game_and_date_of_each_message_newest_first(client, mailbox):
    game = started_game()
    seat = mover(game)
    rows = _rows(client)
    assert rows, "the started game's emails are in the mailbox"
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", row[0]) for row in rows)
    assert all(row[2] == game.public_id for row in rows)
    assert any(seat.email in row[1] for row in rows)
    _send_plain(1)
    assert "Note 0" in _rows(client)[0][3]


def test_the_mailbox_filters_by_recipient_with_a_plain_form(client, mailbox):
    _send_plain(2, "alice@example.com")
    _send_plain(1, "bob@example.com")
    page = client.get("/dev/mailbox/").content.decode()
    assert '<form method="get">' in page and 'name="to"' in page
    rows = _rows(client, to="BOB@example")
    assert [row[1] for row in rows] == ["bob@example.com"]
    assert "No mail to that address." in client.get("/dev/mailbox/", {"to": "carol"}).content.decode()


def test_the_mailbox_shows_fifty_messages_a_page(client, mailbox):
    _send_plain(55)
    first, second = _rows(client), _rows(client, page=2)
    assert len(first) == 50 and len(second) == 5
    assert "Note 54" in first[0][3] and "Note 0" in second[-1][3]
    assert "page=2" in client.get("/dev/mailbox/").content.decode()
    # A page that does not exist shows the nearest one, never an error.
    assert len(_rows(client, page="99")) == 5
    assert len(_rows(client, page="x")) == 50


def test_the_html_part_shows_the_board_picture_inline(client, mailbox):
    game = started_game()
    seat = mover(game)
    (name,) = [p.name for p in mailbox.glob("*.eml") if b'src="cid:board"' in p.read_bytes()]
    response = client.get(f"/dev/mailbox/{name}/html")
    assert response.status_code == 200, seat
    html = response.content.decode()
    assert 'src="cid:board"' not in html
    assert 'src="data:image/png;base64,' in html
    assert "img-src data:" in response["Content-Security-Policy"]


def test_the_mailbox_is_not_there_without_debug(client, mailbox, settings):
    _send_plain(1)
    settings.DEBUG = False
    assert client.get("/dev/mailbox/").status_code == 404
