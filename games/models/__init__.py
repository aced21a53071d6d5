"""Persistence: a game is a state snapshot plus an append-only action log.

Only games.services writes these rows (docs/architecture.md#layers). Each module holds
one part of a game's records; import every model from here, where Django and
the rest of the code look for the app's models."""

from .games import DECISION_HOURS, DEFAULT_DECISION_HOURS, OPEN_WAIT_HOURS, PUBLIC_ID_ALPHABET, Game, new_public_id
from .inbound import InboundMessage
from .log import ActionRecord
from .moderation import HelpRequest, ModerationEntry
from .open import JOIN_REQUEST_HOURS, JoinRequest
from .outbox import Notification
from .seats import Absence, Seat, SeatHolder
from .tokens import ApiIdempotencyKey, ApiToken, HomeLink, PlayerApiToken
from .webhooks import Webhook, WebhookDelivery, new_delivery_id

__all__ = [
    "DECISION_HOURS",
    "DEFAULT_DECISION_HOURS",
    "JOIN_REQUEST_HOURS",
    "OPEN_WAIT_HOURS",
    "PUBLIC_ID_ALPHABET",
    "Absence",
    "ActionRecord",
    "ApiIdempotencyKey",
    "ApiToken",
    "Game",
    "HelpRequest",
    "HomeLink",
    "InboundMessage",
    "JoinRequest",
    "ModerationEntry",
    "Notification",
    "PlayerApiToken",
    "Seat",
    "SeatHolder",
    "Webhook",
    "WebhookDelivery",
    "new_delivery_id",
    "new_public_id",
]
