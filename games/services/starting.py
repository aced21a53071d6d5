"""Starting a game once every seat is taken: by the last acceptance, or by
the end of an open game's wait (services.open_games)."""

from __future__ import annotations

from games.models import Game, Seat

from .decisions import game_begin
from .outbox import notification_queue


def game_start_if_all_seated(game: Game) -> bool:
    """Begin the (locked, inviting) game if every seat is taken, and mail
    everyone the start; False while a seat is still free or untaken."""
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    if not all(seat.accepted_at for seat in seats):
        return False
    game_begin(game, seats)
    for each in seats:
        notification_queue(
            game=game, seat=each, kind="start", version=0, template="start",
            context={"seats": [{"name": s.name, "colour": s.colour} for s in seats]},
        )
    return True
