"""What a webhook delivery says: the facts a decision stores (public events
and who is to move, never a seat's observation), worded when it is sent, in
the language of the webhook's owner (the seat's; the host's for the whole
table), as the body each kind of receiver takes, and the signature of the
generic JSON one.

The generic JSON delivery is signed: X-Versailles-Signature is
``sha256=`` and the hex HMAC-SHA256, keyed with the webhook's secret, of the
X-Versailles-Timestamp header's value, a full stop and the raw body. README
("Chat webhooks") shows a receiver checking it."""

from __future__ import annotations

import hashlib
import hmac
import json
import zoneinfo
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import dateformat, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.mail.titles import decision_request
from games.models import Seat, Webhook, WebhookDelivery
from games.narrate import describe, describe_race

from .links import seat_url

DISCORD_MAX = 2000
SLACK_MAX = 3000
USER_AGENT = "Versailles-Webhook/1"

# Whose turn it is, as the whole table reads it (a third person's decision).
DECISION_WORDS = {
    "bid": gettext_lazy("bid or pass"),
    "roll": gettext_lazy("roll the die"),
    "push": gettext_lazy("the Devil's push"),
    "remove": gettext_lazy("removals"),
}


def signature(secret: str, timestamp: int | str, body: bytes) -> str:
    """The X-Versailles-Signature of ``body`` sent at ``timestamp``."""
    message = str(timestamp).encode() + b"." + body
    return "sha256=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def occasion(observation: Mapping[str, Any]) -> dict[str, Any]:
    """What names the decision (games.mail.titles), taken from the public
    observation: nothing in it is any seat's secret."""
    auction = observation.get("auction") or {}
    race = observation.get("race") or {}
    return {
        "decision": observation.get("decision"),
        "auction": {"number": auction.get("number"), "kind": auction.get("kind")} if auction else None,
        "race": {"number": race.get("number")} if race else None,
        "races_run": len(observation.get("results") or ()),
    }


def _as_observation(facts: dict) -> dict:
    return {
        "decision": facts.get("decision"),
        "auction": facts.get("auction"),
        "race": facts.get("race"),
        "results": [None] * int(facts.get("races_run") or 0),
    }


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _when(deadline: datetime, zone_name: str) -> str:
    return dateformat.format(deadline.astimezone(_zone(zone_name)), _("D j M Y, H:i"))


def _moment(when: datetime, zone_name: str) -> str:
    """"Fri 4 Dec 2026, 10:10 (Europe/Berlin)", or "… 09:10 UTC"."""
    if zone_name == "UTC":
        return _when(when, "UTC") + " UTC"
    return f"{_when(when, zone_name)} ({zone_name})"


def happened_at(delivery: WebhookDelivery) -> datetime:
    """When the decision that caused the delivery was made: its row is
    written in that decision's transaction."""
    return delivery.created_at


def _iso(deadline: datetime) -> str:
    """"2026-03-03T13:00Z": the deadline in UTC, for every reader and program."""
    return deadline.astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def _turn(context: dict, hook: Webhook, owner: Seat, public_id: str) -> tuple[str, dict]:
    deadline = parse_datetime(context["deadline"]) if context.get("deadline") else None
    yours = hook.scope == Webhook.Scope.SEAT
    if yours:
        request = decision_request(_as_observation(context["occasion"]))
        if deadline is None:
            text = _("Galopp Royal #%(id)s: your turn. %(request)s.") % {"id": public_id, "request": request}
        else:
            text = _("Galopp Royal #%(id)s: your turn. %(request)s by %(when)s (%(zone)s; %(utc)s).") % {
                "id": public_id,
                "request": request,
                "when": _when(deadline, owner.time_zone),
                "zone": owner.time_zone,
                "utc": _iso(deadline),
            }
    else:
        words = str(DECISION_WORDS.get(context["occasion"].get("decision"), context["occasion"].get("decision") or ""))
        values = {"id": public_id, "name": context["name"], "decision": words}
        if deadline is None:
            text = _("Galopp Royal #%(id)s: waiting for %(name)s to decide (%(decision)s).") % values
        else:
            text = _("Galopp Royal #%(id)s: waiting for %(name)s to decide (%(decision)s) by %(when)s UTC.") % {
                **values, "when": _when(deadline, "UTC")
            }
    fields = {
        "turn": {
            "player": context["name"],
            "colour": context["colour"],
            "decision": context["occasion"].get("decision"),
            "deadline": deadline.astimezone(UTC).isoformat() if deadline else None,
            "yours": yours,
        }
    }
    return text, fields


