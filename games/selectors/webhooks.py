"""What the pages show of webhooks: the seat page's list (part of the cached
page, so without any secret: the address only up to its host), one
webhook's own page for its owner (its address and signing secret, and its
latest deliveries), and the moderators' timeline."""

from __future__ import annotations

from urllib.parse import urlsplit

from games.models import Game, Seat, Webhook, WebhookDelivery

# The kinds the form offers.
WEBHOOK_KINDS = Webhook.Kind.choices
# A webhook's own page lists this many of its newest deliveries.
DELIVERIES_SHOWN = 20


def host_of(url: str) -> str:
    """"discord.com" for a Discord webhook: where it goes, without the path
    that is its credential."""
    try:
        return urlsplit(url).hostname or url[:40]
    except ValueError:
        return url[:40]


def _row(hook: Webhook) -> dict:
    return {
        "id": hook.pk,
        "kind": hook.get_kind_display(),
        "scope": hook.scope,
        "host": host_of(hook.url),
        "include_link": hook.include_link,
        "added": hook.created_at,
        "disabled": hook.disabled_at,
    }


def seat_webhooks(seat: Seat) -> dict:
    """The seat page's webhook section: the seat's own webhooks and, for the
    host, the table's. No query in a game where no seat ever had one."""
    game = seat.game
    rows: list[Webhook] = []
    if seat.webhooks_version:
        rows = list(
            Webhook.objects.filter(seat=seat, removed_at=None, link_hash=seat.token_hash).order_by("created_at", "pk")
        )
    open_game = game.status in (Game.Status.RUNNING, Game.Status.PAUSED)
    return {
        "mine": [_row(hook) for hook in rows if hook.scope == Webhook.Scope.SEAT],
        "table": [_row(hook) for hook in rows if hook.scope == Webhook.Scope.TABLE],
        "host": seat.is_host,
        "can_add": open_game,
    }


def webhook_page(seat: Seat, webhook_id: int) -> dict | None:
    """One webhook for its owner: everything, the secret included, and its
    newest deliveries; None for a webhook that is not this player's."""
    hook = Webhook.objects.filter(pk=webhook_id, seat=seat, removed_at=None, link_hash=seat.token_hash).first()
    if hook is None:
        return None
    deliveries = list(hook.deliveries.order_by("-created_at", "-pk")[:DELIVERIES_SHOWN])
    return {
        "webhook": hook,
        "row": _row(hook),
        "signed": hook.kind == Webhook.Kind.JSON,
        "deliveries": deliveries,
    }


def _timeline_row(delivery: WebhookDelivery) -> WebhookDelivery:
    # For the template: attributes of this row's own, not fields.
    delivery.host = host_of(delivery.webhook.url)  # type: ignore[attr-defined]
    delivery.kind_label = delivery.webhook.get_kind_display()  # type: ignore[attr-defined]
    return delivery


def deliveries_for_moderators(game: Game, limit: int = 30) -> dict:
    """The webhooks' deliveries for the moderators' game page: each seat's
    own (by seat id) and the whole table's, newest first. Addresses up to
    their host: a webhook's path is its owner's credential."""
    hooks = list(Webhook.objects.filter(game=game).order_by("pk"))
    by_seat: dict[int, list] = {}
    table: list = []
    for hook in hooks:
        shown = list(hook.deliveries.order_by("-created_at", "-pk")[:limit])
        for delivery in shown:
            delivery.webhook = hook
            _timeline_row(delivery)
        if hook.scope == Webhook.Scope.TABLE:
            table.extend(shown)
        else:
            by_seat.setdefault(hook.seat_id, []).extend(shown)
    newest = lambda rows: sorted(rows, key=lambda d: (d.created_at, d.pk), reverse=True)[:limit]  # noqa: E731
    return {
        "webhooks": [
            {**_row(hook), "seat_id": hook.seat_id, "removed": hook.removed_at, "failing_since": hook.failing_since}
            for hook in hooks
        ],
        "by_seat": {seat_id: newest(rows) for seat_id, rows in by_seat.items()},
        "table": newest(table),
    }
