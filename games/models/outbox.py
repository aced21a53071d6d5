"""The emails a change causes, queued in its transaction (services.outbox)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game
from .seats import Seat


class Notification(models.Model):
    """The outbox: written in the transaction of the change that causes it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("game"))
    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, null=True, related_name="notifications", verbose_name=_("seat")
    )
    kind = models.CharField(max_length=20, verbose_name=_("kind"))
    version = models.PositiveIntegerField(verbose_name=_("version"))
    to_email = models.EmailField(verbose_name=_("to"))
    subject = models.CharField(max_length=200, verbose_name=_("subject"))
    body_text = models.TextField(verbose_name=_("text"))
    body_html = models.TextField(blank=True, verbose_name=_("HTML"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, verbose_name=_("status"))
    attempts = models.PositiveSmallIntegerField(default=0, verbose_name=_("attempts"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # Set when a sender claims the row; a claim older than the sweep's grace
    # period belongs to a sender that died.
    claimed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed at"))
    sent_at = models.DateTimeField(null=True, blank=True, verbose_name=_("sent at"))
    provider_id = models.CharField(max_length=200, blank=True, verbose_name=_("provider's id"))
    # What the inline board picture shows (drawn by the sender, not the request).
    picture = models.JSONField(null=True, blank=True, verbose_name=_("board picture"))
    # The email is written by the sender from these, off the request's path.
    template = models.CharField(max_length=40, blank=True, verbose_name=_("template"))
    context = models.JSONField(null=True, blank=True, verbose_name=_("context"))
    last_error = models.CharField(max_length=500, blank=True, verbose_name=_("last error"))

    class Meta:
        verbose_name = _("email")
        verbose_name_plural = _("emails")
        constraints = [models.UniqueConstraint(fields=["game", "seat", "version", "kind"], name="notification_once")]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to_email} ({self.status})"
