"""My games: a player token, made on the player's home, lists every game of
its address with its seats and which wait for the player, and makes or ends
seat tokens for those seats; it is no seat token, nor the reverse."""

from __future__ import annotations

import hashlib
import re

import pytest

from games.models import ApiToken, PlayerApiToken
from games.services.api_tokens import TOKENS_PER_SEAT
from games.services.home import home_link_issue, home_link_revoke
from games.services.links import home_token
from tests.api.helpers import api_get, api_post, api_tokens, bearer, mover
from tests.api.test_openapi import check
from tests.factories import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(client):
    return client.get("/api/v1/openapi.json").json()


def home_of(email: str) -> str:
    return home_token(home_link_issue(email=email))


def player_token(client, email: str, label: str = "my bot") -> str:
    made = client.post(f"/h/{home_of(email)}/api/new", {"label": label})
    assert made.status_code == 200
    return re.search(r'id="token-secret">([^<]+)<', made.content.decode()).group(1)


def make_seat_token(client, secret: str, game_id: str, position: int, body=b""):
    return api_post(client, secret, body, path=f"/api/v1/me/games/{game_id}/seats/{position}/token")


def end_seat_token(client, secret: str, game_id: str, position: int, token_id: int):
    return client.delete(f"/api/v1/me/games/{game_id}/seats/{position}/token/{token_id}", **bearer(secret))


