"""Open games: seats the host leaves for strangers, who join by a confirmed
address.

An open seat is a vacant seat row (no address, no computer), made with the
game so that every seat keeps its position, and with it its link, from the
start. Asking to join mails a confirmation link to the address given; the
seat is held only when the page that link opens is submitted (a mail
scanner's GET holds nothing), and then taken with the seat form as an
invited player's is. What happens when the wait ends is in
services.open_wait."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Now
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import JOIN_REQUEST_HOURS, OPEN_WAIT_HOURS, Game, JoinRequest, Notification, Seat

from .enqueue import enqueue_on_commit
from .errors import ServiceError
from .game_state import game_lock
from .links import join_link_fill, join_request_fill, link_issue
from .names import name_clean
from .outbox import notification_queue

# Unconfirmed requests one address may have at once, across every game: more
# is someone typing in other people's addresses.
UNCONFIRMED_PER_ADDRESS = 3


@dataclass(frozen=True)
class Opening:
    """The host's choices for the seats they leave open."""

    seats: int
    listed: bool
    language: str
    wait_hours: int
    when_open: str


def opening_check(opening: Opening) -> None:
    if opening.seats < 1:
        raise ServiceError(_("Leave at least one seat open, or invite every player."))
    if opening.wait_hours not in OPEN_WAIT_HOURS:
        raise ServiceError(_("Choose one of the offered waits for open seats."))
    if opening.when_open not in Game.WhenOpen.values:
        raise ServiceError(_("Choose what happens to seats still open when the wait ends."))
    if opening.language not in dict(settings.LANGUAGES):
        raise ServiceError(_("Choose one of the languages offered."))


def opening_apply(game: Game, opening: Opening) -> None:
    """The (created) game's open seats, wait and join link."""
    game.open_seats = opening.seats
    game.listed = opening.listed
    game.open_until = timezone.now() + timedelta(hours=opening.wait_hours)
    game.when_open = opening.when_open
    join_link_fill(game)
    game.save(update_fields=["open_seats", "listed", "open_until", "when_open", "join_nonce", "join_hash"])


def vacant_seats(game: Game, count: int, *, first_position: int) -> list[Seat]:
    """Unsaved seat rows for the open seats: no address, no computer, and a
    link nobody was ever sent."""
    seats = []
    for index in range(count):
        seat = Seat(game=game, position=first_position + index, email="", language=game.language)
        link_issue(seat)
        seats.append(seat)
    return seats


def is_vacant(seat: Seat) -> bool:
    return not seat.email and not seat.computer


def join_request_make(*, game: Game, name: str, email: str, language: str) -> JoinRequest:
    """Mail ``email`` a link to confirm it and hold a seat in ``game``; the
    email is in ``language`` (the page's). Nothing is held yet."""
    name = name_clean(name)
    email = email.strip().lower()
    if not game.joinable:
        raise ServiceError(_("This game has no open seat any more."))
    if Seat.objects.filter(game=game, email=email).exists():
        raise ServiceError(_("That address already has a seat in this game."))
    unconfirmed = JoinRequest.objects.filter(email=email, confirmed_at__isnull=True, expires_at__gt=Now())
    if unconfirmed.count() >= UNCONFIRMED_PER_ADDRESS:
        raise ServiceError(
            _("This address already has %(n)d requests to join waiting for confirmation; confirm those first.")
            % {"n": UNCONFIRMED_PER_ADDRESS}
        )
    with transaction.atomic():
        request = JoinRequest(
            game=game, email=email, display_name=name,
            expires_at=timezone.now() + timedelta(hours=JOIN_REQUEST_HOURS),
        )
        join_request_fill(request)
        request.save()
        # No seat yet, so the row names the address; the link is added by
        # the sender (outbox._written) from the request's id.
        row = Notification.objects.create(
            game=game, seat=None, kind="join", version=request.pk, to_email=email, template="join",
            context=json.loads(json.dumps({"join_id": request.pk, "language": language, "name": name})),
        )
        enqueue_on_commit("games.notification_send", row.pk)
    return request


def join_hold(*, request: JoinRequest) -> Seat:
    """Hold a seat for a confirmed request: its address takes a vacant seat,
    and gets that seat's link as an invited player does. Holding twice gives
    the same seat."""
    with transaction.atomic():
        game = game_lock(request.game_id)
        request = JoinRequest.objects.select_for_update().get(pk=request.pk)
        if request.seat_id is not None:
            return Seat.objects.select_related("game").get(pk=request.seat_id)
        if request.confirmed_at is not None:
            raise ServiceError(_("You no longer hold a seat in this game."))
        if not JoinRequest.objects.filter(pk=request.pk, expires_at__gt=Now()).exists():
            raise ServiceError(_("This confirmation link has expired; ask to join the game again."))
        if not game.joinable:
            raise ServiceError(_("This game has no open seat any more."))
        if Seat.objects.filter(game=game, email=request.email).exists():
            raise ServiceError(_("That address already has a seat in this game."))
        seat = Seat.objects.filter(game=game, email="", computer="").order_by("position").first()
        if seat is None:
            raise ServiceError(_("This game has no open seat any more."))
        seat.email, seat.display_name, seat.language = request.email, request.display_name, game.language
        seat.joined_at = timezone.now()
        link_issue(seat)
        seat.save(update_fields=["email", "display_name", "language", "joined_at", "link_nonce", "token_hash"])
        game.open_seats -= 1
        Game.objects.filter(pk=game.pk).update(open_seats=game.open_seats)
        JoinRequest.objects.filter(pk=request.pk).update(confirmed_at=timezone.now(), seat=seat)
        host = Seat.objects.get(game=game, is_host=True)
        notification_queue(
            game=game, seat=seat, kind="invite", version=0, template="invite",
            context={"host": {"name": host.name}, "players": game.seats.count()},
        )
        seat.game = game
    return seat


def joined_remove(*, host: Seat, position: int) -> str:
    """The host frees the seat a stranger joined, before the start: it is
    open again and its link opens nothing. The removed player's name."""
    with transaction.atomic():
        game = game_lock(host.game_id)
        if not Seat.objects.filter(pk=host.pk, is_host=True).exists():
            raise ServiceError(_("Only the host can remove a player."))
        if game.status != Game.Status.INVITING:
            raise ServiceError(_("The game has started; nobody can be removed now."))
        seat = Seat.objects.filter(game=game, position=position, joined_at__isnull=False).first()
        if seat is None:
            raise ServiceError(_("Nobody who joined sits there."))
        name = seat.name
        JoinRequest.objects.filter(seat=seat).update(seat=None)
        seat.email = seat.display_name = ""
        seat.colour, seat.accepted_at, seat.joined_at = None, None, None
        link_issue(seat)
        seat.save(
            update_fields=["email", "display_name", "colour", "accepted_at", "joined_at", "link_nonce", "token_hash"]
        )
        Game.objects.filter(pk=game.pk).update(open_seats=game.open_seats + 1)
    return name
