"""The JSON API's OpenAPI 3.1 document, served at /api/v1/openapi.json.

The suite checks every answer the API gives against it (tests/api), and a
schemathesis run fuzzes the live API with it, so the document cannot drift
from the code: objects list every property and allow no others, and the
enums (phases, decision kinds, bearer codes, statuses, actors) are the
engine's and the models' own names, read from them here."""

from __future__ import annotations

from django.conf import settings

from games.selectors.api import document_examples, vocabulary

from .openapi_me import my_paths, my_schemas
from .openapi_schemas import ref, schemas
from .openapi_words import (
    AFTER_MAX,
    ERROR_CODES,
    ERROR_MEANING,
    ERROR_STATUS,
    IDEMPOTENCY_KEY_PATTERN,
)

_STRING = {"type": "string"}


def _answer(description: str, schema: str, **extra) -> dict:
    return {"description": description, "content": {"application/json": {"schema": ref(schema)}}, **extra}


_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer", "minimum": 1}}}
# On every answer, refusals included: where the client stands against the
# limit (per token or per client address) it is closest to.
_RATE_LIMIT = {
    "RateLimit-Limit": {
        "description": "Requests allowed a minute by the limit the client is closest to.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Remaining": {
        "description": "Requests left of it this minute, this one counted.",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "Seconds until its minute starts again.",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    },
}
_ETAG = {
    "ETag": {
        "description": "Names this answer's content; send it back as If-None-Match to hear 304 while it is the same.",
        "required": True,
        "schema": _STRING,
    }
}
_NOT_MODIFIED = {
    "304": {
        "description": "Not modified: the request's If-None-Match names this answer's ETag. No body.",
        "headers": _ETAG,
    }
}
_ALLOW = {"Allow": {"description": "The methods this address answers.", "schema": _STRING}}


def _errors(*statuses: int) -> dict:
    answers = {}
    for status in statuses:
        codes = [code for code in ERROR_CODES if ERROR_STATUS[code] == status]
        said = " ".join(f"'{code}': {ERROR_MEANING[code]}" for code in codes)
        headers = _RETRY_AFTER if status == 429 else _ALLOW if status == 405 else None
        answers[str(status)] = _answer(said, "Error", **({"headers": headers} if headers else {}))
    return answers


_AFTER = {
    "name": "after",
    "in": "query",
    "required": False,
    "schema": {"type": "integer", "minimum": 0, "maximum": AFTER_MAX, "default": 0},
    "description": "Only entries after this version of the game (a history entry's seq; 0 for all).",
}
_GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "minLength": 1},
    "description": "The game's public id.",
}
_IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": IDEMPOTENCY_KEY_PATTERN},
    "description": "Any string of yours (a UUID, say), new for every new decision. Sent again with the same "
    "body by the same token within a day, it answers what it answered the first time, with the header "
    "'Idempotent-Replayed: true', and the decision is applied once: retry after a timeout without fear. "
    "The same key with another body is refused ('idempotency_key_reused').",
}
_REPLAYED = {
    "Idempotent-Replayed": {
        "description": "With an Idempotency-Key only: 'true' when this is the answer given to an earlier request.",
        "schema": {"type": "string", "enum": ["true", "false"]},
    }
}
def _wait() -> dict:
    return {
        "name": "wait",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 0, "maximum": AFTER_MAX},
        "description": "A version of the game (game.version of the view you hold): the answer comes as soon as "
        "the game's version is past it (at once if it already is, and once the game is over or aborted), or "
        f"after {settings.API_WAIT_SECONDS} seconds with the game as it stands. A wait costs no more than one request: "
        "call again with the version you got, and you poll nothing.",
    }


_LAST_EVENT_ID = {
    "name": "Last-Event-ID",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": "^[0-9]{1,9}$"},
    "description": "The id of the last event you had (a game version): the stream starts after it, with the "
    "history entries you missed. Browsers' EventSource sends it when they reconnect.",
}
_STREAM_AFTER = {**_AFTER, "description": "As Last-Event-ID, for clients that cannot set headers."}
# Before OpenAPI 3.2 (itemSchema), the schema of a stream is its events'.
_EVENT = {
    "type": "object",
    "description": "One event, as an EventSource reads it: its data is a StreamEvent as JSON.",
    "properties": {
        "event": {"const": "game"},
        "id": {"type": "string", "pattern": "^[0-9]{1,10}$"},
        "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": ref("StreamEvent")},
        "retry": {"type": "integer", "minimum": 0},
    },
    "required": ["event", "id", "data"],
    "additionalProperties": False,
}
_TOKEN: list[dict[str, list[str]]] = [{"seatToken": []}]
_SEAT_LINKS = {
    "MakeTheDecision": {
        "operationId": "seatDecision",
        "requestBody": {"decision": "$response.body#/decision/legal/0", "version": "$response.body#/decision/version"},
        "description": "Send one of the legal decisions with the version to send it with (when it is yours).",
    },
    "ReadTheHistory": {
        "operationId": "seatHistory",
        "parameters": {"after": "$response.body#/game/decision_version"},
        "description": "What happened since the decision pending became pending.",
    },
    "SeeItAsASpectator": {"operationId": "gameView", "parameters": {"game_id": "$response.body#/game/id"}},
}

