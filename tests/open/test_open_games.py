"""Open games through the pages: the new-game form's open seats, the lobby,
joining by a confirmed address, the host's removal and the limits."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game, JoinRequest, Notification, Seat
from games.services.links import join_token, seat_token
from games.services.open_games import UNCONFIRMED_PER_ADDRESS
from games.web.limits import JOINS_PER_CLIENT
from tests.mail.helpers import addresses
from tests.open.helpers import HOST, ask_to_join, confirmation_path, link_in, mails_to, open_game
from tests.web.test_integrity_reads import assert_private, is_read_only

pytestmark = pytest.mark.django_db(transaction=True)


def join_path(game: Game) -> str:
    return reverse("open_join", args=[join_token(game)])


def held_seat(client: Client, game: Game, name: str, email: str) -> Seat:
    assert ask_to_join(client, join_path(game), name, email).status_code == 302
    response = client.post(confirmation_path(email))
    assert response.status_code == 302
    return Seat.objects.get(game=game, email=email)


def take(client: Client, seat: Seat, colour: str):
    return client.post(
        f"/s/{seat_token(seat)}/accept",
        {"colour": colour, "display_name": seat.display_name or "Host", "time_zone": "UTC", "language": "en"},
    )


def test_the_new_game_form_leaves_seats_open_and_the_lobby_lists_the_game_without_any_address():
    client = Client()
    response = client.post("/new/", {
        "host_name": HOST[0], "host_email": HOST[1], "other_emails": "friend@example.com",
        "decision_hours": 12, "ruleset": "classic", "open_seats": 2, "listing": "listed",
        "game_language": "de", "open_wait_hours": 6, "when_open": "fill",
    })
    assert response.status_code == 302, response.content.decode()
    game = Game.objects.get()
    assert (game.open_seats, game.listed, game.language, game.when_open) == (2, True, "de", "fill")
    assert game.seats.filter(email="", computer="").count() == 2
    assert timedelta(hours=5, minutes=59) < game.open_until - timezone.now() <= timedelta(hours=6)
    # The vacant seats get no email; the host's invitation carries the join link.
    assert sorted(address for m in mail.outbox for address in addresses(m)) == ["friend@example.com", HOST[1]]
    assert join_path(game) in mails_to(HOST[1])[0].body

    lobby = client.get("/open/").content.decode()
    assert HOST[0] in lobby and join_path(game) in lobby
    assert "@" not in re.sub(r"<(script|style)[^>]*>.*?</\1>", "", lobby, flags=re.S).replace("@media", "")
    assert "Deutsch" in lobby


def test_a_game_without_open_seats_is_made_as_before_and_not_listed():
    response = Client().post("/new/", {
        "host_name": HOST[0], "host_email": HOST[1], "other_emails": "a@example.com\nb@example.com",
        "decision_hours": 24, "ruleset": "classic",
    })
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.open_seats, game.listed, game.join_hash, game.open_until) == (0, False, "", None)
    assert game.seats.count() == 3
    assert "/open/j/" not in mails_to(HOST[1])[0].body
    assert "/open/j/" not in Client().get("/open/").content.decode()


def test_a_link_only_game_is_not_listed_but_its_link_lets_a_stranger_join():
    game = open_game(listed=False)
    client = Client()
    assert join_path(game) not in client.get("/open/").content.decode()
    assert client.get(join_path(game)).status_code == 200
    seat = held_seat(client, game, "Stranger", "stranger@example.com")
    assert seat.joined_at is not None


def test_the_lobby_filters_by_language_and_pace():
    english = open_game(language="en", decision_hours=24)
    german = open_game(language="de", decision_hours=12)
    client = Client()
    only_german = client.get("/open/", {"language": "de"}).content.decode()
    assert join_path(german) in only_german and join_path(english) not in only_german
    daily = client.get("/open/", {"pace": "24"}).content.decode()
    assert join_path(english) in daily and join_path(german) not in daily
    assert client.get("/open/", {"pace": "5"}).status_code == 400


def test_the_lobby_speaks_german():
    open_game(language="de")
    page = Client().get("/open/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Offene Partien" in page and "Jetzt spielen" in page


def test_opening_the_confirmation_link_holds_no_seat_and_the_button_does():
    game = open_game(seats=2)
    client = Client()
    assert ask_to_join(client, join_path(game), "Stranger", "stranger@example.com").status_code == 302
    path = confirmation_path("stranger@example.com")
    for method in (client.get, client.head):
        assert method(path).status_code == 200
    game.refresh_from_db()
    assert game.open_seats == 2 and not Seat.objects.filter(email="stranger@example.com").exists()
    assert JoinRequest.objects.get().confirmed_at is None

    response = client.post(path)
    seat = Seat.objects.get(email="stranger@example.com")
    assert response["Location"] == f"/s/{seat_token(seat)}/"
    game.refresh_from_db()
    assert game.open_seats == 1 and seat.display_name == "Stranger" and seat.accepted_at is None
    # The seat's link comes by email too, as an invited player's does.
    assert link_in(mails_to("stranger@example.com")[-1].body, "s") == f"/s/{seat_token(seat)}/"
    # Pressing it again gives the same seat.
    assert client.post(path)["Location"] == f"/s/{seat_token(seat)}/"
    assert Game.objects.get().open_seats == 1


def test_an_expired_confirmation_holds_nothing():
    game = open_game()
    client = Client()
    ask_to_join(client, join_path(game), "Late", "late@example.com")
    JoinRequest.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    path = confirmation_path("late@example.com")
    assert client.get(path).status_code == 410
    client.post(path)
    assert Game.objects.get().open_seats == 2 and not Seat.objects.filter(email="late@example.com").exists()


def test_the_last_seat_taken_starts_the_game_and_everyone_gets_the_start_email():
    game = open_game(seats=2)
    client = Client()
    first = held_seat(client, game, "Ann", "ann@example.com")
    second = held_seat(client, game, "Bob", "bob@example.com")
    host = Seat.objects.get(game=game, is_host=True)
    for seat, colour in ((host, "red"), (first, "blue"), (second, "green")):
        assert take(client, seat, colour).status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    started = Notification.objects.filter(game=game, kind="start").values_list("to_email", flat=True)
    assert sorted(started) == sorted([HOST[1], "ann@example.com", "bob@example.com"])


def test_the_host_removes_a_stranger_before_the_start_and_the_seat_is_open_again():
    game = open_game(seats=2)
    client = Client()
    seat = held_seat(client, game, "Troll", "troll@example.com")
    old_link = f"/s/{seat_token(seat)}/"
    host = Seat.objects.get(game=game, is_host=True)
    page = client.get(f"/s/{seat_token(host)}/").content.decode()
    assert "Remove Troll" in page

    response = client.post(f"/s/{seat_token(host)}/remove-joined", {"position": seat.position})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.open_seats == 2 and not Seat.objects.filter(email="troll@example.com").exists()
    assert client.get(old_link).status_code == 404
    # Their confirmation link holds nothing again.
    client.post(confirmation_path("troll@example.com"))
    assert not Seat.objects.filter(email="troll@example.com").exists()


def test_only_the_host_removes_and_only_someone_who_joined():
    game = open_game(seats=2, others=("friend@example.com",))
    client = Client()
    stranger = held_seat(client, game, "Ann", "ann@example.com")
    friend = Seat.objects.get(email="friend@example.com")
    host = Seat.objects.get(game=game, is_host=True)
    client.post(f"/s/{seat_token(stranger)}/remove-joined", {"position": friend.position})
    client.post(f"/s/{seat_token(host)}/remove-joined", {"position": friend.position})
    client.post(f"/s/{seat_token(host)}/remove-joined", {"position": "x"})
    assert Seat.objects.filter(email="friend@example.com").exists()
    assert Seat.objects.filter(email="ann@example.com").exists()


def test_many_addresses_from_one_client_are_refused_with_a_clear_message_and_nothing_kept():
    game = open_game(seats=5)
    client = Client()
    for number in range(JOINS_PER_CLIENT.count):
        assert ask_to_join(client, join_path(game), f"P{number}", f"p{number}@example.com").status_code == 302
    mail.outbox.clear()
    response = ask_to_join(client, join_path(game), "One more", "more@example.com")
    assert response.status_code == 429 and "Retry-After" in response
    assert "too often" in response.content.decode()
    assert not JoinRequest.objects.filter(email="more@example.com").exists() and mail.outbox == []


def test_unconfirmed_requests_of_one_address_are_limited_across_games():
    games = [open_game() for _ in range(UNCONFIRMED_PER_ADDRESS + 1)]
    for number, game in enumerate(games[:-1]):
        # Each from its own client: the limit here is the address's.
        ask_to_join(Client(REMOTE_ADDR=f"10.0.0.{number}"), join_path(game), "Me", "me@example.com")
    response = ask_to_join(Client(REMOTE_ADDR="10.0.1.1"), join_path(games[-1]), "Me", "me@example.com")
    assert response.status_code in (400, 429)
    assert JoinRequest.objects.filter(email="me@example.com").count() == UNCONFIRMED_PER_ADDRESS


def test_an_address_already_seated_cannot_ask_again():
    game = open_game()
    response = ask_to_join(Client(), join_path(game), "Me again", HOST[1])
    assert response.status_code == 400 and "already has a seat" in response.content.decode()
    assert not JoinRequest.objects.exists()


def test_a_bad_join_or_confirmation_link_opens_nothing():
    client = Client()
    assert client.get("/open/j/not-a-link/").status_code == 404
    assert client.get("/open/c/not-a-link/").status_code == 404
    assert client.post("/open/c/not-a-link/").status_code == 404


def test_a_moderator_hides_a_listed_game_and_sees_who_asked_to_join(mod_client):
    game = open_game()
    ask_to_join(Client(), join_path(game), "Stranger", "stranger@example.com")
    page = mod_client.get(f"/mod/g/{game.public_id}/").content.decode()
    assert "stranger@example.com" in page and "not confirmed" in page
    mod_client.post(f"/mod/g/{game.public_id}/act", {"action": "hide", "reason": "spam names"})
    assert Game.objects.get().hidden
    assert join_path(game) not in Client().get("/open/").content.decode()
    assert Client().get(join_path(game)).status_code == 404
    # Nothing held by the confirmation either.
    Client().post(confirmation_path("stranger@example.com"))
    assert not Seat.objects.filter(email="stranger@example.com").exists()


def test_get_and_head_of_every_open_game_link_change_nothing_and_send_nothing(django_capture_on_commit_callbacks):
    game = open_game(seats=2, listed=False)
    ask_to_join(Client(), join_path(game), "Stranger", "stranger@example.com")
    outbox = len(mail.outbox)
    host = game.seats.get(is_host=True)
    urls = [
        "/open/", "/open/?language=de&pace=24", "/open/games.json", "/open/sent/", join_path(game),
        confirmation_path("stranger@example.com"), "/open/play", f"/s/{seat_token(host)}/remove-joined",
    ]
    for url in urls:
        for method in ("get", "head"):
            with (
                django_capture_on_commit_callbacks(execute=True) as callbacks,
                CaptureQueriesContext(connection) as queries,
            ):
                response = getattr(Client(), method)(url)
            assert response.status_code in (200, 405), (method, url, response.status_code)
            assert [q["sql"] for q in queries.captured_queries if not is_read_only(q["sql"])] == [], (method, url)
            assert callbacks == [], (method, url)
    assert len(mail.outbox) == outbox
    assert Seat.objects.filter(game=game, email="").count() == 2
    assert JoinRequest.objects.get().confirmed_at is None


def test_the_join_and_confirmation_pages_are_not_cached_and_send_no_referrer():
    game = open_game(listed=False)
    ask_to_join(Client(), join_path(game), "Stranger", "stranger@example.com")
    for path in (join_path(game), confirmation_path("stranger@example.com")):
        assert_private(Client().get(path))
        assert_private(Client().head(path))


def test_a_moderator_sees_an_open_seat_as_open_and_cannot_act_on_it(mod_client):
    game = open_game(seats=2)
    vacant = Seat.objects.filter(game=game, email="").first()
    page = mod_client.get(f"/mod/g/{game.public_id}/").content.decode()
    assert "an open seat" in page and "&lt;&gt;" not in page
    mod_client.post(
        f"/mod/g/{game.public_id}/act",
        {"action": "replace", "seat": vacant.position, "email": "sneaky@example.com", "reason": "fill it"},
    )
    assert not Seat.objects.filter(email="sneaky@example.com").exists()
