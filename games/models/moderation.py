"""What moderators did to a game, and what players asked them."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game
from .seats import Seat


class ModerationEntry(models.Model):
    """A moderator's action on a game, with the reason; public to its players."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderation", verbose_name=_("game"))
    moderator = models.ForeignKey("auth.User", on_delete=models.PROTECT, verbose_name=_("moderator"))
    action = models.CharField(max_length=30, verbose_name=_("action"))
    seat_position = models.SmallIntegerField(null=True, blank=True, verbose_name=_("seat"))
    detail = models.CharField(max_length=200, blank=True, verbose_name=_("detail"))
    reason = models.CharField(max_length=500, verbose_name=_("reason"))
    at_seq = models.PositiveIntegerField(default=0, verbose_name=_("at step"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("moderation entry")
        verbose_name_plural = _("moderation entries")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.game_id}@{self.at_seq} {self.action}"


class HelpRequest(models.Model):
    """A player's "ask a moderator"."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="help_requests", verbose_name=_("game"))
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, verbose_name=_("seat"))
    message = models.TextField(max_length=2000, verbose_name=_("message"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("asked at"))
    handled_at = models.DateTimeField(null=True, blank=True, verbose_name=_("handled at"))

    class Meta:
        verbose_name = _("request for help")
        verbose_name_plural = _("requests for help")

    def __str__(self) -> str:
        return f"{self.game_id}: {self.message[:40]}"
