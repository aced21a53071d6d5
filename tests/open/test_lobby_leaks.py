"""What anyone may read of open games — the lobby (in both languages, with
its filters), its JSON and the join pages of listed games — holds no
address, no seat link, no confirmation or home link, no seed and no join
link of a game that is not listed."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, HomeLink, JoinRequest, Seat
from games.services.home import home_link_issue
from games.services.links import home_token, join_token, seat_token
from tests.open.helpers import HOST, ask_to_join, confirmation_path, open_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def games():
    listed = open_game(seats=3, others=("invited@example.org",))
    link_only = open_game(seats=2, listed=False, language="de")
    hidden = open_game(seats=2)
    Game.objects.filter(pk=hidden.pk).update(hidden=True)
    client = Client()
    path = reverse("open_join", args=[join_token(listed)])
    # One stranger holds a seat, one asked and has not confirmed yet.
    ask_to_join(client, path, "Held", "held@example.net")
    client.post(confirmation_path("held@example.net"))
    ask_to_join(Client(REMOTE_ADDR="10.0.0.9"), path, "Pending", "pending@example.net")
    home_link_issue(email=HOST[1])
    return {"listed": listed, "link_only": link_only, "hidden": hidden}


def secrets_of(games: dict) -> set[str]:
    found = {seat_token(seat) for seat in Seat.objects.select_related("game")}
    found |= {seat.email for seat in Seat.objects.exclude(email="")}
    found |= {request.email for request in JoinRequest.objects.all()}
    found |= {request.token_hash for request in JoinRequest.objects.all()}
    found |= {confirmation_path(request.email).split("/")[-2] for request in JoinRequest.objects.all()}
    found |= {home_token(link) for link in HomeLink.objects.all()}
    for game in Game.objects.all():
        found |= {game.seed, game.join_hash, game.join_nonce} - {""}
    found |= {join_token(games["link_only"]), join_token(games["hidden"])}
    return found


def readable_pages(games: dict) -> dict[str, str]:
    client = Client()
    pages = {}
    for language in ("en", "de"):
        for query in ("", "?language=de", "?language=en&pace=24"):
            for path in ("/open/", "/open/games.json"):
                response = client.get(path + query, HTTP_ACCEPT_LANGUAGE=language)
                assert response.status_code == 200, (path, query)
                pages[f"{path}{query} ({language})"] = response.content.decode()
    listed_join = reverse("open_join", args=[join_token(games["listed"])])
    pages["join page"] = client.get(listed_join).content.decode()
    pages["home page"] = client.get("/").content.decode()
    pages["sent page"] = client.get("/open/sent/").content.decode()
    return pages


def test_no_lobby_page_or_json_holds_an_address_a_link_or_a_secret(games):
    secrets = secrets_of(games)
    assert len(secrets) > 10
    for where, text in readable_pages(games).items():
        leaked = sorted(secret for secret in secrets if secret in text)
        assert not leaked, f"{where} shows {leaked}"
        assert not re.search(r"[\w.+-]+@[\w-]+\.[\w.]+", text), f"{where} shows an address"
        assert "/s/" not in text and "/h/" not in text and "/open/c/" not in text, where


def test_the_lobby_lists_the_listed_game_only_and_names_its_host(games):
    lobby = json.loads(Client().get("/open/games.json").content)["games"]
    (row,) = lobby
    assert row["host"] == HOST[0] and (row["taken"], row["free"], row["seats"]) == (3, 2, 5)
    assert row["join"].endswith(reverse("open_join", args=[join_token(games["listed"])]))
    assert Client().get("/open/games.json?pace=7").status_code == 400
