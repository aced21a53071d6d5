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


def seat_token(seat: Seat) -> str:
    message = f"versailles-seat:{seat.game.public_id}:{seat.position}:{seat.link_nonce}".encode()
    digest = hmac.new(settings.SECRET_KEY.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


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
