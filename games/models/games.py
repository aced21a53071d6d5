"""The game row: a snapshot of the engine state, its version and its clock."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

DECISION_HOURS = (1, 6, 12, 24, 48, 72, 168)
DEFAULT_DECISION_HOURS = 24
# The waits a host may choose for strangers to fill open seats: an hour to a week.
OPEN_WAIT_HOURS = (1, 6, 12, 24, 48, 72, 168)


PUBLIC_ID_ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def new_public_id() -> str:
    # Unguessable, so game numbers leak nothing; letters and digits only, so
    # an id never starts with "-" (a command line would take it for an option)
    # and reads out unambiguously.
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(12))


class Game(models.Model):
    class Status(models.TextChoices):
        INVITING = "inviting", _("waiting for players")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        OVER = "over", _("over")
        ABORTED = "aborted", _("aborted")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, verbose_name=_("public id"))
    ruleset_name = models.CharField(max_length=40, verbose_name=_("ruleset"))
    ruleset = models.JSONField(verbose_name=_("ruleset numbers"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITING, verbose_name=_("status"))
    decision_hours = models.PositiveSmallIntegerField(
        default=DEFAULT_DECISION_HOURS, verbose_name=_("hours per decision")
    )
    # The engine state after the latest action: pages never replay the log.
    state = models.JSONField(null=True, blank=True, verbose_name=_("state"))
    # Bumped by every applied action; writes compare-and-set on it.
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    # The version at which the pending decision came up: forms carry it, so an
    # out-of-turn arrangement does not make the mover's page stale.
    decision_version = models.PositiveIntegerField(default=0, verbose_name=_("version of the pending decision"))
    deadline = models.DateTimeField(null=True, blank=True, db_index=True, verbose_name=_("deadline"))
    # When the reminder for the pending decision is due; cleared once sent and
    # set again whenever a new deadline is set.
    reminder_at = models.DateTimeField(null=True, blank=True, db_index=True, verbose_name=_("reminder due at"))
    # Secret until the game is over; its SHA-256 is public from the start.
    seed = models.CharField(max_length=64, verbose_name=_("seed"))
    seed_commitment = models.CharField(max_length=64, verbose_name=_("seed commitment"))
    # Days of absence each seat may declare in this game, in total.
    absence_allowance_days = models.PositiveSmallIntegerField(default=7, verbose_name=_("days of absence allowed"))
    # While paused: when the pause began (deadlines shift by its length).
    paused_at = models.DateTimeField(null=True, blank=True, verbose_name=_("paused at"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    ended_at = models.DateTimeField(null=True, blank=True, verbose_name=_("ended at"))
    # How many steps moderators took in the game (services.moderation counts
    # them): a page's key carries it, and a page of a game no moderator
    # stepped into need not read their steps.
    moderation_steps = models.PositiveIntegerField(default=0, verbose_name=_("moderators' steps"))

    # Open games (services.open_games): seats the host left for strangers.
    class WhenOpen(models.TextChoices):
        FILL = "fill", _("computer players take the open seats")
        GIVE_UP = "give_up", _("the game is called off")

    # How many seats nobody holds yet; 0 for a game of invited players only.
    open_seats = models.PositiveSmallIntegerField(default=0, verbose_name=_("open seats"))
    # Shown in the lobby (/open/); otherwise joinable only by its join link.
    listed = models.BooleanField(default=False, verbose_name=_("listed in the lobby"))
    # A moderator took the game out of the lobby; its join link opens nothing.
    hidden = models.BooleanField(default=False, verbose_name=_("hidden by a moderator"))
    # The language the lobby shows the game under and strangers' seats start in.
    language = models.CharField(
        max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE, verbose_name=_("language")
    )
    # When the wait for strangers ends, and what happens to seats still open then.
    open_until = models.DateTimeField(null=True, blank=True, db_index=True, verbose_name=_("open until"))
    when_open = models.CharField(
        max_length=10, choices=WhenOpen.choices, blank=True, verbose_name=_("seats still open at the end")
    )
    # The join link's secret is derived from this nonce (services.open_links);
    # only its hash is stored. Empty for a game with no open seat.
    join_nonce = models.CharField(max_length=32, blank=True, verbose_name=_("join link nonce"))
    join_hash = models.CharField(max_length=64, blank=True, db_index=True, verbose_name=_("join link hash"))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return _("game %(id)s (%(status)s)") % {"id": self.public_id, "status": self.get_status_display()}

    @property
    def joinable(self) -> bool:
        """Whether a stranger may still ask for, and hold, one of its open seats."""
        return self.status == self.Status.INVITING and self.open_seats > 0 and not self.hidden
