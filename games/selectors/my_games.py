"""Every game of one address, as the API's /me/games lists it for a player
token: each game's status and version, and each seat the address holds in
it, with whether the game waits for that seat now."""

from __future__ import annotations

from games.models import Game, Seat

from .seat import observation_for


def my_games(email: str) -> list[dict]:
    """Newest game first; a game the address holds two seats of is listed once."""
    seats = (
        Seat.objects.select_related("game")
        .filter(email=email)
        .order_by("-game__created_at", "-game_id", "position")
    )
    games: dict[int, dict] = {}
    for seat in seats:
        game = seat.game
        row = games.get(game.pk)
        if row is None:
            observation = observation_for(game, seat)
            row = games[game.pk] = {
                "id": game.public_id,
                "status": game.status,
                "version": game.version,
                "decision_version": game.decision_version,
                "deadline": game.deadline.isoformat() if game.deadline else None,
                "seats": [],
                "_to_move": observation["to_move"] if observation else None,
            }
        row["seats"].append(
            {
                "position": seat.position,
                "colour": seat.colour,
                "waiting_for_you": game.status == Game.Status.RUNNING
                and seat.colour is not None
                and row["_to_move"] == seat.colour,
            }
        )
    listed = []
    for row in games.values():
        row.pop("_to_move")
        row["waiting_for_you"] = any(seat["waiting_for_you"] for seat in row["seats"])
        listed.append(row)
    return listed
