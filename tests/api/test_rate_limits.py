"""The API's rate limits: per token and per client address, refused with 429
and Retry-After, and a refused request changes nothing."""

from __future__ import annotations

import pytest

from games import engine
from games.models import ActionRecord
from games.services.game_state import load_state
from tests.api.helpers import api_get, api_post, api_tokens
from tests.factories import started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return started_game(3)


def test_a_token_over_its_limit_waits_and_the_others_do_not(client, game, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 3
    secrets = api_tokens(game)
    for _ in range(3):
        assert api_get(client, "/api/v1/seat", secrets[0]).status_code == 200
    refused = api_get(client, "/api/v1/seat", secrets[0])
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "rate_limited")
    assert 1 <= int(refused["Retry-After"]) <= 61
    assert api_get(client, "/api/v1/seat", secrets[1]).status_code == 200


def test_a_client_over_its_limit_waits_whatever_token_it_sends(client, game, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_CLIENT = 4
    secrets = api_tokens(game)
    for n in range(4):
        assert api_get(client, "/api/v1/seat", secrets[n % 3]).status_code == 200
    assert api_get(client, "/api/v1/seat", secrets[2]).status_code == 429
    assert api_get(client, f"/api/v1/games/{game.public_id}").status_code == 429
    assert api_get(client, "/api/v1/seat", secrets[0], ).status_code == 429
    other_client = client.get("/api/v1/seat", REMOTE_ADDR="10.1.2.3", HTTP_AUTHORIZATION=f"Bearer {secrets[0]}")
    assert other_client.status_code == 200


def test_a_rate_limited_decision_changes_nothing(client, game, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 1
    secrets = api_tokens(game)
    mover = engine.to_move(load_state(game))
    assert api_get(client, "/api/v1/seat", secrets[mover]).status_code == 200
    refused = api_post(client, secrets[mover], {"decision": "pass", "version": game.decision_version})
    assert refused.status_code == 429
    assert not ActionRecord.objects.filter(game=game, actor="player").exists()
