"""The JSON API's OpenAPI 3.1 document, served at /api/v1/openapi.json.

The suite checks every answer the API gives against it (tests/api), so the
document cannot drift from the code: objects list every property and allow
no others."""

from __future__ import annotations

ERROR_CODES = [
    "bad_request", "unauthorized", "not_found", "method_not_allowed", "too_large", "rate_limited",
    "stale_decision", "not_your_turn", "game_not_running", "illegal_decision", "malformed_decision", "refused",
]
GAME_STATUSES = ["inviting", "running", "paused", "over", "aborted"]
ACTORS = ["player", "chance", "deadline", "order", "autopilot", "computer", "moderator"]
DECISION_KINDS = ["bid", "roll", "push", "remove", "chance"]


def _object(properties: dict, required: list[str] | None = None, **extra) -> dict:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **extra,
    }


def _nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


_STRING = {"type": "string"}
_INTEGER = {"type": "integer", "minimum": 0}
_TIME = {"type": "string", "format": "date-time"}

SCHEMAS = {
    "Error": _object(
        {"error": _object({"code": {"type": "string", "enum": ERROR_CODES}, "message": _STRING})},
        description="Every refusal. 'code' is stable; 'message' is for people, in the seat's language.",
    ),
    "Game": _object(
        {
            "id": _STRING,
            "status": {"type": "string", "enum": GAME_STATUSES},
            "version": _INTEGER,
            "decision_version": _INTEGER,
            "deadline": _nullable(_TIME),
            "seed_commitment": _STRING,
            "seed": _nullable(_STRING),
        },
        description="'seed' is revealed only once the game is over; its SHA-256 is 'seed_commitment'.",
    ),
    "Seat": _object(
        {
            "position": _INTEGER,
            "colour": _nullable(_STRING),
            "name": _nullable(_STRING),
            "computer": _nullable({"type": "string", "enum": ["simple", "strong"]}),
            "autopilot": {"type": "boolean"},
        }
    ),
    "Decision": _object(
        {
            "kind": _nullable({"type": "string", "enum": DECISION_KINDS}),
            "colour": _nullable(_STRING),
            "version": _INTEGER,
            "deadline": _nullable(_TIME),
            "yours": {"type": "boolean"},
            "legal": {"type": "array", "items": _STRING},
        },
        description=(
            "The decision pending. 'version' is what a decision must be sent with; 'legal' lists, "
            "for the seat that decides only, every decision it may send, in the notation."
        ),
    ),
    "Observation": {
        "type": "object",
        "description": "What the viewer may know of the game (the engine's observation): a spectator sees no secret.",
        "required": ["viewer", "phase", "to_move", "decision", "players", "auction", "race", "results", "standings"],
    },
    "GameView": _object(
        {
            "game": _ref("Game"),
            "seats": {"type": "array", "items": _ref("Seat")},
            "observation": _nullable(_ref("Observation")),
            "decision": _nullable(_ref("Decision")),
        }
    ),
    "SeatView": _object(
        {
            "game": _ref("Game"),
            "seats": {"type": "array", "items": _ref("Seat")},
            "observation": _nullable(_ref("Observation")),
            "decision": _nullable(_ref("Decision")),
            "seat": _object({"position": _INTEGER, "colour": _nullable(_STRING), "name": _STRING}),
            "arrange": _object(
                {"allowed": {"type": "boolean"}, "codes": {"type": "array", "items": _STRING}},
                description="Whether the seat may reorder its team now (out of turn: send 'arrange' with the codes).",
            ),
        }
    ),
    "History": _object(
        {
            "entries": {
                "type": "array",
                "items": _object(
                    {
                        "seq": _INTEGER,
                        "at": _TIME,
                        "actor": {"type": "string", "enum": ACTORS},
                        "colour": _nullable(_STRING),
                        "events": {
                            "type": "array",
                            "items": {"type": "object", "required": ["type"], "properties": {"type": _STRING}},
                        },
                        "text": {"type": "array", "items": _STRING},
                    }
                ),
            },
            "more": {"type": "boolean"},
            "after": _INTEGER,
        },
        description="Public events only, oldest first; ask again with after=<after> while 'more' is true.",
    ),
    "DecisionRequest": _object(
        {
            "decision": {"type": "string", "maxLength": 200, "examples": ["bid 12", "pass", "roll", "push blue"]},
            "version": _INTEGER,
        }
    ),
    "DecisionAccepted": _object(
        {
            "accepted": _STRING,
            "game": _object(
                {"status": {"type": "string", "enum": GAME_STATUSES}, "version": _INTEGER, "decision_version": _INTEGER}
            ),
        }
    ),
}


def _answer(description: str, schema: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


def _errors(*statuses: int) -> dict:
    said = {
        400: "Malformed request ('bad_request').",
        401: "No valid token ('unauthorized').",
        404: "No such game ('not_found').",
        409: "'stale_decision', 'not_your_turn' or 'game_not_running': nothing was changed.",
        413: "Body too large ('too_large').",
        422: "'illegal_decision', 'malformed_decision' or 'refused': nothing was changed.",
        429: "Too many requests ('rate_limited'); the Retry-After header says when to try again.",
    }
    return {str(status): _answer(said[status], "Error") for status in statuses}


_AFTER = {
    "name": "after",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 0, "default": 0},
    "description": "Only entries after this step.",
}
_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": _STRING,
    "description": "The game's public id.",
}
_TOKEN: list[dict[str, list[str]]] = [{"seatToken": []}]

PATHS = {
    "/seat": {
        "get": {
            "operationId": "seatView",
            "summary": (
                "The seat's view: the game, what the seat may know, the decision pending and its legal decisions."
            ),
            "security": _TOKEN,
            "responses": {"200": _answer("The seat's view.", "SeatView"), **_errors(401, 429)},
        }
    },
    "/seat/history": {
        "get": {
            "operationId": "seatHistory",
            "summary": "The game's history as events.",
            "security": _TOKEN,
            "parameters": [_AFTER],
            "responses": {"200": _answer("One page of the history.", "History"), **_errors(400, 401, 429)},
        }
    },
    "/seat/decision": {
        "post": {
            "operationId": "seatDecision",
            "summary": "Make the seat's decision, in the notation, with the decision version it answers.",
            "security": _TOKEN,
            "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("DecisionRequest")}}},
            "responses": {
                "200": _answer("Applied.", "DecisionAccepted"),
                **_errors(400, 401, 409, 413, 422, 429),
            },
        }
    },
    "/games/{game_id}": {
        "get": {
            "operationId": "gameView",
            "summary": "A game as a spectator sees it.",
            "parameters": [_GAME_ID],
            "responses": {"200": _answer("The public view.", "GameView"), **_errors(404, 429)},
        }
    },
    "/games/{game_id}/history": {
        "get": {
            "operationId": "gameHistory",
            "summary": "A game's history as events.",
            "parameters": [_GAME_ID, _AFTER],
            "responses": {"200": _answer("One page of the history.", "History"), **_errors(400, 404, 429)},
        }
    },
}


def document(server_url: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Versailles API",
            "version": "1",
            "description": (
                "Play a seat of a Galopp Royal game from a program. Make a token on the seat's page "
                "(it acts for that seat only, and can be ended there) and send it as "
                "'Authorization: Bearer <token>'. Every refusal is JSON with a stable error code."
            ),
        },
        "servers": [{"url": server_url}],
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {"seatToken": {"type": "http", "scheme": "bearer"}},
        },
        "paths": PATHS,
    }
