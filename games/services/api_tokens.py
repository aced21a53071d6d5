"""API tokens: bearer secrets for the JSON API, each acting for one seat as
the seat's link does, made and ended on the seat's pages.

The secret is random and shown once; only its SHA-256 is stored, so a copy
of the database opens no seat. A token is bound to the seat link it was made
under: when a moderator hands the seat to another player (a new link), every
token of the old player stops working."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken, Seat

from .errors import ServiceError
from .links import TOKEN_MAX, token_hash

# A player has a bot or two and an app; more is a leak waiting to happen.
TOKENS_PER_SEAT = 5
LABEL_MAX = 40
# The prefix tells a reader (and a secret scanner) what the string is.
PREFIX = "vrs_"
# "Last used" is for the player's eyes, to the hour: written at most this
# often, so reading the API is not a write per request.
LAST_USED_STEP = timedelta(minutes=10)

def api_token_create(*, seat: Seat, label: str) -> tuple[ApiToken, str]:
    """A new token for ``seat``, and its secret (the only time it is known)."""
    label = (label or "").strip()[:LABEL_MAX]
    with transaction.atomic():
        # Counted under the seat's row lock, so two clicks cannot pass the cap together.
        seat = Seat.objects.select_for_update().get(pk=seat.pk)
        if ApiToken.objects.filter(seat=seat, revoked_at=None).count() >= TOKENS_PER_SEAT:
            raise ServiceError(
                _("A seat has at most %(count)d API tokens; end one you no longer use first.")
                % {"count": TOKENS_PER_SEAT}
            )
        secret = PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            seat=seat, label=label, token_hash=token_hash(secret), link_nonce=seat.link_nonce
        )
    return token, secret


def api_token_revoke(*, seat: Seat, token_id: int) -> bool:
    """End one of the seat's tokens; False if it has no such live token."""
    return bool(
        ApiToken.objects.filter(pk=token_id, seat=seat, revoked_at=None).update(revoked_at=timezone.now())
    )


def api_tokens_live(seat: Seat) -> list[ApiToken]:
    """The seat's tokens that still work, newest first."""
    return list(
        ApiToken.objects.filter(seat=seat, revoked_at=None, link_nonce=seat.link_nonce).order_by("-created_at", "-pk")
    )


def seat_for_api_token(secret: str) -> Seat | None:
    """The seat a bearer secret acts for, or None for a forged, ended or
    outdated one. Marks the token used (at most every LAST_USED_STEP)."""
    token = api_token_for_secret(secret)
    return None if token is None else token.seat


def api_token_for_secret(secret: str) -> ApiToken | None:
    """The live token of a bearer secret, its seat and game read with it;
    None for a forged, ended or outdated one. Marks it used (at most every
    LAST_USED_STEP)."""
    if not secret.startswith(PREFIX) or len(secret) > TOKEN_MAX:
        return None
    token = ApiToken.objects.select_related("seat__game").filter(token_hash=token_hash(secret), revoked_at=None).first()
    if token is None or token.link_nonce != token.seat.link_nonce:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_STEP:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
