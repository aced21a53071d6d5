"""Secrets other than a seat's link: the link to a player's games and the API's bearer tokens."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .seats import Seat


class HomeLink(models.Model):
    """A link to the page listing every game one address plays: a secret of
    its own, derived from the nonce as seat links are (services.links), of
    which only the hash is stored; it opens the list, expires and can be
    revoked."""

    email = models.EmailField(db_index=True, verbose_name=_("email address"))
    nonce = models.CharField(max_length=32, verbose_name=_("link nonce"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("link hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    expires_at = models.DateTimeField(verbose_name=_("expires at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    class Meta:
        verbose_name = _("link to a player's games")
        verbose_name_plural = _("links to players' games")

    def __str__(self) -> str:
        return _("games of %(email)s") % {"email": self.email}


class PlayerApiToken(models.Model):
    """A bearer token made on a player's home: it acts for the address, not a
    seat. It lists the address's games and makes or ends seat tokens for the
    address's seats; it decides nothing itself. Only the SHA-256 of the
    secret is stored, as for seat tokens."""

    email = models.EmailField(db_index=True, verbose_name=_("email address"))
    label = models.CharField(max_length=40, blank=True, verbose_name=_("label"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))

    class Meta:
        verbose_name = _("player API token")
        verbose_name_plural = _("player API tokens")

    def __str__(self) -> str:
        return self.label or _("player API token %(id)s") % {"id": self.pk}


class ApiToken(models.Model):
    """A bearer token for the JSON API, made on the seat page: it acts for
    that one seat as its link does, and only the SHA-256 of the secret is
    stored (the player sees the secret once, when it is made)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("seat"))
    label = models.CharField(max_length=40, blank=True, verbose_name=_("label"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("token hash"))
    # The seat link's nonce when the token was made: a new link (the seat
    # handed to another player) ends every token made under the old one.
    link_nonce = models.CharField(max_length=32, verbose_name=_("link nonce"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("last used at"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("revoked at"))
    # The player token that made it through the API, if one did: only that
    # token may end it there (the seat's page ends any).
    made_by = models.ForeignKey(
        PlayerApiToken,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="seat_tokens",
        verbose_name=_("made by player token"),
    )

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return self.label or _("API token %(id)s") % {"id": self.pk}


class ApiIdempotencyKey(models.Model):
    """One ``Idempotency-Key`` a token sent with a decision, and the answer it
    got. It is written in the decision's own transaction, so a decision is
    never applied without its key row nor a key row kept for a decision
    that was rolled back: a retry after a crash or a lost answer finds
    either both or neither. Kept for a day (services.api_decisions)."""

    token = models.ForeignKey(
        ApiToken, on_delete=models.CASCADE, related_name="idempotency_keys", verbose_name=_("API token")
    )
    key = models.CharField(max_length=255, verbose_name=_("idempotency key"))
    # SHA-256 of the decision and version sent: the same key with another body is refused.
    fingerprint = models.CharField(max_length=64, verbose_name=_("request fingerprint"))
    status = models.PositiveSmallIntegerField(verbose_name=_("answer status"))
    answer = models.JSONField(verbose_name=_("answer"))
    created_at = models.DateTimeField(auto_now_add=True, db_index=True, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("API idempotency key")
        verbose_name_plural = _("API idempotency keys")
        constraints = [models.UniqueConstraint(fields=["token", "key"], name="api_idempotency_key_unique")]

    def __str__(self) -> str:
        return self.key
