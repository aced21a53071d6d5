"""Receivers for django-anymail's webhooks: store and hand on, nothing more.

Anymail checks the webhook's basic-auth secret (ANYMAIL_WEBHOOK_SECRET) before
these run."""

from __future__ import annotations

from games.models import Notification
from games.services.inbound import inbound_store
from games.services.outbox import seat_mark_undeliverable

# Tracking events that mean the address will not take our mail.
UNDELIVERABLE = {"bounced", "rejected", "complained", "unsubscribed"}


def on_inbound(sender, event, esp_name, **kwargs) -> None:
    message = event.message
    raw = message.as_string()
    if getattr(message, "envelope_recipient", None):
        # The provider's envelope says where the mail was really sent.
        raw = f"X-Envelope-To: {message.envelope_recipient}\n" + raw
    inbound_store(raw=raw)


def on_tracking(sender, event, esp_name, **kwargs) -> None:
    if event.event_type not in UNDELIVERABLE:
        return
    notification = None
    metadata = getattr(event, "metadata", None) or {}
    if str(metadata.get("notification", "")).isdigit():
        notification = Notification.objects.filter(pk=int(metadata["notification"])).first()
    if notification is None and event.message_id:
        notification = Notification.objects.filter(provider_id=str(event.message_id)).first()
    if notification is not None and notification.seat_id:
        seat_mark_undeliverable(seat_id=notification.seat_id)
