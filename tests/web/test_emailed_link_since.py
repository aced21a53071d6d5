"""An emailed link opened after the game moved on says what happened since
the email was written: when, what, and who decided when it was not the
player's own click (issue 11)."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games import engine
from games.models import ActionRecord, Game, Seat
from games.narrate import describe
from games.selectors.seat import local_time
from games.services.game_state import load_state
from games.services.seat_settings import orders_set
from tests.factories import seat_at, started_game, tokens
from tests.mail.helpers import addresses
from tests.web.pages import forms_of, path_of

pytestmark = pytest.mark.django_db

# Winter in Berlin, an hour ahead of UTC: a time shown in UTC would be caught.
T0 = datetime(2027, 3, 1, 11, 0, tzinfo=UTC)
EMAILED_LINK = re.compile(r"https?://[^\s\"'<>]+/s/[^\s\"'<>]+")
SINCE_BOX = re.compile(r'<section class="box since" id="since">.*?</section>', re.S)


def _emailed_link(seat: Seat) -> str:
    """The link of the latest turn email to this seat, exactly as written."""
    turns = [m for m in mail.outbox if seat.email in addresses(m) and "turn" in (m.tags or [])]
    assert turns, f"no turn email to {seat.email}"
    # The decision links (each to a confirmation page) are not the seat link.
    (link,) = {found for found in EMAILED_LINK.findall(turns[-1].body) if "/confirm?" not in found}
    return link


def _since_box(response) -> str | None:
    found = SINCE_BOX.search(response.content.decode())
    return html.unescape(found.group(0)) if found else None


def _mover(game: Game) -> Seat:
    game.refresh_from_db()
    return seat_at(game, engine.to_move(load_state(game)))


def _game_with_a_turn_email(django_capture_on_commit_callbacks) -> tuple[Game, Seat, str]:
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(4)
    seat = _mover(game)
    return game, seat, _emailed_link(seat)


def _order_decides(game: Game, seat: Seat, django_capture_on_commit_callbacks) -> ActionRecord:
    """The seat's standing order answers its pending bid; the record it wrote."""
    with django_capture_on_commit_callbacks(execute=True):
        orders_set(seat=seat, auto_roll=False, bid_limit=0, bid_every=True, devil="", removal="")
    return ActionRecord.objects.filter(game=game, actor=ActionRecord.Actor.ORDER).get()


def test_an_emailed_link_opened_after_a_standing_order_decided_says_when_and_that_it_decided_for_you(
    django_capture_on_commit_callbacks,
):
    with time_machine.travel(T0, tick=False) as traveller:
        game, seat, link = _game_with_a_turn_email(django_capture_on_commit_callbacks)
        traveller.move_to(T0 + timedelta(hours=2, minutes=2))
        record = _order_decides(game, seat, django_capture_on_commit_callbacks)
        game.refresh_from_db()
        assert _mover(game).pk != seat.pk, "the order should have moved the game on"

        box = _since_box(Client().get(path_of(link)))

    assert box is not None, "the page says nothing of what happened since the email"
    assert "Since this email was sent" in box
    names = {s.colour: s.name for s in game.seats.all()}
    decided = " ".join(text for text in (describe(e, names) for e in record.events) if text)
    assert f"your standing order decided for you: {decided}" in box
    shown_at = local_time(record.created_at, seat.time_zone)
    in_utc = local_time(record.created_at, "UTC")
    assert shown_at.strftime("%H:%M") != in_utc.strftime("%H:%M")
    assert shown_at.strftime("%H:%M") in box
    assert in_utc.strftime("%H:%M") not in box


def test_another_player_reading_an_older_link_is_told_a_standing_order_decided_not_that_it_was_for_them(
    django_capture_on_commit_callbacks,
):
    game, seat, _ = _game_with_a_turn_email(django_capture_on_commit_callbacks)
    written_at = game.version
    onlooker = next(s for s in game.seats.all() if s.pk != seat.pk)
    _order_decides(game, seat, django_capture_on_commit_callbacks)

    box = _since_box(Client().get(f"/s/{tokens(game)[onlooker.position]}/", {"since": str(written_at)}))

    assert box is not None
    assert "for you" not in box
    assert f"{seat.name} " in box
    assert "(decided by a standing order)" in box


def test_the_same_link_opened_before_anything_happened_shows_no_such_box(django_capture_on_commit_callbacks):
    game, seat, link = _game_with_a_turn_email(django_capture_on_commit_callbacks)
    assert link.endswith(f"?since={game.version}")

    page = Client().get(path_of(link))

    assert page.status_code == 200
    assert _since_box(page) is None
    assert "Since this email was sent" not in page.content.decode()
    assert "Your bid" in page.content.decode()


@pytest.mark.parametrize(
    "since",
    [
        "",
        "abc",
        "-1",
        "1.5",
        " 1",
        "1e3",
        "0x1",
        "٣",
        "²",
        "9999999999",
        "99999999999999999999999999",
        "9" * 5000,
        "%00",
    ],
)
def test_a_made_up_since_answers_the_page_with_no_box(django_capture_on_commit_callbacks, since):
    game, seat, link = _game_with_a_turn_email(django_capture_on_commit_callbacks)
    _order_decides(game, seat, django_capture_on_commit_callbacks)

    page = Client().get(path_of(link).split("?")[0], {"since": since})

    assert page.status_code == 200
    assert _since_box(page) is None
    # The link as emailed does show it: the made-up number is why this one does not.
    assert _since_box(Client().get(path_of(link))) is not None


def test_a_since_of_the_current_version_or_later_shows_no_box(django_capture_on_commit_callbacks):
    game, seat, link = _game_with_a_turn_email(django_capture_on_commit_callbacks)
    _order_decides(game, seat, django_capture_on_commit_callbacks)
    game.refresh_from_db()
    path = path_of(link).split("?")[0]

    for since in (game.version, game.version + 1):
        page = Client().get(path, {"since": str(since)})
        assert page.status_code == 200
        assert _since_box(page) is None
    assert _since_box(Client().get(path, {"since": str(game.version - 1)})) is not None


def test_a_click_too_late_reads_like_the_emailed_link_with_time_and_for_you(django_capture_on_commit_callbacks):
    with time_machine.travel(T0, tick=False) as traveller:
        game, seat, link = _game_with_a_turn_email(django_capture_on_commit_callbacks)
        client = Client()
        page = client.get(path_of(link))
        (pass_form,) = [f for f in forms_of(page) if any(b[1] == "pass" for b in f.buttons)]
        traveller.move_to(T0 + timedelta(minutes=47))
        record = _order_decides(game, seat, django_capture_on_commit_callbacks)

        stale = client.post(pass_form.action, {**pass_form.values(), "action": "pass"})

    assert stale.status_code == 409
    box = _since_box(stale)
    assert box is not None
    assert "What happened since that page was shown" in box
    assert "your standing order decided for you:" in box
    assert local_time(record.created_at, seat.time_zone).strftime("%H:%M") in box
