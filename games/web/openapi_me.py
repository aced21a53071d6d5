"""The OpenAPI document's schemas of the /me/ addresses (games/web/api_me.py),
answered to a player token: the address's games and the seat tokens it makes."""

from __future__ import annotations

from .openapi_schemas import object_schema
from .openapi_words import VERSION_MAX

_STRING = {"type": "string"}
_COUNT = {"type": "integer", "minimum": 0}
_VERSION = {"type": "integer", "minimum": 0, "maximum": VERSION_MAX}
_TIME = {"type": "string", "format": "date-time"}
_BOOLEAN = {"type": "boolean"}


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
