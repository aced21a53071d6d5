"""What a player can do about being away, and asking for help."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.models import Absence, Game, HelpRequest, Seat

from .decisions import orders_apply_now, seat_back
from .errors import ServiceError
from .game_state import game_lock, load_state
from .timing import absence_days_left, reminder_lead


def _local_midnight(day: dt.date, zone: str) -> dt.datetime:
    # Midnight in the player's zone: a day across a clock change lasts 23 or
    # 25 hours, and the absence follows the calendar, as the player meant.
    return dt.datetime.combine(day, dt.time(0, 0), tzinfo=zoneinfo.ZoneInfo(zone))


def absence_declare(*, seat: Seat, first_day: dt.date, days: int, mode: str) -> Absence:
    """Away from the start of ``first_day`` (the player's own calendar) for
    ``days`` days. Deadlines that fall in it move past its end, or the
    autopilot plays for the seat meanwhile."""
    if mode not in Absence.Mode.values:
        raise ServiceError(_("Choose what should happen while you are away."))
    game = seat.game
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED, Game.Status.INVITING):
        raise ServiceError(_("This game has ended."))
    today = timezone.localtime(timezone.now(), zoneinfo.ZoneInfo(seat.time_zone)).date()
    if first_day < today or first_day > today + dt.timedelta(days=365):
        raise ServiceError(_("Start the absence today or on a later day within a year."))
    with transaction.atomic():
        game_lock(game.pk)
        left = absence_days_left(seat)
        if not 1 <= days <= left:
            raise ServiceError(
                ngettext(
                    "You have %(left)d day of absence left in this game.",
                    "You have %(left)d days of absence left in this game.",
                    left,
                )
                % {"left": left}
            )
        starts = _local_midnight(first_day, seat.time_zone)
        absence = Absence.objects.create(
            seat=seat,
            starts_at=max(starts, timezone.now()),
            ends_at=_local_midnight(first_day + dt.timedelta(days=days), seat.time_zone),
            days=days,
            mode=mode,
        )
        Seat.objects.filter(Q(away_until__isnull=True) | Q(away_until__lt=absence.ends_at), pk=seat.pk).update(
            away_until=absence.ends_at
        )
        seat.away_until = max(seat.away_until or absence.ends_at, absence.ends_at)
        _move_pending_deadline(seat, absence)
    if mode == Absence.Mode.AUTOPILOT and game.status == Game.Status.RUNNING:
        orders_apply_now(game_id=game.pk)
    return absence


def _move_pending_deadline(seat: Seat, absence: Absence) -> None:
    """If the seat is deciding now and its deadline falls in the absence, it
    moves to one decision time after the absence ends."""
    game = Game.objects.get(pk=seat.game_id)
    if game.state is None or game.deadline is None or absence.mode != Absence.Mode.EXTEND:
        return
    if engine.to_move(load_state(game)) != seat.position:
        return
    if absence.starts_at <= game.deadline:
        deadline = max(game.deadline, absence.ends_at + dt.timedelta(hours=game.decision_hours))
        Game.objects.filter(pk=game.pk, decision_version=game.decision_version).update(
            deadline=deadline, reminder_at=deadline - reminder_lead(game.decision_hours)
        )


def help_request_create(*, seat: Seat, message: str) -> HelpRequest:
    message = (message or "").strip()
    if not message:
        raise ServiceError(_("Write what the moderators should know."))
    return HelpRequest.objects.create(game=seat.game, seat=seat, message=message[:2000])


def seat_take_back(*, seat: Seat) -> None:
    """The player is back: their autopilot (if missed deadlines set it) is off."""
    seat_back(seat=seat)


def link_opened(*, seat: Seat) -> None:
    Seat.objects.filter(pk=seat.pk).update(link_opened_at=timezone.now())
