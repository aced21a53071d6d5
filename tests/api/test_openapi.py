"""The OpenAPI document served at /api/v1/openapi.json describes the answers
the API really gives: every answer below, success and refusal, is checked
against the schema the document gives for its path, method and status."""

from __future__ import annotations

import importlib
import json
import random
from pathlib import Path
from typing import get_args, get_type_hints

import pytest
from jsonschema import Draft202012Validator

from games import engine
from games.models import ActionRecord, Game
from games.services.game_state import load_state
from games.urls import urlpatterns
from games.web.openapi_words import ERROR_CODES, ERROR_STATUS
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


# The routes' path converters, by the document's names for them.
PATH_PARAMETERS = {"<str:public_id>": "{game_id}", "<int:position>": "{position}", "<int:token_id>": "{token_id}"}


def test_the_document_lists_exactly_the_apis_addresses(document):
    routed = set()
    for pattern in urlpatterns:
        route = str(pattern.pattern)
        if route.startswith("api/v1/") and "(?P" not in route and not route.endswith("openapi.json"):
            for converter, name in PATH_PARAMETERS.items():
                route = route.replace(converter, name)
            routed.add("/" + route.removeprefix("api/v1/"))
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


def test_every_example_in_the_document_fits_its_own_schema(document):
    examples = 0
    for name, schema in document["components"]["schemas"].items():
        validator = Draft202012Validator({**schema, "components": document["components"]})
        for example in schema.get("examples", []):
            errors = list(validator.iter_errors(example))
            assert not errors, f"{name}: {errors[0]}"
            examples += 1
    assert examples >= 15


def test_the_observations_schemas_list_every_key_the_engine_observes(document):
    # The module, which the package's observe function hides.
    observed = importlib.import_module("games.engine.observe")
    schemas = document["components"]["schemas"]
    shapes = {
        "Observation": observed.Observation,
        "Player": observed.PlayerView,
        "Auction": observed.AuctionView,
        "Race": observed.RaceView,
        "Chair": observed.ChairView,
        "LastRoll": observed.LastRollView,
        "Result": observed.ResultView,
        "Card": observed.CardView,
    }
    for name, shape in shapes.items():
        assert set(schemas[name]["properties"]) == set(get_type_hints(shape)), name
        assert set(schemas[name]["required"]) == set(get_type_hints(shape)), name


def test_the_documents_enums_are_the_engines_own_names(document):
    schemas = document["components"]["schemas"]
    observation = schemas["Observation"]["properties"]
    assert observation["phase"]["enum"] == list(get_args(engine.Phase))
    assert observation["decision"]["anyOf"][0]["enum"] == list(get_args(engine.DecisionKind))
    assert schemas["Race"]["properties"]["awaiting"]["enum"] == list(get_args(engine.Awaiting))
    assert schemas["Chair"]["properties"]["status"]["enum"] == list(get_args(engine.ChairStatus))
    assert schemas["Auction"]["properties"]["kind"]["enum"] == list(get_args(engine.AuctionKind))
    assert schemas["Card"]["properties"]["code"]["enum"] == [bearer.code for bearer in engine.CLASSIC.bearers]
    assert schemas["HistoryEntry"]["properties"]["actor"]["enum"] == list(ActionRecord.Actor.values)
    assert schemas["HistoryEntry"]["properties"]["source"]["enum"] == list(ActionRecord.Source.values)
    assert schemas["Game"]["properties"]["status"]["enum"] == list(Game.Status.values)


def test_every_error_code_is_documented_with_the_status_the_api_answers_it_with(document):
    documented: dict[str, set[int]] = {}
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, answer in operation["responses"].items():
                for code in ERROR_CODES:
                    if f"'{code}'" in answer["description"]:
                        documented.setdefault(code, set()).add(int(status))
    assert set(documented) == set(ERROR_CODES)
    for code, statuses in documented.items():
        assert statuses == {ERROR_STATUS[code]}, code
    enum = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]
    assert enum["enum"] == ERROR_CODES and all(f"'{code}'" in enum["description"] for code in ERROR_CODES)
    examples = document["components"]["schemas"]["Error"]["examples"]
    assert sorted(example["error"]["code"] for example in examples) == sorted(ERROR_CODES)


def test_the_document_shows_every_kind_of_decision_with_the_version_it_takes(document):
    examples = document["components"]["schemas"]["DecisionRequest"]["examples"]
    kinds = {type(engine.parse(example["decision"])).__name__ for example in examples}
    assert kinds == {"Bid", "Pass", "Roll", "Push", "Remove", "Arrange"}
    described = document["components"]["schemas"]["Decision"]["properties"]["kind"]["description"]
    assert all(kind in described for kind in get_args(engine.DecisionKind))
    schemas = document["components"]["schemas"]
    assert "any version" in schemas["DecisionRequest"]["properties"]["version"]["description"]
    assert "decision_version stays" in schemas["Game"]["properties"]["decision_version"]["description"]


def test_not_found_and_wrong_method_answers_match_the_document(client, document):
    error = Draft202012Validator({"$ref": "#/components/schemas/Error", "components": document["components"]})
    unknown = client.get("/api/v1/nothing/here")
    wrong = client.get("/api/v1/seat/decision")
    assert (unknown.status_code, wrong.status_code) == (404, 405) and wrong["Allow"] == "POST"
    for response in (unknown, wrong):
        assert not list(error.iter_errors(response.json()))
    assert "405" in document["paths"]["/seat/decision"]["post"]["responses"]
    assert "404" in document["paths"]["/games/{game_id}"]["get"]["responses"]


def test_what_the_document_refuses_is_what_the_api_refuses_as_a_bad_request(client, document):
    game = started_game(3)
    secret = api_tokens(game)[0]
    request = Draft202012Validator(
        {"$ref": "#/components/schemas/DecisionRequest", "components": document["components"]}
    )
    after = document["paths"]["/seat/history"]["get"]["parameters"][0]["schema"]
    for body in ({"decision": "", "version": 1}, {"decision": "x" * 201, "version": 1},
                 {"decision": "pass", "version": 2**31}, {"decision": "pass", "version": 1, "extra": 1}):
        assert list(request.iter_errors(body)), body
        assert api_post(client, secret, body).status_code == 400, body
    for body in ({"decision": " ", "version": 1}, {"decision": "x" * 200, "version": 2**31 - 1}):
        assert not list(request.iter_errors(body)), body
        assert api_post(client, secret, body).status_code in (409, 422), body
    assert api_get(client, f"/api/v1/seat/history?after={after['maximum']}", secret).status_code == 200
    assert api_get(client, f"/api/v1/seat/history?after={after['maximum'] + 1}", secret).status_code == 400


def test_arranging_is_written_one_way_in_the_readme_the_api_page_and_the_document(client, document):
    canonical = "arrange +5 +2 +3 goof"
    assert engine.format_action(engine.parse(canonical)) == canonical
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    page = client.get("/api/").content.decode()
    text = json.dumps(document)
    for where in (readme, page, text):
        assert canonical in where
        assert "arrange 5 2 3 -2" not in where
    assert "arrange.codes" in page and "arrange.codes" in text
