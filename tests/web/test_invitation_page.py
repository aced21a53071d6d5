"""Before the game starts, the invitation page names who has taken a seat and
who has not, the host too, without telling one invitee another's address."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from games.models import Game, Seat
from games.services.setup import game_create, seat_accept
from tests.factories import tokens

pytestmark = pytest.mark.django_db


def _invitation() -> Game:
    """Anna hosts; Bruno has taken his seat; Carla and Dora have not."""
    game = game_create(
        host_name="Anna",
        host_email="anna@example.com",
        other_emails=["bruno@example.com", "carla@example.com", "dora@example.net"],
        decision_hours=24,
        ruleset_name="classic",
    )
    bruno = Seat.objects.select_related("game").get(game=game, email="bruno@example.com")
    seat_accept(seat=bruno, colour="blue", display_name="Bruno", time_zone="Europe/Berlin")
    return game


def _rows(client: Client, token: str) -> list[str]:
    page = client.get(f"/s/{token}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "An invitation to Galopp Royal" in text
    (listing,) = re.findall(r'<ul class="invitees">(.*?)</ul>', text, re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", row)).strip() for row in re.findall(r"<li>(.*?)</li>", listing, re.S)]


def test_the_invitation_page_names_the_host_the_seated_players_and_who_has_not_yet_taken_a_seat():
    game = _invitation()
    carla = tokens(game)[2]

    rows = _rows(Client(), carla)

    assert rows == [
        "Anna (host) — has not yet taken a seat",
        "Blue Bruno — has taken a seat",  # the chip's colour in words, then the name
        "c•••@example.com (you) — has not yet taken a seat",
        "d•••@example.net — has not yet taken a seat",
    ]


def test_a_seated_player_is_shown_with_the_chip_of_their_colour():
    game = _invitation()

    page = Client().get(f"/s/{tokens(game)[3]}/").content.decode()

    (bruno,) = [row for row in re.findall(r"<li>(.*?)</li>", page, re.S) if "Bruno" in row]
    assert 'class="chip"' in bruno
    assert re.search(r'class="chip"[^>]*><span class="visually-hidden">Blue</span>', bruno), "the chip is not named"
    (anna,) = [row for row in re.findall(r"<li>(.*?)</li>", page, re.S) if "Anna" in row]
    assert 'class="chip"' not in anna


def test_no_invitee_learns_the_full_address_of_another_who_has_not_taken_a_seat():
    game = _invitation()
    others = {position: seat.email for position, seat in enumerate(Seat.objects.filter(game=game).order_by("position"))}

    for position, token in tokens(game).items():
        text = html.unescape(Client().get(f"/s/{token}/").content.decode())
        for other, email in others.items():
            if other != position:
                assert email not in text, f"seat {position}'s page shows {email}"
        assert "@example" in text  # the masked addresses are there


def test_once_the_host_takes_a_seat_the_host_is_named_as_seated_and_still_as_host():
    game = _invitation()
    anna = Seat.objects.select_related("game").get(game=game, position=0)
    seat_accept(seat=anna, colour="red", display_name="Anna R.", time_zone="UTC")

    rows = _rows(Client(), tokens(game)[1])

    assert rows[0] == "Red Anna R. (host) — has taken a seat"
    assert rows[1] == "Blue Bruno (you) — has taken a seat"
