"""A seat at a game, who held it before, and the absences its player declared."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .games import Game


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    email = models.EmailField(verbose_name=_("email address"))
    display_name = models.CharField(max_length=40, blank=True, verbose_name=_("name"))
    colour = models.CharField(max_length=10, null=True, blank=True, verbose_name=_("colour"))  # noqa: DJ001 - NULL is "not chosen yet", unique per game only once chosen
    time_zone = models.CharField(max_length=64, default="UTC", verbose_name=_("time zone"))
    # The seat's pages and every email to it are in this language, whoever
    # opens the link and whichever task writes the email.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE, verbose_name=_("language")
    )
    is_host = models.BooleanField(default=False, verbose_name=_("host"))
    # The link's secret is derived from this nonce (services.links); only its
    # SHA-256 is stored, for looking the seat up.
    link_nonce = models.CharField(max_length=32, verbose_name=_("link nonce"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("link hash"))
    accepted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("accepted at"))
    # What the player lets the server decide for them (services.orders).
    standing_orders = models.JSONField(default=dict, blank=True, verbose_name=_("standing orders"))

    class EmailMode(models.TextChoices):
        EVERY = "every", _("an email for every decision and race")
        DIGEST = "digest", _("a daily digest, plus the decisions that need me")

    email_mode = models.CharField(
        max_length=10, choices=EmailMode.choices, default=EmailMode.EVERY, verbose_name=_("emails")
    )
    # Set by a bounce or refusal from the provider; shown to everyone.
    email_undeliverable = models.BooleanField(default=False, verbose_name=_("email undeliverable"))
    # Set by the one-click unsubscribe; only the seat page can undo it.
    emails_stopped = models.BooleanField(default=False, verbose_name=_("emails stopped"))
    # The end of the seat's latest absence: a decision asks for the seat's
    # absences only while one may still be under way or coming.
    away_until = models.DateTimeField(null=True, blank=True, verbose_name=_("away until"))
    digest_sent_at = models.DateTimeField(null=True, blank=True, verbose_name=_("digest sent at"))

    class Computer(models.TextChoices):
        SIMPLE = "simple", _("simple computer player")
        STRONG = "strong", _("strong computer player")
        EXPERT = "expert", _("expert computer player")

    # A computer player sits here (games.players): it is sent no email and
    # decides in a Celery task as soon as it is to move.
    computer = models.CharField(max_length=10, choices=Computer.choices, blank=True, verbose_name=_("computer player"))
    # "Strong computer 2" is this number with the level, worded in each
    # reader's language when shown (Seat.name), never stored as text.
    computer_number = models.PositiveSmallIntegerField(default=0, verbose_name=_("computer player's number"))
    # Autopilot: standing orders decide for this seat at once, and the expert
    # computer player decides the rest.
    autopilot = models.BooleanField(default=False, verbose_name=_("autopilot"))
    autopilot_reason = models.CharField(max_length=20, blank=True, verbose_name=_("autopilot reason"))
    missed_deadlines = models.PositiveSmallIntegerField(default=0, verbose_name=_("missed deadlines in a row"))
    # Recorded by a POST the page makes once shown in a browser, never by GET.
    link_opened_at = models.DateTimeField(null=True, blank=True, verbose_name=_("page last opened at"))
    # Counts changes to the seat's webhooks: the cached page's key holds it, and
    # a decision looks for webhooks only in games where it is not 0 somewhere.
    webhooks_version = models.PositiveIntegerField(default=0, verbose_name=_("webhook changes"))
    # Set for a stranger who joined an open game by a confirmed address: the
    # host may remove them before the start.
    joined_at = models.DateTimeField(null=True, blank=True, verbose_name=_("joined at"))

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "colour"], name="seat_colour_unique"),
        ]

    def __str__(self) -> str:
        return _("seat %(position)s of game %(game)s") % {"position": self.position, "game": self.game_id}

    @property
    def name(self) -> str:
        """The name every page and email shows, in the language active now:
        a computer player is named by its level and number, not by the
        display name stored in the host's language when it was seated."""
        if self.computer and self.computer_number:
            return computer_name(self.computer, self.computer_number)
        return self.display_name or self.email.split("@")[0]


COMPUTER_NAMES: dict[str, Any] = {
    Seat.Computer.SIMPLE.value: _("Simple computer %(number)d"),
    Seat.Computer.STRONG.value: _("Strong computer %(number)d"),
    Seat.Computer.EXPERT.value: _("Expert computer %(number)d"),
}


def computer_name(level: str, number: int) -> str:
    pattern = COMPUTER_NAMES.get(level)
    if pattern is None:
        return str(level)
    return str(pattern) % {"number": number}


class SeatHolder(models.Model):
    """Who played a seat when: a replaced player keeps their part of the history."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="holders", verbose_name=_("seat"))
    email = models.EmailField(verbose_name=_("email address"))
    display_name = models.CharField(max_length=40, blank=True, verbose_name=_("name"))
    from_seq = models.PositiveIntegerField(verbose_name=_("from step"))
    until_seq = models.PositiveIntegerField(null=True, blank=True, verbose_name=_("until step"))
    # The old link's hash, so that link can say the seat was handed over.
    token_hash = models.CharField(max_length=64, db_index=True, default="", verbose_name=_("old link hash"))
    replaced_at = models.DateTimeField(auto_now_add=True, verbose_name=_("replaced at"))

    class Meta:
        verbose_name = _("earlier player")
        verbose_name_plural = _("earlier players")

    def __str__(self) -> str:
        return f"{self.display_name or self.email}, steps {self.from_seq}-{self.until_seq}"


class Absence(models.Model):
    class Mode(models.TextChoices):
        EXTEND = "extend", _("extend my deadlines")
        AUTOPILOT = "autopilot", _("let the autopilot play for me")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="absences", verbose_name=_("seat"))
    starts_at = models.DateTimeField(verbose_name=_("starts at"))
    ends_at = models.DateTimeField(verbose_name=_("ends at"))
    days = models.PositiveSmallIntegerField(verbose_name=_("days"))
    mode = models.CharField(max_length=10, choices=Mode.choices, verbose_name=_("meanwhile"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("declared at"))

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")

    def __str__(self) -> str:
        return f"{self.seat_id}: {self.starts_at:%Y-%m-%d} +{self.days}d"
