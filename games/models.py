"""Persistence: a game is a state snapshot plus an append-only action log.

Only games.services writes these rows (DESIGN.md, "Layers")."""

from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

DECISION_HOURS = (1, 6, 12, 24, 48, 72, 168)
DEFAULT_DECISION_HOURS = 24


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

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id)
    ruleset_name = models.CharField(max_length=40)
    ruleset = models.JSONField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITING)
    decision_hours = models.PositiveSmallIntegerField(default=DEFAULT_DECISION_HOURS)
    # The engine state after the latest action: pages never replay the log.
    state = models.JSONField(null=True, blank=True)
    # Bumped by every applied action; writes compare-and-set on it.
    version = models.PositiveIntegerField(default=0)
    # The version at which the pending decision came up: forms carry it, so an
    # out-of-turn arrangement does not make the mover's page stale.
    decision_version = models.PositiveIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # When the reminder for the pending decision is due; cleared once sent and
    # set again whenever a new deadline is set.
    reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)
    # Secret until the game is over; its SHA-256 is public from the start.
    seed = models.CharField(max_length=64)
    seed_commitment = models.CharField(max_length=64)
    # Days of absence each seat may declare in this game, in total.
    absence_allowance_days = models.PositiveSmallIntegerField(default=7)
    # While paused: when the pause began (deadlines shift by its length).
    paused_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"game {self.public_id} ({self.status})"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    email = models.EmailField()
    display_name = models.CharField(max_length=40, blank=True)
    colour = models.CharField(max_length=10, null=True, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC")
    is_host = models.BooleanField(default=False)
    # The link's secret is derived from this nonce (services.links); only its
    # SHA-256 is stored, for looking the seat up.
    link_nonce = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    # What the player lets the server decide for them (services.orders).
    standing_orders = models.JSONField(default=dict, blank=True)

    class EmailMode(models.TextChoices):
        EVERY = "every", _("an email for every decision and race")
        DIGEST = "digest", _("a daily digest, plus the decisions that need me")

    email_mode = models.CharField(max_length=10, choices=EmailMode.choices, default=EmailMode.EVERY)
    # Set by a bounce or refusal from the provider; shown to everyone.
    email_undeliverable = models.BooleanField(default=False)
    # Set by the one-click unsubscribe; only the seat page can undo it.
    emails_stopped = models.BooleanField(default=False)
    # The log position of this seat's latest decision: its next email tells
    # what happened since.
    last_decision_seq = models.PositiveIntegerField(default=0)
    digest_sent_at = models.DateTimeField(null=True, blank=True)
    # Autopilot: standing orders and defaults decide for this seat at once.
    autopilot = models.BooleanField(default=False)
    autopilot_reason = models.CharField(max_length=20, blank=True)
    missed_deadlines = models.PositiveSmallIntegerField(default=0)
    # Recorded by a POST the page makes once shown in a browser, never by GET.
    link_opened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "colour"], name="seat_colour_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.game_id}"

    @property
    def name(self) -> str:
        return self.display_name or self.email.split("@")[0]


class ActionRecord(models.Model):
    class Actor(models.TextChoices):
        PLAYER = "player", _("player")
        CHANCE = "chance", _("chance")
        DEADLINE = "deadline", _("deadline")
        ORDER = "order", _("standing order")
        AUTOPILOT = "autopilot", _("autopilot")
        MODERATOR = "moderator", _("moderator")

    class Source(models.TextChoices):
        WEB = "web", _("web")
        EMAIL = "email", _("email")
        TIMER = "timer", _("timer")
        MODERATOR = "moderator", _("moderator")
        SERVER = "server", _("server")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    # Equal to the game's version once this action is applied.
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField(help_text="seat position, -1 for chance")
    actor = models.CharField(max_length=10, choices=Actor.choices)
    source = models.CharField(max_length=10, choices=Source.choices)
    action = models.CharField(max_length=200)
    # Public events only (engine.events): what history pages and emails show.
    events = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_seq_unique")]


class Notification(models.Model):
    """The outbox: written in the transaction of the change that causes it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, related_name="notifications")
    kind = models.CharField(max_length=20)
    version = models.PositiveIntegerField()
    to_email = models.EmailField()
    subject = models.CharField(max_length=200)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when a sender claims the row; a claim older than the sweep's grace
    # period belongs to a sender that died.
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    provider_id = models.CharField(max_length=200, blank=True)
    # What the inline board picture shows (drawn by the sender, not the request).
    picture = models.JSONField(null=True, blank=True)
    # The email is written by the sender from these, off the request's path.
    template = models.CharField(max_length=40, blank=True)
    context = models.JSONField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat", "version", "kind"], name="notification_once"
            )
        ]
        indexes = [models.Index(fields=["status", "created_at"])]


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
    fingerprint = models.CharField(max_length=64, unique=True)
    # At most inbound.RAW_LIMIT characters; ``size`` is how long it was when
    # received, so a cut message is refused rather than half read.
    raw = models.TextField()
    size = models.PositiveIntegerField(default=0)
    received_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED)
    # Set when a worker claims the row; a claim older than the sweep's grace
    # period belongs to a worker that died.
    claimed_at = models.DateTimeField(null=True, blank=True)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True)
    result = models.CharField(max_length=500, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "received_at"])]


class SeatHolder(models.Model):
    """Who played a seat when: a replaced player keeps their part of the history."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="holders")
    email = models.EmailField()
    display_name = models.CharField(max_length=40, blank=True)
    from_seq = models.PositiveIntegerField()
    until_seq = models.PositiveIntegerField(null=True, blank=True)
    # The old link's hash, so that link can say the seat was handed over.
    token_hash = models.CharField(max_length=64, db_index=True, default="")
    replaced_at = models.DateTimeField(auto_now_add=True)


class ModerationEntry(models.Model):
    """A moderator's action on a game, with the reason; public to its players."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderation")
    moderator = models.ForeignKey("auth.User", on_delete=models.PROTECT)
    action = models.CharField(max_length=30)
    seat_position = models.SmallIntegerField(null=True, blank=True)
    detail = models.CharField(max_length=200, blank=True)
    reason = models.CharField(max_length=500)
    at_seq = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]


class HelpRequest(models.Model):
    """A player's "ask a moderator"."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="help_requests")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE)
    message = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)


class Absence(models.Model):
    class Mode(models.TextChoices):
        EXTEND = "extend", _("extend my deadlines")
        AUTOPILOT = "autopilot", _("let the autopilot play for me")

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="absences")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=10, choices=Mode.choices)
    created_at = models.DateTimeField(auto_now_add=True)
