"""The game's seats, read the one way every layer reads them."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation

from games.models import Game, Seat

from .statements import seats_of_game


def game_seats(game: Game) -> list[Seat]:
    """The game's seats by position, each holding ``game`` itself: one
    object for the one row, so what a decision updates every seat sees."""
    # A hand-written statement (games.services.statements): the queryset
    # cost a decision more to compile than the statement takes to run.
    seats = seats_of_game(game.pk)
    for seat in seats:
        seat.game = game
    return seats


def seat_names(seats: Iterable[Seat], language: str) -> dict[str | None, str]:
    """The players' names by colour as ``language`` words them: a computer
    player's name is in the reader's language (Seat.name), so an email's
    names are those of the seat it goes to."""
    with translation.override(language):
        return {seat.colour: seat.name for seat in seats}
