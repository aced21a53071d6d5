"""The OpenAPI document served at /api/v1/openapi.json describes the answers
the API really gives: every answer below, success and refusal, is checked
against the schema the document gives for its path, method and status."""

from __future__ import annotations

import random

import pytest
from jsonschema import Draft202012Validator

from games import engine
from games.services.game_state import load_state
from games.urls import urlpatterns
from tests.api.helpers import api_get, api_post, api_tokens
from tests.factories import play_steps, play_until, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(client):
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.json()


def template_of(path: str, document: dict) -> str:
    """The document's path template that ``path`` (under /api/v1) matches."""
    parts = path.split("?")[0].removeprefix("/api/v1").split("/")
    for template in document["paths"]:
        pattern = template.split("/")
        if len(pattern) == len(parts) and all(
            p == q or (p.startswith("{") and q) for p, q in zip(pattern, parts, strict=True)
        ):
            return template
    raise AssertionError(f"{path} is not in the document")


def check(document: dict, method: str, path: str, response) -> None:
    operation = document["paths"][template_of(path, document)][method]
    answers = operation["responses"]
    assert str(response.status_code) in answers, f"{method} {path} answered {response.status_code}, not documented"
    schema = answers[str(response.status_code)]["content"]["application/json"]["schema"]
    validator = Draft202012Validator({**schema, "components": document["components"]})
    errors = sorted(validator.iter_errors(response.json()), key=str)
    assert not errors, f"{method} {path} {response.status_code}: {errors[0]}"


def test_every_schema_in_the_document_is_valid_json_schema(document):
    assert document["openapi"].startswith("3.1")
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


def test_the_document_lists_exactly_the_apis_addresses(document):
    routed = set()
    for pattern in urlpatterns:
        route = str(pattern.pattern)
        if route.startswith("api/v1/") and "(?P" not in route and not route.endswith("openapi.json"):
            routed.add("/" + route.removeprefix("api/v1/").replace("<str:public_id>", "{game_id}"))
    assert routed == set(document["paths"])


def test_every_answer_of_the_api_matches_the_document(client, document):
    game = started_game(4)
    secrets = api_tokens(game)
    seen = []

    def get(path, secret=None):
        response = api_get(client, path, secret)
        check(document, "get", path, response)
        seen.append(("get", template_of(path, document), response.status_code))
        return response

    def post(secret, body):
        response = api_post(client, secret, body)
        check(document, "post", "/api/v1/seat/decision", response)
        seen.append(("post", "/seat/decision", response.status_code))
        return response

    def mover():
        game.refresh_from_db()
        return engine.to_move(load_state(game))

    get("/api/v1/seat", secrets[0])
    get("/api/v1/seat", "vrs_forged")
    get("/api/v1/seat/history", secrets[0])
    get("/api/v1/seat/history?after=x", secrets[0])
    get(f"/api/v1/games/{game.public_id}")
    get("/api/v1/games/nosuchgame")
    get(f"/api/v1/games/{game.public_id}/history?after=0")
    get(f"/api/v1/games/{game.public_id}/history?after=-4")
    get("/api/v1/games/nosuchgame/history")
    post(secrets[mover()], b"not json")
    post(secrets[mover()], {"decision": "pass", "version": game.decision_version + 9})
    post(secrets[(mover() + 1) % 4], {"decision": "pass", "version": game.decision_version})
    post(secrets[mover()], {"decision": "bid 500", "version": game.decision_version})
    post("vrs_forged", {"decision": "pass", "version": 0})
    post(secrets[mover()], {"decision": "pass", "version": game.decision_version})
    # Deep into the game, and at its end: races, removals, standings.
    play_until(game, lambda state: state.race is not None and state.race.number >= 2)
    for secret in secrets.values():
        get("/api/v1/seat", secret)
    get(f"/api/v1/games/{game.public_id}")
    play_steps(game, 10_000, random.Random(4))
    game.refresh_from_db()
    assert game.status == "over"
    get("/api/v1/seat", secrets[1])
    get(f"/api/v1/games/{game.public_id}")
    over = post(secrets[1], {"decision": "pass", "version": game.decision_version})
    assert over.json()["error"]["code"] == "game_not_running"
    statuses = {status for _, _, status in seen}
    assert {200, 400, 401, 404, 409, 422} <= statuses


def test_a_rate_limited_answer_matches_the_document(client, document, settings):
    settings.API_REQUESTS_PER_MINUTE_PER_TOKEN = 1
    game = started_game(3)
    secret = api_tokens(game)[0]
    assert api_get(client, "/api/v1/seat", secret).status_code == 200
    refused = api_get(client, "/api/v1/seat", secret)
    assert refused.status_code == 429
    check(document, "get", "/api/v1/seat", refused)
