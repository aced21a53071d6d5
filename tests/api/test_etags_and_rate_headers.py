"""The state and the history carry an ETag; asked again with it as
If-None-Match they answer 304 without a body while nothing changed, and
200 once the game moved. Every answer of the API tells where the client
stands against its rate limits (RateLimit-Limit, -Remaining, -Reset)."""

from __future__ import annotations

import pytest

from tests.api.helpers import api_get, api_post
from tests.factories import play_steps

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/seat", "/api/v1/seat/history?after=0", "/api/v1/games/{id}",
                                  "/api/v1/games/{id}/history"])
def test_an_unchanged_answer_is_not_sent_again_and_a_changed_one_is(client, game, secrets, path):
    path = path.format(id=game.public_id)
    first = api_get(client, path, secrets[0])
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    again = client.get(path, HTTP_AUTHORIZATION=f"Bearer {secrets[0]}", HTTP_IF_NONE_MATCH=etag)
    assert (again.status_code, again.content, again["ETag"]) == (304, b"", etag)
    play_steps(game, 1)
    moved = client.get(path, HTTP_AUTHORIZATION=f"Bearer {secrets[0]}", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag


def test_another_seats_etag_does_not_open_this_seats_view(client, game, secrets):
    # The views differ (each sees its own cards), so their tags do too.
    mine = api_get(client, "/api/v1/seat", secrets[0])
    theirs = client.get("/api/v1/seat", HTTP_AUTHORIZATION=f"Bearer {secrets[1]}", HTTP_IF_NONE_MATCH=mine["ETag"])
    assert theirs.status_code == 200 and theirs.json()["seat"]["position"] == 1


def rate_headers(response) -> tuple[int, int, int]:
    return (
        int(response["RateLimit-Limit"]),
        int(response["RateLimit-Remaining"]),
        int(response["RateLimit-Reset"]),
    )


def test_every_answer_tells_the_rate_limit_left(client, game, secrets, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 6
    answers = [
        api_get(client, "/api/v1/seat", secrets[0]),  # 200
        client.get("/api/v1/seat", HTTP_AUTHORIZATION=f"Bearer {secrets[0]}",
                   HTTP_IF_NONE_MATCH=api_get(client, "/api/v1/seat", secrets[0])["ETag"]),  # 304
        api_post(client, secrets[0], {"decision": "", "version": 0}),  # 400
        client.delete("/api/v1/seat", HTTP_AUTHORIZATION=f"Bearer {secrets[0]}"),  # 405
        api_get(client, "/api/v1/nothing/here", secrets[0]),  # 404
        api_get(client, "/api/v1/seat", secrets[0]),  # 429: the seventh
    ]
    assert [answer.status_code for answer in answers] == [200, 304, 400, 405, 404, 429]
    remaining = [rate_headers(answer)[1] for answer in answers]
    assert remaining == [5, 3, 2, 1, 0, 0]
    for answer in answers:
        limit, _remaining, reset = rate_headers(answer)
        assert limit == 6 and 1 <= reset <= 61


def test_a_client_without_a_token_is_told_its_address_limit(client, game, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_CLIENT = 50
    answer = api_get(client, f"/api/v1/games/{game.public_id}")
    assert rate_headers(answer)[:2] == (50, 49)
    assert api_get(client, "/api/v1/seat")["RateLimit-Remaining"] == "48"
