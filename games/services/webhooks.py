"""Chat webhooks: a player's for their seat, the host's for the whole table.

Adding one checks its address (webhook_http) and makes its signing secret;
removing one keeps the row, without its secret or the address's path, for
the moderators' timeline. A decision writes the deliveries it causes in its
own transaction, one row per webhook and event, as it writes its emails;
webhook_send sends them.

What each webhook is told:
* the whole table's (the host adds it): whose turn it is, race results and
  the end, from the public events; never a card or a link;
* a seat's: that it is this seat's turn (the decision and its deadline),
  race results and the end; the seat's link only if the player asked.

A seat handed to another player stops its earlier player's webhooks: each
keeps the hash of the link it was added with."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import ActionRecord, Game, Seat, Webhook, WebhookDelivery

from .enqueue import enqueue_on_commit
from .errors import ServiceError
from .timing import computer_level
from .webhook_http import AddressRefused, url_check
from .webhook_text import occasion

# How many webhooks a seat may have, and the host for the whole table
# (removed ones do not count; disabled ones do, until removed).
SEAT_LIMIT = 3
TABLE_LIMIT = 3

ADDABLE = (Game.Status.RUNNING, Game.Status.PAUSED)


def webhook_live(hook: Webhook, owner: Seat) -> bool:
    """Whether ``hook`` is still to be sent to: not removed, not disabled,
    and its owner's seat still held by the player who added it."""
    return hook.removed_at is None and hook.disabled_at is None and hook.link_hash == owner.token_hash


def _owned(seat: Seat, scope: str):
    hooks = Webhook.objects.filter(removed_at=None, scope=scope, link_hash=seat.token_hash)
    return hooks.filter(game_id=seat.game_id) if scope == Webhook.Scope.TABLE else hooks.filter(seat=seat)


def seat_webhooks_changed(seat_id: int) -> None:
    """The seat's page (cached by its seats' rows) shows the change."""
    Seat.objects.filter(pk=seat_id).update(webhooks_version=F("webhooks_version") + 1)


def webhook_add(*, seat: Seat, kind: str, url: str, table: bool = False, include_link: bool = False) -> Webhook:
    """A new webhook for ``seat``, or for the whole table when the host asks
    with ``table``. Its address is checked (resolved and every address
    checked) before anything is written; ServiceError says what is wrong."""
    game = seat.game
    if game.status not in ADDABLE:
        raise ServiceError(_("Webhooks can be added only while the game runs."))
    if kind not in Webhook.Kind.values:
        raise ServiceError(_("Choose Discord, Slack or signed JSON."))
    if table and not seat.is_host:
        raise ServiceError(_("Only the game's host can add a webhook for the whole table."))
    if table and include_link:
        raise ServiceError(_("A webhook for the whole table never carries a seat link: untick that box."))
    try:
        url_check(url)
    except AddressRefused as refused:
        raise ServiceError(str(refused)) from None
    scope = Webhook.Scope.TABLE if table else Webhook.Scope.SEAT
    limit = TABLE_LIMIT if table else SEAT_LIMIT
    with transaction.atomic():
        # Locked, so two forms sent at once cannot pass the limit together.
        owner = Seat.objects.select_for_update().filter(pk=seat.pk).first()
        if owner is None or owner.token_hash != seat.token_hash:
            raise ServiceError(_("This seat has been handed to another player."))
        if _owned(owner, scope).count() >= limit:
            if table:
                raise ServiceError(_("The table has %(n)d webhooks already; remove one first.") % {"n": limit})
            raise ServiceError(_("Your seat has %(n)d webhooks already; remove one first.") % {"n": limit})
        hook = Webhook.objects.create(
            game_id=owner.game_id,
            seat=owner,
            scope=scope,
            kind=kind,
            url=url.strip(),
            secret=secrets.token_hex(32),
            include_link=include_link and not table,
            link_hash=owner.token_hash,
        )
        seat_webhooks_changed(owner.pk)
    return hook


