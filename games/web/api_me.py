"""The API's /me/ addresses, for a player token made on the player's home:
every game of the address, and seat tokens made and ended for its seats.
A seat token opens none of them, and a player token no seat address."""

from __future__ import annotations

import json
from functools import wraps

from django.http import JsonResponse
from django.utils.translation import gettext as _

from games.selectors.my_games import my_games
from games.selectors.waits import database_call
from games.services.errors import ServiceError
from games.services.player_tokens import (
    player_token_for_secret,
    seat_of_address,
    seat_token_end_for_player,
    seat_token_for_player,
)

from .api import api_view, bearer_secret, error, runs_on_pool

LABEL_MAX = 40
# A seat's position and a token's id, read as a few digits at most.
POSITION_MAX = 99
TOKEN_ID_MAX = 2**31 - 1


def _unauthorized() -> JsonResponse:
    return error(
        401,
        "unauthorized",
        _("Send a valid player token as 'Authorization: Bearer <token>'. Player tokens are made on your games' page."),
        WWW_Authenticate='Bearer realm="versailles"',
    )


def _no_such_seat() -> JsonResponse:
    # One answer for a game that does not exist and a seat that is not the
    # address's: a token learns nothing of other players' games.
    return error(404, "not_found", _("You hold no seat at this place of a game with this id."))


def with_player_token(view):
    @wraps(view)
    async def wrapped(request, *args, **kwargs):
        player = await database_call(player_token_for_secret, bearer_secret(request), pooled=runs_on_pool(request))
        if player is None:
            return _unauthorized()
        return await view(request, player, *args, **kwargs)

    return wrapped


@api_view(["GET", "HEAD"])
@with_player_token
async def games_view(request, player):
    games = await database_call(my_games, player.email, pooled=runs_on_pool(request))
    return JsonResponse({"games": games})


def _label(request) -> str | None:
    """The label from an optional JSON body ({"label": "..."}), or None if the body is wrong."""
    if not request.body:
        return ""
    try:
        body = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(body, dict) or not set(body) <= {"label"}:
        return None
    label = body.get("label", "")
    return label if isinstance(label, str) and len(label) <= LABEL_MAX else None


def _make(request, player, public_id: str, position: int) -> JsonResponse:
    label = _label(request)
    if label is None:
        message = _('Send no body, or a JSON object: {"label": "my bot"} (40 characters at most).')
        return error(400, "bad_request", message)
    seat = seat_of_address(player.email, public_id, position)
    if seat is None:
        return _no_such_seat()
    try:
        token, secret = seat_token_for_player(player=player, seat=seat, label=label)
    except ServiceError as refusal:
        return error(409, "too_many_tokens", refusal.message)
    body = {"id": token.pk, "token": secret, "label": token.label, "game": seat.game.public_id, "position": position}
    return JsonResponse(body, status=201)


@api_view(["POST"])
@with_player_token
async def seat_token_new(request, player, public_id: str, position: int):
    if len(public_id) > 32 or position > POSITION_MAX:
        return _no_such_seat()
    return await database_call(_make, request, player, public_id, position, pooled=runs_on_pool(request))


def _end(player, public_id: str, position: int, token_id: int) -> JsonResponse:
    seat = seat_of_address(player.email, public_id, position)
    if seat is None:
        return _no_such_seat()
    if not seat_token_end_for_player(player=player, seat=seat, token_id=token_id):
        return error(404, "not_found", _("This player token made no live token with this id for this seat."))
    return JsonResponse({"ended": token_id})


@api_view(["DELETE"])
@with_player_token
async def seat_token_end(request, player, public_id: str, position: int, token_id: int):
    if len(public_id) > 32 or position > POSITION_MAX or token_id > TOKEN_ID_MAX:
        return _no_such_seat()
    return await database_call(_end, player, public_id, position, token_id, pooled=runs_on_pool(request))
