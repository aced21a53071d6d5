"""API tokens: made on the seat's pages (the secret shown once, only its hash
kept), ended there, and refused once ended, forged or outdated."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.contrib.auth.models import Group, User

from games.models import ApiToken
from games.services.api_tokens import TOKENS_PER_SEAT
from games.services.moderation import MODERATORS_GROUP, seat_replace
from tests.api.helpers import api_get
from tests.factories import seat_at, started_game, tokens

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return started_game(3)


def make_token(client, link: str, label: str = "my bot"):
    return client.post(f"/s/{link}/api/new", {"label": label})


def shown_secret(response) -> str:
    return re.search(r'id="token-secret">([^<]+)<', response.content.decode()).group(1)


def test_a_token_made_on_the_seat_page_opens_that_seat_in_the_api(client, game):
    link = tokens(game)[1]
    assert 'href="settings"' in client.get(f"/s/{link}/").content.decode()
    page = client.get(f"/s/{link}/settings")
    assert 'href="api/"' in page.content.decode()  # next to the settings page: /s/<link>/api/
    made = make_token(client, link)
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    secret = shown_secret(made)
    view = api_get(client, "/api/v1/seat", secret)
    assert view.status_code == 200
    assert view.json()["seat"]["position"] == 1


def test_only_the_hash_of_a_token_is_stored_and_it_is_shown_once(client, game):
    link = tokens(game)[0]
    secret = shown_secret(make_token(client, link))
    stored = ApiToken.objects.get()
    assert stored.token_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in repr(list(ApiToken.objects.values()))
    listing = client.get(f"/s/{link}/api/").content.decode()
    assert "my bot" in listing and secret not in listing


def test_an_ended_token_opens_nothing(client, game):
    link = tokens(game)[0]
    secret = shown_secret(make_token(client, link))
    ended = client.post(f"/s/{link}/api/{ApiToken.objects.get().pk}/end")
    assert ended.status_code == 302
    refused = api_get(client, "/api/v1/seat", secret)
    assert (refused.status_code, refused.json()["error"]["code"]) == (401, "unauthorized")
    assert refused["WWW-Authenticate"].startswith("Bearer")


def test_a_seat_cannot_end_another_seats_token(client, game):
    links = tokens(game)
    secret = shown_secret(make_token(client, links[0]))
    token_id = ApiToken.objects.get().pk
    response = client.post(f"/s/{links[1]}/api/{token_id}/end", follow=True)
    assert "Nothing was changed" in response.content.decode()
    assert api_get(client, "/api/v1/seat", secret).status_code == 200


@pytest.mark.parametrize(
    "header",
    [
        pytest.param({}, id="no token"),
        pytest.param({"HTTP_AUTHORIZATION": "Bearer vrs_forged"}, id="forged"),
        pytest.param({"HTTP_AUTHORIZATION": "Basic dXNlcjpwYXNz"}, id="another scheme"),
        pytest.param({"HTTP_AUTHORIZATION": "Bearer " + "vrs_" + "x" * 500}, id="far too long"),
    ],
)
def test_a_request_without_a_valid_token_is_unauthorized(client, game, header):
    response = client.get("/api/v1/seat", **header)
    assert (response.status_code, response.json()["error"]["code"]) == (401, "unauthorized")


def test_the_seat_link_is_not_an_api_token(client, game):
    response = client.get("/api/v1/seat", HTTP_AUTHORIZATION=f"Bearer {tokens(game)[0]}")
    assert response.status_code == 401


def test_a_token_stops_when_the_seat_is_handed_to_another_player(client, game):
    secret = shown_secret(make_token(client, tokens(game)[2]))
    moderator = User.objects.create_user("mod", password="x", is_staff=True)
    moderator.groups.add(Group.objects.get_or_create(name=MODERATORS_GROUP)[0])
    seat_replace(moderator=moderator, seat=seat_at(game, 2), new_email="new@example.com", reason="left the game")
    assert api_get(client, "/api/v1/seat", secret).status_code == 401
    assert "None yet" in client.get(f"/s/{tokens(game)[2]}/api/").content.decode()


def test_a_seat_has_at_most_a_few_tokens(client, game):
    link = tokens(game)[0]
    for n in range(TOKENS_PER_SEAT):
        assert make_token(client, link, f"bot {n}").status_code == 200
    refused = make_token(client, link, "one more")
    assert refused.status_code == 400
    assert ApiToken.objects.count() == TOKENS_PER_SEAT


def test_a_label_too_long_is_refused_and_makes_no_token(client, game):
    response = make_token(client, tokens(game)[0], "x" * 41)
    assert response.status_code == 400
    assert ApiToken.objects.count() == 0


def test_a_forged_seat_link_makes_no_token(client, game):
    response = client.post("/s/forged-link/api/new", {"label": "x"})
    assert response.status_code == 404
    assert ApiToken.objects.count() == 0
