"""The end of an open game's wait: computer players take the seats still
open (and those whose stranger never sat down), or the game is called off
and everyone in it told. The beat's sweep asks the database which waits
have ended; the database's clock decides."""

from __future__ import annotations

from django.db import transaction
from django.db.models.functions import Now
from django.utils import timezone, translation

from games import engine
from games.models import Game, JoinRequest, Seat

from .game_state import game_lock
from .links import link_issue
from .outbox import notification_queue
from .starting import game_start_if_all_seated

# The level that fills open seats: the autopilot's.
FILL_LEVEL = Seat.Computer.STRONG.value
BATCH = 200


def open_waits_due(limit: int = BATCH) -> list[int]:
    return list(
        Game.objects.filter(status=Game.Status.INVITING, open_until__lte=Now())
        .order_by("open_until")
        .values_list("pk", flat=True)[:limit]
    )


def open_wait_end(*, game_id: int) -> str:
    """What the end of the wait did: "called_off", "closed" (the open seats
    were filled, if the host chose that, and the game started if every seat
    is taken) or "" (the wait had not ended, or another sweep got there first)."""
    with transaction.atomic():
        game = game_lock(game_id)
        due = Game.objects.filter(pk=game.pk, open_until__lte=Now(), status=Game.Status.INVITING).exists()
        if not due:
            return ""
        seats = list(Seat.objects.filter(game=game).order_by("position"))
        free = [s for s in seats if not s.computer and (not s.email or (s.joined_at and not s.accepted_at))]
        # A seat a stranger held but never took is as open as one nobody held.
        if game.when_open == Game.WhenOpen.GIVE_UP and free:
            _call_off(game, seats)
            return "called_off"
        if game.when_open == Game.WhenOpen.FILL:
            _fill(game, seats, free)
        Game.objects.filter(pk=game.pk).update(open_until=None, open_seats=0)
        game.open_until, game.open_seats = None, 0
        game_start_if_all_seated(game)
    return "closed"


def _fill(game: Game, seats: list[Seat], free: list[Seat]) -> None:
    """Computer players in the free seats, in the last colours nobody took."""
    taken = {s.colour for s in seats if s.colour and s not in free}
    colours = [c for c in reversed(engine.Ruleset.from_json(game.ruleset).colours) if c not in taken]
    number = sum(1 for s in seats if s.computer == FILL_LEVEL)
    with translation.override(game.language):
        for seat, colour in zip(free, colours, strict=False):
            number += 1
            seat.email, seat.computer, seat.computer_number = "", FILL_LEVEL, number
            seat.colour, seat.accepted_at, seat.joined_at = colour, timezone.now(), None
            seat.display_name = seat.name
            # A stranger who never sat down loses the seat, and their link with it.
            JoinRequest.objects.filter(seat=seat).update(seat=None)
            link_issue(seat)
            seat.save(update_fields=[
                "email", "computer", "computer_number", "colour", "accepted_at", "joined_at", "display_name",
                "link_nonce", "token_hash",
            ])


def _call_off(game: Game, seats: list[Seat]) -> None:
    game.status = Game.Status.ABORTED
    game.ended_at = timezone.now()
    Game.objects.filter(pk=game.pk).update(status=game.status, ended_at=game.ended_at, open_until=None)
    for seat in seats:
        if seat.email:
            notification_queue(
                game=game, seat=seat, kind="open_off", version=0, template="open_off",
                context={"players": sum(1 for s in seats if s.accepted_at), "seats": len(seats)},
            )
