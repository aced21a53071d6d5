"""The game's seats, read the one way every layer reads them."""

from __future__ import annotations

from games.models import Game, Seat


def game_seats(game: Game) -> list[Seat]:
    """The game's seats by position, each holding ``game`` itself: one
    object for the one row, so what a decision updates every seat sees."""
    seats = list(Seat.objects.filter(game_id=game.pk))
    for seat in seats:
        seat.game = game
    return seats
