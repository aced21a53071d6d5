"""A player's home: "send me my links" mails a link to the page of every
game the address plays; the link is a secret of its own, stored as a hash,
read-only, revocable and expiring."""

from __future__ import annotations

import re
import zoneinfo
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import engine
from games.models import Game, HomeLink, Seat
from games.services.game_state import load_state
from games.services.home import HOME_LINK_DAYS
from games.services.setup import link_resend
from tests.factories import play_steps, seat_at, started_game, tokens, with_gold

pytestmark = pytest.mark.django_db

PLAYER = "p1@example.com"  # seat 1 of every started_game


def home_link(django_capture_on_commit_callbacks) -> str:
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert link_resend(email=PLAYER)
    (message,) = mail.outbox
    (link,) = re.findall(r"https?://[^\s]+/h/[^\s/]+/", message.body)
    return link.split("://", 1)[1].split("/", 1)[1].join(["/", ""])


def test_the_page_lists_every_game_with_whose_move_it_is_and_the_final_standings(
    client, django_capture_on_commit_callbacks
):
    waiting = started_game(4)
    mine = started_game(4)
    while engine.to_move(load_state(mine)) != 1:
        mine = play_steps(mine, 1)
    while engine.to_move(load_state(waiting)) == 1:
        waiting = play_steps(waiting, 1)
    over = with_gold(started_game(4), [60, 70, 50, 40])
    Game.objects.filter(pk=over.pk).update(status=Game.Status.OVER)
    state = dict(over.state)
    state["phase"] = "over"
    Game.objects.filter(pk=over.pk).update(state=state)

    page = client.get(home_link(django_capture_on_commit_callbacks))
    assert page.status_code == 200
    text = page.content.decode()
    for game in (waiting, mine, over):
        assert f"Game {game.public_id}" in text
        assert f"/s/{tokens(game)[1]}/" in text
    mine_section = text.split(f'id="game-{mine.public_id}"')[1].split("</section>")[0]
    assert "Your move." in mine_section and "Decide by" in mine_section
    mine.refresh_from_db()
    berlin = timezone.localtime(mine.deadline, zoneinfo.ZoneInfo("Europe/Berlin"))
    assert f"{berlin:%H:%M} (Europe/Berlin)" in mine_section  # the seat's own time zone
    waiting_section = text.split(f'id="game-{waiting.public_id}"')[1].split("</section>")[0]
    mover = seat_at(waiting, engine.to_move(load_state(waiting)))
    assert f"Waiting for {mover.name}." in waiting_section
    over_section = text.split(f'id="game-{over.public_id}"')[1].split("</section>")[0]
    assert "Player 1</strong> — 70 gold" in over_section and "the winner" in over_section
    # It lists; it decides nothing.
    assert "/act" not in text and page["Cache-Control"] == "no-store"


def test_only_the_hash_of_the_link_is_stored(client, django_capture_on_commit_callbacks):
    started_game(3)
    link = home_link(django_capture_on_commit_callbacks)
    secret = link.strip("/").split("/")[-1]
    row = HomeLink.objects.get()
    assert secret not in repr(list(HomeLink.objects.values_list()))
    assert row.token_hash != secret and len(row.token_hash) == 64


def test_a_forged_link_opens_nothing_and_says_so(client):
    started_game(3)
    response = client.get("/h/ThisIsNoLinkWeMadeAtAll0123456789abcd/")
    assert response.status_code == 404
    assert "not a link we made" in response.content.decode()


def test_an_ended_link_opens_nothing_while_the_seat_links_still_work(client, django_capture_on_commit_callbacks):
    game = started_game(3)
    link = home_link(django_capture_on_commit_callbacks)
    response = client.post(f"{link}end")
    assert response.status_code == 302
    response = client.get(link)
    assert response.status_code == 410 and "It was ended from its page." in response.content.decode()
    assert client.get(f"/s/{tokens(game)[1]}/").status_code == 200


def test_a_link_expires_after_its_days(client, django_capture_on_commit_callbacks):
    started_game(3)
    link = home_link(django_capture_on_commit_callbacks)
    assert client.get(link).status_code == 200
    with time_machine.travel(timezone.now() + timedelta(days=HOME_LINK_DAYS, minutes=1)):
        response = client.get(link)
    assert response.status_code == 410 and "It has expired." in response.content.decode()


def test_each_request_makes_a_new_link_and_the_older_ones_still_open(client, django_capture_on_commit_callbacks):
    started_game(3)
    first = home_link(django_capture_on_commit_callbacks)
    second = home_link(django_capture_on_commit_callbacks)
    assert first != second
    assert client.get(first).status_code == 200 and client.get(second).status_code == 200


def test_an_address_whose_games_are_all_over_still_gets_its_home_link(django_capture_on_commit_callbacks):
    game = started_game(3)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    link = home_link(django_capture_on_commit_callbacks)
    assert link.startswith("/h/")
    assert "You asked for your seat links again" not in mail.outbox[0].body
    assert Seat.objects.filter(email=PLAYER).count() == 1
