"""Receivers for django-anymail's webhooks: store and hand on, nothing more.

Anymail checks the webhook's basic-auth secret (ANYMAIL_WEBHOOK_SECRET) before
these run, and games.web.webhooks has already refused a request with no secret
configured or a body no reply could need (see games.mail.scan)."""

from __future__ import annotations

from games.mail.scan import message_text
from games.services.inbound import inbound_store
from games.services.outbox import seat_mark_undeliverable
from games.services.tracking import undeliverable_seat

# Tracking events that mean the address will not take our mail.
UNDELIVERABLE = {"bounced", "rejected", "complained", "unsubscribed"}


def on_inbound(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    raw = message_text(message)
    envelope = getattr(message, "envelope_recipient", None)
    if envelope:
        # The provider's envelope says where the mail was really sent.
        envelope = " ".join(str(envelope)[:1000].split())  # one line: no header of its own
        raw = f"X-Envelope-To: {envelope}\n" + raw
    inbound_store(raw=raw)


def on_tracking(sender, event, esp_name, **kwargs) -> None:
    if event.event_type not in UNDELIVERABLE:
        return
    metadata = getattr(event, "metadata", None) or {}
    seat_id = undeliverable_seat(
        tag=str(metadata.get("notification", "")),
        provider_id=str(event.message_id or ""),
        recipient=str(getattr(event, "recipient", None) or ""),
    )
    if seat_id is not None:
        seat_mark_undeliverable(seat_id=seat_id)