def _race(context: dict, public_id: str) -> tuple[str, dict]:
    event, names = context["event"], context["names"]
    text = _("Galopp Royal #%(id)s: %(result)s") % {"id": public_id, "result": describe_race(event, names)}
    ranking = [
        {
            "place": place,
            "colour": colour,
            "player": names.get(colour, colour),
            "prize": prize,
            "pond": colour in event["pond"],
        }
        for place, (colour, prize) in enumerate(zip(event["ranking"], event["prizes"], strict=False), start=1)
    ]
    return text, {"race": {"number": event["number"], "ranking": ranking}}


def _over(context: dict, public_id: str) -> tuple[str, dict]:
    event, names = context["event"], context["names"]
    text = _("Galopp Royal #%(id)s: %(end)s") % {"id": public_id, "end": describe(event, names)}
    standings = [
        {
            "place": place,
            "colour": row["colour"],
            "player": names.get(row["colour"], row["colour"]),
            "gold": row["gold"],
        }
        for place, row in enumerate(event["standings"], start=1)
    ]
    return text, {"standings": standings}


def _slack_escaped(text: str) -> str:
    # Slack reads <...> as links and mentions (<!channel>): a player's name
    # must not ping a channel.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def body_of(delivery: WebhookDelivery, hook: Webhook, owner: Seat, public_id: str) -> str:
    """The delivery's body, as sent on every attempt, in the owner's
    language. A table webhook's never holds a seat link; a seat webhook's
    holds its seat's link only when the player asked for it."""
    context = delivery.context or {}
    with translation.override(owner.language or settings.LANGUAGE_CODE):
        if delivery.event == "turn":
            text, fields = _turn(context, hook, owner, public_id)
        elif delivery.event == "race":
            text, fields = _race(context, public_id)
        else:
            text, fields = _over(context, public_id)
        # When it happened and where in the game: a chat read after an
        # outage shows each message's own moment and order.
        text += "\n" + _("%(when)s · version %(version)d of the game") % {
            "when": _moment(happened_at(delivery), owner.time_zone if hook.scope == Webhook.Scope.SEAT else "UTC"),
            "version": delivery.version,
        }
        watch = settings.SITE_URL + reverse("spectator", args=[public_id])
        link = seat_url(owner) if hook.scope == Webhook.Scope.SEAT and hook.include_link else None
        if link:
            text += "\n" + _("Your seat: %(link)s") % {"link": link}
        else:
            text += "\n" + _("Watch the game: %(link)s") % {"link": watch}
    if hook.kind == Webhook.Kind.DISCORD:
        # No name in a game may ping anyone in the channel.
        payload: dict = {"content": text[:DISCORD_MAX], "allowed_mentions": {"parse": []}}
    elif hook.kind == Webhook.Kind.SLACK:
        payload = {"text": _slack_escaped(text)[:SLACK_MAX]}
    else:
        payload = {
            "event": delivery.event,
            "id": delivery.public_id,
            "scope": hook.scope,
            "game": {"id": public_id, "url": watch, "version": delivery.version},
            "occurred_at": happened_at(delivery).astimezone(UTC).isoformat(timespec="seconds"),
            "text": text,
            **fields,
        }
        if link:
            payload["link"] = link
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def headers_of(delivery: WebhookDelivery, hook: Webhook, body: bytes, timestamp: int) -> dict[str, str]:
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Versailles-Event": delivery.event,
        "X-Versailles-Delivery": delivery.public_id,
    }
    if hook.kind == Webhook.Kind.JSON:
        headers["X-Versailles-Timestamp"] = str(timestamp)
        headers["X-Versailles-Signature"] = signature(hook.secret, timestamp, body)
    return headers
