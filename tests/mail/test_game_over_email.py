"""The last email of a game: the final standings by the players' names, with
their gold, and the tie-break when the last race decided one."""

from __future__ import annotations

import re

import pytest
from django.core import mail

from games.models import Notification, Seat
from games.narrate import COLOUR_NAMES
from games.services.game_state import load_state
from games.services.notices import notices_after_decision
from games.services.outbox import notification_send
from tests.factories import with_gold
from tests.mail.helpers import addresses
from tests.web.integrity_helpers import game_over

pytestmark = pytest.mark.django_db

COLOUR_WORD = re.compile(r"\b(" + "|".join(str(name) for name in COLOUR_NAMES.values()) + r")\b", re.IGNORECASE)


@pytest.fixture
def finished():
    """A three-player game played to its end."""
    return game_over()


def game_over_emails(game, gold: list[int]) -> dict:
    """The game's game-over emails, by recipient, written again after each
    seat's gold (by position) is set by hand, and sent."""
    game = with_gold(game, gold)
    # Nothing in this test is committed, so the first ones still wait unsent.
    Notification.objects.filter(game=game, kind="over").delete()
    seats = {seat.position: seat for seat in Seat.objects.filter(game=game)}
    notices_after_decision(game, load_state(game), seats, [])
    mail.outbox.clear()
    for notification in Notification.objects.filter(game=game, kind="over"):
        assert notification_send(notification_id=notification.pk)
    messages = {addresses(message)[0]: message for message in mail.outbox}
    assert sorted(messages) == sorted(seat.email for seat in seats.values())
    return messages


def names_of(game) -> dict[int, str]:
    return {seat.position: seat.name for seat in Seat.objects.filter(game=game)}


def standings_text(message) -> str:
    return message.body[message.body.index("Final standings:") : message.body.index("The secret seed")]


def standings_html(message) -> str:
    ((html, _),) = message.alternatives
    return html[html.index("<ol>") : html.index("<p>The secret seed")]


def test_the_game_over_email_lists_each_player_by_name_with_gold_most_first(finished):
    messages = game_over_emails(finished, [17, 42, 30])
    names = names_of(finished)
    for message in messages.values():
        assert (
            f"1. {names[1]} — 42 gold · the winner\n2. {names[2]} — 30 gold\n3. {names[0]} — 17 gold\n"
            in standings_text(message)
        )
        listed = re.findall(r"<li>(.*?) — (\d+) gold", standings_html(message))
        assert listed == [(f"<strong>{names[1]}</strong>", "42"), (names[2], "30"), (names[0], "17")]


def test_no_colour_stands_in_for_a_players_name_in_the_game_over_email(finished):
    for message in game_over_emails(finished, [17, 42, 30]).values():
        assert not COLOUR_WORD.search(standings_text(message)), standings_text(message)
        assert not COLOUR_WORD.search(standings_html(message)), standings_html(message)


def test_the_game_over_email_tells_how_the_last_race_broke_a_tie(finished):
    best, middle, worst = finished.state["results"][-1]["ranking"]
    gold = [0, 0, 0]
    gold[best], gold[worst], gold[middle] = 30, 30, 20
    names = names_of(finished)
    told = (
        f"{names[best]} and {names[worst]} both have 30 gold; "
        f"{names[best]} placed better in race 6 (1st, against 3rd)."
    )
    for message in game_over_emails(finished, gold).values():
        assert told in standings_text(message)
        assert f"<p>{told}</p>" in standings_html(message)


def test_the_game_over_email_tells_no_tie_break_when_gold_differs(finished):
    for message in game_over_emails(finished, [30, 20, 10]).values():
        below = [line for line in standings_text(message).splitlines()[1:] if line.strip()]
        assert [line[:3] for line in below] == ["1. ", "2. ", "3. "], "something is told under the list"
        assert standings_html(message).split("</ol>")[1].strip() == ""
