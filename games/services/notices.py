"""The emails a decision causes: the next seat's turn (with what happened
since its last decision), race results, the end, and reminders; and the
same news for the game's webhooks (services.webhooks)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.narrate import event_told

from .game_state import load_state
from .outbox import Email, notification_queue, notifications_queue_new
from .seats import seat_names
from .timing import computer_level
from .webhooks import webhooks_queue


def decision_context(
    game: Game, state: engine.State, seat: Seat, names: dict[str | None, str], since: list[dict[str, Any]] | None
) -> dict[str, Any]:
    """Facts, not sentences: the email is worded when it is written, in the
    seat's language then (games.mail.compose). Without ``since``, what
    happened since the seat's last decision is read from the log when the
    email is written (outbox.since_last_decision), not in the decision."""
    context: dict[str, Any] = {
        "decision": engine.decision_kind(state),
        "deadline": game.deadline,
        "observation": engine.observe(state, seat.position),
        "names": names,
    }
    if since is not None:
        context["since_events"] = [event for event in since if event_told(event)]
    return context


def notices_after_decision(
    game: Game, state: engine.State, seats: dict[int, Seat], records: list[ActionRecord]
) -> None:
    """Tell the seat now to decide (with what happened since its last
    decision); tell everyone race results and, at the end, the outcome. One
    INSERT for all of them: the version is new, so none can be there yet."""
    finished_races = [e for r in records for e in r.events if e["type"] == "race_over"]
    emails: list[Email] = []
    for seat in seats.values():
        names = seat_names(seats.values(), seat.language)
        if engine.is_over(state):
            emails.append(
                Email(seat, "over", "game_over", {"observation": engine.observe(state, seat.position), "names": names})
            )
        elif finished_races and seat.email_mode == Seat.EmailMode.EVERY:
            emails.append(
                Email(
                    seat,
                    "race",
                    "race",
                    {"events": finished_races, "names": names, "races": [e["number"] for e in finished_races]},
                )
            )
    mover = engine.to_move(state)
    to_decide = None if engine.is_over(state) or mover is None else seats.get(mover)
    # A computer player (the autopilot's too) decides without being told.
    if to_decide is not None and not computer_level(to_decide, timezone.now()):
        names = seat_names(seats.values(), to_decide.language)
        context = decision_context(game, state, to_decide, names, since=None)
        emails.append(Email(to_decide, "turn", "turn", context, {"ruleset": game.ruleset, "names": names}))
    notifications_queue_new(game=game, version=game.version, emails=emails)
    # The same news for the game's webhooks, in the same transaction.
    webhooks_queue(game, state, seats, records)


def reminder_send(*, game_id: int, seen_version: int) -> int:
    """Remind the seat to move, once per deadline; 1 if a reminder was queued."""
    with transaction.atomic():
        game = Game.objects.filter(pk=game_id, decision_version=seen_version).first()
        if game is None or game.reminder_at is None:
            return 0
        claimed = Game.objects.filter(
            pk=game_id, decision_version=seen_version, reminder_at=game.reminder_at
        ).update(reminder_at=None)
        if not claimed or game.status != Game.Status.RUNNING:
            return 0
        state = load_state(game)
        mover = engine.to_move(state)
        seat = None if mover is None else Seat.objects.select_related("game").filter(game=game, position=mover).first()
        if seat is None:
            return 0
        # A moved deadline is reminded of again: a second reminder for the
        # same decision is a kind of its own in the outbox's once-only key.
        earlier = Notification.objects.filter(
            game=game, seat=seat, version=game.decision_version, kind__startswith="reminder"
        ).count()
        queued = notification_queue(
            game=game,
            seat=seat,
            kind="reminder" if not earlier else f"reminder-{earlier + 1}",
            version=game.decision_version,
            template="reminder",
            context=decision_context(
                game, state, seat, seat_names(Seat.objects.filter(game=game), seat.language), since=[]
            ),
        )
        return int(queued is not None)
