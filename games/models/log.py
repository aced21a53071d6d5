"""The append-only log of actions a game's state is the result of."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game


class ActionRecord(models.Model):
    class Actor(models.TextChoices):
        PLAYER = "player", _("player")
        CHANCE = "chance", _("chance")
        DEADLINE = "deadline", _("deadline")
        ORDER = "order", _("standing order")
        AUTOPILOT = "autopilot", _("autopilot")
        COMPUTER = "computer", _("computer player")
        MODERATOR = "moderator", _("moderator")

    class Source(models.TextChoices):
        WEB = "web", _("web")
        EMAIL = "email", _("email")
        TIMER = "timer", _("timer")
        MODERATOR = "moderator", _("moderator")
        SERVER = "server", _("server")
        API = "api", _("API")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", verbose_name=_("game"))
    # Equal to the game's version once this action is applied.
    seq = models.PositiveIntegerField(verbose_name=_("step"))
    seat = models.SmallIntegerField(help_text=_("seat position, -1 for chance"), verbose_name=_("seat"))
    actor = models.CharField(max_length=10, choices=Actor.choices, verbose_name=_("decided by"))
    source = models.CharField(max_length=10, choices=Source.choices, verbose_name=_("came from"))
    action = models.CharField(max_length=200, verbose_name=_("action"))
    # Public events only (engine.events): what history pages and emails show.
    events = models.JSONField(default=list, verbose_name=_("events"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("at"))

    class Meta:
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_seq_unique")]

    def __str__(self) -> str:
        return f"game {self.game_id}, step {self.seq}"  # never the action: a draw is secret