def webhook_of(*, seat: Seat, webhook_id: int) -> Webhook | None:
    """A webhook ``seat``'s player added (for the seat, or as host for the
    table) and has not removed; None for anyone else's."""
    return (
        Webhook.objects.filter(pk=webhook_id, seat=seat, removed_at=None, link_hash=seat.token_hash)
        .select_related("seat")
        .first()
    )


def address_shown(url: str) -> str:
    """The address without what may be its credential (Discord's and
    Slack's paths are): kept to say where a removed webhook went."""
    try:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.hostname or ''}/"
    except ValueError:
        return ""


def webhook_remove(*, seat: Seat, webhook_id: int) -> bool:
    """Remove one of the seat's webhooks; what it had not been sent yet is
    not sent. False if it is not this seat's player's (or gone already)."""
    with transaction.atomic():
        hook = webhook_of(seat=seat, webhook_id=webhook_id)
        if hook is None:
            return False
        changed = Webhook.objects.filter(pk=hook.pk, removed_at=None).update(
            removed_at=timezone.now(), secret="", url=address_shown(hook.url)
        )
        if not changed:
            return False
        deliveries_cancel(webhook_id=hook.pk, reason="removed")
        seat_webhooks_changed(hook.seat_id)
    return True


def deliveries_cancel(*, webhook_id: int, reason: str) -> int:
    """What a removed or disabled webhook had waiting is never sent."""
    return WebhookDelivery.objects.filter(webhook_id=webhook_id, status=WebhookDelivery.Status.PENDING).update(
        status=WebhookDelivery.Status.CANCELLED, body="", context=None, last_error=reason
    )


def _events(records: list[ActionRecord], kind: str) -> list[dict]:
    return [event for record in records for event in record.events if event["type"] == kind]


def webhooks_queue(
    game: Game, state: engine.State, seats: dict[int, Seat], records: list[ActionRecord]
) -> list[WebhookDelivery]:
    """The deliveries a decision causes, written in its transaction (call
    from notices_after_decision). No query at all in a game none of whose
    seats ever had a webhook."""
    if not any(seat.webhooks_version for seat in seats.values()):
        return []
    owners = {seat.pk: seat for seat in seats.values()}
    hooks = [
        hook
        for hook in Webhook.objects.filter(game=game, removed_at=None, disabled_at=None).order_by("pk")
        if hook.seat_id in owners and webhook_live(hook, owners[hook.seat_id])
    ]
    if not hooks:
        return []
    names = {seat.colour: seat.name for seat in seats.values()}
    told: list[tuple[str, str, dict]] = [
        ("race", f"race:{event['number']}", {"event": event, "names": names}) for event in _events(records, "race_over")
    ]
    told += [("over", "over", {"event": event, "names": names}) for event in _events(records, "game_over")]
    to_move = engine.to_move(state)
    mover = None if engine.is_over(state) or to_move is None else seats.get(to_move)
    # Nobody waits for a computer player (or the autopilot): it decides at once.
    if mover is not None and not computer_level(mover, timezone.now()):
        turn = {
            "position": mover.position,
            "colour": mover.colour,
            "name": mover.name,
            "occasion": occasion(engine.observe(state, None)),
            "deadline": game.deadline.isoformat() if game.deadline else None,
        }
        told.append(("turn", f"turn:{game.version}", turn))
    rows = []
    for hook in hooks:
        for event, key, context in told:
            if (
                event == "turn"
                and hook.scope == Webhook.Scope.SEAT
                and context["position"] != owners[hook.seat_id].position
            ):
                continue  # a seat's webhook is told of its own turns only
            rows.append(
                WebhookDelivery(webhook=hook, game=game, event=event, key=key, version=game.version, context=context)
            )
    WebhookDelivery.objects.bulk_create(rows)
    for row in rows:
        enqueue_on_commit("games.webhook_send", row.pk)
    return rows
