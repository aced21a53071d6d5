"""A player's home: every game one address plays, newest first, each as
its seat sees it: whether it waits for this player and until when, whose
turn it is otherwise, and the final standings once it is over."""

from __future__ import annotations

from games.models import Game, HomeLink, Seat
from games.narrate import final_standings
from games.services.links import home_link_by_token, seat_url
from games.services.seats import game_seats

from .seat import local_time, observation_for

__all__ = ["home_games", "home_link_by_token"]


def home_games(link: HomeLink) -> list[dict]:
    seats = Seat.objects.select_related("game").filter(email=link.email).order_by("-game__created_at", "pk")
    return [_game_row(seat) for seat in seats]


def _game_row(seat: Seat) -> dict:
    game = seat.game
    seats = game_seats(game)
    names = {s.colour: s.name for s in seats}
    observation = observation_for(game, seat)
    to_move = observation["to_move"] if observation else None
    race = observation["race"] if observation else None
    mover = next((s for s in seats if s.colour and s.colour == to_move), None)
    return {
        "public_id": game.public_id,
        "status": game.status,
        "status_label": Game.Status(game.status).label,
        "players": len(seats),
        "you": seat,
        "link": seat_url(seat),
        "my_turn": game.status == Game.Status.RUNNING and mover is not None and mover.pk == seat.pk,
        "deadline": local_time(game.deadline, seat.time_zone),
        "time_zone": seat.time_zone,
        "waiting_for": mover.name if mover is not None and mover.pk != seat.pk else None,
        "race": race and race["number"],
        "standings": final_standings(observation, names) if game.status == Game.Status.OVER else None,
        # An open game the address joined or hosts: the seats still free and when the wait ends.
        "open_seats": game.open_seats if game.status == Game.Status.INVITING else 0,
        "open_until": game.open_until if game.status == Game.Status.INVITING else None,
        "when_open": game.when_open,
    }
