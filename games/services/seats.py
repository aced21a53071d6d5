"""The game's seats, read the one way every layer reads them."""

from __future__ import annotations

from games.models import Game, Seat
from games.prepared import PreparedModels

_SEATS_OF_GAME = PreparedModels(lambda game_id: Seat.objects.filter(game_id=game_id), ["integer"])


def game_seats(game: Game) -> list[Seat]:
    """The game's seats by position, each holding ``game`` itself: one
    object for the one row, so what a decision updates every seat sees."""
    seats = _SEATS_OF_GAME.all(game.pk)
    for seat in seats:
        seat.game = game
    return seats
