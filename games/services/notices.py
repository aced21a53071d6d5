"""The emails a decision causes: the next seat's turn (with what happened
since its last decision), race results, the end, and reminders."""

from __future__ import annotations

from django.db import transaction

from games import engine
from games.models import ActionRecord, Game, Notification, Seat
from games.narrate import event_told

from .game_state import load_state
from .outbox import notification_queue


def decision_context(game: Game, state: engine.State, seat: Seat, since: list[dict], names: dict) -> dict:
    """Facts, not sentences: the email is worded when it is written, in the
    seat's language then (games.mail.compose)."""
    return {
        "decision": engine.decision_kind(state),
        "deadline": game.deadline,
        "observation": engine.observe(state, seat.position),
        "since_events": [event for event in since if event_told(event)],
        "names": names,
    }


def notices_after_decision(game: Game, state: engine.State, seats: dict[int, Seat], records: list[ActionRecord]) -> None:
    """Tell the seat now to decide (with what happened since its last
    decision); tell everyone race results and, at the end, the outcome."""
    finished_races = [e for r in records for e in r.events if e["type"] == "race_over"]
    for seat in seats.values():
        if engine.is_over(state):
            notification_queue(
                game=game, seat=seat, kind="over", version=game.version, template="game_over",
                context={
                    "observation": engine.observe(state, seat.position),
                    "names": {s.colour: s.name for s in seats.values()},
                },
            )
        elif finished_races and seat.email_mode == Seat.EmailMode.EVERY:
            notification_queue(
                game=game, seat=seat, kind="race", version=game.version, template="race",
                context={
                    "events": finished_races,
                    "names": {s.colour: s.name for s in seats.values()},
                    "races": [e["number"] for e in finished_races],
                },
            )
    if engine.is_over(state):
        return
    seat = seats.get(engine.to_move(state))
    if seat is None:
        return
    since = [
        event
        for events in ActionRecord.objects.filter(game=game, seq__gt=seat.last_decision_seq)
        .order_by("seq")
        .values_list("events", flat=True)[:400]
        for event in events
    ]
    names = {s.colour: s.name for s in seats.values()}
    context = decision_context(game, state, seat, since, names)
    notification_queue(
        game=game, seat=seat, kind="turn", version=game.version, template="turn", context=context,
        picture={"observation": context["observation"], "ruleset": game.ruleset, "names": names},
    )


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
        seat = Seat.objects.select_related("game").filter(game=game, position=engine.to_move(state)).first()
        if seat is None:
            return 0
        # A moved deadline is reminded of again: a second reminder for the
        # same decision is a kind of its own in the outbox's once-only key.
        earlier = Notification.objects.filter(
            game=game, seat=seat, version=game.decision_version, kind__startswith="reminder"
        ).count()
        queued = notification_queue(
            game=game, seat=seat, kind="reminder" if not earlier else f"reminder-{earlier + 1}",
            version=game.decision_version, template="reminder",
            context=decision_context(game, state, seat, [], {s.colour: s.name for s in Seat.objects.filter(game=game)}),
        )
        return int(queued is not None)
