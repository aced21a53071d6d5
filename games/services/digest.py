"""The daily digest for seats that chose it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.models import ActionRecord, Seat
from games.narrate import event_told

from .outbox import notification_queue
from .seats import seat_names


def seat_digest_send(*, seat: Seat) -> int:
    """Queue one digest of what happened since the last one; 0 if nothing did."""
    game = seat.game
    since = seat.digest_sent_at or game.started_at or game.created_at
    with transaction.atomic():
        claimed = Seat.objects.filter(pk=seat.pk, digest_sent_at=seat.digest_sent_at).update(
            digest_sent_at=timezone.now()
        )
        if not claimed:
            return 0
        records = list(
            ActionRecord.objects.filter(game=game, created_at__gt=since).order_by("seq").only("events", "seq")
        )
        names = seat_names(Seat.objects.filter(game=game), seat.language)
        # Worded when the email is written, in the seat's language.
        events = [event for record in records for event in record.events if event_told(event)]
        if not events:
            return 0
        queued = notification_queue(
            game=game,
            seat=seat,
            kind="digest",
            version=records[-1].seq,
            template="digest",
            context={"events": events, "names": names},
        )
    return int(queued is not None)