def test_the_player_home_links_to_its_token_page_which_shows_a_new_secret_once(client):
    home = home_of("p1@example.com")
    assert f'href="/h/{home}/api/"' in client.get(f"/h/{home}/").content.decode()
    made = client.post(f"/h/{home}/api/new", {"label": "my bot"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    secret = re.search(r'id="token-secret">([^<]+)<', made.content.decode()).group(1)
    stored = PlayerApiToken.objects.get()
    assert stored.email == "p1@example.com"
    assert stored.token_hash == hashlib.sha256(secret.encode()).hexdigest()
    listing = client.get(f"/h/{home}/api/").content.decode()
    assert "my bot" in listing and secret not in listing


def test_opening_the_token_page_makes_nothing_and_an_ended_home_link_opens_it_no_more(client):
    link = home_link_issue(email="p1@example.com")
    assert client.get(f"/h/{home_token(link)}/api/").status_code == 200
    assert client.head(f"/h/{home_token(link)}/api/").status_code == 200
    assert not PlayerApiToken.objects.exists()
    home_link_revoke(link=link)
    assert client.get(f"/h/{home_token(link)}/api/").status_code == 410
    assert client.post(f"/h/{home_token(link)}/api/new", {"label": "x"}).status_code == 410
    assert not PlayerApiToken.objects.exists()


def test_a_player_token_lists_only_its_own_addresses_games(client, document):
    four = started_game(4)  # p0 … p3
    three = started_game(3)  # p0 … p2
    answer = api_get(client, "/api/v1/me/games", player_token(client, "p3@example.com"))
    check(document, "get", "/api/v1/me/games", answer)
    assert [game["id"] for game in answer.json()["games"]] == [four.public_id]
    assert [seat["position"] for seat in answer.json()["games"][0]["seats"]] == [3]
    both = api_get(client, "/api/v1/me/games", player_token(client, "p0@example.com")).json()["games"]
    assert [game["id"] for game in both] == [three.public_id, four.public_id]  # newest first


def test_a_bot_finds_the_game_that_waits_for_it(client):
    game = started_game(3)
    waited = mover(game)
    for position in range(3):
        listed = api_get(client, "/api/v1/me/games", player_token(client, f"p{position}@example.com")).json()
        row = listed["games"][0]
        assert row["waiting_for_you"] is (position == waited)
        assert row["seats"][0]["waiting_for_you"] is (position == waited)
        assert row["version"] == game.version and row["status"] == "running"


def test_a_seat_token_from_a_player_token_plays_a_decision(client, document):
    game = started_game(3)
    position = mover(game)
    made = make_seat_token(client, player_token(client, f"p{position}@example.com"), game.public_id, position)
    check(document, "post", f"/api/v1/me/games/{game.public_id}/seats/{position}/token", made)
    assert made.status_code == 201
    seat_secret = made.json()["token"]
    decided = api_post(client, seat_secret, {"decision": "pass", "version": game.decision_version})
    assert decided.status_code == 200 and decided.json()["accepted"] == "pass"


def test_another_addresses_seat_gets_no_token_and_the_same_answer_as_an_unknown_game(client, document):
    game = started_game(3)
    secret = player_token(client, "p0@example.com")
    theirs = make_seat_token(client, secret, game.public_id, 1)
    unknown = make_seat_token(client, secret, "nosuchgame", 0)
    check(document, "post", f"/api/v1/me/games/{game.public_id}/seats/1/token", theirs)
    assert theirs.status_code == unknown.status_code == 404
    assert theirs.json() == unknown.json()
    assert not ApiToken.objects.exists()


def test_a_revoked_player_token_answers_401(client, document):
    started_game(3)
    home = home_of("p0@example.com")
    made = client.post(f"/h/{home}/api/new", {"label": "old"})
    secret = re.search(r'id="token-secret">([^<]+)<', made.content.decode()).group(1)
    assert api_get(client, "/api/v1/me/games", secret).status_code == 200
    ended = client.post(f"/h/{home}/api/{PlayerApiToken.objects.get().pk}/end")
    assert ended.status_code == 302
    refused = api_get(client, "/api/v1/me/games", secret)
    check(document, "get", "/api/v1/me/games", refused)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"


def test_a_seat_token_is_no_player_token_and_a_player_token_no_seat_token(client, document):
    game = started_game(3)
    seat_secret = api_tokens(game)[0]
    player_secret = player_token(client, "p0@example.com")
    as_player = api_get(client, "/api/v1/me/games", seat_secret)
    as_seat = api_get(client, "/api/v1/seat", player_secret)
    check(document, "get", "/api/v1/me/games", as_player)
    check(document, "get", "/api/v1/seat", as_seat)
    assert as_player.status_code == as_seat.status_code == 401
    assert as_player.json()["error"]["code"] == as_seat.json()["error"]["code"] == "unauthorized"
    assert make_seat_token(client, seat_secret, game.public_id, 0).status_code == 401


def test_a_seat_token_made_through_the_api_is_ended_by_delete_and_only_by_its_maker(client, document):
    game = started_game(3)
    secret = player_token(client, "p0@example.com")
    other = player_token(client, "p0@example.com", "phone")
    made = make_seat_token(client, secret, game.public_id, 0, {"label": "bot"}).json()
    path = f"/api/v1/me/games/{game.public_id}/seats/0/token/{made['id']}"
    assert end_seat_token(client, other, game.public_id, 0, made["id"]).status_code == 404
    assert api_get(client, "/api/v1/seat", made["token"]).status_code == 200
    ended = end_seat_token(client, secret, game.public_id, 0, made["id"])
    check(document, "delete", path, ended)
    assert ended.status_code == 200 and ended.json() == {"ended": made["id"]}
    assert api_get(client, "/api/v1/seat", made["token"]).status_code == 401
    again = end_seat_token(client, secret, game.public_id, 0, made["id"])
    check(document, "delete", path, again)
    assert again.status_code == 404


def test_a_seat_gets_no_more_tokens_through_the_api_than_on_its_page(client, document):
    game = started_game(3)
    secret = player_token(client, "p0@example.com")
    for _ in range(TOKENS_PER_SEAT):
        assert make_seat_token(client, secret, game.public_id, 0).status_code == 201
    refused = make_seat_token(client, secret, game.public_id, 0)
    check(document, "post", f"/api/v1/me/games/{game.public_id}/seats/0/token", refused)
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "too_many_tokens"
    assert ApiToken.objects.filter(revoked_at=None).count() == TOKENS_PER_SEAT


def test_a_wrong_label_is_a_bad_request_that_makes_nothing(client, document):
    game = started_game(3)
    secret = player_token(client, "p0@example.com")
    for body in (b"not json", {"label": "x" * 41}, {"label": 3}, {"name": "bot"}, []):
        refused = make_seat_token(client, secret, game.public_id, 0, body)
        check(document, "post", f"/api/v1/me/games/{game.public_id}/seats/0/token", refused)
        assert refused.status_code == 400
    assert not ApiToken.objects.exists()


def test_player_token_answers_carry_rate_limit_headers_and_are_limited(client, settings, document):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 2
    secret = player_token(client, "p0@example.com")
    first = api_get(client, "/api/v1/me/games", secret)
    assert first["RateLimit-Limit"] == "2" and first["RateLimit-Remaining"] == "1"
    api_get(client, "/api/v1/me/games", secret)
    limited = api_get(client, "/api/v1/me/games", secret)
    check(document, "get", "/api/v1/me/games", limited)
    assert limited.status_code == 429 and "Retry-After" in limited
    wrong = client.put("/api/v1/me/games", **bearer(player_token(client, "p1@example.com")))
    assert wrong.status_code == 405 and wrong["Allow"] == "GET, HEAD"


def test_an_address_that_fits_no_route_is_a_json_404_even_with_a_newline_in_it(client):
    missing = client.post("/api/v1/me/games/ab%0Acd/seats/x/token")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