def _paths() -> dict:
    return {
        **my_paths(_answer, _errors, _GAME_ID),
        "/seat": {
            "get": {
                "operationId": "seatView",
                "summary": "The seat's view: the game, what the seat may know, the decision pending and its legal "
                "decisions, and whether the seat may arrange its team.",
                "description": "With ?wait=<version>, a long poll: the answer waits until the game moves past that "
                "version. Send If-None-Match with the ETag of the view you hold to hear 304 while it is the same.",
                "security": _TOKEN,
                "parameters": [_wait()],
                "responses": {
                    "200": _answer("The seat's view.", "SeatView", links=_SEAT_LINKS, headers=_ETAG),
                    **_NOT_MODIFIED,
                    **_errors(400, 401, 405, 429),
                },
            }
        },
        "/seat/history": {
            "get": {
                "operationId": "seatHistory",
                "summary": "The game's history: every decision with who made it, and the chance outcomes after them.",
                "security": _TOKEN,
                "parameters": [_AFTER],
                "responses": {
                    "200": _answer("One page of the history.", "History", headers=_ETAG),
                    **_NOT_MODIFIED,
                    **_errors(400, 401, 405, 429),
                },
            }
        },
        "/seat/events": {
            "get": {
                "operationId": "seatEvents",
                "summary": "The seat's game as server-sent events: one each time the game moves.",
                "description": "A text/event-stream. Each event is 'event: game', 'id: <the game's version>' and "
                "one 'data:' line of JSON, a StreamEvent: the seat's view and the history entries since the "
                "event before. The first event is the game as it stands (without entries, unless Last-Event-ID "
                "or 'after' names a version: then the entries after it). Lines starting with ':' are comments "
                "sent while the game stands still. The stream ends when the game is over or aborted, and after "
                f"{settings.API_STREAM_SECONDS} seconds: reconnect with Last-Event-ID to go on where it stopped.",
                "security": _TOKEN,
                "parameters": [_LAST_EVENT_ID, _STREAM_AFTER],
                "responses": {
                    "200": {
                        "description": "The stream. Each event's data is a StreamEvent (see components).",
                        "content": {
                            "text/event-stream": {
                                "schema": _EVENT,
                            }
                        },
                    },
                    **_errors(400, 401, 405, 429),
                },
            }
        },
        "/seat/decision": {
            "post": {
                "operationId": "seatDecision",
                "summary": "Make the seat's decision, in the notation, with the decision version it answers.",
                "security": _TOKEN,
                "parameters": [_IDEMPOTENCY_KEY],
                "requestBody": {"required": True, "content": {"application/json": {"schema": ref("DecisionRequest")}}},
                "responses": {
                    "200": _answer(
                        "Applied (or, for an unchanged arrangement, nothing to apply: 'changed' is false).",
                        "DecisionAccepted",
                        headers=_REPLAYED,
                        links={"ReadTheViewAgain": {"operationId": "seatView", "description": "What comes next."}},
                    ),
                    **_errors(400, 401, 405, 409, 413, 422, 429),
                },
            }
        },
        "/games/{game_id}": {
            "get": {
                "operationId": "gameView",
                "summary": "A game as a spectator sees it.",
                "parameters": [_GAME_ID],
                "responses": {
                    **_NOT_MODIFIED,
                    "200": _answer(
                        "The public view.",
                        "GameView",
                        headers=_ETAG,
                        links={
                            "ReadItsHistory": {
                                "operationId": "gameHistory",
                                "parameters": {"game_id": "$response.body#/game/id"},
                            }
                        },
                    ),
                    **_errors(404, 405, 429),
                },
            }
        },
        "/games/{game_id}/history": {
            "get": {
                "operationId": "gameHistory",
                "summary": "A game's history, as /seat/history gives it.",
                "parameters": [_GAME_ID, _AFTER],
                "responses": {
                    "200": _answer("One page of the history.", "History", headers=_ETAG),
                    **_NOT_MODIFIED,
                    **_errors(400, 404, 405, 429),
                },
            }
        },
    }


def _with_rate_limits(paths: dict) -> dict:
    """Every answer of every operation with the RateLimit-* headers."""
    return {
        path: {
            method: {
                **operation,
                "responses": {
                    status: {**answer, "headers": {**answer.get("headers", {}), **_RATE_LIMIT}}
                    for status, answer in operation["responses"].items()
                },
            }
            for method, operation in methods.items()
        }
        for path, methods in paths.items()
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
                "'Authorization: Bearer <token>'. A player token, made on your games' page, lists every game of "
                "your address (/me/games) and makes or ends seat tokens for your seats; it decides nothing itself. "
                "Every refusal is JSON with a stable error code (see Error) "
                "and changes nothing; any other address under /api/v1/ answers 404 'not_found', and an "
                "address asked with a method it does not answer 405 'method_not_allowed'. The version rule: "
                "a decision carries the version of the decision it answers (decision.version); if another "
                "decision came first it is refused as 'stale_decision'. Decisions are written in one notation "
                "(DecisionRequest.decision); arranging a team is 'arrange' followed by the bearer codes in "
                "the new order, as arrange.codes writes them: 'arrange +5 +2 +3 goof'."
            ),
        },
        "servers": [{"url": server_url}],
        "components": {
            "schemas": {**schemas(vocabulary(), document_examples()), **my_schemas(vocabulary())},
            "securitySchemes": {
                "seatToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Made on the seat's page, or through /me/ with a player token: one seat.",
                },
                "playerToken": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Made on your games' page (the link in the 'all your games' email): "
                    "your address's games, and seat tokens for its seats.",
                },
            },
        },
        "paths": _with_rate_limits(_paths()),
    }
