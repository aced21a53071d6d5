"""The provider's delivery reports: which of our emails, and so which seat, a
report is about.

Anyone who can reach the tracking webhook could send a report, so a report
counts only if it names an email in a way nobody outside can make up: the
signed tag the email carries in its metadata, or the message id the provider
gave us when it took the email. A bare notification number (they are
sequential) matches nothing."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings

from games.models import Notification


def _signature(notification_id: int, key: str) -> str:
    message = f"versailles-notification:{notification_id}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:32]


def notification_tag(notification_id: int) -> str:
    """<id>.<signature>, for the email's metadata."""
    return f"{notification_id}.{_signature(notification_id, settings.SECRET_KEY)}"


def notification_by_tag(tag: str) -> int | None:
    notification_id, dot, signature = str(tag or "").partition(".")
    if not dot or not notification_id.isdigit() or len(notification_id) > 18:
        return None
    # Also keys retired by a rotation: emails sent before it still report.
    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", [])]
    matches = [hmac.compare_digest(_signature(int(notification_id), key), signature) for key in keys]
    return int(notification_id) if any(matches) else None


def undeliverable_seat(*, tag: str, provider_id: str, recipient: str) -> int | None:
    """The seat a report that an address refuses our mail is about, or None.

    A report about an address the seat no longer uses (the player changed it,
    or the seat was handed on) is about nobody."""
    notification = None
    notification_id = notification_by_tag(tag)
    if notification_id is not None:
        notification = Notification.objects.select_related("seat").filter(pk=notification_id).first()
    if notification is None and provider_id:
        notification = Notification.objects.select_related("seat").filter(provider_id=provider_id[:200]).first()
    if notification is None or notification.seat is None:
        return None
    address = notification.to_email.strip().lower()
    if notification.seat.email.strip().lower() != address:
        return None
    if recipient and recipient.strip().lower() != address:
        return None
    return notification.seat_id
