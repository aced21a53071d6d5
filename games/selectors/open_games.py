"""What the lobby, the join pages and a player's home show of open games.
Never an address: a player is shown by the name they gave."""

from __future__ import annotations

from django.db.models import F, Q
from django.db.models.functions import Now
from django.utils.translation import get_language_info

from games.models import JOIN_REQUEST_HOURS, Game, JoinRequest, Seat
from games.services.links import game_by_join_token, join_request_by_token, join_token, seat_token

__all__ = [
    "JOIN_REQUEST_HOURS",
    "game_by_join_token",
    "join_page",
    "join_request_by_token",
    "join_request_state",
    "join_token",
    "lobby_rows",
    "open_requests_of",
    "seat_token",
]

LOBBY_MAX = 100


def _language_name(code: str) -> str:
    return get_language_info(code)["name_local"]


def lobby_rows(*, language: str = "", decision_hours: int | None = None) -> list[dict]:
    """Listed open games, the soonest to start first (a game that waits
    until it is full last), at most LOBBY_MAX."""
    listed = Game.objects.filter(status=Game.Status.INVITING, listed=True, hidden=False, open_seats__gt=0)
    if language:
        listed = listed.filter(language=language)
    if decision_hours is not None:
        listed = listed.filter(decision_hours=decision_hours)
    games = list(listed.order_by(F("open_until").asc(nulls_last=True), "created_at")[:LOBBY_MAX])
    seats: dict[int, int] = {}
    hosts: dict[int, str] = {}
    for game_id, is_host, name in Seat.objects.filter(game__in=games).values_list("game_id", "is_host", "display_name"):
        seats[game_id] = seats.get(game_id, 0) + 1
        if is_host:
            hosts[game_id] = name
    return [_row(game, seats.get(game.pk, 0), hosts.get(game.pk, "")) for game in games]


def _row(game: Game, seats: int, host: str) -> dict:
    return {
        "join_token": join_token(game),
        "language": game.language,
        "language_name": _language_name(game.language),
        "decision_hours": game.decision_hours,
        "taken": seats - game.open_seats,
        "free": game.open_seats,
        "seats": seats,
        "host": host,
        "open_until": game.open_until,
        "when_open": game.when_open,
    }


def join_page(game: Game) -> dict:
    """The join page: the game as the lobby shows it, and who is in by name."""
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    host = next((s for s in seats if s.is_host), None)
    return {
        "game": game,
        "language_name": _language_name(game.language),
        "host": host.name if host else "",
        "players": [
            {"name": seat.name, "open": not seat.email and not seat.computer, "computer": bool(seat.computer)}
            for seat in seats
        ],
        "taken": len(seats) - game.open_seats,
        "free": game.open_seats,
        "joinable": game.joinable,
    }


def join_request_state(request: JoinRequest) -> str:
    """"held", "left" (held once, no longer), "expired", "full" or "open"
    (the button may hold a seat)."""
    if request.seat_id is not None:
        return "held"
    if request.confirmed_at is not None:
        return "left"
    if not JoinRequest.objects.filter(pk=request.pk, expires_at__gt=Now()).exists():
        return "expired"
    if not request.game.joinable:
        return "full"
    return "open"


def open_requests_of(email: str) -> list[dict]:
    """The address's requests to join not yet confirmed, and their games' state."""
    requests = (
        JoinRequest.objects.select_related("game")
        .filter(email=email, seat__isnull=True)
        .filter(Q(expires_at__gt=Now()) | Q(game__status=Game.Status.INVITING))
        .order_by("-created_at")[:20]
    )
    return [
        {
            "public_id": request.game.public_id,
            "state": join_request_state(request),
            "expires_at": request.expires_at,
            "status_label": Game.Status(request.game.status).label,
        }
        for request in requests
    ]
