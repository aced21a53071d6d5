"""Player API tokens: bearer secrets made on a player's home, acting for the
address rather than one seat. One lists the address's games and makes or
ends seat tokens for the address's seats (api_tokens' rules: the cap per
seat, the link nonce); it never decides itself, and a seat token never
opens what a player token opens, nor the reverse (their prefixes differ).

As for seat tokens, the secret is shown once and only its SHA-256 kept;
rotating is making a new one and ending the old."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import ApiToken, HomeLink, PlayerApiToken, Seat

from .api_tokens import LABEL_MAX, LAST_USED_STEP, api_token_create
from .errors import ServiceError
from .links import TOKEN_MAX, token_hash

TOKENS_PER_ADDRESS = 5
PREFIX = "vrp_"


def player_token_create(*, link: HomeLink, label: str) -> tuple[PlayerApiToken, str]:
    """A new token for the home link's address, and its secret (the only time it is known)."""
    label = (label or "").strip()[:LABEL_MAX]
    with transaction.atomic():
        # Counted under the home link's row lock, so two clicks cannot pass the cap together.
        HomeLink.objects.select_for_update().get(pk=link.pk)
        if PlayerApiToken.objects.filter(email=link.email, revoked_at=None).count() >= TOKENS_PER_ADDRESS:
            raise ServiceError(
                _("An address has at most %(count)d player tokens; end one you no longer use first.")
                % {"count": TOKENS_PER_ADDRESS}
            )
        secret = PREFIX + secrets.token_urlsafe(32)
        token = PlayerApiToken.objects.create(email=link.email, label=label, token_hash=token_hash(secret))
    return token, secret


def player_token_revoke(*, email: str, token_id: int) -> bool:
    """End one of the address's player tokens; False if it has no such live token.
    The seat tokens it made keep working: each is ended on its own."""
    return bool(
        PlayerApiToken.objects.filter(pk=token_id, email=email, revoked_at=None).update(revoked_at=timezone.now())
    )


def player_tokens_live(email: str) -> list[PlayerApiToken]:
    return list(PlayerApiToken.objects.filter(email=email, revoked_at=None).order_by("-created_at", "-pk"))


def player_token_for_secret(secret: str) -> PlayerApiToken | None:
    """The live player token of a bearer secret, or None for a forged, ended
    or seat one. Marks it used (at most every LAST_USED_STEP)."""
    if not secret.startswith(PREFIX) or len(secret) > TOKEN_MAX:
        return None
    token = PlayerApiToken.objects.filter(token_hash=token_hash(secret), revoked_at=None).first()
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_STEP:
        PlayerApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token


def seat_of_address(email: str, public_id: str, position: int) -> Seat | None:
    """The seat at ``position`` of game ``public_id`` if the address holds it;
    None alike for no such game, no such seat and another address's seat."""
    return Seat.objects.select_related("game").filter(
        game__public_id=public_id, position=position, email=email
    ).first()


def seat_token_for_player(*, player: PlayerApiToken, seat: Seat, label: str) -> tuple[ApiToken, str]:
    """A seat token made through the API, marked as the player token's; the
    seat page's rules (the cap, the link nonce) apply as they are."""
    token, secret = api_token_create(seat=seat, label=label)
    ApiToken.objects.filter(pk=token.pk).update(made_by=player)
    token.made_by = player
    return token, secret


def seat_token_end_for_player(*, player: PlayerApiToken, seat: Seat, token_id: int) -> bool:
    """End a live seat token this player token made for this seat; False for any other."""
    return bool(
        ApiToken.objects.filter(pk=token_id, seat=seat, made_by=player, revoked_at=None).update(
            revoked_at=timezone.now()
        )
    )


