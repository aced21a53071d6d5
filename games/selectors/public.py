"""What anyone may see of a game: the spectator page, the JSON views and the
check of the dice once the seed is revealed."""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from games.services.seats import game_seats

from .seat import game_context, observation_for, public_sections
from .verification import Report, game_verify

# Longer than any public id we make.
PUBLIC_ID_MAX = 32


def game_by_public_id(public_id: str) -> Game | None:
    if len(public_id) > PUBLIC_ID_MAX:
        return None
    return Game.objects.filter(public_id=public_id).first()


def spectator_page(game: Game, *, moderated: bool = True) -> dict:
    """What the spectator page shows: ``moderated`` False when the caller
    knows no moderator stepped in."""
    seats = game_seats(game)
    context: dict[str, Any] = {"game": game, "seats": seats}
    if game.state is not None:
        context.update(game_context(game, None, seats, moderated=moderated))
        context.update(public_sections(game, context["names"], moderated=moderated))
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
