"""The emails players send back, kept before anything acts on them (services.inbound)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .seats import Seat


class InboundMessage(models.Model):
    """A received email, stored by the webhook before anything acts on it."""

    class Status(models.TextChoices):
        RECEIVED = "received", _("received")
        PROCESSING = "processing", _("processing")
        APPLIED = "applied", _("applied")
        REFUSED = "refused", _("refused")
        IGNORED = "ignored", _("ignored")

    # Hash of the Message-ID (or of the whole message when it has none): the
    # same message delivered twice is stored, and acted on, once.
    fingerprint = models.CharField(max_length=64, unique=True, verbose_name=_("fingerprint"))
    # At most inbound.RAW_LIMIT characters; ``size`` is how long it was when
    # received, so a cut message is refused rather than half read.
    raw = models.TextField(verbose_name=_("message"))
    size = models.PositiveIntegerField(default=0, verbose_name=_("size"))
    received_at = models.DateTimeField(auto_now_add=True, verbose_name=_("received at"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED, verbose_name=_("status"))
    # Set when a worker claims the row; a claim older than the sweep's grace
    # period belongs to a worker that died.
    claimed_at = models.DateTimeField(null=True, blank=True, verbose_name=_("claimed at"))
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("seat"))
    result = models.CharField(max_length=500, blank=True, verbose_name=_("result"))

    class Meta:
        verbose_name = _("received email")
        verbose_name_plural = _("received emails")
        indexes = [models.Index(fields=["status", "received_at"])]

    def __str__(self) -> str:
        return f"{self.fingerprint[:12]} ({self.status})"
