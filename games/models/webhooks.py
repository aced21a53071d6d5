"""The chat webhooks and their outbox of deliveries (services.webhooks)."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _


def new_delivery_id() -> str:
    return secrets.token_hex(16)


class Webhook(models.Model):
    """A chat channel or a program told of a game's events
    (services.webhooks): a seat's own, or the host's for the whole table,
    which is told public events only."""

    class Kind(models.TextChoices):
        DISCORD = "discord", _("Discord")
        SLACK = "slack", _("Slack")
        JSON = "json", _("JSON, signed")

    class Scope(models.TextChoices):
        SEAT = "seat", _("my seat")
        TABLE = "table", _("the whole table")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("game"))
    # Who added it: the seat itself, or the host for a table webhook.
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("seat"))
    scope = models.CharField(max_length=10, choices=Scope.choices, verbose_name=_("for"))
    kind = models.CharField(max_length=10, choices=Kind.choices, verbose_name=_("kind"))
    url = models.CharField(max_length=500, verbose_name=_("address"))
    # The HMAC key of the signature (generic JSON); the receiver holds it too.
    secret = models.CharField(max_length=64, verbose_name=_("signing secret"))
    include_link = models.BooleanField(default=False, verbose_name=_("includes the seat link"))
    # The hash of the link of the player who added it: a seat handed over to
    # someone else stops its earlier player's webhooks.
    link_hash = models.CharField(max_length=64, verbose_name=_("link hash"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("added at"))
    # The first failure since the last delivery that went through; a day of
    # failing disables the webhook.
    failing_since = models.DateTimeField(null=True, blank=True, verbose_name=_("failing since"))
    disabled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("disabled at"))
    # Removed by its owner: kept, without its secret, for the moderators' timeline.
    removed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("removed at"))

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return _("webhook %(id)s of game %(game)s") % {"id": self.pk, "game": self.game_id}


class WebhookDelivery(models.Model):
    """The webhooks' outbox, as Notification is the emails': written in the
    transaction of the decision that causes it, claimed before it is sent."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        CANCELLED = "cancelled", _("cancelled")
        # A turn a later decision made stale before it went out: not sent.
        SUPERSEDED = "superseded", _("superseded by a later decision")

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("webhook"))
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="webhook_deliveries", verbose_name=_("game")
    )
    # Sent as X-Versailles-Delivery, the same on every attempt: receivers
    # drop a delivery they have seen.
    public_id = models.CharField(max_length=32, unique=True, default=new_delivery_id, verbose_name=_("delivery id"))
    event = models.CharField(max_length=10, verbose_name=_("event"))
    # Once per webhook: "turn:<version>", "race:<number>", "over".
    key = models.CharField(max_length=30, verbose_name=_("key"))
    version = models.PositiveIntegerField(verbose_name=_("version"))
    # Facts, worded by the sender in the owner's language; the body is
    # written at the first attempt and kept for the retries.
    context = models.JSONField(null=True, blank=True, verbose_name=_("context"))
    body = models.TextField(blank=True, verbose_name=_("body"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status"))
    attempts = models.PositiveSmallIntegerField(default=0, verbose_name=_("attempts"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    claimed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed at"))
    next_attempt_at = models.DateTimeField(null=True, blank=True, verbose_name=_("next attempt at"))
    sent_at = models.DateTimeField(null=True, blank=True, verbose_name=_("sent at"))
    response_status = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("response status"))
    last_error = models.CharField(max_length=500, blank=True, verbose_name=_("last error"))

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        constraints = [models.UniqueConstraint(fields=["webhook", "key"], name="webhook_delivery_once")]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            # Each webhook's oldest unfinished delivery, which goes out first.
            models.Index(fields=["webhook", "status", "version"], name="webhook_delivery_queue"),
        ]

    def __str__(self) -> str:
        return f"{self.public_id} ({self.event})"
