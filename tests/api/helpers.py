"""Tokens and requests for the API tests."""

from __future__ import annotations

import json

from games import engine
from games.models import Game
from games.services.api_tokens import api_token_create
from games.services.game_state import load_state
from tests.factories import seat_at


def api_tokens(game: Game) -> dict[int, str]:
    """An API token for every seat, by position."""
    return {
        seat.position: api_token_create(seat=seat_at(game, seat.position), label=f"bot {seat.position}")[1]
        for seat in game.seats.all()
    }


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api_get(client, path: str, secret: str | None = None):
    return client.get(path, **(bearer(secret) if secret else {}))


def api_post(client, secret: str, body, path: str = "/api/v1/seat/decision", **headers):
    data = body if isinstance(body, (bytes, str)) else json.dumps(body)
    return client.post(path, data=data, content_type="application/json", **bearer(secret), **headers)


def mover(game: Game) -> int:
    """The position of the seat to move now."""
    game.refresh_from_db()
    return engine.to_move(load_state(game))
