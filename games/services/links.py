"""Seat links: a secret per seat that only the server can recompute.

The token is an HMAC of the seat's random nonce under SECRET_KEY, so emails
sent days later can carry the link while the database holds only its hash
(a copy of the database alone opens no seat). A new nonce revokes the link."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.conf import settings
from django.urls import reverse

from games.models import Seat


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _derive(purpose: str, seat: Seat) -> str:
    message = f"versailles-{purpose}:{seat.game.public_id}:{seat.position}:{seat.link_nonce}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def seat_token(seat: Seat) -> str:
    return _derive("seat", seat)


def reply_token(seat: Seat) -> str:
    """A second secret for email replies: the letters of an address are not
    case-safe, so it is hex, and it is not the link (a reply address is seen
    by more mail servers than a link)."""
    return hmac.new(
        settings.SECRET_KEY.encode(),
        f"versailles-reply:{seat.game.public_id}:{seat.position}:{seat.link_nonce}".encode(),
        hashlib.sha256,
    ).hexdigest()[:32]


def reply_address(seat: Seat, version: int) -> str:
    """reply+<seat id>.<decision version>.<secret>@REPLY_DOMAIN"""
    return f"reply+{seat.pk}.{version}.{reply_token(seat)}@{settings.REPLY_DOMAIN}"


def seat_by_reply_address(address: str) -> tuple[Seat, int] | None:
    """The seat and decision version a reply address names, if its secret is right."""
    local = address.split("@", 1)[0].strip().lower()
    if not local.startswith("reply+"):
        return None
    parts = local[len("reply+"):].split(".")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit() or len(parts[0]) > 18:
        return None
    seat = Seat.objects.select_related("game").filter(pk=int(parts[0])).first()
    if seat is None or not hmac.compare_digest(reply_token(seat), parts[2]):
        return None
    return seat, int(parts[1])


def unsubscribe_url(seat: Seat) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[seat_token(seat)])


def link_issue(seat: Seat) -> None:
    """Give the (unsaved or saved) seat a fresh link; any older link stops working."""
    seat.link_nonce = secrets.token_hex(12)
    seat.token_hash = token_hash(seat_token(seat))


def seat_by_token(token: str) -> Seat | None:
    """The seat a link opens, or None for a forged, mistyped or revoked one."""
    if not token or len(token) > 100:
        return None
    return Seat.objects.select_related("game").filter(token_hash=token_hash(token)).first()


def seat_url(seat: Seat) -> str:
    return settings.SITE_URL + reverse("seat", args=[seat_token(seat)])
