"""Django admin: a read-only window on games for staff.

Nothing here changes a game (every change goes through the moderation
services), and nothing shows a secret: no state snapshot, seed, link hash or
nonce, no email body (decision emails carry the seat's secret cards), and of
the log only what the history shows (chance draws name secret cards)."""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist

from games.models import (
    Absence,
    ActionRecord,
    ApiToken,
    Game,
    HelpRequest,
    InboundMessage,
    JoinRequest,
    ModerationEntry,
    Notification,
    Seat,
    SeatHolder,
    Webhook,
    WebhookDelivery,
)

# Every column that holds a secret, by model. None is shown, searched or
# filtered on: a filter such as ?seed__startswith=a answers "is there such a
# game", one letter at a time, as well as showing the value would.
SECRET_FIELDS = {
    Game: {"seed", "state", "join_nonce", "join_hash"},
    # The confirmation link's: it holds a seat.
    JoinRequest: {"nonce", "token_hash"},
    Seat: {"link_nonce", "token_hash", "standing_orders"},
    SeatHolder: {"token_hash"},
    # Chance draws name the cards drawn; the public part is in events.
    ActionRecord: {"action"},
    # Bodies held the seat link and the seat's secret cards until sent.
    Notification: {"body_text", "body_html", "context", "picture"},
    # The whole received email: its reply address carries the seat's secret.
    InboundMessage: {"raw"},
    ApiToken: {"token_hash", "link_nonce"},
    # Discord's and Slack's addresses carry the channel's credential.
    Webhook: {"url", "secret", "link_hash"},
    # A seat webhook's body may carry the seat link.
    WebhookDelivery: {"body", "context"},
    get_user_model(): {"password"},
}


def touches_secret(model, lookup: str) -> bool:
    """Whether a lookup such as "game__seed__startswith" reaches a secret column,
    following relations from ``model``."""
    for part in lookup.split("__"):
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return False
        if part in SECRET_FIELDS.get(model, ()):
            return True
        if not field.is_relation or field.related_model is None:
            return False
        model = field.related_model
    return False


class ReadOnlyAdmin(admin.ModelAdmin):
    def lookup_allowed(self, lookup, value, request=None):
        # Refused lookups make the admin answer 400, the same whatever the value.
        if touches_secret(self.model, lookup):
            return False
        return super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("public_id", "status", "ruleset_name", "version", "deadline", "created_at")
    list_filter = ("status", "ruleset_name")
    search_fields = ("public_id", "seats__email")
    fields = (
        "public_id",
        "status",
        "ruleset_name",
        "decision_hours",
        "version",
        "decision_version",
        "deadline",
        "reminder_at",
        "paused_at",
        "seed_commitment",
        "absence_allowance_days",
        "created_at",
        "started_at",
        "ended_at",
        "open_seats",
        "listed",
        "hidden",
        "language",
        "open_until",
        "when_open",
    )


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyAdmin):
    # The nonce and the hash stay out, as a seat's do.
    list_display = ("game", "email", "display_name", "created_at", "expires_at", "confirmed_at", "seat")
    fields = ("game", "email", "display_name", "created_at", "expires_at", "confirmed_at", "seat")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = (
        "game",
        "position",
        "colour",
        "display_name",
        "email",
        "computer",
        "autopilot",
        "email_undeliverable",
    )
    list_filter = ("computer", "autopilot", "email_undeliverable", "emails_stopped")
    search_fields = ("email", "display_name", "game__public_id")
    fields = (
        "game",
        "position",
        "colour",
        "display_name",
        "email",
        "time_zone",
        "is_host",
        "accepted_at",
        "email_mode",
        "email_undeliverable",
        "emails_stopped",
        "computer",
        "autopilot",
        "autopilot_reason",
        "missed_deadlines",
        "link_opened_at",
    )


@admin.register(ActionRecord)
class ActionRecordAdmin(ReadOnlyAdmin):
    list_display = ("game", "seq", "seat", "actor", "source", "created_at")
    list_filter = ("actor", "source")
    fields = ("game", "seq", "seat", "actor", "source", "events", "created_at")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "kind", "status", "attempts", "created_at", "sent_at")
    list_filter = ("kind", "status")
    fields = (
        "game",
        "seat",
        "kind",
        "version",
        "to_email",
        "subject",
        "status",
        "attempts",
        "last_error",
        "created_at",
        "sent_at",
    )


@admin.register(ModerationEntry)
class ModerationEntryAdmin(ReadOnlyAdmin):
    list_display = ("game", "moderator", "action", "seat_position", "reason", "created_at")
    list_filter = ("action",)


@admin.register(HelpRequest)
class HelpRequestAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "created_at", "handled_at")


@admin.register(Absence)
class AbsenceAdmin(ReadOnlyAdmin):
    list_display = ("seat", "starts_at", "ends_at", "days", "mode")


@admin.register(InboundMessage)
class InboundMessageAdmin(ReadOnlyAdmin):
    list_display = ("received_at", "status", "seat", "result")
    fields = ("received_at", "status", "seat", "result")


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyAdmin):
    # The hash and the link nonce stay out, as the seat's do.
    list_display = ("seat", "label", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    fields = ("seat", "label", "created_at", "last_used_at", "revoked_at")


@admin.register(Webhook)
class WebhookAdmin(ReadOnlyAdmin):
    list_display = ("game", "seat", "scope", "kind", "created_at", "failing_since", "disabled_at", "removed_at")
    list_filter = ("scope", "kind")
    fields = (
        "game",
        "seat",
        "scope",
        "kind",
        "include_link",
        "created_at",
        "failing_since",
        "disabled_at",
        "removed_at",
    )


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin):
    list_display = ("game", "webhook", "event", "status", "attempts", "response_status", "created_at", "sent_at")
    list_filter = ("event", "status")
    fields = (
        "game", "webhook", "public_id", "event", "key", "version", "status", "attempts",
        "response_status", "last_error", "created_at", "next_attempt_at", "sent_at",
    )
