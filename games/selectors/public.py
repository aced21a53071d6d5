"""What anyone may see of a game: the spectator page, the JSON views and the
check of the dice once the seed is revealed."""

from __future__ import annotations

from games.models import Game, Seat
from games.prepared import PreparedModels
from games.services.seats import game_seats

from . import page_cache
from .seat import game_context, observation_for, seats_for_page
from .verification import Report, game_verify


_GAME_BY_PUBLIC_ID = PreparedModels(lambda public_id: Game.objects.filter(public_id=public_id)[:1])


def game_by_public_id(public_id: str) -> Game | None:
    return _GAME_BY_PUBLIC_ID.first(public_id)


def spectator_page(game: Game, table: page_cache.Table | None = None) -> dict:
    """``table``: the rows the page was looked up with in the cache, if it was."""
    seats, moderated = seats_for_page(game, table)
    context = {"game": game, "seats": seats}
    if game.state is not None:
        context.update(game_context(game, None, seats, moderated=moderated, table=table))
    return context


def verify_report(game: Game) -> Report | None:
    """Only a finished game's seed is revealed, so only it can be checked."""
    return game_verify(game=game) if game.status == Game.Status.OVER else None


def game_summary(game: Game) -> dict:
    """The game's own facts, as every JSON view gives them; the seed only
    once the game is over."""
    return {
        "id": game.public_id,
        "status": game.status,
        "version": game.version,
        "decision_version": game.decision_version,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "seed_commitment": game.seed_commitment,
        "seed": game.seed if game.status == Game.Status.OVER else None,
    }


def game_json(game: Game, seat: Seat | None) -> dict:
    seats = game_seats(game)
    return {
        "game": game_summary(game),
        "seats": [
            {"position": s.position, "colour": s.colour, "name": s.name if s.accepted_at else None}
            for s in seats
        ],
        "viewer": None if seat is None else seat.colour,
        "observation": observation_for(game, seat),
    }
