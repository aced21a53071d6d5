"""Shared by the test_integrity_* files: games at chosen points, and a
snapshot of everything a request could change."""

from __future__ import annotations

import random

from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.services.game_state import load_state
from tests.factories import invited_game, play_until, seats_taken, started_game


def inviting_game(players: int = 3, accepted: int = 0) -> Game:
    """A game waiting for its players, the first ``accepted`` seats taken."""
    return seats_taken(invited_game(players), range(accepted), time_zones=("UTC",))


def awaiting(kind: str):
    return lambda state: state.phase == "race" and state.race.awaiting == kind


def reach(done, seed: int = 1, tries: int = 5) -> Game:
    """A 3-player game played at random until ``done(state)``. The server's
    seed differs each run, so a rare point may need another game."""
    for attempt in range(tries):
        game = play_until(started_game(3), done, random.Random(seed + attempt))
        if game.status == Game.Status.RUNNING and done(load_state(game)):
            return game
    raise AssertionError("the point was never reached")


def game_at_roll(seed: int = 1) -> Game:
    """The first roll of the first race: every team may still be arranged."""
    return reach(awaiting("roll"), seed)


def game_at_push(seed: int = 1) -> Game:
    return reach(awaiting("push"), seed)


def game_at_push_with_a_chair_out_of_the_race() -> Game:
    """The Devil's push, with another chair already finished or in the pond."""

    def done(state):
        race = state.race
        return awaiting("push")(state) and any(
            status != "racing" and seat != race.turn for seat, status in enumerate(race.status)
        )

    return reach(done, 0)


def game_at_removal(seed: int = 1) -> Game:
    return reach(lambda s: s.phase == "removal", seed)


def game_over(seed: int = 1) -> Game:
    game = play_until(started_game(3), lambda s: False, random.Random(seed))
    assert game.status == Game.Status.OVER
    return game


POINTS = {
    "inviting with no seat accepted": lambda: inviting_game(3, accepted=0),
    "inviting with some seats accepted": lambda: inviting_game(4, accepted=2),
    "at the first bid": lambda: started_game(3),
    "at a roll in a race": game_at_roll,
    "at a Devil push": game_at_push,
    "at a removal": game_at_removal,
    "after the game is over": game_over,
}


def snapshot() -> dict:
    """Every row a request might touch, as plain values."""
    return {
        "games": list(Game.objects.order_by("pk").values()),
        "seats": list(Seat.objects.order_by("pk").values()),
        "actions": ActionRecord.objects.count(),
        "notifications": list(Notification.objects.order_by("pk").values_list("pk", "status")),
    }


def game_row(game: Game) -> tuple:
    return Game.objects.filter(pk=game.pk).values_list("version", "decision_version", "status", "state").get()


def counts(game: Game) -> tuple[int, int]:
    return (
        ActionRecord.objects.filter(game=game).count(),
        Notification.objects.filter(game=game).count(),
    )


def mover_position(game: Game) -> int:
    return engine.to_move(load_state(game))
