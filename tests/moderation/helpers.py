"""Small helpers shared by the moderation tests."""

from __future__ import annotations

import html

from games import engine
from games.models import Game, HelpRequest, ModerationEntry, Notification, Seat
from games.narrate import colour_name
from games.services.game_state import load_state
from tests.factories import computer_turns


def act(client, game: Game, action: str, reason: str = "player ill", follow: bool = False, **data):
    """POST one moderation action as the moderators' page form does."""
    response = client.post(
        f"/mod/g/{game.public_id}/act",
        {"action": action, "reason": reason, **{k: str(v) for k, v in data.items()}},
        follow=follow,
    )
    computer_turns(game)
    return response


def text_of(response) -> str:
    """The page with HTML entities resolved (names with apostrophes are escaped)."""
    return html.unescape(response.content.decode())


def named(seat: Seat) -> str:
    """A seat as moderators' pages name it: the player, then the colour."""
    return f"{seat.name} ({colour_name(seat.colour)})"


def mover(game: Game) -> int:
    game.refresh_from_db()
    return engine.to_move(load_state(game))


def snapshot(game: Game) -> dict:
    """Everything an action could change, to prove that nothing did."""
    game = Game.objects.get(pk=game.pk)
    return {
        "game": (
            game.status,
            game.version,
            game.decision_version,
            game.deadline,
            game.reminder_at,
            game.paused_at,
            game.state,
            game.ended_at,
        ),
        "seats": list(
            Seat.objects.filter(game=game)
            .order_by("position")
            .values_list(
                "position", "colour", "email", "token_hash", "autopilot", "autopilot_reason", "missed_deadlines"
            )
        ),
        "entries": ModerationEntry.objects.filter(game=game).count(),
        "notifications": Notification.objects.filter(game=game).count(),
        "help": list(HelpRequest.objects.filter(game=game).values_list("pk", "handled_at")),
    }


def history_sentences(client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    return text_of(response)


def play_with_silent_seats(game: Game, silent: set[int], traveller, until, rng=None, limit: int = 2000) -> Game:
    """The seats in ``silent`` never act: each of their decisions waits for its
    deadline (time travels there and the deadline sweep runs); the others decide
    an hour after their decision comes up. Stops when ``until(game)`` holds."""
    import random
    from datetime import timedelta

    from games.services.decisions import decision_submit
    from games.services.sweeps import deadlines_sweep

    rng = rng or random.Random(0)
    for _ in range(limit):
        game.refresh_from_db()
        if until(game):
            return game
        assert game.status == Game.Status.RUNNING
        state = load_state(game)
        position = engine.to_move(state)
        if position in silent:
            traveller.move_to(game.deadline + timedelta(seconds=1))
            assert deadlines_sweep() == 1
        else:
            traveller.shift(timedelta(hours=1))
            options = engine.legal_actions(state)
            action = options[rng.randrange(len(options))]
            seat = Seat.objects.select_related("game").get(game=game, position=position)
            decision_submit(seat=seat, text=engine.format_action(action), seen_version=game.decision_version)
        computer_turns(game)
    raise AssertionError("the condition was never reached")
