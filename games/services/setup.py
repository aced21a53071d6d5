"""Creating a game, inviting its players, and starting it once all accepted."""

from __future__ import annotations

import functools
import zoneinfo
from collections.abc import Sequence

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine
from games.models import DECISION_HOURS, Game, Notification, Seat
from games.randomness import commitment, new_seed

from .errors import ServiceError
from .game_state import game_lock
from .home import home_link_issue
from .links import LINKS_STATUSES, link_issue
from .names import name_clean
from .open_games import Opening, opening_apply, opening_check, vacant_seats
from .outbox import notification_queue
from .seat_settings import language_clean
from .starting import game_start_if_all_seated


def game_create(
    *,
    host_name: str,
    host_email: str,
    other_emails: list[str],
    decision_hours: int,
    ruleset_name: str,
    language: str | None = None,
    computers: Sequence[str] = (),
    opening: Opening | None = None,
) -> Game:
    """A game waiting for its players; every seat, the host's too, is mailed its
    link, in the host's ``language`` until each player chooses their own.
    ``computers`` are the levels of the computer players who fill the other
    seats; they sit down at once, so the people's acceptances start the game.
    ``opening`` leaves seats open for strangers (services.open_games)."""
    try:
        ruleset = engine.get_ruleset(ruleset_name)
    except KeyError:
        raise ServiceError(_("Unknown ruleset.")) from None
    host_name = name_clean(host_name)
    emails = [host_email.strip().lower()] + [e.strip().lower() for e in other_emails]
    if any(level not in Seat.Computer.values for level in computers):
        raise ServiceError(_("Choose computer players from the levels offered."))
    if opening is not None:
        opening_check(opening)
    open_count = opening.seats if opening is not None else 0
    if not ruleset.min_players <= len(emails) + len(computers) + open_count <= ruleset.max_players:
        counted = (
            _("A game has %(low)d to %(high)d players, the host, the computer players and the open seats included.")
            if open_count
            else _("A game has %(low)d to %(high)d players, the host and the computer players included.")
        )
        raise ServiceError(counted % {"low": ruleset.min_players, "high": ruleset.max_players})
    if len(set(emails)) != len(emails):
        raise ServiceError(_("Each player needs their own email address."))
    if decision_hours not in DECISION_HOURS:
        raise ServiceError(_("Choose one of the offered times per decision."))
    language = language_clean(language) if language else settings.LANGUAGE_CODE
    seed = new_seed()
    with transaction.atomic():
        game = Game.objects.create(
            ruleset_name=ruleset.name,
            ruleset=ruleset.to_json(),
            decision_hours=decision_hours,
            seed=seed,
            seed_commitment=commitment(seed),
            language=opening.language if opening is not None else language,
        )
        if opening is not None:
            opening_apply(game, opening)
        seats = []
        for position, email in enumerate(emails):
            seat = Seat(game=game, position=position, email=email, is_host=position == 0, language=language)
            if position == 0:
                seat.display_name = host_name
            link_issue(seat)
            seats.append(seat)
        seats += _computer_seats(game, ruleset, computers, first_position=len(seats), language=language)
        seats += vacant_seats(game, open_count, first_position=len(seats))
        Seat.objects.bulk_create(seats)
        host = seats[0]
        for seat in Seat.objects.filter(game=game).select_related("game"):
            notification_queue(
                game=game, seat=seat, kind="invite", version=0, template="invite",
                context={"host": {"name": host.name}, "players": len(seats)},
            )
    return game


def _computer_seats(
    game: Game, ruleset: engine.Ruleset, levels: Sequence[str], *, first_position: int, language: str
) -> list[Seat]:
    """Computer players, seated in the last colours of the ruleset, so the
    people choose from the usual ones. Each is named by its level and
    number in the language of whoever reads the name (Seat.name); the
    display name keeps the host's wording for the admin only."""
    colours = list(reversed(ruleset.colours))
    seats = []
    with translation.override(language):
        for index, level in enumerate(levels):
            number = levels[: index + 1].count(level)
            seat = Seat(
                game=game, position=first_position + index, email="", language=language, computer=level,
                computer_number=number, colour=colours[index], accepted_at=timezone.now(),
            )
            seat.display_name = seat.name
            link_issue(seat)
            seats.append(seat)
    return seats


@functools.cache
def _time_zones() -> frozenset[str]:
    # available_timezones() walks every file of the time zone database (about
    # 20 ms); the database does not change while the process runs.
    return frozenset(zoneinfo.available_timezones())


def seat_accept(*, seat: Seat, colour: str, display_name: str, time_zone: str, language: str | None = None) -> Seat:
    """Take a seat: colour, name, time zone and language. The last acceptance
    starts the game."""
    display_name = name_clean(display_name)
    if time_zone not in _time_zones():
        raise ServiceError(_("Choose a time zone from the list."))
    language = language_clean(language or seat.language)
    with transaction.atomic():
        # Locking the game row serialises the acceptances, so exactly one of
        # them sees every seat taken and starts the game.
        game = game_lock(seat.game_id)
        seat = Seat.objects.select_related("game").get(pk=seat.pk)
        if game.status != Game.Status.INVITING or seat.accepted_at is not None:
            raise ServiceError(_("You have already taken this seat."))
        if colour not in engine.Ruleset.from_json(game.ruleset).colours:
            raise ServiceError(_("Choose one of the colours offered."))
        if Seat.objects.filter(game=game, colour=colour).exists():
            raise ServiceError(_("Another player has just taken that colour; choose another."))
        seat.colour, seat.display_name, seat.time_zone = colour, display_name, time_zone
        seat.language = language
        seat.accepted_at = timezone.now()
        try:
            with transaction.atomic():
                seat.save(update_fields=["colour", "display_name", "time_zone", "language", "accepted_at"])
        except IntegrityError:
            raise ServiceError(_("Another player has just taken that colour; choose another.")) from None
        game_start_if_all_seated(game)
    return seat


def link_resend(*, email: str) -> bool:
    """One email to this address with a link to the page of all its games
    (a new one each time) and its seat link in every game not over, or none
    if it plays nowhere. Runs in a task: the page that asks answers the
    same, as fast, whether or not the address plays."""
    email = email.strip().lower()
    seats = list(Seat.objects.select_related("game").filter(email=email).order_by("-game__created_at", "pk"))
    if not seats:
        return False
    first = seats[0]
    with transaction.atomic():
        home = home_link_issue(email=email)
        earlier = Notification.objects.filter(seat=first, kind="links").count()
        # Only ids: the links are written by the sender (outbox._written).
        queued = notification_queue(
            game=first.game, seat=first, kind="links", version=earlier, template="links",
            context={"seat_ids": [seat.pk for seat in seats if seat.game.status in LINKS_STATUSES], "home_id": home.pk},
        )
    return queued is not None
