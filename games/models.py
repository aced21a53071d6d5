"""Persistence: a game is a state snapshot plus an append-only action log.

Only games.services writes these rows (docs/architecture.md#layers)."""

from __future__ import annotations

import secrets

from django.conf import settings
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

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id, verbose_name=_("public id"))
    ruleset_name = models.CharField(max_length=40, verbose_name=_("ruleset"))
    ruleset = models.JSONField(verbose_name=_("ruleset numbers"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITING, verbose_name=_("status"))
    decision_hours = models.PositiveSmallIntegerField(default=DEFAULT_DECISION_HOURS, verbose_name=_("hours per decision"))
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

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return _("game %(id)s (%(status)s)") % {"id": self.public_id, "status": self.get_status_display()}


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"))
    position = models.PositiveSmallIntegerField(verbose_name=_("position"))
    email = models.EmailField(verbose_name=_("email address"))
    display_name = models.CharField(max_length=40, blank=True, verbose_name=_("name"))
    colour = models.CharField(max_length=10, null=True, blank=True, verbose_name=_("colour"))
    time_zone = models.CharField(max_length=64, default="UTC", verbose_name=_("time zone"))
    # The seat's pages and every email to it are in this language, whoever
    # opens the link and whichever task writes the email.
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE, verbose_name=_("language"))
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

    email_mode = models.CharField(max_length=10, choices=EmailMode.choices, default=EmailMode.EVERY, verbose_name=_("emails"))
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

    # A computer player sits here (games.players): it is sent no email and
    # decides in a Celery task as soon as it is to move.
    computer = models.CharField(max_length=10, choices=Computer.choices, blank=True, verbose_name=_("computer player"))
    # Autopilot: standing orders decide for this seat at once, and the strong
    # computer player decides the rest.
    autopilot = models.BooleanField(default=False, verbose_name=_("autopilot"))
    autopilot_reason = models.CharField(max_length=20, blank=True, verbose_name=_("autopilot reason"))
    missed_deadlines = models.PositiveSmallIntegerField(default=0, verbose_name=_("missed deadlines in a row"))
    # Recorded by a POST the page makes once shown in a browser, never by GET.
    link_opened_at = models.DateTimeField(null=True, blank=True, verbose_name=_("page last opened at"))
    # Counts changes to the seat's webhooks: the cached page's key holds it, and
    # a decision looks for webhooks only in games where it is not 0 somewhere.
    webhooks_version = models.PositiveIntegerField(default=0, verbose_name=_("webhook changes"))

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
        return self.display_name or self.email.split("@")[0]


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


class Notification(models.Model):
    """The outbox: written in the transaction of the change that causes it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notifications", verbose_name=_("game"))
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, null=True, related_name="notifications", verbose_name=_("seat"))
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

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return self.label or _("API token %(id)s") % {"id": self.pk}


# The webhooks' two models live in a module of their own (this one would be
# longer than a newcomer reads at once); imported here, where Django and
# every other module look for the app's models.
from games.webhook_models import Webhook, WebhookDelivery  # noqa: E402,F401
