"""The end of an open game's wait (the beat's sweep, by the database's
clock) and "Play now"."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, HomeLink, JoinRequest, Notification, Seat
from games.services.home import home_link_issue
from games.services.links import home_token, join_token, seat_token
from games.services.sweeps import open_waits_sweep
from tests.open.helpers import HOST, ask_to_join, confirmation_path, open_game

pytestmark = pytest.mark.django_db(transaction=True)


def wait_ends(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(open_until=timezone.now() - timedelta(seconds=1))


def hold_and_take(client: Client, game: Game, name: str, email: str, colour: str) -> Seat:
    ask_to_join(client, reverse("open_join", args=[join_token(game)]), name, email)
    client.post(confirmation_path(email))
    seat = Seat.objects.get(game=game, email=email)
    client.post(
        f"/s/{seat_token(seat)}/accept", {"colour": colour, "display_name": name, "time_zone": "UTC", "language": "en"}
    )
    return Seat.objects.get(pk=seat.pk)


def host_takes(client: Client, game: Game) -> None:
    host = Seat.objects.get(game=game, is_host=True)
    client.post(f"/s/{seat_token(host)}/accept", {"colour": "red", "display_name": HOST[0], "time_zone": "UTC"})


def test_a_wait_not_yet_over_changes_nothing():
    game = open_game(seats=2)
    assert open_waits_sweep() == 0
    game.refresh_from_db()
    assert game.status == Game.Status.INVITING and game.open_seats == 2


def test_when_the_wait_ends_computer_players_fill_the_open_seats_and_the_game_starts():
    game = open_game(seats=2)
    client = Client()
    host_takes(client, game)
    hold_and_take(client, game, "Ann", "ann@example.com", "blue")
    wait_ends(game)

    assert open_waits_sweep() == 1
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.open_seats == 0 and game.open_until is None
    (computer,) = Seat.objects.filter(game=game).exclude(computer="")
    assert computer.colour and computer.accepted_at and computer.name == "Strong computer 1"
    started = Notification.objects.filter(game=game, kind="start").values_list("to_email", flat=True)
    assert sorted(started) == sorted(["ann@example.com", HOST[1]])
    assert open_waits_sweep() == 0


def test_a_stranger_who_never_sat_down_is_replaced_by_a_computer_player_at_the_end():
    game = open_game(seats=2)
    client = Client()
    host_takes(client, game)
    ask_to_join(client, reverse("open_join", args=[join_token(game)]), "Slow", "slow@example.com")
    client.post(confirmation_path("slow@example.com"))
    slow = Seat.objects.get(email="slow@example.com")
    wait_ends(game)
    open_waits_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert Seat.objects.filter(game=game).exclude(computer="").count() == 2
    assert Client().get(f"/s/{seat_token(slow)}/").status_code == 404


def test_when_the_host_chose_to_give_up_the_game_is_called_off_and_those_who_joined_are_told():
    game = open_game(seats=2, when_open="give_up")
    client = Client()
    host_takes(client, game)
    hold_and_take(client, game, "Ann", "ann@example.com", "blue")
    wait_ends(game)
    open_waits_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    told = Notification.objects.filter(game=game, kind="open_off").values_list("to_email", flat=True)
    assert sorted(told) == sorted(["ann@example.com", HOST[1]])
    assert Seat.objects.filter(game=game).exclude(computer="").count() == 0


def test_play_now_puts_two_strangers_at_one_table():
    first, second = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    asked = {"language": "de", "decision_hours": 12}
    response = first.post("/open/play", {"name": "Erste", "email": "erste@example.com", **asked})
    assert response["Location"] == "/new/sent/"
    game = Game.objects.get()
    assert (game.listed, game.language, game.decision_hours, game.open_seats) == (True, "de", 12, 3)

    response = second.post("/open/play", {"name": "Zweite", "email": "zweite@example.com", **asked})
    assert response["Location"] == "/open/sent/"
    second.post(confirmation_path("zweite@example.com"))
    assert Game.objects.count() == 1
    assert Seat.objects.get(email="zweite@example.com").game_id == game.pk


def test_play_now_picks_the_fitting_game_that_starts_soonest():
    later = open_game(language="en", decision_hours=24, wait_hours=48)
    sooner = open_game(language="en", decision_hours=24, wait_hours=6)
    open_game(language="de", decision_hours=24, wait_hours=1)
    Client().post("/open/play", {"name": "Me", "email": "me@example.com", "language": "en", "decision_hours": 24})
    assert JoinRequest.objects.get().game_id == sooner.pk != later.pk


def test_the_player_home_lists_the_open_games_the_address_joined_and_their_state():
    game = open_game(seats=2)
    client = Client()
    hold_and_take(client, game, "Ann", "ann@example.com", "blue")
    other = open_game(seats=2)
    ask_to_join(client, reverse("open_join", args=[join_token(other)]), "Ann", "ann@example.com")
    link = home_link_issue(email="ann@example.com")
    page = client.get(f"/h/{home_token(link)}/").content.decode()
    assert f"Game {game.public_id}" in page and "1 seat is still free" in page
    assert "Open games you asked to join" in page and f"Game {other.public_id}" in page
    assert "waiting for you to confirm" in page
    assert HomeLink.objects.count() == 1


def test_when_the_host_chose_to_give_up_a_seat_held_but_never_taken_calls_the_game_off_too():
    game = open_game(seats=2, when_open="give_up")
    client = Client()
    host_takes(client, game)
    hold_and_take(client, game, "Ann", "ann@example.com", "blue")
    ask_to_join(client, reverse("open_join", args=[join_token(game)]), "Slow", "slow@example.com")
    client.post(confirmation_path("slow@example.com"))
    wait_ends(game)
    open_waits_sweep()
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    told = Notification.objects.filter(game=game, kind="open_off").values_list("to_email", flat=True)
    assert sorted(told) == sorted(["ann@example.com", "slow@example.com", HOST[1]])
