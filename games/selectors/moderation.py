"""The moderators' read side: what needs attention, and one game in full."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db.models import Case, IntegerField, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine
from games.board.svg import board_svg
from games.models import ActionRecord, Game, HelpRequest, ModerationEntry, Notification, Seat, SeatHolder
from games.narrate import card_name, colour_name, describe, describe_moderation, final_standings, moment

from .webhooks import deliveries_for_moderators

__all__ = ["attention", "game_in_full", "game_page", "help_request", "moderator_seat", "seat_at", "user_exists"]

# A deadline this far past means the sweep did not act (workers down?).
OVERDUE_GRACE = timedelta(minutes=10)
LONG_PAUSE = timedelta(days=3)
ACTIVE = (Game.Status.INVITING, Game.Status.RUNNING, Game.Status.PAUSED)

# Each Notification.kind as a moderator reads it; "reminder-2" is the second
# reminder of one decision.
EMAIL_KINDS = {
    "invite": gettext_lazy("invitation"),
    "start": gettext_lazy("game start"),
    "links": gettext_lazy("seat links"),
    "turn": gettext_lazy("decision to make"),
    "reminder": gettext_lazy("reminder"),
    "race": gettext_lazy("race result"),
    "over": gettext_lazy("game over"),
    "digest": gettext_lazy("daily digest"),
    "handover": gettext_lazy("seat handed over"),
    "modlink": gettext_lazy("link resent by a moderator"),
    "abort": gettext_lazy("game ended by a moderator"),
    "reply_ok": gettext_lazy("answer to a reply (applied)"),
    "reply_error": gettext_lazy("answer to a reply (refused)"),
    "reply_refused": gettext_lazy("answer to a reply too large to read"),
    "webhook_off": gettext_lazy("webhook switched off"),
}


def email_kind(kind: str) -> str:
    """An email's kind in the moderator's language; a kind without a label
    (a new one) is shown as it is stored rather than hidden."""
    base, _dash, number = kind.partition("-")
    if base == "reminder" and number.isdigit():
        return _("reminder %(n)s") % {"n": number}
    return str(EMAIL_KINDS.get(kind, kind))


def _who(seat: Seat) -> str:
    """A seat by its player's name, the colour after it for the board."""
    if not seat.colour:
        return seat.name
    return _("%(name)s (%(colour)s)") % {"name": seat.name, "colour": colour_name(seat.colour)}


def attention(*, query: str = "", status: str = "", limit: int = 200) -> list[dict]:
    """Games that need a moderator, the longest-waiting problem first. With a
    search, every matching game is listed, needing attention or not."""
    now = timezone.now()
    rows: dict[int, dict] = {}

    def flag(game_id: int, since, text: str) -> None:
        row = rows.setdefault(game_id, {"game_id": game_id, "reasons": [], "since": since})
        row["reasons"].append(text)
        if since and (row["since"] is None or since < row["since"]):
            row["since"] = since

    for game_id, deadline in Game.objects.filter(
        status=Game.Status.RUNNING, deadline__lt=now - OVERDUE_GRACE
    ).values_list("pk", "deadline")[:limit]:
        if deadline is None:  # never after this filter (the column is nullable)
            continue
        flag(
            game_id, deadline, _("decision overdue since %(when)s") % {"when": moment(deadline)}
        )
    for seat in Seat.objects.filter(autopilot_reason="missed", game__status__in=ACTIVE).only(
        "game_id", "colour", "display_name", "email", "computer", "computer_number", "missed_deadlines"
    )[:limit]:
        flag(
            seat.game_id,
            None,
            _("%(who)s missed %(n)d deadlines in a row (autopilot on)")
            % {"who": _who(seat), "n": seat.missed_deadlines},
        )
    for seat in Seat.objects.filter(email_undeliverable=True, game__status__in=ACTIVE).only(
        "game_id", "colour", "display_name", "email", "computer", "computer_number"
    )[:limit]:
        flag(
            seat.game_id, None, _("%(who)s: email undeliverable (%(email)s)") % {"who": _who(seat), "email": seat.email}
        )
    failed = Notification.objects.filter(status=Notification.Status.FAILED, game__status__in=ACTIVE)
    # A refused address is already flagged as undeliverable above.
    for notification in (
        failed.exclude(seat__email_undeliverable=True).select_related("seat").order_by("created_at")[:limit]
    ):
        who = _who(notification.seat) if notification.seat else notification.to_email
        flag(
            notification.game_id,
            notification.created_at,
            _("%(who)s: an email could not be sent (%(kind)s: %(error)s)")
            % {"who": who, "kind": email_kind(notification.kind), "error": notification.last_error[:160]},
        )
    for game_id, paused_at in Game.objects.filter(
        status=Game.Status.PAUSED, paused_at__lt=now - LONG_PAUSE
    ).values_list("pk", "paused_at")[:limit]:
        if paused_at is None:  # never after this filter (the column is nullable)
            continue
        flag(game_id, paused_at, _("paused since %(when)s") % {"when": moment(paused_at)})
    for help_request in HelpRequest.objects.filter(handled_at__isnull=True).select_related("seat")[:limit]:
        flag(
            help_request.game_id,
            help_request.created_at,
            _("%(who)s asks for help: %(message)s")
            % {"who": _who(help_request.seat), "message": help_request.message[:120]},
        )

    games = Game.objects.all()
    if query:
        query = query.strip()
        games = games.filter(Q(public_id=query) | Q(seats__email__icontains=query)).distinct()
    elif rows:
        if not status:
            games = games.filter(pk__in=list(rows))
    elif not status:
        games = games.none()
    if status:
        # A state asked for lists every game in it, needing attention or not.
        games = games.filter(status=status)
    # Within the limit, flagged games first, then the oldest.
    games = games.annotate(
        flagged=Case(When(pk__in=list(rows), then=Value(0)), default=Value(1), output_field=IntegerField())
    ).order_by("flagged", "pk")
    result = []
    for game in games.prefetch_related("seats")[:limit]:
        row = rows.get(game.pk, {"reasons": [], "since": None})
        result.append({"game": game, "reasons": row["reasons"], "since": row["since"]})
    far_future = now + timedelta(days=36500)
    result.sort(key=lambda r: (not r["reasons"], r["since"] or far_future))
    return result


