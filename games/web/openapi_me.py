"""The OpenAPI document's schemas and operations of the /me/ addresses (games/web/api_me.py),
answered to a player token: the address's games and the seat tokens it makes."""

from __future__ import annotations

from collections.abc import Callable

from .openapi_schemas import object_schema, ref
from .openapi_words import VERSION_MAX

_STRING = {"type": "string"}
_COUNT = {"type": "integer", "minimum": 0}
_VERSION = {"type": "integer", "minimum": 0, "maximum": VERSION_MAX}
_TIME = {"type": "string", "format": "date-time"}
_BOOLEAN = {"type": "boolean"}
_PLAYER_TOKEN: list[dict[str, list[str]]] = [{"playerToken": []}]
_POSITION = {
    "name": "position",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 0, "maximum": 99},
    "description": "The seat's position in the game (seats[].position in /me/games).",
}
_TOKEN_ID = {
    "name": "token_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
    "description": "The seat token's id (SeatTokenMade.id).",
}
# How one answer leads to the next request (OpenAPI links; schemathesis
# follows them in its stateful phase, as a bot would).


def _nullable(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def _list(items: dict, description: str) -> dict:
    return {"type": "array", "items": items, "description": description}


def _said(schema: dict, description: str) -> dict:
    return {**schema, "description": description}


def my_schemas(words: dict[str, list]) -> dict:
    """What the /me/ addresses answer, for a player token."""
    colour = {"type": "string", "enum": words["colours"]}
    return {
        "MyGames": object_schema(
            {
                "games": _list(
                    object_schema(
                        {
                            "id": _said(_STRING, "The game's public id, as in /games/{game_id}."),
                            "status": {"type": "string", "enum": words["game_statuses"]},
                            "version": _VERSION,
                            "decision_version": _VERSION,
                            "deadline": _nullable(_TIME),
                            "waiting_for_you": _said(_BOOLEAN, "One of your seats decides now."),
                            "seats": _list(
                                object_schema(
                                    {
                                        "position": _COUNT,
                                        "colour": _nullable(colour),
                                        "waiting_for_you": _said(
                                            _BOOLEAN, "The game is running and this seat decides now."
                                        ),
                                    }
                                ),
                                "The seats of the game this address holds (usually one).",
                            ),
                        }
                    ),
                    "Every game of the address, newest first, over and aborted ones included.",
                )
            },
            examples=[
                {
                    "games": [
                        {
                            "id": "k3xq9wpt",
                            "status": "running",
                            "version": 8,
                            "decision_version": 7,
                            "deadline": "2026-12-05T09:00:00+00:00",
                            "waiting_for_you": True,
                            "seats": [{"position": 1, "colour": "blue", "waiting_for_you": True}],
                        }
                    ]
                }
            ],
        ),
        "SeatTokenRequest": object_schema(
            {"label": _said({"type": "string", "maxLength": 40}, "What the token is for, for your eyes.")},
            required=[],
            examples=[{"label": "my bot"}],
        ),
        "SeatTokenMade": object_schema(
            {
                "id": _said({"type": "integer", "minimum": 1}, "Name it to end the token (DELETE)."),
                "token": _said(
                    _STRING, "The seat token's secret, shown this once: send it as the bearer of the /seat addresses."
                ),
                "label": _STRING,
                "game": _said(_STRING, "The game's public id."),
                "position": _COUNT,
            },
            examples=[{"id": 12, "token": "vrs_…", "label": "my bot", "game": "k3xq9wpt", "position": 1}],
        ),
        "SeatTokenEnded": object_schema(
            {"ended": _said({"type": "integer", "minimum": 1}, "The id of the seat token ended.")},
            examples=[{"ended": 12}],
        ),
    }


def my_paths(answer: Callable[..., dict], errors: Callable[..., dict], game_id: dict) -> dict:
    """The /me/ operations, told with the document's own answers and errors (games/web/openapi.py)."""
    return {
        "/me/games": {
            "get": {
                "operationId": "myGames",
                "summary": "Every game of the player token's address, with its seats and whether one waits for you.",
                "description": "A bot finds here that a new game waits for it (waiting_for_you), then makes a "
                "seat token for that seat.",
                "security": _PLAYER_TOKEN,
                "responses": {
                    "200": answer(
                        "The address's games.",
                        "MyGames",
                        links={
                            "MakeASeatToken": {
                                "operationId": "mySeatTokenNew",
                                "parameters": {
                                    "game_id": "$response.body#/games/0/id",
                                    "position": "$response.body#/games/0/seats/0/position",
                                },
                                "description": "A seat token for your seat of the newest game.",
                            }
                        },
                    ),
                    **errors(401, 405, 429),
                },
            }
        },
        "/me/games/{game_id}/seats/{position}/token": {
            "post": {
                "operationId": "mySeatTokenNew",
                "summary": "Make a seat token for a seat of yours, as the seat's page makes one (the same cap).",
                "security": _PLAYER_TOKEN,
                "parameters": [game_id, _POSITION],
                "requestBody": {
                    "required": False,
                    "content": {"application/json": {"schema": ref("SeatTokenRequest")}},
                },
                "responses": {
                    "201": answer(
                        "The token, its secret shown this once.",
                        "SeatTokenMade",
                        links={
                            "EndIt": {
                                "operationId": "mySeatTokenEnd",
                                "parameters": {
                                    "game_id": "$response.body#/game",
                                    "position": "$response.body#/position",
                                    "token_id": "$response.body#/id",
                                },
                            }
                        },
                    ),
                    **errors(400, 401, 404, 405, 409, 413, 429),
                },
            }
        },
        "/me/games/{game_id}/seats/{position}/token/{token_id}": {
            "delete": {
                "operationId": "mySeatTokenEnd",
                "summary": "End a seat token this player token made: it opens nothing any more.",
                "security": _PLAYER_TOKEN,
                "parameters": [game_id, _POSITION, _TOKEN_ID],
                "responses": {"200": answer("Ended.", "SeatTokenEnded"), **errors(401, 404, 405, 429)},
            }
        },
    }