def moderator_seat(game: Game, user) -> Seat | None:
    """A moderator who plays in this game sees only their own seat's view."""
    if not user.email:
        return None
    return Seat.objects.filter(game=game, email__iexact=user.email).first()


def game_in_full(game: Game, user) -> dict:
    seats = list(game.seats.all())
    seated = moderator_seat(game, user)
    state = engine.state_from_json(game.state) if game.state else None
    observation = engine.observe(state, seated.position if seated else None) if state else None
    secrets = None
    if state is not None and seated is None:
        code = state.ruleset.code_of
        auction = state.auction
        secrets = {
            "hands": {
                state.colours[s]: [card_name(code(c)) for c in hand]
                for s, hand in zip(auction.bidders, auction.hands, strict=True)
            }
            if auction
            else {},
            "deck": [card_name(each) for each in sorted(code(c) for c in state.deck)],
            "discard": [card_name(each) for each in sorted(code(c) for c in state.discard)],
        }
    names = {s.colour: s.name for s in seats}
    timelines = []
    for seat in seats:
        decisions = list(
            ActionRecord.objects.filter(game=game, seat=seat.position)
            .order_by("-seq")
            .only("seq", "actor", "source", "created_at", "action", "events")[:30]
        )
        for record in decisions:
            # Told as the history tells it, by names: "push blue" would make
            # the moderator look up whose chair is blue.
            told = " ".join(text for text in (describe(e, names) for e in record.events) if text)
            record.told = told  # type: ignore[attr-defined]  # for the template, not a field
        emails = list(Notification.objects.filter(seat=seat).order_by("-created_at")[:30])
        for email in emails:
            email.kind_label = email_kind(email.kind)  # type: ignore[attr-defined]  # for the template
        timelines.append(
            {
                "seat": seat,
                "holders": list(SeatHolder.objects.filter(seat=seat).order_by("from_seq")),
                "emails": emails,
                "decisions": decisions,
            }
        )
    return {
        "seats": seats,
        "seated": seated,
        "observation": observation,
        "secrets": secrets,
        "state_json": None if seated or state is None else game.state,
        "timelines": timelines,
        "entries": _moderation_log(game, seats, names),
        "help_requests": list(HelpRequest.objects.filter(game=game, handled_at__isnull=True).select_related("seat")),
        "webhooks": deliveries_for_moderators(game),
    }


def _moderation_log(game: Game, seats: list[Seat], names: dict) -> list[ModerationEntry]:
    """The moderators' own steps, each told by the seat's player name as the
    players' history tells it."""
    colours: dict[int | None, str | None] = {s.position: s.colour for s in seats}
    entries = list(ModerationEntry.objects.filter(game=game).select_related("moderator")[:50])
    for entry in entries:
        entry.told = describe_moderation(  # type: ignore[attr-defined]  # for the template, not a field
            {
                "action": entry.action,
                "detail": entry.detail,
                "reason": entry.reason,
                "colour": colours.get(entry.seat_position),
            },
            names,
        )
    return entries


def game_page(game: Game, user) -> dict:
    context = {"game": game, **game_in_full(game, user)}
    if game.join_hash:
        # Who asked to join the open game, confirmed or not, with their addresses.
        context["join_requests"] = list(game.join_requests.order_by("created_at"))
    if context["observation"]:
        context["names"] = {s.colour: s.name for s in context["seats"]}
        context["standings"] = final_standings(context["observation"], context["names"])
        context["board_svg"] = board_svg(
            context["observation"], engine.Ruleset.from_json(game.ruleset), context["names"]
        )
        context["by_colour"] = {s.colour: s for s in context["seats"]}
    return context


def seat_at(game: Game, position: int) -> Seat | None:
    return Seat.objects.select_related("game").filter(game=game, position=position).first()


def help_request(game: Game, pk: int) -> HelpRequest | None:
    return HelpRequest.objects.filter(game=game, pk=pk).first()


def user_exists(username: str) -> bool:
    return User.objects.filter(username=username).exists()
